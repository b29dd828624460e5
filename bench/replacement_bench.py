"""Benchmark of replacement and prevention effects (614–616): what they cost the engine.

The same board (2 players, 42 permanents: 8 attacking creatures, some with lifelink, 8 blockers,
lands, enchantments; libraries to draw from) with 10 replacement and prevention effects from the
library's cards — Rest in Peace and Leyline of the Void (both on a dying card of Bruno's: a
choice, 616.1), Doubling Season (counters, tokens), Hardened Scales, a Daunting Defender
(prevent 1, 615.10), a prevention shield (615.7), a regeneration shield (701.19a), «creatures
your opponents control enter tapped», Boon Reflection (life gained doubled) — and with none.
Events happen and consult them: combat damage (each damage event), lifelink's life, creatures
dying, the draw.  Two cases: a step (declare blockers → combat damage: damage, life,
state-based actions) and a whole turn (untap to the next turn, attacking with every creature
and blocking with every one; other decisions by default), measured alternating, best of N.
Printed as ratios (with / without) of one run, with how often the effects were consulted and
applied.

Run:  .venv/bin/python bench/replacement_bench.py  [--repeat N] [--contro DIR]
With ``--contro DIR`` (another copy of the project, e.g. main: ``git archive main | tar -x -C
DIR``) the board with the effects and without also runs on that copy's engine in the same
session, alternating, and the ratios between the two engines are printed.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_bench import compare  # noqa: E402
from bench.layers_bench import timed  # noqa: E402
from judge.engine import Game  # noqa: E402
from judge.engine.characteristics import layers  # noqa: E402

N_ATTACKERS, N_BLOCKERS, N_LANDS = 8, 8, 10


def _library(pid: str) -> list[dict]:
    return [{"id": f"{pid}-l{j}", "name": "Isola", "types": ["land"], "owner": pid}
            for j in range(30)]


def board(with_effects: bool, step: str = "untap") -> dict:
    """The board; ``step`` "untap" for a turn, "declare_blockers" (with combat) for a step."""
    players = [{"id": "p1", "name": "Alice", "library": _library("p1")},
               {"id": "p2", "name": "Bruno", "library": _library("p2")}]
    bf = []
    for i in range(N_ATTACKERS):
        bf.append({"id": f"a{i}", "name": f"Attaccante {i}", "types": ["creature"],
                   "subtypes": ["Soldier"], "power": 2 + i % 3, "toughness": 2 + i % 2,
                   "keywords": ["lifelink"] if i % 2 == 0 else [], "controller": "p1"})
    for i in range(N_BLOCKERS):
        bf.append({"id": f"b{i}", "name": f"Bloccante {i}", "types": ["creature"],
                   "subtypes": ["Cleric"] if i % 3 == 0 else ["Human"], "power": 1 + i % 3,
                   "toughness": 2 + i % 2, "controller": "p2"})
    for i in range(N_LANDS):
        for pid in ("p1", "p2"):
            bf.append({"id": f"t{pid}{i}", "name": "Foresta", "types": ["land"],
                       "supertypes": ["basic"], "subtypes": ["Forest"], "controller": pid})
    enchantments = [("rip", "Riposa in Pace", "p2"), ("leyline", "Leyline del Nulla", "p1"),
                    ("stagione", "Stagione del Raddoppio", "p1"),
                    ("scaglie", "Scaglie Indurite", "p1"), ("obbedienza", "Obbedienza Cieca", "p2"),
                    ("riflesso", "Riflesso del Favore", "p1")]
    for oid, name, pid in enchantments:
        bf.append({"id": oid, "name": name, "types": ["enchantment"], "controller": pid})
    data = {"format": "judge-scenario", "version": 1, "title": "bench", "variant": "two-player",
            "players": players, "battlefield": bf, "effects": effects() if with_effects else [],
            "turn": {"number": 3, "active_player": "p1", "step": step}}
    if step == "declare_blockers":
        for p in bf:
            if p["id"].startswith("a"):
                p["tapped"] = True
        data["combat"] = {
            "defending_players": ["p2"],
            "attackers": [{"id": f"a{i}", "target": "p2", "blocked": i < N_BLOCKERS}
                          for i in range(N_ATTACKERS)],
            "blockers": [{"id": f"b{i}", "blocking": [f"a{i}"]} for i in range(N_BLOCKERS)],
            "attackers_declared": True, "blockers_declared_by": ["p2"]}
    return data


def effects() -> list[dict]:
    """Ten records as the library writes them (scenarios/*.json)."""
    creatures_you = {"filter": {"types": ["creature"], "controller": "you"}}
    return [
        {"id": "e-rip", "source": "rip", "kind": "static", "card": "Rest in Peace",
         "event": "graveyard", "affects": {"filter": {"zones": "all"}}, "instead": [{"op": "exile"}]},
        {"id": "e-leyline", "source": "leyline", "kind": "static", "card": "Leyline of the Void",
         "event": "graveyard",
         "affects": {"filter": {"zones": "all", "owner": "opponents", "nontoken": True}},
         "instead": [{"op": "exile"}]},
        {"id": "e-stagione", "source": "stagione", "kind": "static", "card": "Doubling Season",
         "event": "counters", "affects": {"filter": {"controller": "you"}},
         "instead": [{"op": "double"}]},
        {"id": "e-stagione-pedine", "source": "stagione", "kind": "static",
         "card": "Doubling Season", "event": "tokens", "affects": {"players": "you"},
         "instead": [{"op": "double"}]},
        {"id": "e-scaglie", "source": "scaglie", "kind": "static", "card": "Hardened Scales",
         "event": "counters", "when": {"counter": ["+1/+1"]}, "affects": creatures_you,
         "instead": [{"op": "add", "amount": 1}]},
        {"id": "e-difensore", "source": "b0", "kind": "static", "card": "Daunting Defender",
         "event": "dealt_damage",
         "affects": {"filter": {"types": ["creature"], "subtypes": ["Cleric"], "controller": "you"}},
         "instead": [{"op": "prevent", "amount": 1}]},
        {"id": "e-scudo", "kind": "resolved", "controller": "p2", "event": "dealt_damage",
         "affects": {"objects": ["b1"]}, "instead": [{"op": "prevent"}], "shield": 3,
         "duration": "end_of_turn"},
        {"id": "e-rigenera", "kind": "resolved", "controller": "p2", "source": "b2",
         "event": "destroy", "affects": {"objects": ["b2"]}, "instead": [{"op": "regenerate"}],
         "uses": 1, "duration": "end_of_turn"},
        {"id": "e-obbedienza", "source": "obbedienza", "kind": "static", "card": "Blind Obedience",
         "event": "enter", "affects": {"filter": {"types": ["creature"], "controller": "opponents"}},
         "instead": [{"op": "tapped"}]},
        {"id": "e-riflesso", "source": "riflesso", "kind": "static", "card": "Boon Reflection",
         "event": "gain_life", "affects": {"players": "you"}, "instead": [{"op": "double"}]},
    ]


def settle(g: Game) -> None:
    """Answer what is pending: every untapped creature attacks, every one blocks an attacker;
    any other decision (a replacement effect's order, 616.1) by its default."""
    while g.state.pending is not None and g.state.result is None:
        p = g.state.pending
        if p["kind"] == "declare_attackers":
            g.decide({"attackers": [{"id": c["id"], "target": "p2"}
                                    for c in p["options"]["creatures"]]})
        elif p["kind"] == "declare_blockers":
            atts = [a["id"] for a in p["options"]["attackers"]]
            g.decide({"blockers": [{"id": c["id"], "blocking": [atts[i % len(atts)]]}
                                   for i, c in enumerate(p["options"]["creatures"])]})
        else:
            g.decide()


def one_step(g: Game) -> None:
    g.step()
    settle(g)


def one_turn(g: Game) -> None:
    start = g.state.turn.number
    for _ in range(200):
        g.step()
        settle(g)
        if g.state.result is not None or g.state.turn.number > start:
            return


CASES = {"passo": ("declare_blockers", one_step), "turno": ("untap", one_turn)}


def measure(repeat: int, with_effects: bool = False) -> dict[str, float]:
    """Best times of each case on the board with or without the effects, in seconds."""
    return {name: timed(board(with_effects, step), action, repeat)
            for name, (step, action) in CASES.items()}


def measure_both(repeat: int) -> dict[str, float]:
    """Best times of each case with the effects and without, in seconds (``--contro``)."""
    return {f"{name} {'con 10' if fx else 'senza'}": t
            for fx in (True, False) for name, t in measure(repeat, fx).items()}


def what_happens(name: str) -> dict[str, int]:
    """On the board with the effects: the log's replacement lines and the choices asked."""
    step, action = CASES[name]
    g = Game.from_dict(board(True, step))
    action(g)
    lines = [e.data["replacement"] for e in g.events if "replacement" in e.data]
    return {"modificati": sum(1 for r in lines if r["step"] == "event"),
            "applicati": sum(1 for r in lines if r["step"] == "apply"),
            "scelte": sum(1 for r in lines if r["step"] == "choice" and r.get("chooser"))}


def recomputations(name: str, with_effects: bool) -> int:
    """How many times a case computes every object's characteristics (613) afresh."""
    step, action = CASES[name]
    g = Game.from_dict(board(with_effects, step))
    count = 0
    real = layers.compute

    def counting(st):
        nonlocal count
        count += 1
        return real(st)
    layers.compute = counting
    try:
        action(g)
    finally:
        layers.compute = real
    return count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio main), misurata senza effetti "
                         "nella stessa esecuzione, alternando")
    args = ap.parse_args()
    assert len(effects()) == 10
    best: dict[tuple[str, bool], float] = {}
    for _ in range(3):                       # alternating, so both see the same machine
        for fx in (True, False):
            for name, t in measure(args.repeat, fx).items():
                best[(name, fx)] = min(t, best.get((name, fx), math.inf))
    print(f"Tavolo: 2 giocatori, {len(board(False)['battlefield'])} permanenti; 10 effetti di "
          "sostituzione e prevenzione contro nessuno.")
    print(f"{'caso':>8} {'con 10 (ms)':>12} {'senza (ms)':>11} {'rapporto':>9}   "
          "eventi modificati / effetti applicati / scelte chieste")
    for name in CASES:
        a, b = best[(name, True)], best[(name, False)]
        w = what_happens(name)
        print(f"{name:>8} {a * 1000:>12.2f} {b * 1000:>11.2f} {a / b:>9.2f}   "
              f"{w['modificati']} / {w['applicati']} / {w['scelte']}")
    print("\nCaratteristiche ricalcolate (tutto il tavolo, 613) con 10 effetti / senza: "
          + ", ".join(f"{name} {recomputations(name, True)} / {recomputations(name, False)}"
                      for name in CASES)
          + ". Ogni scelta (616.1) fa ripartire il passo dall'inizio (Ctx.rollback).")
    if args.contro is not None:
        print(f"\nCon i 10 effetti e senza, questo motore contro {args.contro}:")
        compare(args.contro, args.repeat, module="replacement_bench", func="measure_both")


if __name__ == "__main__":
    main()
