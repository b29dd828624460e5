"""The library's layer puzzles (scenarios/ with continuous effects): at least twenty classic
questions, each naming its cards and the official ruling or rule example it rests on, each
asserting characteristics and the order and rules of the explanation (613)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine_helpers import RULES, RULES_FILE
from judge.cards.lookup import resolve
from judge.cards.table import load_table

LIB = Path(__file__).resolve().parents[2] / "scenarios"


def _layer_puzzle(data: dict) -> bool:
    """A scenario about continuous effects: those whose effects are all replacement or
    prevention effects (with an "event") are test_replacement_library's."""
    effects = data.get("effects")
    return effects is not None and not (effects and all("event" in e for e in effects))


PUZZLES = sorted(p for p in LIB.glob("*.json")
                 if _layer_puzzle(json.loads(p.read_text(encoding="utf-8"))))
TEXT = RULES_FILE.read_text(encoding="utf-8-sig")


def examples_of(rule: str) -> int:
    """How many «Example:» lines the rule has in the edition in force."""
    lines = TEXT.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(rule + " ")
                 or line.startswith(rule + ". "))
    n = 0
    for line in lines[start + 1:]:
        if line.startswith("Example:"):
            n += 1
        elif line.strip() and not line.startswith("Example:"):
            break
    return n


def check_sources(data: dict, kinds: set[str], example_needed: bool) -> None:
    """A library scenario's ``sources``: each says one of ``kinds``; its card exists (with the
    ruling's date when it cites one), its rule exists (with the example it cites, required when
    ``example_needed``), and so do the cards its effects name."""
    table = load_table()
    assert data["sources"]
    for s in data["sources"]:
        assert set(s) & kinds, s
        if "card" in s:
            face = resolve(s["card"], table)
            if "ruling" in s:
                dates = {r.date for r in table.rulings(face.name)}
                assert s["ruling"] in dates, (s, sorted(dates))
        if "rule" in s:
            assert s["rule"] in RULES
            if example_needed or "example" in s:
                assert 1 <= s["example"] <= examples_of(s["rule"]), s
    for e in data.get("effects", []):
        if e.get("card"):
            resolve(e["card"], table)


def test_at_least_twenty_layer_puzzles_and_the_classics():
    assert len(PUZZLES) >= 20
    names = {c for p in PUZZLES for s in json.loads(p.read_text())["sources"] for c in [s.get("card")]}
    for card in ("Humility", "Opalescence", "Blood Moon", "Urborg, Tomb of Yawgmoth", "Conspiracy",
                 "Painter's Servant", "Mycosynth Lattice", "March of the Machines", "Clone",
                 "Control Magic"):
        assert card in names, card
    examples = {(s["rule"], s["example"]) for p in PUZZLES
                for s in json.loads(p.read_text())["sources"] if "example" in s}
    # every example of 613 is in the library
    for rule in ("613.4d", "613.5", "613.6", "613.7a", "613.9"):
        assert examples_of(rule) >= 1
        assert {(rule, n) for n in range(1, examples_of(rule) + 1)} <= examples, rule


@pytest.mark.parametrize("path", PUZZLES, ids=[p.stem for p in PUZZLES])
def test_each_puzzle_names_its_cards_and_what_it_rests_on(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "effects" in data
    check_sources(data, {"card", "rule", "text"}, example_needed=True)
    state = data["expected"]["state"]
    assert state.get("characteristics") or state.get("explanation") or state.get("not_battlefield")
    for rows in state.get("explanation", {}).values():
        assert all(re.fullmatch(r"1a|1b|[2-6]|7[a-d]", r["layer"]) for r in rows)
