"""Pages, API and CLI that follow rules across editions: /modifiche with moves, a rule's
history across numbers, a rule read in an older edition, the linker with an edition, the
Italian citations that moved."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner
from markupsafe import escape

from judge.cli import main
from judge.corpus.diff import count_changes, diff_editions

from .htmlcheck import check_html, page

OLD, NEW = "20251114", "20260619"
IN_FORCE = "20260925"


def token(client):
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/collega").get_data(as_text=True))[1]


# -- /modifiche, /api/modifiche, judge diff ----------------------------------------------------


def all_parts(client, path: str) -> str:
    """A list of changes cut into parts (judge/web/parts.py), read whole: every part joined."""
    first = page(client, path)
    count = max(map(int, re.findall(r'\?parte=(\d+)', first)), default=1)  # the last part's link
    return first + "".join(page(client, f"{path}?parte={n}") for n in range(2, count + 1))


def test_modifiche_shows_the_shift_as_moves(client, corpus):
    body = all_parts(client, f"/modifiche/{OLD}..{NEW}")
    expected = diff_editions(corpus.edition(OLD), corpus.edition(NEW))
    counts = count_changes(expected)
    assert counts["modificata"] <= 66 and counts["spostata"] >= 96
    # 727.1 is listed as moved from 726.1, with a link to the old text.
    item = re.search(r'<li id="r-727\.1".*?</li>', body, re.S)[0]
    assert "Spostata" in item and f'href="/regole/726.1?edizione={OLD}"' in item
    # 104.6 is a modification that only follows the renumbering.
    item = re.search(r'<li id="r-104\.6".*?</li>', body, re.S)[0]
    assert "solo rinvii rinumerati" in item and "<del>726," in item and "<ins>727," in item
    # Sections: 722 added, 722–732 moved.
    assert re.search(r'id="s-722".*?Aggiunta.*?Preparation Cards', body, re.S)
    assert re.search(r'id="s-733".*?\(era 732\)', body, re.S)
    # A removed rule keeps its old number as anchor, beside the new rule with that number.
    assert 'id="era-702.124k"' in body and 'id="r-702.124k"' in body


def test_api_modifiche_kinds_and_old_numbers(client, corpus):
    data = client.get(f"/api/modifiche/{OLD}..{NEW}").get_json()
    kinds = {c["kind"] for c in data["changes"]}
    assert kinds == {"aggiunta", "rimossa", "modificata", "spostata", "spostata e modificata"}
    assert data["counts"] == count_changes(diff_editions(corpus.edition(OLD), corpus.edition(NEW)))
    by_number = {c["number"]: c for c in data["changes"] if c["kind"] != "rimossa"}
    assert by_number["727.1"]["old_number"] == "726.1" and by_number["727.1"]["kind"] == "spostata"
    assert by_number["104.6"]["renumbering_only"] is True
    assert data["renumbering_only"] == sum(1 for c in data["changes"] if c["renumbering_only"])
    assert {"number": "722", "kind": "aggiunta", "level": "sezione", "old_number": None, "old_title": None,
            "new_title": "Preparation Cards"} in data["headings"]
    moved = [c for c in data["changes"] if c["kind"] in ("spostata", "spostata e modificata")]
    assert all(c["old_number"] and c["old_number"] != c["number"] for c in moved)


def test_judge_diff_counts_every_kind():
    res = CliRunner().invoke(main, ["diff", OLD, NEW, "--sezione", "727"])
    assert res.exit_code == 0, res.output
    assert "> 727.1 (era 726.1) (spostata)" in res.output
    assert "> sezione 727 (era 726) (spostata): Restarting the Game" in res.output
    assert re.search(r"\d+ spostate,", res.output)
    data = json.loads(CliRunner().invoke(main, ["diff", OLD, NEW, "--json"]).output)
    assert data["counts"]["spostata"] >= 96 and data["counts"]["modificata"] <= 66


# -- history and older editions ---------------------------------------------------------------


def test_history_of_727_1_shows_726_1(client):
    body = page(client, "/regole/727.1/storia")
    assert f'<a href="/regole/726.1?edizione={OLD}">726.1</a>' in body
    assert "Spostata: era 726.1" in body
    # In 20251114 the number 727.1 meant Rad Counters, today 728.1.
    assert 'href="/regole/728.1"' in body and "indicava un'altra regola" in body


def test_rule_in_an_older_edition(client, corpus):
    body = page(client, f"/regole/726.1?edizione={OLD}")
    assert "Karn Liberated" in body  # Restarting the Game, as it was numbered then
    assert "726.1 nell&#39;edizione del 14 novembre 2025 è oggi 727.1." in body
    assert 'href="/regole/727.1"' in body
    body = page(client, f"/regole/729.2j?edizione={OLD}")
    assert "<ins>" in body and "730.2j" in body
    body = page(client, f"/regole/702.124k?edizione={OLD}")
    assert "non esiste più" in body
    # A number that exists only in the older edition: the 404 says where the rule is today.
    body = page(client, "/regole/702.124p", 404)
    assert "è oggi 702.124n" in body and 'href="/regole/702.124n"' in body
    assert f'href="/regole/702.124p?edizione={OLD}"' in body
    # Today's page of 726.1 says what the number meant before.
    body = page(client, "/regole/726.1")
    assert f'href="/regole/725.1?edizione={OLD}"' in body and 'href="/regole/727.1"' in body


@pytest.mark.parametrize("url,status", [
    (f"/regole/999.9?edizione={OLD}", 404), ("/regole/726.1?edizione=19990101", 404),
    ("/regole/726.1?edizione=<script>", 400), (f"/regole/<b>?edizione={OLD}", 404),
])
def test_older_edition_bad_input(client, url, status):
    r = client.get(url)
    assert r.status_code == status
    body = r.get_data(as_text=True)
    assert "<script>" not in body.split("</head>")[1].replace('<script src="/static/js/site.js" defer></script>', "")
    assert check_html(body) == []


def test_older_edition_forgiving_address(client):
    r = client.get(f"/regole/7261?edizione={OLD}")
    assert r.status_code == 301 and r.headers["Location"] == f"/regole/726.1?edizione={OLD}"
    assert client.get(f"/regole/726.1?edizione={NEW}").status_code == 200  # the edition in force: today's page


def test_api_rule_in_an_older_edition(client):
    data = client.get(f"/api/regole/726.1?edizione={OLD}").get_json()
    assert data["now"] == "727.1" and data["status"] == "spostata" and data["edition"]["id"] == OLD
    assert data["text"].startswith("One card (Karn Liberated)") and data["now_url"].endswith("/regole/727.1")
    assert client.get(f"/api/regole/999.9?edizione={OLD}").status_code == 404


# -- the linker with an edition ----------------------------------------------------------------


def test_collega_with_an_edition_links_to_the_number_today(client):
    body = page(client, f"/collega?edizione={OLD}&testo=Vedi la regola 726.1 e la 702.124k.")
    assert re.search(r'<a class="cit cit-spostata" href="/regole/727\.1" title="726\.1 nell&#39;edizione del 14 '
                     r'novembre 2025 è oggi 727\.1\.">726\.1<span class="ora"> → oggi 727\.1</span></a>', body)
    assert f'href="/regole/702.124k?edizione={OLD}"' in body and "non esiste più" in body
    assert "Cambiamenti di numerazione" in body
    assert f'<option value="{OLD}" selected>' in body
    # The same text read in the edition in force links today's 726.1, with a word on what it meant.
    body = page(client, "/collega?testo=Vedi la regola 726.1.")
    assert '<a class="cit" href="/regole/726.1"' in body
    # The last edition where it meant another rule, and since when it means today's.
    assert ("726.1 nell&#39;edizione del 27 febbraio 2026 indicava un&#39;altra regola (oggi 727.1): "
            "se il testo è stato scritto prima del 17 aprile 2026, indica quell&#39;edizione.") in body


def test_collega_form_posts_the_edition(client):
    r = client.post("/collega", data={"testo": "CR 726.1", "edizione": OLD, "csrf_token": token(client)})
    assert r.status_code == 200 and 'href="/regole/727.1"' in r.get_data(as_text=True)
    r = client.post("/collega", data={"testo": "CR 726.1", "edizione": "nonsense", "csrf_token": token(client)})
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and "sconosciuta" in body and "CR 726.1" in body  # the text is not lost


def test_api_collega_with_an_edition(client):
    data = client.post("/api/collega", json={"text": "rule 726.1 and 704.5a", "edition": OLD}).get_json()
    first, second = data["spans"]
    assert first["numbers"][0]["now"] == "727.1" and first["url"].endswith("/regole/727.1")
    assert first["numbers"][0]["status"] == "spostata" and "è oggi 727.1" in first["numbers"][0]["notice"]
    assert second["numbers"][0]["status"] == "invariata" and second["numbers"][0]["notice"] is None
    assert data["edition"]["id"] == OLD and data["notices"] == [first["numbers"][0]["notice"]]
    data = client.post("/api/collega", json={"text": "rule 726.1 and 704.5a"}).get_json()
    assert data["spans"][0]["numbers"][0]["now"] == "726.1" and data["edition"]["id"] == IN_FORCE
    assert len(data["notices"]) == 1 and "indicava un'altra regola (oggi 727.1)" in data["notices"][0]
    assert client.post("/api/collega", json={"text": "x", "edition": "1999"}).status_code == 400
    assert client.post("/api/collega", json={"text": "x", "edition": 5}).status_code == 400
    r = client.post(f"/api/collega?edizione={OLD}", data="CR 726.1", content_type="text/plain")
    assert r.get_json()["spans"][0]["numbers"][0]["now"] == "727.1"


def test_judge_collega_cli():
    res = CliRunner().invoke(main, ["collega", "--edizione", OLD], input="Vedi 726.1 e 704.5a.")
    assert res.exit_code == 0, res.output
    assert "726.1 → 727.1 (spostata): 726.1 nell'edizione del 14 novembre 2025 è oggi 727.1." in res.output
    res = CliRunner().invoke(main, ["collega", "--edizione", OLD, "--json"], input="702.124k")
    data = json.loads(res.output)
    assert data["spans"][0]["numbers"][0]["status"] == "rimossa" and res.exit_code == 1
    res = CliRunner().invoke(main, ["collega", "--edizione", "1999"], input="x")
    assert res.exit_code == 1 and "non trovata" in res.output


# -- Italian citations that moved -------------------------------------------------------------


def test_italian_citation_of_a_moved_rule_links_where_it_is_now(client):
    body = page(client, "/regole/121.8")
    # The Italian text cites 730 ("Gestione delle azioni illegali"), which is 733 today.
    assert re.search(r'<a class="cit cit-obsoleta" href="/regole/733" title="[^"]*oggi 733">730</a>', body)


def test_507_2_warning_tells_the_truth(client):
    body = page(client, "/regole/507.2")
    assert "descrive una versione superata" in body
    assert "probabilmente la numerazione" not in body
    assert "cit-obsoleta" not in body.split('id="r-')[0]  # its citation of 603 is right for its own text
    data = client.get("/api/regole/507.2").get_json()
    assert [w["code"] for w in data["warnings"]] == ["italiano-superato"]
    assert str(escape("603")) in data["warnings"][0]["message"]


def test_a_rule_page_says_its_numbering_history_in_one_sentence(client):
    """727.1 was 726.1 until 27 February 2026, when 727.1 was Rad Counters (today 728.1): one sentence,
    the links, and the history for the rest (issue 37: the rule's text stays on a phone's first screen)."""
    body = page(client, "/regole/727.1")
    assert body.count('class="numerazione-precedente"') == 1
    sentence = re.search(r'<p class="numerazione-precedente">(.*?)</p>', body, re.S).group(1)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", sentence)).strip()
    assert text.startswith("Dal 14 novembre 2025 al 27 febbraio 2026 questa regola era 726.1; il numero 727.1 "
                           "indicava un'altra regola, oggi 728.1"), text
    assert 'href="/regole/726.1?edizione=20251114"' in sentence and 'href="/regole/728.1"' in sentence
    assert 'href="/regole/727.1/storia">Storia della numerazione</a>' in sentence
    # A new rule whose number other rules had before it.
    body = page(client, "/regole/310.8")
    sentence = re.search(r'<p class="numerazione-precedente">(.*?)</p>', body, re.S).group(1)
    assert "questa regola non c&#39;era; il numero 310.8 indicava" in sentence or "questa regola non c'era; il numero 310.8 indicava" in sentence
