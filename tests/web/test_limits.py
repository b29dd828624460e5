"""Per-client rate limits: writes and expensive reads answer 429 with Retry-After and an Italian
message past the budget; nothing is saved; other clients are not affected; behind a trusted
proxy the client is the one the proxy names, and nobody else can choose their address."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from judge.engine.scenario.templates import new_scenario
from judge.web import create_app
from judge.web.limits import Buckets, Rate, parse_rate
from judge.web.serve_cli import make_server
from tests.in_thread import serving


@pytest.fixture()
def app(tmp_path):
    return create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                       "RATE_LIMITS": {"scritture": "3/ora", "ricerche": "5/ora"}})


def save(client, n: int, addr: str = "10.0.0.1"):
    return client.post("/api/scenari", json=new_scenario("two-player", title=f"Prova {n}"),
                       environ_base={"REMOTE_ADDR": addr})


def test_writes_past_the_budget_get_429_with_retry_after_and_nothing_is_saved(app):
    client = app.test_client()
    assert [save(client, i).status_code for i in range(3)] == [201, 201, 201]
    from judge.web.simulator.store import store_for

    count = store_for(app).count()
    r = save(client, 99)
    assert r.status_code == 429
    assert 1000 <= int(r.headers["Retry-After"]) <= 1200
    message = r.get_json()["error"]["message"]
    assert "Troppe richieste" in message and "3 salvataggi all'ora" in message and "Riprova tra 20 minuti" in message
    assert store_for(app).count() == count
    assert save(client, 100, addr="10.0.0.2").status_code == 201      # another client


def test_searches_past_the_budget_get_an_italian_page(app):
    client = app.test_client()
    for i in range(5):
        assert client.get(f"/cerca?q=mana+{i}").status_code == 200
    r = client.get("/cerca?q=pila")
    assert r.status_code == 429 and r.headers["Retry-After"]
    page = r.get_data(as_text=True)
    assert 'lang="it"' in page and "Troppe richieste" in page
    assert client.post("/api/collega", json={"text": "vedi 704.5a"}).status_code == 429   # same budget
    assert client.get("/regole/704.5a").status_code == 200          # rule pages are not limited


def test_a_form_action_counts_as_a_write(app):
    client = app.test_client()
    page = client.get("/simulatore").get_data(as_text=True)
    token = page.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    codes = [client.post("/simulatore/nuovo", data={"csrf_token": token, "variant": "two-player"}).status_code
             for _ in range(4)]
    assert codes == [303, 303, 303, 429]


def test_buckets_refill_and_stay_bounded():
    now = [0.0]
    b = Buckets(Rate(2, 60.0), clock=lambda: now[0])
    assert b.take("a") == 0 and b.take("a") == 0
    assert b.take("a") == pytest.approx(30.0)
    now[0] += 30
    assert b.take("a") == 0
    assert parse_rate("0") is None and parse_rate("60/min") == Rate(60, 60.0)
    with pytest.raises(ValueError, match="limite non valido"):
        parse_rate("tanti")




def _post(port: int, forwarded: str) -> int:
    req = urllib.request.Request(f"http://127.0.0.1:{port}/api/scenari",
                                 data=json.dumps(new_scenario("two-player")).encode(),
                                 headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.mark.parametrize("trusted", ["127.0.0.1", None])
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget(tmp_path, trusted):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                      "RATE_LIMITS": {"scritture": "2/ora"}})
    with serving(make_server(app, host="127.0.0.1", port=0, threads=2, trusted_proxy=trusted)) as server:
        port = int(server.effective_port)
        first = [_post(port, "203.0.113.7") for _ in range(3)]
        other = _post(port, "203.0.113.8")
    assert first == [201, 201, 429]
    # trusted: another client behind the proxy; untrusted: the header is dropped, same client
    assert other == (201 if trusted else 429)


# -- the bytes a client adds to the store (issue 38) -------------------------------------------

def _big_scenario(n: int) -> dict:
    import random

    rng = random.Random(n)
    scenario = new_scenario("two-player", title=f"Prova {n}")
    scenario["players"][0]["name"] = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(60))
    return scenario


def test_a_client_past_its_bytes_an_hour_may_read_but_not_save(tmp_path):
    from judge.web.simulator.store import store_for

    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                      "RATE_LIMITS": {"scritture": "1000/min", "ricerche": "0", "byte": "8KB/ora"}})
    client = app.test_client()
    codes, made = [], []
    for i in range(60):
        r = client.post("/api/scenari", json=_big_scenario(i), environ_base={"REMOTE_ADDR": "10.0.0.1"})
        codes.append(r.status_code)
        if r.status_code == 201:
            made.append(r.get_json()["id"])
        else:
            break
    assert codes[-1] == 429 and 5 <= len(made) < 60, codes
    added = store_for(app).totals()["byte"]
    assert 8 * 1024 <= added <= 8 * 1024 + 2048            # the budget, and one save past it
    message = r.get_json()["error"]["message"]
    assert "8 KB all'ora" in message and "Troppi dati salvati" in message
    assert 1 <= int(r.headers["Retry-After"]) <= 3600
    assert client.get(f"/api/scenari/{made[0]}", environ_base={"REMOTE_ADDR": "10.0.0.1"}).status_code == 200
    other = client.post("/api/scenari", json=_big_scenario(999), environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert other.status_code == 201


def test_saving_the_same_document_again_costs_no_bytes(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                      "RATE_LIMITS": {"scritture": "1000/min", "byte": "4KB/ora"}})
    client = app.test_client()
    codes = {client.post("/api/scenari", json=_big_scenario(1)).status_code for _ in range(40)}
    assert codes == {201}


@pytest.mark.parametrize("seconds, words", [
    (0.2, "1 secondo"), (1, "1 secondo"), (1.5, "2 secondi"), (59, "59 secondi"), (119, "119 secondi"),
    (120, "2 minuti"), (121, "3 minuti"), (3600, "60 minuti"), (7200, "2 ore"), (3 * 3600 + 1, "4 ore"),
])
def test_waits_are_said_in_italian_with_the_noun_agreeing(seconds, words):
    from judge.web.limits import wait_words

    assert wait_words(seconds) == words


def test_budgets_are_said_in_italian():
    assert Rate(1, 60.0).describe("scritture") == "1 salvataggio al minuto"
    assert Rate(60, 60.0).describe("scritture") == "60 salvataggi al minuto"
    assert Rate(1, 1.0).describe("ricerche") == "1 ricerca o collegamento di citazioni al secondo"
    assert parse_rate("20MB/ora") == Rate(20 * 1024 * 1024, 3600.0)
    assert Rate(20 * 1024 * 1024, 3600.0).describe("byte") == "20 MB all'ora"
    assert parse_rate("512 kb / min").describe("byte") == "512 KB al minuto"


def test_a_429_a_second_from_the_next_says_one_second(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                      "RATE_LIMITS": {"ricerche": "1/s"}})
    client = app.test_client()
    assert client.get("/api/cerca?q=pila").status_code == 200
    r = client.get("/api/cerca?q=mana")
    assert r.status_code == 429 and r.headers["Retry-After"] == "1"
    assert r.get_json()["error"]["message"].endswith("Riprova tra 1 secondo.")
    assert "1 ricerca o collegamento di citazioni al secondo" in r.get_json()["error"]["message"]


def test_no_message_puts_a_count_before_a_plural_noun_without_agreeing():
    """«Riprova tra 1 secondi» (issue 38): a count and «secondi/minuti/ore» are written through
    wait_words or plural, never side by side in an f-string."""
    import re

    from judge import ROOT

    pattern = re.compile(r"\{[^{}]+\} (secondi|minuti|ore|giorni)\b")
    found = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "judge").rglob("*.py")
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert not found, found
