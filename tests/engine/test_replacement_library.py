"""The library's replacement and prevention questions (614–616): at least fifteen classic
questions, each naming its cards and the official ruling or rule example it rests on, each
asserting the final state, the choices offered and every line of the explanation with its rules,
in order (test_library.py runs them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_helpers import RULES
from judge.cards.lookup import resolve
from judge.engine.play.library import replacement_lines, verify
from test_layer_library import check_sources

LIB = Path(__file__).resolve().parents[2] / "scenarios"


def _about_replacements(data: dict) -> bool:
    return (any("event" in e for e in data.get("effects", []))
            or "replacement_log" in data.get("expected", {}))


QUESTIONS = sorted(p for p in LIB.glob("*.json")
                   if _about_replacements(json.loads(p.read_text(encoding="utf-8"))))


def _sources(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["sources"]


def test_at_least_fifteen_questions_and_the_classics():
    assert len(QUESTIONS) >= 15
    cards = {resolve(s["card"]).name for p in QUESTIONS for s in _sources(p) if "card" in s}
    for card in ("Rest in Peace", "Leyline of the Void", "Platinum Angel", "Doubling Season",
                 "Dictate of the Twin Gods", "Furnace of Rath", "Wrath of God", "Pariah",
                 "Essence of the Wild", "Hardened Scales"):
        assert card in cards, card
    examples = {(s["rule"], s["example"]) for p in QUESTIONS for s in _sources(p) if "example" in s}
    # the examples of 614–616 about how effects combine are in the library
    assert {("614.5", 1), ("616.1f", 1), ("616.1f", 2), ("616.2", 1), ("614.12", 3)} <= examples


@pytest.mark.parametrize("path", QUESTIONS, ids=[p.stem for p in QUESTIONS])
def test_each_question_names_what_it_rests_on(path):
    check_sources(json.loads(path.read_text(encoding="utf-8")), {"card", "rule"}, example_needed=False)


@pytest.mark.parametrize("path", QUESTIONS, ids=[p.stem for p in QUESTIONS])
def test_each_question_checks_the_explanation_line_by_line(path):
    """Every line of the replacement log is written in the expected block (step and rules, in
    order), every rule it cites exists, and the JSON of the log carries the same steps."""
    data = json.loads(path.read_text(encoding="utf-8"))
    exp = data["expected"]
    assert "replacement_log" in exp
    fails, events = verify(data)
    assert not fails, fails
    lines = replacement_lines(events)
    assert [(x["step"], x["rules"]) for x in lines] == \
        [(x["step"], x["rules"]) for x in exp["replacement_log"]]
    assert {r for x in lines for r in x["rules"]} <= RULES
    for e in events:
        r = e.data.get("replacement")
        if r is not None:
            assert isinstance(r["seq"], int) and e.to_dict()["data"]["replacement"] == r


def test_the_choices_are_offered_where_the_rules_give_one():
    """616.1: the scenarios where several effects apply assert who chooses and among what."""
    offered = [p for p in QUESTIONS
               if any("offered" in x for x in json.loads(p.read_text())["expected"].get(
                   "pending_after", []))]
    assert len(offered) >= 6
