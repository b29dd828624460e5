"""The combat keywords added with issue 34, each with its rule and its Italian name: toxic
(702.164), trample over planeswalkers (702.19c), desertwalk and snow landwalk (702.14),
protection and hexproof from multicoloured / monocoloured (702.16a, 702.11d, 105.2a–b)."""

from __future__ import annotations

import pytest

from engine_helpers import RULES_FILE, game, perm, scenario
from judge.engine import Game, IllegalAction
from judge.engine.characteristics import keywords as kw

TEXT = RULES_FILE.read_text(encoding="utf-8-sig")


def rule(number: str) -> str:
    return next(line for line in TEXT.splitlines() if line.startswith(number + " "))


@pytest.mark.parametrize("written,stored,italian,number,says", [
    ("toxic 2", "toxic 2", "tossico 2", "702.164a", "“toxic N,”"),
    ("tossico 1", "toxic 1", "tossico 1", "702.164c", "total toxic value"),
    ("trample over planeswalkers", "trample over planeswalkers", "travolgere i planeswalker",
     "702.19c", "Trample over planeswalkers is a variant of trample"),
    ("desertwalk", "desertwalk", "passa-deserti", "702.14a", "“[type]walk,”"),
    ("passa-terre neve", "snow landwalk", "passa-terre neve", "702.14c", "“snow swampwalk”"),
    ("protezione dai multicolore", "protection from multicolored", "protezione dai multicolore",
     "702.16a", "Protection from [quality]"),
    ("protection from monocolored", "protection from monocolored", "protezione dai monocolore",
     "105.2a", "A monocolored object is exactly one of the five colors"),
    ("anti-malocchio dai multicolore", "hexproof from multicolored",
     "anti-malocchio dai multicolore", "702.11d", "“Hexproof from [quality]” is a variant"),
    ("hexproof from instants", "hexproof from instants", "anti-malocchio dagli istantanei",
     "702.11d", "[quality] spells"),
    ("protection from everything", "protection from everything", "protezione da tutto",
     "702.16j", "“Protection from everything” is a variant"),
])
def test_keyword_read_stored_named_and_cited(written, stored, italian, number, says):
    (inst,) = kw.parse(written)
    assert inst.text == stored and kw.italian(stored) == italian
    assert says in rule(number)
    assert kw.known(written)


def test_multicoloured_is_105_2b():
    assert "two or more of the five colors" in rule("105.2b")


def blocking(attacker, blocker, *lands) -> Game:
    g = Game.from_dict(scenario([attacker, blocker, *lands], step="declare_attackers",
                                combat={"defending_players": ["p2"],
                                        "attackers": [{"id": "a", "target": "p2"}]}))
    g.step()
    return g


@pytest.mark.parametrize("keyword,land", [
    ("desertwalk", {"types": ["land"], "subtypes": ["Desert"]}),
    ("snow landwalk", {"types": ["land"], "supertypes": ["snow"]}),
])
def test_landwalk_by_subtype_and_supertype(keyword, land):
    """702.14c: can't be blocked as long as the defending player controls such a land."""
    g = blocking(perm("a", tapped=True, keywords=[keyword]), perm("b", controller="p2"),
                 perm("terra", controller="p2", name="Terra", **land))
    assert g.pending is None or g.pending["kind"] != "declare_blockers"   # nobody can block
    g2 = blocking(perm("a", tapped=True, keywords=[keyword]), perm("b", controller="p2"),
                  perm("terra", controller="p2", name="Foresta", types=("land",), subtypes=["Forest"]))
    assert g2.pending["kind"] == "declare_blockers"
    g2.decide({"blockers": [{"id": "b", "blocking": "a"}]})


@pytest.mark.parametrize("quality,refused,allowed", [
    ("multicolored", ["W", "U"], ["W"]),
    ("monocolored", ["G"], ["G", "B"]),
])
def test_protection_from_a_colour_count(quality, refused, allowed):
    """702.16f: not blocked by creatures with the quality; 702.16e: their damage prevented."""
    g = blocking(perm("a", tapped=True, keywords=[f"protection from {quality}"]),
                 perm("b", controller="p2", colors=refused), perm("c", controller="p2"))
    assert g.pending["kind"] == "declare_blockers"             # the colourless one may block
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": [{"id": "b", "blocking": "a"}]})
    assert ei.value.rules == ["702.16f", "509.1b"]
    g2 = blocking(perm("a", tapped=True, keywords=[f"protection from {quality}"]),
                  perm("b", controller="p2", colors=allowed))
    g2.decide({"blockers": [{"id": "b", "blocking": "a"}]})
    g3 = game([perm("x", keywords=[f"protection from {quality}"]),
               perm("s", controller="p2", colors=refused)])
    ev = g3.act("deal_damage", source="s", target="x", amount=2)
    assert any(e.kind == "damage_prevented" and "702.16e" in e.rules for e in ev)
    assert g3.state.perm("x").damage == 0


def test_hexproof_from_multicoloured_spells_of_opponents():
    def casting(colors):
        return game([perm("x", controller="p2", keywords=["hexproof from multicolored"])],
                    players=[{"id": "p1", "name": "Alice", "hand": [
                        {"id": "s", "name": "Fulmine", "types": ["instant"], "colors": colors}]},
                        {"id": "p2", "name": "Bruno"}])
    with pytest.raises(IllegalAction) as ei:
        casting(["U", "R"]).act("cast_spell", player="p1", card="s", target="x")
    assert ei.value.rules == ["601.2c", "702.11d"] and "multicolore" in ei.value.message
    casting(["R"]).act("cast_spell", player="p1", card="s", target="x")


def test_the_builder_lists_the_new_keywords():
    from judge.web.simulator import forms
    rows = {name: (written, number) for _, group in forms.keyword_help() for written, name, number in group}
    assert rows["toxic"] == ("tossico N", "702.164")
    assert rows["trample over planeswalkers"] == ("travolgere i planeswalker", "702.19c")
    assert "passa-deserti" in rows["landwalk"][0] and "passa-terre neve" in rows["landwalk"][0]
    suggestions = forms.keyword_suggestions()
    assert "protezione dai multicolore" in suggestions and "anti-malocchio dai monocolore" in suggestions


@pytest.mark.parametrize("name", sorted(kw.REFUSED_COMBAT))
def test_combat_keywords_the_engine_does_not_apply_are_refused_with_their_reason(name):
    """Every combat keyword of 702 is known or refused, with its rule and what to do instead."""
    number, _ = kw.REFUSED_COMBAT[name]
    assert name.split()[0].capitalize() in rule(number)
    with pytest.raises(kw.KeywordError) as ei:
        kw.parse(f"{name} 2")
    assert ei.value.rules == [number] and "il motore non applica" in ei.value.message
    assert not kw.known(name)
