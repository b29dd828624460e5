"""Who may block whom (509.1a–c): each evasion ability, protection and restriction is refused
citing its rule, and the legal blocks are accepted; requirements (509.1c) and attack
requirements and restrictions (508.1c–d, goad 701.15)."""

from __future__ import annotations

import pytest

from engine_helpers import find, game, perm, scenario
from judge.engine import Game, IllegalAction


def blocking(attacker: dict, *blockers: dict, lands=(), **top) -> Game:
    """Alice's ``attacker`` (id "a") attacks Bruno; the game waits for Bruno's blocks (unless
    none of his creatures can block: then the log says why)."""
    g = Game.from_dict(scenario([attacker, *blockers, *lands], step="declare_attackers",
                                combat={"defending_players": ["p2"],
                                        "attackers": [{"id": "a", "target": "p2"}]}, **top))
    g.step()
    return g


def refused(g: Game, blocks: list[dict]) -> IllegalAction:
    before = g.to_dict()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": blocks})
    assert g.to_dict() == before and g.pending is not None          # nothing changed
    return ei.value


def accepted(g: Game, blocks: list[dict]):
    ev = g.decide({"blockers": blocks})
    assert g.pending is None or g.pending["kind"] != "declare_blockers"
    return ev


def a(**kw) -> dict:
    return perm("a", tapped=True, **kw)


def b(cid="b", **kw) -> dict:
    return perm(cid, controller="p2", **kw)


# --- evasion abilities, one by one: refused citing the rule, and the block they allow ----------

CASES = [
    # (attacker, refused blocker, its rules, allowed blocker)
    ({"keywords": ["intimidate"], "colors": ["R"]}, {}, ["702.13b", "509.1b"],
     {"colors": ["R", "W"]}),
    ({"keywords": ["intimidate"], "colors": ["R"]}, {"colors": ["G"]}, ["702.13b", "509.1b"],
     {"types": ("artifact", "creature")}),
    ({"keywords": ["fear"]}, {"colors": ["W"]}, ["702.36b", "509.1b"], {"colors": ["B"]}),
    ({"keywords": ["fear"]}, {}, ["702.36b", "509.1b"], {"types": ("artifact", "creature")}),
    ({"keywords": ["shadow"]}, {}, ["702.28b", "509.1b"], {"keywords": ["shadow"]}),
    ({}, {"keywords": ["shadow"]}, ["702.28b", "509.1b"], {}),
    ({"keywords": ["horsemanship"]}, {}, ["702.31b", "509.1b"], {"keywords": ["horsemanship"]}),
    ({"keywords": ["skulk"], "p": 2, "t": 2}, {"p": 3, "t": 3}, ["702.118b", "509.1b"],
     {"p": 2, "t": 5}),
    ({"keywords": ["flying"]}, {}, ["702.9b", "509.1b"], {"keywords": ["reach"]}),
    ({"keywords": ["can't be blocked"]}, {}, ["509.1b"], None),
    ({}, {"keywords": ["can block only creatures with flying"]}, ["509.1b"], {}),
    ({"keywords": ["flying"]}, {"keywords": ["can't block", "flying"]}, ["509.1b"], {"keywords": ["flying"]}),
    ({}, {"keywords": ["decayed"]}, ["702.147a"], {}),
    ({"keywords": ["protection from red"]}, {"colors": ["R"]}, ["702.16f", "509.1b"], {"colors": ["U"]}),
    ({"keywords": ["protection from creatures"]}, {}, ["702.16f", "509.1b"], None),
    ({"keywords": ["protection from everything"]}, {"types": ("artifact", "creature")},
     ["702.16f", "702.16j", "509.1b"], None),
    ({"keywords": ["protection from player p2"]}, {}, ["702.16f", "702.16k", "509.1b"], None),
    ({"keywords": ["protection from Goblins"]}, {"subtypes": ["Goblin"]}, ["702.16f", "509.1b"],
     {"subtypes": ["Elf"]}),
    ({"keywords": ["shadow", "flying"]}, {"keywords": ["flying"]}, ["702.28b", "509.1b"],
     {"keywords": ["flying", "shadow"]}),                       # 509.1b: cumulative
]


