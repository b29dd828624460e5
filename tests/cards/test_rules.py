"""The rules a card relies on: every number exists in the edition in force and is the rule
that governs the characteristic or keyword (its title or text names it)."""

from __future__ import annotations

import pytest

from judge.cards import rules as cr
from judge.cards.lookup import resolve
from judge.cards.rules import card_rules


@pytest.mark.parametrize("keyword, number", [
    ("flying", "702.9"), ("first strike", "702.7"), ("double strike", "702.4"),
    ("protection from red", "702.16"), ("equip {2}", "702.6"), ("enchant creature you control", "702.5"),
    ("swampwalk", "702.14"), ("snow forestwalk", "702.14"), ("basic landcycling {2}", "702.29"),
    ("multikicker {1}{R}", "702.33"), ("megamorph {2}", "702.37"), ("fox offering", "702.48"),
    ("commander ninjutsu {U}{B}", "702.49"), ("double agenda", "702.106"),
    ("doctor's companion", "702.124"), ("partner with ukkima, stalking shadow", "702.124"),
    ("daybound", "702.145"), ("nightbound", "702.145"), ("start your engines!", "702.179"),
    ("cumulative upkeep—add {R}", "702.24"), ("bushido 2", "702.45"),
])
def test_keywords_find_their_702_rule(corpus, keyword, number):
    assert card_rules(corpus).keyword_rule(keyword) == number


def test_an_unknown_keyword_has_no_rule(corpus):
    assert card_rules(corpus).keyword_rule("frobnicate") is None


# Characteristics cited by number: each must exist in force and say what it governs.
@pytest.mark.parametrize("number, words", [
    (cr.MANA_COST, "mana cost"), (cr.COLOR_FROM_COST, "color"), (cr.COLOR_INDICATOR, "color indicator"),
    (cr.TYPE_LINE, "type line"), (cr.CARD_TYPES, "card types"), (cr.SUBTYPES, "subtypes"),
    (cr.SUPERTYPES, "supertypes"), (cr.POWER_TOUGHNESS, "power"), (cr.STAR_POWER_TOUGHNESS, "star"),
    (cr.LOYALTY, "loyalty"), (cr.DEFENSE, "defense"),
])
def test_characteristic_rules_govern_their_characteristic(corpus, number, words):
    rule = corpus.get(number)
    assert rule is not None and words in rule.en.text.lower()


def test_a_card_lists_its_rules_each_governing_what_it_is_for(corpus):
    rules = card_rules(corpus)
    refs = {r.number: r for r in rules.for_face(resolve("Gideon Jura"))}
    assert corpus.get(refs["306"].number).en.text == "Planeswalkers"
    assert "legendary" in corpus.get("205.4d").en.text and refs["205.4d"].what == "supertipo"
    assert "704.5j" in refs                                 # the legend rule, cited by 205.4d
    assert "209.1" in refs
    bane = {r.number: r.value for r in rules.for_face(resolve("Baneslayer Angel"))}
    assert bane["702.9"] == "flying" and bane["702.16"].startswith("protection")
    for face in ("Invasion of Zendikar", "Delver of Secrets", "Fire", "Bonesplitter"):
        for ref in rules.for_face(resolve(face)):
            assert ref.number in corpus, (face, ref)
    siege = [r for r in rules.for_face(resolve("Invasion of Zendikar")) if r.value == "Siege"]
    assert siege and "Siege" in corpus.get(siege[0].number).en.text
