"""Two `judge serve` processes on one PostgreSQL database: one truth for permalinks, and the
same action sent at once through both gives one and the same new game."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

from bench._server import post_json as post, running_server
from judge.engine.scenario.templates import new_scenario
from judge.store import open_store

SCENARIO = new_scenario("two-player", title="Due server")


def get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            r.read()
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def test_two_servers_share_permalinks_and_agree_on_concurrent_actions(pg_url, tmp_path):
    env = {"JUDGE_DATABASE_URL": pg_url, "JUDGE_SECRET_KEY": "stessa-chiave"}
    # one instance folder (the search index), the scenarios in PostgreSQL
    with running_server(threads=8, instance=tmp_path, env=env) as a, \
            running_server(threads=8, instance=tmp_path, env=env) as b:
        status, made = post(f"{a.base}/api/scenari", {"format": "judge-partita", "version": 1,
                                                      "scenario": SCENARIO, "actions": []})
        assert status == 201
        game = made["id"]
        assert get(f"{b.base}/s/{game}") == 200               # made on A, opened on B
        assert get(f"{b.base}/api/scenari/{game}") == 200
        store = open_store(pg_url)
        before = store.totals()["documenti"]
        results: list[tuple[int, dict]] = []
        barrier = threading.Barrier(16)

        def act(server):
            barrier.wait()
            results.append(post(f"{server.base}/api/scenari/{game}/azioni", {"type": "step"}))

        threads = [threading.Thread(target=act, args=(s,)) for s in [a, b] * 8]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert [s for s, _ in results] == [201] * 16, results
        new_ids = {body["id"] for _, body in results}
        assert len(new_ids) == 1 and game not in new_ids
        assert store.totals()["documenti"] == before + 1
        (new,) = new_ids
        with store._tx(write=False) as tx:
            assert tx.one("SELECT count(*) FROM documenti WHERE id = ?", (new,))[0] == 1
        # each server opens the other's result, with the same events
        events = []
        for server in (a, b):
            with urllib.request.urlopen(f"{server.base}/api/scenari/{new}", timeout=60) as r:
                events.append(json.loads(r.read())["eventi"])
        assert events[0] == events[1] and events[0]
        store.close()
