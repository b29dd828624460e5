"""Benchmark of the simulator's history: the cost of one step after 1 and after 1,000 actions.

The board of issue 13: four players, 40 permanents, libraries of 60 cards.  The games are
played by the engine here (each action: a step, or the default answer to a pending decision),
saved through the JSON API of a real `judge serve` (waitress, in a subprocess), and then one
more action is timed through ``POST /api/scenari/<id>/azioni`` — the request the issue measured
— and through the HTML stepper (``POST /s/<id>`` → 303 → ``GET /s/<id>``).

Run:  .venv/bin/python bench/history_bench.py [--repeat N] [--contro ALTRA_COPIA]
Prints the costs in milliseconds (median of N) and their ratios, all measured in this run;
with --contro, the same requests against a second checkout (an older commit, for a
before/after), taking turns with this one.  It is not a timed test.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import random
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
        return re.match(rb'\{"id": ?"([a-z2-7]+)"', data).group(1).decode()


def game_doc(actions: list[dict]) -> dict:
    return {"format": "judge-partita", "version": 1, "scenario": board(), "actions": actions, "redo": []}


def interleaved(cases: dict, repeat: int) -> dict:
    """Median time of each case, the cases taking turns in every round (in a shuffled order,
    the same for every run), so that a busy machine slows them alike and the ratio stays
    honest."""
    times: dict = {n: [] for n in cases}
    order = list(cases)
    rng = random.Random(13)
    for _ in range(repeat):
        rng.shuffle(order)
        for n in order:
            t = time.perf_counter()
            cases[n]()
            times[n].append(time.perf_counter() - t)
    return {n: statistics.median(ts) for n, ts in times.items()}


class Target:
    """One server and the games prepared on it."""

    def __init__(self, label: str, port: int, acts: list[dict]):
        self.label, self.c, self.acts = label, Client(port), acts
        _, _, page = self.c.request("GET", "/simulatore")
        self.token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
        self.ids, self.after, self.undone, self.first = {}, {}, {}, {}
        for n in SIZES:
            t = time.perf_counter()
            self.ids[n] = self.c.save(game_doc(acts[:n]))      # import: the whole game replayed once
            self.first[n] = time.perf_counter() - t
            self.after[n] = self.c.act(self.ids[n], acts[n])
            self.undone[n] = self.c.act(self.after[n], {"type": "undo"})

    def cases(self) -> dict[str, object]:
        """Every measured request, by name ("api 1", "html 999", …)."""
        out: dict[str, object] = {}
        for n in SIZES:
            out[f"api {n}"] = lambda n=n: self.c.act(self.ids[n], self.acts[n])
            out[f"html {n}"] = lambda n=n: self.html_step(n)
            out[f"annulla {n}"] = lambda n=n: self.c.act(self.after[n], {"type": "undo"})
            out[f"ripeti {n}"] = lambda n=n: self.c.act(self.undone[n], {"type": "redo"})
        return out

    def html_step(self, n: int) -> None:
        form = f"csrf_token={self.token}&azione=" + ("predefinita" if self.acts[n]["type"] == "decide" else "passo")
        status, headers, _ = self.c.request("POST", f"/s/{self.ids[n]}", form.encode(),
                                            "application/x-www-form-urlencoded")
        assert status == 303, status
        status, _, _ = self.c.request("GET", headers["Location"])
        assert status == 200


# 200: the page's log (bounded at 150 events) is already full, as it is after 999; the HTML step
# after 999 against after 200 shows what history costs the page, apart from the log filling up.
FULL_LOG = 200
SIZES = (1, FULL_LOG, LONG - 1)


def report(t: Target, ms: dict[str, float], repeat: int) -> None:
    print(f"\n[{t.label}] mediana di {repeat} richieste per caso, i casi a turno in ogni giro")
    print(f"{'azioni prima':>12} {'import (ms)':>12} {'passo API (ms)':>15} {'passo HTML (ms)':>16} "
          f"{'annulla (ms)':>13} {'ripeti (ms)':>12}")
    for n in SIZES:
        print(f"{n:>12} {t.first[n] * 1000:>12.1f} {ms[f'api {n}']:>15.1f} {ms[f'html {n}']:>16.1f} "
              f"{ms[f'annulla {n}']:>13.1f} {ms[f'ripeti {n}']:>12.1f}")
    a, b = SIZES[0], SIZES[-1]
    r = {k: ms[f"{k} {b}"] / ms[f"{k} {a}"] for k in ("api", "html", "annulla", "ripeti")}
    print(f"Rapporto passo dopo {LONG} azioni / passo dopo 1 azione: API ×{r['api']:.2f} (obiettivo ≤ 1.2), "
          f"HTML ×{r['html']:.2f}; annulla ×{r['annulla']:.2f}, ripeti ×{r['ripeti']:.2f}")
    print(f"Passo HTML dopo {LONG} azioni / dopo {FULL_LOG} (registro della pagina già pieno, 150 eventi): "
          f"×{ms[f'html {b}'] / ms[f'html {FULL_LOG}']:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=31)
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio un commit precedente): misurata "
                         "nello stesso giro, per un prima/dopo")
    args = ap.parse_args()
    acts = played_actions(LONG)
    print("Tavolo: 4 giocatori, 40 permanenti, grimori da 60 carte.")
    with contextlib.ExitStack() as stack:
        targets = [Target("questo progetto", stack.enter_context(running_server(threads=4)).port, acts)]
        if args.contro is not None:
            srv = stack.enter_context(running_server(threads=4, root=args.contro.resolve()))
            targets.append(Target(f"contro {args.contro}", srv.port, acts))
        cases = {(t.label, k): fn for t in targets for k, fn in t.cases().items()}
        times = interleaved(cases, args.repeat)
    for t in targets:
        report(t, {k: times[(t.label, k)] * 1000 for k in t.cases()}, args.repeat)
    if len(targets) == 2:
        a, b = targets
        print(f"\nPasso API: {a.label} / {b.label}: dopo 1 azione ×"
              f"{times[(a.label, 'api 1')] / times[(b.label, 'api 1')]:.2f}, dopo {LONG - 1} ×"
              f"{times[(a.label, f'api {LONG - 1}')] / times[(b.label, f'api {LONG - 1}')]:.2f}")


if __name__ == "__main__":
    main()
