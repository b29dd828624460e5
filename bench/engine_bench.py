"""Benchmark of the rules engine: cost of one step and of a whole turn as the
board grows (2 and 6 players; 50, 200, 800 permanents), with the fitted growth
exponent (time ∝ permanents^k; k close to 1 means linear).

Run:  .venv/bin/python bench/engine_bench.py  [--repeat N] [--contro DIR]
Prints ratios and exponents; it is not a timed test.  With ``--contro DIR`` (another copy of
the project, e.g. the previous commit: ``git archive HEAD~1 | tar -x -C DIR``) the same cases
run on both engines in the same session, alternating, and the ratios between them are printed.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.engine import Game  # noqa: E402

SIZES = (50, 200, 800)
PLAYERS = (2, 6)


def board(n_players: int, n_perms: int) -> dict:
    pids = [f"p{i}" for i in range(1, n_players + 1)]
    players = [{"id": pid, "name": pid.upper(),
                "library": [{"id": f"{pid}-l{j}", "name": "Isola", "types": ["land"]} for j in range(40)],
                "hand": [{"id": f"{pid}-h{j}", "name": "Isola", "types": ["land"]} for j in range(5)]}
               for pid in pids]
    bf = []
    for i in range(n_perms):
        ctl = pids[i % n_players]
        kind = i % 5
        if kind in (0, 1):
            bf.append({"id": f"c{i}", "name": f"Creatura {i % 17}", "types": ["creature"],
                       "power": 1 + i % 4, "toughness": 1 + i % 5, "controller": ctl,
                       "keywords": ["flying"] if i % 7 == 0 else [], "tapped": i % 3 == 0})
        elif kind == 2:
            bf.append({"id": f"c{i}", "name": "Foresta", "types": ["land"], "controller": ctl,
                       "tapped": True})
        elif kind == 3:
            bf.append({"id": f"c{i}", "name": "Manufatto", "types": ["artifact"], "controller": ctl,
                       "counters": {"charge": 1}})
        else:
            bf.append({"id": f"c{i}", "name": "Incantesimo", "types": ["enchantment"],
                       "controller": ctl})
    variant = "two-player" if n_players == 2 else "free-for-all"
    return {"format": "judge-scenario", "version": 1, "title": "bench", "variant": variant,
            "players": players, "battlefield": bf,
            "turn": {"number": 3, "active_player": "p1", "step": "cleanup"}}


def board_at_turn_start(n_players: int, n_perms: int) -> dict:
    d = board(n_players, n_perms)
    d["turn"]["step"] = "untap"
    return d


def timed(data: dict, action, repeat: int) -> float:
    """Best time of ``action(game)`` on fresh games (loading is not timed)."""
    best = math.inf
    for _ in range(repeat):
        g = Game.from_dict(data)
        t = time.perf_counter()
        action(g)
        best = min(best, time.perf_counter() - t)
    return best


def slope(xs, ys) -> float:
    lx = [math.log(x) for x in xs]
    ly = [math.log(y) for y in ys]
    mx, my = sum(lx) / len(lx), sum(ly) / len(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def measure(repeat: int) -> dict[str, float]:
    """Best times of a step and of a turn for each case, in seconds."""
    out = {}
    for n_players in PLAYERS:
        for n in SIZES:
            out[f"passo {n_players}g {n}p"] = timed(board(n_players, n), lambda g: g.step(), repeat)
            out[f"turno {n_players}g {n}p"] = timed(board_at_turn_start(n_players, n),
                                                    lambda g: g.next_turn(defaults=True), repeat)
    return out


def _run(root: Path, repeat: int, module: str = "engine_bench",
         func: str = "measure") -> dict[str, float]:
    """``module.func`` (a bench of this folder) in a fresh process importing the engine of the
    copy at ``root``."""
    # judge.engine is imported from ``root`` before this module (whose own path line would
    # otherwise put this copy first)
    code = (f"import sys, json; sys.path.insert(0, {str(root)!r}); import judge.engine; "
            f"assert judge.engine.__file__.startswith({str(root)!r}), judge.engine.__file__; "
            f"sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); "
            f"import {module} as b; print(json.dumps(b.{func}({repeat})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          cwd=str(root))
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(other: Path, repeat: int, rounds: int = 3, module: str = "engine_bench",
            func: str = "measure") -> None:
    """This engine against the one at ``other``, alternating runs of ``module.func``; best of
    all rounds."""
    here = Path(__file__).resolve().parents[1]
    best: dict[str, dict[str, float]] = {"questo": {}, "contro": {}}
    for _ in range(rounds):
        for label, root in (("questo", here), ("contro", other.resolve())):
            for k, t in _run(root, repeat, module, func).items():
                best[label][k] = min(t, best[label].get(k, math.inf))
    w = max(18, *(len(k) for k in best["questo"]))
    print(f"{'caso':>{w}} {'questo (ms)':>12} {'contro (ms)':>12} {'rapporto':>9}")
    ratios = []
    for k in best["questo"]:
        a, b = best["questo"][k], best["contro"][k]
        ratios.append(a / b)
        print(f"{k:>{w}} {a * 1000:>12.2f} {b * 1000:>12.2f} {a / b:>9.2f}")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\nRapporto questo/contro (media geometrica dei casi): ×{geo:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio il commit precedente), misurata "
                         "nella stessa esecuzione, alternando")
    args = ap.parse_args()
    if args.contro is not None:
        compare(args.contro, args.repeat)
        return
    print(f"{'giocatori':>9} {'permanenti':>10} {'passo (ms)':>11} {'turno (ms)':>11} "
          f"{'operazioni/turno':>16}")
    results: dict[int, list[tuple[int, float, float]]] = {}
    for n_players in PLAYERS:
        for n in SIZES:
            data = board(n_players, n)

            def one_step(g):
                g.step()                     # cleanup -> untap of the next turn (untap all)

            def one_turn(g):
                g.next_turn(defaults=True)   # untap step to the next turn's untap step

            step_t = timed(data, one_step, args.repeat)
            start = board_at_turn_start(n_players, n)
            g = Game.from_dict(start)
            g.next_turn(defaults=True)
            steps = len(g.history)
            turn_t = timed(start, one_turn, args.repeat)
            results.setdefault(n_players, []).append((n, step_t, turn_t))
            print(f"{n_players:>9} {n:>10} {step_t * 1000:>11.2f} {turn_t * 1000:>11.2f} {steps:>16}")
    print()
    for n_players, rows in results.items():
        xs = [r[0] for r in rows]
        ks = slope(xs, [r[1] for r in rows])
        kt = slope(xs, [r[2] for r in rows])
        r_step = rows[-1][1] / rows[0][1]
        r_turn = rows[-1][2] / rows[0][2]
        print(f"{n_players} giocatori: 50→800 permanenti (×16): passo ×{r_step:.1f}, "
              f"turno ×{r_turn:.1f}; esponente di crescita passo {ks:.2f}, turno {kt:.2f}")


if __name__ == "__main__":
    main()
