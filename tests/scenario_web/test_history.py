"""Games opened from cached snapshots: the same states, events and permalinks as replaying
the whole document, a bounded number of engine operations per request, a cache that can be
damaged, deleted or outdated without changing any answer."""

from __future__ import annotations

import json
import shutil
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.engine.scenario.templates import new_scenario
from judge.web import create_app
from judge.web.simulator import history as hist
from judge.web.simulator import play

from .conftest import TOKEN_RE, bear


def board() -> dict:
    d = new_scenario("two-player", title="Storia")
    d["battlefield"] = [bear("p1"), bear("p2", "lupo", "Lupo", power=3, toughness=1)]
    d["players"][0]["hand"] = [{"id": f"h{i}", "name": f"Carta {i}", "types": []} for i in range(8)]
    return d


ACTIONS = st.sampled_from([
    {"type": "step"}, {"type": "step"}, {"type": "step"}, {"type": "next_turn"},
    {"type": "decide", "answer": None}, {"type": "undo"}, {"type": "undo"}, {"type": "redo"},
    {"type": "act", "name": "gain_life", "params": {"player": "p2", "amount": 3}},
    {"type": "act", "name": "deal_damage", "params": {"target": "orso", "amount": 1}},
    {"type": "act", "name": "draw", "params": {"player": "p1", "count": 2}},
    {"type": "act", "name": "trigger", "params": [{"controller": "p1", "text": "A"},
                                                  {"controller": "p2", "text": "B"}]},
    {"type": "act", "name": "tap", "params": {"object": "lupo"}},
])


def make(tmp_path, name, **config):
    app = create_app({"INSTANCE_PATH": str(tmp_path / name), "TESTING": True, "SECRET_KEY": "t",
                      **config})
    return app, app.test_client()


def run_script(client, script) -> tuple[str, list[str]]:
    """Apply a script through the API; refused actions (422) are skipped, like a user would."""
    r = client.post("/api/scenari", json={"format": "judge-partita", "version": 1, "scenario": board()})
    ident = r.get_json()["id"]
    seen = [ident]
    for a in script:
        r = client.post(f"/api/scenari/{ident}/azioni", json=a)
        assert r.status_code in (201, 422), r.get_data(as_text=True)[:500]
        if r.status_code == 201:
            ident = r.get_json()["id"]
            seen.append(ident)
    return ident, seen


def view(client, ident) -> dict:
    got = client.get(f"/api/scenari/{ident}").get_json()
    return {k: got[k] for k in ("documento", "stato", "eventi", "in_attesa", "risultato", "interrotta")}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(script=st.lists(ACTIONS, min_size=1, max_size=25))
def test_snapshots_change_nothing_a_user_sees(tmp_path_factory, script):
    tmp = tmp_path_factory.mktemp("h")
    _, cached = make(tmp, "cache")
    _, plain = make(tmp, "replay", SCENARIO_SNAPSHOTS=False)
    a, seen_a = run_script(cached, script)
    b, seen_b = run_script(plain, script)
    assert seen_a == seen_b                       # the same permalinks, step by step
    for ident in seen_a[-3:]:
        assert view(cached, ident) == view(plain, ident)
    # the stepper page is the same (but for each session's CSRF token)
    assert page(cached, a) == page(plain, b)


def page(client, ident) -> str:
    return TOKEN_RE.sub("", client.get(f"/s/{ident}").get_data(as_text=True))


def test_undo_and_redo_perform_no_engine_action(client, monkeypatch):
    r = client.post("/api/scenari", json={"format": "judge-partita", "version": 1, "scenario": board()})
    ident = r.get_json()["id"]
    for _ in range(40):
        ident = client.post(f"/api/scenari/{ident}/azioni", json={"type": "step"}).get_json()["id"]
        d = client.get(f"/api/scenari/{ident}").get_json()
        if d["in_attesa"]:
            ident = client.post(f"/api/scenari/{ident}/azioni",
                                json={"type": "decide", "answer": None}).get_json()["id"]
    calls = []
    real = play.perform
    monkeypatch.setattr(play, "perform", lambda g, a: calls.append(a) or real(g, a))
    undone = client.post(f"/api/scenari/{ident}/azioni", json={"type": "undo"}).get_json()["id"]
    assert calls == []                            # undo: the parent's snapshot, no replay
    redone = client.post(f"/api/scenari/{undone}/azioni", json={"type": "redo"}).get_json()["id"]
    assert redone == ident and len(calls) == 1    # redo: one action, as when it was first made
    client.get(f"/s/{ident}")
    assert len(calls) == 1                        # opening a page replays nothing


