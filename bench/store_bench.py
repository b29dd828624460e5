"""The scenario store on SQLite and on PostgreSQL, measured in one run, as ratios to SQLite:

* writes per second: saves of distinct scenarios through the store, from 8 threads;
* p99 of an action under a write flood: one client steps a game through the JSON API of
  `judge serve` while 6 others save new scenarios as fast as they can;
* store bytes per game: what one saved action of a game adds to the store (its document and
  its history row), counted by the store and on disk.

    .venv/bin/python bench/store_bench.py [--secondi 10]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402
from bench._server import post_json as post, running_server  # noqa: E402
from judge.engine.scenario.templates import new_scenario  # noqa: E402
from judge.store import Policy, open_store  # noqa: E402


def writes_per_second(where: str, seconds: float) -> float:
    store = open_store(where, policy=Policy(quota=0), pool_size=10)
    stop = time.monotonic() + seconds
    done = [0] * 8

    def writer(k: int) -> None:
        i = 0
        while time.monotonic() < stop:
            store.save(new_scenario("two-player", title=f"bench {k}-{i}"), "scenario")
            i += 1
        done[k] = i

    started = time.monotonic()
    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    store.close()
    return sum(done) / (time.monotonic() - started)


def under_flood(env: dict, seconds: float) -> dict:
    """p99 of a game action while 6 clients flood saves; bytes per game action."""
    with tempfile.TemporaryDirectory() as tmp, running_server(threads=8, instance=Path(tmp), env=env) as server:
        api = f"{server.base}/api/scenari"
        status, made = post(api, {"format": "judge-partita", "version": 1,
                                  "scenario": new_scenario("two-player", title="bench"), "actions": []})
        assert status == 201
        game = made["id"]
        health = lambda: json.loads(urllib.request.urlopen(f"{server.base}/salute").read())["archivio"]  # noqa: E731
        stop = time.monotonic() + seconds
        flood_done = [0] * 6

        def flood(k: int) -> None:
            i = 0
            while time.monotonic() < stop:
                post(api, new_scenario("two-player", title=f"flood {k}-{i}"))
                i += 1
            flood_done[k] = i

        floods = [threading.Thread(target=flood, args=(k,)) for k in range(6)]
        [t.start() for t in floods]
        latencies = []
        while time.monotonic() < stop:
            t0 = time.perf_counter()
            status, made = post(f"{api}/{game}/azioni", {"type": "step"})
            latencies.append(time.perf_counter() - t0)
            assert status == 201
            game = made["id"]
        [t.join() for t in floods]
        latencies.sort()
        # bytes per game action, without the flood
        before = health()
        n = 40
        for _ in range(n):
            status, made = post(f"{api}/{game}/azioni", {"type": "step"})
            game = made["id"]
        time.sleep(5.5)                         # /salute reads the totals every 5 s
        after = health()
        return {"p99_ms": 1000 * latencies[int(len(latencies) * 0.99)], "azioni": len(latencies),
                "flood_req_s": sum(flood_done) / seconds,
                "byte_per_azione": (after["byte"] - before["byte"]) / n}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--secondi", type=float, default=10)
    args = ap.parse_args()
    results = {}
    with _postgres.cluster() as cluster, tempfile.TemporaryDirectory() as tmp:
        backends = {"sqlite": (str(Path(tmp) / "w.sqlite3"), {}),
                    "postgresql": (cluster.create_database("w"), None)}
        for name, (where, _) in backends.items():
            results[name] = {"scritture_s": writes_per_second(where, args.secondi)}
        for name in backends:
            env = {"JUDGE_DATABASE_URL": cluster.create_database("h")} if name == "postgresql" else {}
            results[name].update(under_flood(env, args.secondi))
    base = results["sqlite"]
    print(f"{'':12}{'scritture/s':>14}{'p99 azione (ms)':>18}{'byte/azione':>14}")
    for name, r in results.items():
        print(f"{name:12}{r['scritture_s']:>14.0f}{r['p99_ms']:>18.0f}{r['byte_per_azione']:>14.0f}"
              f"   rapporti: scritture {r['scritture_s'] / base['scritture_s']:.2f}, "
              f"p99 {r['p99_ms'] / base['p99_ms']:.2f}, byte {r['byte_per_azione'] / base['byte_per_azione']:.2f}"
              f"  (flood {r['flood_req_s']:.0f} req/s, {r['azioni']} azioni misurate)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
