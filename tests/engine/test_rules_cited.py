"""Every rule number the engine can emit exists in the edition in force and is
the rule that governs the action (checked against the rules' own text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.engine import game as _game  # noqa: F401  (registers everything)
from judge.engine.registry import ACTIONS, DECISIONS, SBAS, TBAS
from judge.engine.steps import STEPS

from engine_helpers import RULES, RULES_FILE

ENGINE = Path(__file__).resolve().parents[2] / "judge" / "engine"
LITERAL = re.compile(r'"(\d{3}\.\d+[a-z]?)"')


def rule_text(number: str) -> str:
    for line in RULES_FILE.read_text(encoding="utf-8-sig").splitlines():
        if re.match(rf"^{re.escape(number)}\.?\s", line):
            return line
    raise KeyError(number)


def test_rules_file_parsed():
    assert {"704.5g", "703.4d", "731.2a", "103.8a", "104.4a"} <= RULES
    assert "704.5l" not in RULES and "704.5o" not in RULES


@pytest.mark.parametrize("registry", [TBAS, SBAS, ACTIONS], ids=["tba", "sba", "actions"])
def test_every_registered_citation_exists(registry):
    missing = {name: [r for r in entry.cites if r not in RULES] for name, entry in registry.items()}
    assert not {k: v for k, v in missing.items() if v}


def test_every_rule_literal_in_engine_exists():
    """Any rule number written anywhere in the engine's code exists in 20260619."""
    bad = []
    for path in sorted(ENGINE.glob("*.py")):
        for n in LITERAL.findall(path.read_text(encoding="utf-8")):
            if n not in RULES:
                bad.append((path.name, n))
    assert not bad


def test_each_rule_implemented_once():
    """grep '"704.5g"' finds one registration: a number is registered only once."""
    for registry in (TBAS, SBAS):
        for number in registry:
            hits = []
            for path in ENGINE.glob("*.py"):
                text = path.read_text(encoding="utf-8")
                hits += re.findall(rf'@(?:tba|sba)\("{re.escape(number)}"', text)
            assert len(hits) == 1, number


def test_required_turn_based_actions_registered():
    assert set(TBAS) == {f"703.4{x}" for x in "abcdefghijkmnpq"}


def test_required_state_based_actions_registered():
    required = {f"704.5{x}" for x in "abcdfghijkmnqsv"} | {"704.6a", "704.6b", "704.6c"}
    assert required <= set(SBAS)
    assert all(re.fullmatch(r"704\.[56][a-z]", n) for n in SBAS)


def test_tba_cites_the_step_rule_its_text_points_to():
    """703.4x says "See rule 5xx.y": the engine cites that step rule too."""
    for number, entry in TBAS.items():
        m = re.search(r"See rule (\d{3}\.\d+[a-z]?)", rule_text(number))
        if m and m.group(1).startswith("5"):
            assert m.group(1) in entry.cites, (number, m.group(1))


def test_sba_texts_match_their_subject():
    words = {"704.5a": "life", "704.5b": "draw", "704.5c": "poison", "704.5d": "token",
             "704.5f": "toughness 0", "704.5g": "lethal damage", "704.5h": "deathtouch",
             "704.5i": "loyalty 0", "704.5j": "legend rule", "704.5k": "world rule",
             "704.5m": "Aura", "704.5n": "Equipment", "704.5q": "+1/+1 counter",
             "704.5s": "Saga", "704.5v": "defense 0", "704.6a": "Two-Headed Giant",
             "704.6b": "fifteen", "704.6c": "21"}
    for number, word in words.items():
        assert word in rule_text(number), number


def test_step_priority_rules_say_priority():
    for sd in STEPS:
        assert sd.order_rule in RULES
        if sd.priority:
            assert "priority" in rule_text(sd.priority), sd.name


def test_decisions_have_validators():
    assert {"declare_attackers", "declare_blockers", "combat_damage_assignment", "discard",
            "legend_rule", "choose_defending_player"} <= set(DECISIONS)


def test_corpus_resolves_every_citation():
    corpus_mod = pytest.importorskip("judge.corpus")
    corpus = corpus_mod.load_corpus()
    cited = set()
    for registry in (TBAS, SBAS, ACTIONS):
        for entry in registry.values():
            cited.update(r for r in entry.cites if re.fullmatch(r"\d{3}\.\d+[a-z]?", r))
    for path in ENGINE.glob("*.py"):
        cited.update(LITERAL.findall(path.read_text(encoding="utf-8")))
    missing = sorted(n for n in cited if corpus.get(n) is None)
    assert not missing
