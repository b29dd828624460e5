"""Benchmark of the simulator's history: the cost of one step after 1 and after 1,000 actions.

The board of issue 13: four players, 40 permanents, libraries of 60 cards.  The games are
played by the engine here (each action: a step, or the default answer to a pending decision),
saved through the JSON API of a real `judge serve` (waitress, in a subprocess), and then one
more action is timed through ``POST /api/scenari/<id>/azioni`` — the request the issue measured
— and through the HTML stepper (``POST /s/<id>`` → 303 → ``GET /s/<id>``).

Run:  .venv/bin/python bench/history_bench.py [--repeat N]
Prints the costs in milliseconds (median of N) and their ratios, all measured in this run.
It is not a timed test.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._server import running_server  # noqa: E402
from judge.engine import Game  # noqa: E402

LONG = 1000          # the web's limit of actions in one game


def board() -> dict:
    pids = ["p1", "p2", "p3", "p4"]
    players = [{"id": p, "name": name,
                "library": [{"id": f"{p}-l{j}", "name": "Isola", "types": ["land"]} for j in range(60)]}
               for p, name in zip(pids, ("Alice", "Bruno", "Carla", "Dario"))]
    bf = []
    for i in range(40):
        ctl = pids[i % 4]
        k = i % 10
        if k < 4:
            bf.append({"id": f"c{i}", "name": f"Creatura {i}", "types": ["creature"], "power": 2,
                       "toughness": 3, "controller": ctl})
        elif k < 8:
            bf.append({"id": f"c{i}", "name": "Foresta", "types": ["land"], "controller": ctl})
        elif k == 8:
            bf.append({"id": f"c{i}", "name": "Manufatto", "types": ["artifact"], "controller": ctl,
                       "counters": {"charge": 1}})
        else:
            bf.append({"id": f"c{i}", "name": "Incantesimo", "types": ["enchantment"], "controller": ctl})
    return {"format": "judge-scenario", "version": 1, "title": "Banco di prova: 4 giocatori, 40 permanenti",
            "variant": "free-for-all", "players": players, "battlefield": bf,
            "turn": {"number": 1, "active_player": "p1", "step": "upkeep"}}


def played_actions(n: int) -> list[dict]:
    """``n`` actions of a real game: a step, or the default answer when a decision is pending."""
    g = Game.from_dict(board())
    out: list[dict] = []
    while len(out) < n:
        if g.pending is not None:
            g.decide(None)
            out.append({"type": "decide", "answer": None})
        else:
            g.step()
            out.append({"type": "step"})
    assert g.result is None
    return out


class Client:
    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.cookie = ""

    def request(self, method: str, path: str, body: bytes | None = None,
                ctype: str = "application/json") -> tuple[int, dict, bytes]:
        headers = {"Content-Type": ctype} if body is not None else {}
        if self.cookie:
            headers["Cookie"] = self.cookie
        self.conn.request(method, path, body=body, headers=headers)
        r = self.conn.getresponse()
        data = r.read()
        if r.getheader("Set-Cookie"):
            self.cookie = r.getheader("Set-Cookie").split(";", 1)[0]
        return r.status, dict(r.getheaders()), data

    def save(self, doc: dict) -> str:
        status, _, data = self.request("POST", "/api/scenari", json.dumps(doc).encode())
        assert status == 201, data[:500]
        return json.loads(data)["id"]

    def act(self, ident: str, action: dict) -> str:
        """One action; the time is the server's (until the answer is read), so the new id
        is taken from the start of the answer instead of decoding all of it."""
        status, _, data = self.request("POST", f"/api/scenari/{ident}/azioni", json.dumps(action).encode())
        assert status == 201, data[:500]
        return re.match(rb'\{"id": "([a-z2-7]+)"', data).group(1).decode()


def game_doc(actions: list[dict]) -> dict:
    return {"format": "judge-partita", "version": 1, "scenario": board(), "actions": actions, "redo": []}


def interleaved(cases: dict[int, object], repeat: int) -> dict[int, float]:
    """Median time of each case, the cases taking turns in every round, so that a busy
    machine slows them alike and the ratio stays honest."""
    times: dict[int, list[float]] = {n: [] for n in cases}
    for _ in range(repeat):
        for n, fn in cases.items():
            t = time.perf_counter()
            fn()
            times[n].append(time.perf_counter() - t)
    return {n: statistics.median(ts) for n, ts in times.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=31)
    args = ap.parse_args()
    acts = played_actions(LONG)
    sizes = (1, LONG - 1)
    with running_server(threads=4) as srv:
        c = Client(srv.port)
        _, _, page = c.request("GET", "/simulatore")
        token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        ids, after, undone, first = {}, {}, {}, {}
        for n in sizes:
            t = time.perf_counter()
            ids[n] = c.save(game_doc(acts[:n]))      # import: the whole game is replayed once
            first[n] = time.perf_counter() - t
            after[n] = c.act(ids[n], acts[n])
            undone[n] = c.act(after[n], {"type": "undo"})

        def html_step(n):
            form = f"csrf_token={token}&azione=" + ("predefinita" if acts[n]["type"] == "decide" else "passo")
            status, headers, _ = c.request("POST", f"/s/{ids[n]}", form.encode(),
                                           "application/x-www-form-urlencoded")
            assert status == 303, status
            status, _, _ = c.request("GET", headers["Location"])
            assert status == 200

        api = interleaved({n: (lambda n=n: c.act(ids[n], acts[n])) for n in sizes}, args.repeat)
        html = interleaved({n: (lambda n=n: html_step(n)) for n in sizes}, args.repeat)
        undo = interleaved({n: (lambda n=n: c.act(after[n], {"type": "undo"})) for n in sizes}, args.repeat)
        redo = interleaved({n: (lambda n=n: c.act(undone[n], {"type": "redo"})) for n in sizes}, args.repeat)
    print(f"Tavolo: 4 giocatori, 40 permanenti, grimori da 60 carte; mediana di {args.repeat} "
          "richieste, alternando le due partite.")
    print(f"{'azioni prima':>12} {'import (ms)':>12} {'passo API (ms)':>15} {'passo HTML (ms)':>16} "
          f"{'annulla (ms)':>13} {'ripeti (ms)':>12}")
    for n in sizes:
        print(f"{n:>12} {first[n] * 1000:>12.1f} {api[n] * 1000:>15.1f} {html[n] * 1000:>16.1f} "
              f"{undo[n] * 1000:>13.1f} {redo[n] * 1000:>12.1f}")
    a, b = sizes
    print(f"\nRapporto passo dopo {LONG} azioni / passo dopo 1 azione: API ×{api[b] / api[a]:.2f} "
          f"(obiettivo ≤ 1.2), HTML ×{html[b] / html[a]:.2f}; annulla ×{undo[b] / undo[a]:.2f}, "
          f"ripeti ×{redo[b] / redo[a]:.2f}")


if __name__ == "__main__":
    main()
