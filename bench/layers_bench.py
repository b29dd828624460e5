"""Benchmark of the layer system (613): what continuous effects cost the engine.

The same board (2 players, 60 permanents: creatures, lands, enchantments) with 20 continuous
effects — anthems, a Humility, an Opalescence, colour changes, a Blood Moon and an Urborg
(a dependency), a Conspiracy, a control change, switches and pumps until end of turn — and with
none; the cost of a step (precombat main to beginning of combat: state-based actions, which read
every creature's toughness) and of a whole turn, measured alternating, best of N.  Printed as
ratios (with / without) of one run: the characteristics are computed once per state version
(characteristics.layers), so the ratio says what a recomputation costs per step.

Run:  .venv/bin/python bench/layers_bench.py  [--repeat N] [--contro DIR]
With ``--contro DIR`` (another copy of the project, e.g. main: ``git archive main | tar -x -C
DIR``) every case also runs on that copy's engine in the same session, alternating, and the
ratios between the two engines are printed.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from judge.engine import Game  # noqa: E402
from judge.engine.characteristics import layers  # noqa: E402

N_CREATURES, N_LANDS, N_ENCHANTMENTS = 30, 14, 16


def board(with_effects: bool) -> dict:
    players = [{"id": pid, "name": pid.upper(),
                "library": [{"id": f"{pid}-l{j}", "name": "Isola", "types": ["land"]} for j in range(30)]}
               for pid in ("p1", "p2")]
    bf = []
    for i in range(N_CREATURES):
        bf.append({"id": f"c{i}", "name": f"Creatura {i}", "types": ["creature"],
                   "subtypes": ["Goblin" if i % 3 else "Elf"], "power": 1 + i % 4,
                   "toughness": 2 + i % 3, "colors": [["W", "U", "B", "R", "G"][i % 5]],
                   "keywords": ["flying"] if i % 7 == 0 else [], "controller": "p1" if i % 2 else "p2"})
    for i in range(N_LANDS):
        bf.append({"id": f"t{i}", "name": f"Terra {i}", "types": ["land"],
                   "supertypes": ["basic"] if i % 2 else [], "subtypes": ["Forest"] if i % 2 else [],
                   "controller": "p1" if i % 2 else "p2"})
    for i in range(N_ENCHANTMENTS):
        bf.append({"id": f"n{i}", "name": f"Incantesimo {i}", "types": ["enchantment"],
                   "mana_cost": "{2}{W}", "controller": "p1" if i % 2 else "p2"})
    effects = []
    if with_effects:
        creatures = {"filter": {"types": ["creature"]}}
        statics = [
            (creatures, [{"op": "modify_pt", "power": 1, "toughness": 1}]),
            ({"filter": {"types": ["creature"], "controller": "you"}},
             [{"op": "modify_pt", "power": 0, "toughness": 1}]),
            ({"filter": {"types": ["creature"], "colors": ["W"]}},
             [{"op": "modify_pt", "power": 1, "toughness": 1}]),
            ({"filter": {"types": ["creature"], "subtypes": ["Goblin"], "other": True}},
             [{"op": "add_abilities", "abilities": ["haste"]}]),
            (creatures, [{"op": "lose_all_abilities"}, {"op": "set_pt", "power": 1, "toughness": 1}]),
            ({"filter": {"types": ["enchantment"], "not_subtypes": ["Aura"], "other": True}},
             [{"op": "add_types", "types": ["creature"]}, {"op": "set_pt", "from": "mana_value"}]),
            ({"filter": {"types": ["creature"], "colors": ["R"]}}, [{"op": "set_colors", "colors": ["B"]}]),
            ({"filter": {"types": ["land"], "not_supertypes": ["basic"]}},
             [{"op": "set_subtypes", "subtypes": ["Mountain"]}]),
            ({"filter": {"types": ["land"]}}, [{"op": "add_subtypes", "subtypes": ["Swamp"]}]),
            ({"filter": {"types": ["creature"], "controller": "you"}},
             [{"op": "set_subtypes", "subtypes": ["Elf"]}]),
            ({"filter": {"types": ["creature"], "colors": ["G"]}},
             [{"op": "add_abilities", "abilities": ["trample"]}]),
            ({"filter": {"types": ["creature"]}}, [{"op": "modify_pt", "power": 1, "toughness": 0}]),
            ({"filter": {"types": ["creature"], "colors": ["U"]}},
             [{"op": "remove_abilities", "abilities": ["flying"]}]),
            ({"filter": {"types": ["creature"], "abilities": ["flying"]}},
             [{"op": "modify_pt", "power": 0, "toughness": 2}]),
        ]
        for i, (affects, does) in enumerate(statics):
            effects.append({"id": f"s{i}", "source": f"n{i}", "kind": "static", "affects": affects,
                            "does": does})
        resolved = [
            ("c1", [{"op": "control", "player": "you"}]),
            ("c2", [{"op": "switch_pt"}]),
            ("c3", [{"op": "modify_pt", "power": 3, "toughness": 3}]),
            ("c4", [{"op": "set_pt", "power": 0, "toughness": 4}]),
            ("c5", [{"op": "add_types", "types": ["artifact"]}]),
            ("c6", [{"op": "set_colors", "colors": ["W"]}]),
        ]
        for i, (oid, does) in enumerate(resolved):
            effects.append({"id": f"r{i}", "kind": "resolved", "controller": "p2",
                            "affects": {"objects": [oid]}, "does": does, "duration": "end_of_turn"})
    return {"format": "judge-scenario", "version": 1, "title": "bench", "players": players,
            "battlefield": bf, "effects": effects,
            "turn": {"number": 3, "active_player": "p1", "step": "precombat_main"}}


def timed(data: dict, action, repeat: int) -> float:
    best = math.inf
    for _ in range(repeat):
        g = Game.from_dict(data)
        t = time.process_time()          # this process's CPU: the machine may be shared
        action(g)
        best = min(best, time.process_time() - t)
    return best


CASES = {"passo": lambda g: g.step(),
         "turno": lambda g: g.next_turn(defaults=True),
         "caratteristiche": lambda g: layers.compute(g.state)}


def measure(repeat: int) -> dict[str, float]:
    """Best times of each case with the 20 effects and without, in seconds (``--contro``)."""
    return {f"{name} {'con 20' if fx else 'senza'}": timed(board(fx), action, repeat)
            for name, action in CASES.items() for fx in (True, False)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio main), misurata nella stessa "
                         "esecuzione, alternando")
    args = ap.parse_args()
    with_fx, without = board(True), board(False)
    assert len(with_fx["effects"]) == 20
    best: dict[tuple[str, bool], float] = {}
    for _ in range(3):                       # alternating, so both see the same machine
        for name, action in CASES.items():
            for fx, data in ((True, with_fx), (False, without)):
                t = timed(data, action, args.repeat)
                best[(name, fx)] = min(t, best.get((name, fx), math.inf))
    g = Game.from_dict(with_fx)
    recomputed = 0
    real = layers.compute

    def counting(st):
        nonlocal recomputed
        recomputed += 1
        return real(st)
    layers.compute = counting
    g.step()
    layers.compute = real
    print(f"Tavolo: 2 giocatori, {len(with_fx['battlefield'])} permanenti; 20 effetti continui "
          f"contro nessuno.")
    print(f"{'caso':>16} {'con 20 (ms)':>12} {'senza (ms)':>11} {'rapporto':>9}")
    for name in CASES:
        a, b = best[(name, True)], best[(name, False)]
        print(f"{name:>16} {a * 1000:>12.2f} {b * 1000:>11.2f} {a / b:>9.2f}")
    print(f"\nUn passo con 20 effetti ricalcola le caratteristiche {recomputed} volte (una per "
          "versione dello stato letta).")
    if args.contro is not None:
        from bench.engine_bench import compare
        print(f"\nCon i 20 effetti e senza, questo motore contro {args.contro}:")
        compare(args.contro, args.repeat, module="layers_bench")


if __name__ == "__main__":
    main()