@pytest.mark.parametrize("att,bad,rules,good", CASES,
                         ids=[f"{c[2][0]}-{i}" for i, c in enumerate(CASES)])
def test_each_block_restriction_refused_with_its_rule(att, bad, rules, good):
    g = blocking(a(**att), b("bad", **bad), *([b("good", **good)] if good is not None else []))
    if good is None:                         # nobody can block: the log says why, with the rules
        e = find(g.events, "block")[-1]
        assert e.rules == ["703.4j", "509.1", *rules] and "Nessuna creatura di Bruno" in e.text
        assert not g.state.combat.blockers
        return
    cannot = {c["id"]: c for c in g.pending["options"]["cannot_block"]}
    assert cannot["bad"]["rules"] == rules                     # shown before answering
    e = refused(g, [{"id": "bad", "blocking": "a"}])
    assert e.rules == rules
    if good is not None:
        ev = accepted(g, [{"id": "good", "blocking": "a"}])
        assert find(ev, "block")[0].rules == ["703.4j", "509.1g"]


@pytest.mark.parametrize("kind,land,blocked", [
    ("islandwalk", {"subtypes": ["Island"]}, True),
    ("islandwalk", {"subtypes": ["Swamp"]}, False),
    ("passa-paludi", {"subtypes": ["Swamp"]}, True),
    ("snow swampwalk", {"subtypes": ["Swamp"]}, False),
    ("snow swampwalk", {"subtypes": ["Swamp"], "supertypes": ["snow"]}, True),
    ("nonbasic landwalk", {"subtypes": ["Island"], "supertypes": ["basic"]}, False),
    ("nonbasic landwalk", {"subtypes": ["Island"]}, True),
    ("legendary landwalk", {"supertypes": ["legendary"]}, True),
    ("artifact landwalk", {"types": ("artifact", "land")}, True),
])
def test_landwalk_depends_on_the_defending_players_lands(kind, land, blocked):
    land = perm("land", controller="p2", name="Terra", **{"types": ("land",), **land})
    g = blocking(a(keywords=[kind]), b(), lands=[land])
    if blocked:
        e = find(g.events, "block")[-1]
        assert e.rules == ["703.4j", "509.1", "702.14c", "509.1b"] and "controlla Terra" in e.text
    else:
        accepted(g, [{"id": "b", "blocking": "a"}])


def test_landwalk_looks_only_at_the_defending_players_lands():
    island = perm("isola", controller="p1", types=("land",), subtypes=["Island"])
    g = blocking(a(keywords=["islandwalk"]), b(), lands=[island])
    accepted(g, [{"id": "b", "blocking": "a"}])


# --- menace (702.111b), also from a keyword counter (122.1b) ------------------------------

@pytest.mark.parametrize("att", [{"keywords": ["menace"]}, {"counters": {"menace": 1}},
                                 {"counters": {"minacciare": 1}},
                                 {"until_end_of_turn": {"keywords": ["minacciare"]}}])
def test_menace_one_blocker_refused_two_accepted(att):
    g = blocking(a(**att), b("m1"), b("m2"))
    e = refused(g, [{"id": "m1", "blocking": "a"}])
    assert e.rules == ["702.111b", "509.1b"] and "due o più" in e.message
    ev = accepted(g, [{"id": "m1", "blocking": "a"}, {"id": "m2", "blocking": "a"}])
    assert [x.objects[0] for x in find(ev, "block")] == ["m1", "m2"]


def test_keyword_counters_grant_only_the_keywords_of_122_1b():
    """A "defender" counter is not a keyword counter (122.1b lists the ones there are)."""
    g = Game.from_dict(scenario([perm("a", counters={"defender": 1}),
                                 perm("f", counters={"volare": 1})], step="beginning_of_combat"))
    g.step()
    assert {c["id"] for c in g.pending["options"]["creatures"]} == {"a", "f"}
    assert g.state.perm("f").counters == {"flying": 1}               # stored in English


# --- how many creatures one creature blocks (509.1a) -----------------------------------------

