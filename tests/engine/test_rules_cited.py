"""Every rule number the engine can emit exists in the edition in force and is
the rule that governs the action (checked against the rules' own text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.engine.play import game as _game  # noqa: F401  (registers everything)
from judge.engine.registry import ACTIONS, DECISIONS, EFFECTS, SBAS, TBAS
from judge.engine.steps import STEPS

from engine_helpers import RULES, RULES_FILE

ENGINE = Path(__file__).resolve().parents[2] / "judge" / "engine"
LITERAL = re.compile(r'"(\d{3}\.\d+[a-z]{0,2})"')


def rule_text(number: str) -> str:
    for line in RULES_FILE.read_text(encoding="utf-8-sig").splitlines():
        if re.match(rf"^{re.escape(number)}\.?\s", line):
            return line
    raise KeyError(number)


def test_rules_file_parsed():
    assert {"704.5g", "703.4d", "731.2a", "103.8a", "104.4a"} <= RULES
    assert "704.5l" not in RULES and "704.5o" not in RULES  # riferimenti: nessuno


@pytest.mark.parametrize("registry", [TBAS, SBAS, ACTIONS, EFFECTS],
                         ids=["tba", "sba", "actions", "effects"])
def test_every_registered_citation_exists(registry):
    missing = {name: [r for r in entry.cites if r not in RULES] for name, entry in registry.items()}
    assert not {k: v for k, v in missing.items() if v}


def test_every_rule_literal_in_engine_exists():
    """Any rule number written anywhere in the engine's code exists in the edition in force."""
    bad = []
    for path in sorted(ENGINE.rglob("*.py")):
        for n in LITERAL.findall(path.read_text(encoding="utf-8")):
            if n not in RULES:
                bad.append((path.name, n))
    assert not bad


def test_each_rule_implemented_once():
    """grep '"704.5g"' finds one registration: a number is registered only once."""
    for registry in (TBAS, SBAS):
        for number in registry:
            hits = []
            for path in ENGINE.rglob("*.py"):
                text = path.read_text(encoding="utf-8")
                hits += re.findall(rf'@(?:tba|sba)\("{re.escape(number)}"', text)
            assert len(hits) == 1, number


def test_required_turn_based_actions_registered():
    assert set(TBAS) == {f"703.4{x}" for x in "abcdefghijkmnpq"}


def test_every_state_based_action_of_the_edition_registered():
    """704.5a–z and 704.6a–f as the edition in force numbers them: one function each."""
    in_force = {n for n in RULES if re.fullmatch(r"704\.[56][a-z]{1,2}", n)}
    assert set(SBAS) == in_force
    assert {"704.5e", "704.5t", "704.5u", "704.5x", "704.5y", "704.5z", "704.5aa", "704.6d",
            "704.6f"} <= set(SBAS)


def test_tba_cites_the_step_rule_its_text_points_to():
    """A 703.4 action whose text says "See rule 5xx.y": the engine cites that step rule too."""
    for number, entry in TBAS.items():
        m = re.search(r"See rule (\d{3}\.\d+[a-z]{0,2})", rule_text(number))
        if m and m.group(1).startswith("5"):
            assert m.group(1) in entry.cites, (number, m.group(1))


def test_sba_texts_match_their_subject():
    words = {"704.5a": "life", "704.5b": "draw", "704.5c": "poison", "704.5d": "token",
             "704.5f": "toughness 0", "704.5g": "lethal damage", "704.5h": "deathtouch",
             "704.5i": "loyalty 0", "704.5j": "legend rule", "704.5k": "world rule",
             "704.5m": "Aura", "704.5n": "Equipment", "704.5q": "+1/+1 counter",
             "704.5s": "Saga", "704.5v": "Siege battle has defense 0", "704.6a": "Two-Headed Giant",
             "704.6b": "fifteen", "704.6c": "21", "704.5e": "copy of a spell",
             "704.5t": "dungeon", "704.5u": "space sculptor", "704.5x": "protector",
             "704.5y": "can’t be its protector", "704.5w": "non-Siege battle", "704.5z": "Role", "704.5aa": "speed", "704.6d": "commander",
             "704.6e": "scheme", "704.6f": "phenomenon", "704.5r": "counters",
             "704.5p": "attached"}
    for number, word in words.items():
        assert word in rule_text(number), number


def test_step_priority_rules_say_priority():
    for sd in STEPS:
        assert sd.order_rule in RULES
        if sd.priority:
            assert "priority" in rule_text(sd.priority), sd.name


def test_decisions_have_validators():
    assert {"declare_attackers", "declare_blockers", "combat_damage_assignment", "discard",
            "legend_rule", "choose_defending_player", "order_triggers", "venture_room",
            "choose_protector", "choose_sectors", "commander_zone"} <= set(DECISIONS)


def test_rules_triggers_cite_the_rule_that_defines_them():
    """The first rule an effect cites is the one that defines the triggered ability."""
    words = {"monarch_draw": "monarch’s end step", "monarch_steal": "deals combat damage to the monarch",
             "initiative_venture": "ventures into Undercity",
             "initiative_steal": "deal combat damage to the player who has the initiative",
             "speed": "your speed increases by 1", "siege": "last defense counter",
             "exalted": "attacks alone", "pump_source": "blocks or becomes blocked",
             "rampage": "for each creature blocking it beyond the first",
             "melee": "for each opponent you attacked", "battle_cry": "each other attacking creature",
             "flanking": "becomes blocked by a creature without flanking",
             "counter_on_source": "at least one other creature with power greater",
             "mentor": "target attacking creature with power less",
             "afflict": "defending player loses N life", "annihilator": "sacrifices N permanents",
             "provoke": "block this creature this combat if able",
             "myriad": "tapped and attacking", "exile_objects": "exile the tokens at end of combat",
             "decayed": "sacrifice it at end of combat",
             "sacrifice_source": "sacrifice it at end of combat",
             "ward": "counter that spell or ability unless that player pays"}
    assert set(EFFECTS) == set(words)
    for kind, word in words.items():
        assert word in rule_text(EFFECTS[kind].cites[0]), kind


def test_apnap_rules_say_apnap():
    assert "APNAP" in rule_text("603.3b") and "active player" in rule_text("101.4")
    assert "left the game" in rule_text("800.4h") and "next player in turn order" in rule_text("800.4j")


def test_corpus_resolves_every_citation():
    corpus_mod = pytest.importorskip("judge.corpus")
    corpus = corpus_mod.load_corpus()
    cited = set()
    for registry in (TBAS, SBAS, ACTIONS):
        for entry in registry.values():
            cited.update(r for r in entry.cites if re.fullmatch(r"\d{3}\.\d+[a-z]{0,2}", r))
    for path in ENGINE.rglob("*.py"):
        cited.update(LITERAL.findall(path.read_text(encoding="utf-8")))
    missing = sorted(n for n in cited if corpus.get(n) is None)
    assert not missing