def test_old_games_replay_once_then_open_from_the_cache(tmp_path, monkeypatch):
    app, c = make(tmp_path, "a")
    ident, _ = run_script(c, [{"type": "step"}] * 3 + [{"type": "decide", "answer": None}] +
                          [{"type": "next_turn"}] * 2)
    before = view(c, ident)
    conn = sqlite3.connect(app.instance_path + "/scenari.sqlite3")
    conn.execute("DELETE FROM storia")               # as a database from before the cache
    conn.execute("DELETE FROM partite_storia")
    conn.commit()
    conn.close()
    calls = []
    real = play.perform
    monkeypatch.setattr(play, "perform", lambda g, a: calls.append(a) or real(g, a))
    assert view(c, ident) == before
    n = len(calls)
    assert n == len(before["documento"]["actions"]) >= 4     # replayed from the start, once
    assert view(c, ident) == before and len(calls) == n


def test_damaged_or_foreign_snapshots_are_not_used(tmp_path):
    app, c = make(tmp_path, "a")
    ident, _ = run_script(c, [{"type": "step"}] * 4)
    before = view(c, ident)
    conn = sqlite3.connect(app.instance_path + "/scenari.sqlite3")
    import pickle
    import zlib
    evil = pickle.dumps(print)
    conn.execute("UPDATE storia SET stato = ?, sha256 = ?", (zlib.compress(evil), __import__("hashlib").sha256(evil).hexdigest()))
    conn.commit()
    assert view(c, ident) == before                  # refused by the loader: replayed instead
    conn.execute("UPDATE storia SET stato = ?", (zlib.compress(b"rotto"),))
    conn.commit()
    conn.close()
    assert view(c, ident) == before                  # hash mismatch: replayed instead
    assert c.get(f"/s/{ident}").status_code == 200


def test_a_new_engine_build_does_not_read_old_snapshots(tmp_path, monkeypatch):
    app, c = make(tmp_path, "a")
    ident, _ = run_script(c, [{"type": "step"}] * 3)
    before = view(c, ident)
    monkeypatch.setattr(hist, "ENGINE", "altra-versione")
    calls = []
    real = play.perform
    monkeypatch.setattr(play, "perform", lambda g, a: calls.append(a) or real(g, a))
    assert view(c, ident) == before and len(calls) == 3
    conn = sqlite3.connect(app.instance_path + "/scenari.sqlite3")
    assert {r[0] for r in conn.execute("SELECT motore FROM partite_storia")} >= {"altra-versione"}


def test_log_on_the_page_is_bounded_and_complete_on_request(client, token):
    ident, _ = run_script(client, [{"type": "next_turn"}, {"type": "decide", "answer": None}] * 25)
    html = client.get(f"/s/{ident}").get_data(as_text=True)
    shown = html.count('<li class="sc-ev')
    total = len(client.get(f"/api/scenari/{ident}").get_json()["eventi"])
    assert hist.LOG_EVENTS <= shown < total
    assert "registro=completo" in html
    full = client.get(f"/s/{ident}?registro=completo").get_data(as_text=True)
    assert full.count('<li class="sc-ev') == total
    md = client.get(f"/s/{ident}/registro.md").get_data(as_text=True)
    assert md.count("\n- ") >= total


def _as_then(d):
    """A state exported today as the code of ed93c5c exported it: the format has since added
    which object each card is (``incarnation``, 400.7), and nothing else."""
    if isinstance(d, dict):
        return {k: _as_then(v) for k, v in d.items() if k != "incarnation"}
    if isinstance(d, list):
        return [_as_then(x) for x in d]
    return d


def test_old_permalinks_still_open(tmp_path):
    """Permalinks saved by the code of ed93c5c (data/) show the same state and log today (the log's
    sentences as today's engine writes them: «assegna 2 danni a», issue 37)."""
    from pathlib import Path
    data = Path(__file__).parent / "data"
    inst = tmp_path / "old"
    inst.mkdir()
    shutil.copy(data / "permalinks-ed93c5c.sqlite3", inst / "scenari.sqlite3")
    then = json.loads((data / "permalinks-ed93c5c.json").read_text(encoding="utf-8"))
    app, c = make(tmp_path, "old")
    assert c.get(then["bozza"]).status_code == 200
    for name, old in then["partite"].items():
        r = c.get(old["url"])
        assert r.status_code == 200, name
        html = r.get_data(as_text=True)
        import re
        body = html.split('class="sc-log-body"', 1)[1]
        entries = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", x)).strip()
                   for x in re.findall(r'<li class="sc-ev[^"]*">(.*?)</li>', body, re.S)]
        assert entries == old["registro"], name
        assert _as_then(json.loads(c.get(old["url"] + "/scenario.json").data)) == old["stato"], name
        ident = old["url"].rsplit("/", 1)[1]
        assert c.get(f"/api/scenari/{ident}").get_json()["eventi"] == old["eventi"], name
    # and they go on: a step from an old permalink, undo back to it
    g = then["partite"]["turno2"]["url"].rsplit("/", 1)[1]
    r = c.post(f"/api/scenari/{g}/azioni", json={"type": "step"})
    assert r.status_code == 201
    back = c.post(f"/api/scenari/{r.get_json()['id']}/azioni", json={"type": "undo"}).get_json()
    assert _as_then(back["stato"]) == then["partite"]["turno2"]["stato"]