def two_attackers(blocker_kw, **kw):
    return Game.from_dict(scenario(
        [perm("x1", tapped=True, p=1, t=1), perm("x2", tapped=True, p=3, t=3,
                                                  keywords=["trample"]),
         b(p=2, t=2, keywords=blocker_kw, **kw)], step="declare_attackers",
        combat={"defending_players": ["p2"], "attackers": [{"id": "x1", "target": "p2"},
                                                          {"id": "x2", "target": "p2"}]}))


def test_one_creature_blocks_one_attacker():
    g = two_attackers([])
    g.step()
    assert "max_blocks" not in g.pending["options"]["creatures"][0]
    e = refused(g, [{"id": "b", "blocking": ["x1", "x2"]}])
    assert e.rules == ["509.1a"]


@pytest.mark.parametrize("kw", [["can block an additional creature each combat"],
                                ["can block any number of creatures"]])
def test_a_creature_that_can_block_more_blocks_both(kw):
    """The example of 510.1c: a 2/2 that can block an additional creature blocks a 1/1 and a
    3/3 with trample."""
    g = two_attackers(kw)
    g.step()
    ev = accepted(g, [{"id": "b", "blocking": ["x1", "x2"]}])
    block = find(ev, "block")[0]
    assert block.rules == ["703.4j", "509.1g", "509.1a", "101.1"] and block.objects == ["b", "x1", "x2"]
    assert g.state.combat.blockers == [{"id": "b", "blocking": ["x1", "x2"]}]
    ev = g.step()                                                # damage: the blocker divides
    assert g.pending["kind"] == "combat_damage_assignment"


def test_can_block_an_additional_creature_but_not_three():
    g = Game.from_dict(scenario(
        [perm(f"x{i}", tapped=True) for i in range(3)]
        + [b(keywords=["can block an additional creature each combat"])],
        step="declare_attackers",
        combat={"defending_players": ["p2"], "attackers": [{"id": f"x{i}", "target": "p2"}
                                                          for i in range(3)]}))
    g.step()
    assert g.pending["options"]["creatures"][0]["max_blocks"] == 2
    e = refused(g, [{"id": "b", "blocking": ["x0", "x1", "x2"]}])
    assert e.rules == ["509.1a", "101.1"]


# --- requirements (509.1c) -----------------------------------------------------------------------

def test_a_creature_that_blocks_if_able_must_block():
    g = blocking(a(), b(keywords=["blocks each combat if able"]), b("c"))
    assert g.pending["default"] == {"blockers": [{"id": "b", "blocking": ["a"]}]}
    e = refused(g, [])
    assert e.rules == ["509.1c"] and "blocca in ogni combattimento se può" in e.message
    e = refused(g, [{"id": "c", "blocking": "a"}])
    assert e.rules == ["509.1c"]
    accepted(g, [{"id": "b", "blocking": "a"}, {"id": "c", "blocking": "a"}])


def test_the_menace_example_of_509_1c():
    """One creature blocks if able, another has no abilities, the attacker has menace: the only
    legal declaration blocks with both."""
    g = blocking(a(keywords=["menace"]), b("must", keywords=["blocks each combat if able"]),
                 b("other"))
    assert refused(g, [{"id": "must", "blocking": "a"}]).rules == ["702.111b", "509.1b"]
    assert refused(g, [{"id": "other", "blocking": "a"}]).rules == ["702.111b", "509.1b"]
    assert refused(g, []).rules == ["509.1c"]
    default = g.pending["default"]["blockers"]
    assert sorted(x["id"] for x in default) == ["must", "other"]
    accepted(g, [{"id": "must", "blocking": "a"}, {"id": "other", "blocking": "a"}])


def test_a_requirement_that_cannot_be_obeyed_requires_nothing():
    """A creature that blocks if able but can't block the flyer: no block is legal."""
    g = blocking(a(keywords=["flying"]), b(keywords=["blocks each combat if able"]),
                 b("r", keywords=["reach"]))
    assert g.pending["default"] == {"blockers": []}
    accepted(g, [])


def test_a_lone_menace_blocker_that_must_block_needs_a_helper():
    """Without a second creature able to block, blocking the menace creature alone is illegal,
    so the requirement can't be obeyed and not blocking is legal."""
    g = blocking(a(keywords=["menace"]), b(keywords=["blocks each combat if able"]),
                 b("flyer", tapped=True))
    assert g.pending["default"] == {"blockers": []}
    accepted(g, [])


# --- attacks: restrictions (508.1c) and requirements (508.1d, goad 701.15) --------------------

def attacking(*creatures, **top) -> Game:
    g = Game.from_dict(scenario(list(creatures), step="beginning_of_combat", **top))
    g.step()
    assert g.pending["kind"] == "declare_attackers"
    return g


def test_cant_attack_restriction():
    g = attacking(perm("x", keywords=["non può attaccare"]), perm("ok"))
    assert g.pending["options"]["cannot_attack"][0]["rules"] == ["508.1c"]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "x", "target": "p2"}]})
    assert ei.value.rules == ["508.1c"]


def test_attacks_each_combat_if_able():
    g = attacking(perm("x", keywords=["attacks each combat if able"]), perm("free"))
    assert g.pending["default"] == {"attackers": [{"id": "x", "target": "p2"}]}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "free", "target": "p2"}]})
    assert ei.value.rules == ["508.1d"] and "attacca in ogni combattimento se può" in ei.value.message
    g.decide({"attackers": [{"id": "x", "target": "p2"}]})


def test_a_tapped_creature_that_must_attack_need_not():
    g = attacking(perm("x", keywords=["attacks each combat if able"], tapped=True), perm("y"))
    g.decide({"attackers": []})


def three_players(goaded_by, **kw):
    players = [{"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"},
               {"id": "p3", "name": "Carla"}]
    return attacking(perm("x", goaded_by=goaded_by, **kw), perm("y"), players=players,
                     variant="free-for-all")


def test_goaded_creature_must_attack_a_player_other_than_the_goading_one():
    g = three_players(["p2"])
    assert g.pending["default"] == {"attackers": [{"id": "x", "target": "p3"}]}
    for bad in ([], [{"id": "x", "target": "p2"}]):
        with pytest.raises(IllegalAction) as ei:
            g.decide({"attackers": bad})
        assert ei.value.rules == ["508.1d", "701.15b"] and "spronata da Bruno" in ei.value.message
    g.decide({"attackers": [{"id": "x", "target": "p3"}, {"id": "y", "target": "p2"}]})


def test_goaded_by_every_opponent_attacks_any_of_them():
    """Goaded by both opponents (701.15c): attacking either obeys three requirements of four,
    the most possible."""
    g = three_players(["p2", "p3"])
    g.decide({"attackers": [{"id": "x", "target": "p2"}]})


def test_goaded_creature_attacks_a_planeswalker_only_if_no_player_is_possible():
    pw = perm("jace", controller="p3", types=("planeswalker",), loyalty=3)
    g = attacking(perm("x", goaded_by=["p2"]), pw, players=[
        {"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"}, {"id": "p3", "name": "Carla"}],
        variant="free-for-all")
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "x", "target": "jace"}]})
    assert ei.value.rules == ["508.1d", "701.15b"]


def test_goad_judge_action_and_its_end():
    g = game([perm("x", controller="p2")], step="end", active="p1")
    ev = g.act("goad", object="x", player="p1")
    assert find(ev, "goad")[0].rules == ["701.15a", "701.15b"] and g.state.perm("x").goaded_by == ("p1",)
    assert find(g.act("goad", object="x", player="p1"), "goad")[0].rules == ["701.15d"]
    ev = g.next_turn(defaults=True)                   # Bruno's turn: still goaded by Alice
    assert g.state.perm("x").goaded_by == ("p1",) and not find(ev, "goad")
    g.step_to("beginning_of_combat", defaults=True)
    g.step()
    assert g.pending["default"] == {"attackers": [{"id": "x", "target": "p1"}]}  # only player
    g.decide(None)
    ev = g.next_turn(defaults=True)                   # Alice's turn: the goad ends
    end = find(ev, "goad")
    assert end and end[0].rules == ["701.15a"] and g.state.perm("x").goaded_by == ()
