"""Combat: declarations, their checks, damage assignment and dealing."""

from __future__ import annotations

import pytest

from engine_helpers import bf_ids, find, game, perm, zone_ids
from judge.engine import IllegalAction


def attack(g, attackers, blockers=None, assignments=None):
    """From beginning of combat: declare, block, and go to the end of combat."""
    ev = g.step()                                          # declare attackers step
    ev += g.decide({"attackers": attackers})
    ev += g.step()                                         # declare blockers step
    if g.pending:
        ev += g.decide({"blockers": blockers or []})
    while g.state.turn.step != "end_of_combat" and g.result is None:
        ev += g.step()
        while g.pending:
            ev += g.decide(assignments.pop(0) if assignments else None)
    return ev


def test_unblocked_attacker_damages_player():
    g = game([perm("a", p=3, t=3)], step="beginning_of_combat")
    ev = attack(g, [{"id": "a", "target": "p2"}])
    assert g.state.player("p2").life == 17
    e = [x for x in ev if x.kind == "life"][0]
    assert e.rules == ["703.4m", "510.2", "120.3a"]


def test_target_defaults_when_only_one_possible():
    g = game([perm("a", p=3, t=3)], step="beginning_of_combat")
    attack(g, ["a"])
    assert g.state.player("p2").life == 17


def test_vigilance_does_not_tap():
    g = game([perm("a", keywords=["vigilance"]), perm("b")], step="beginning_of_combat")
    g.step()
    ev = g.decide({"attackers": [{"id": "a", "target": "p2"}, {"id": "b", "target": "p2"}]})
    assert not g.state.perm("a").tapped and g.state.perm("b").tapped
    assert "702.20b" in find(ev, "attack")[0].rules and "508.1f" in find(ev, "attack")[1].rules


@pytest.mark.parametrize("kw,rules", [
    ({"tapped": True}, ["508.1a"]),
    ({"summoning_sick": True}, ["302.6", "508.1a"]),
    ({"keywords": ["defender"]}, ["702.3b"]),
])
def test_illegal_attackers_refused_state_unchanged(kw, rules):
    g = game([perm("a", **kw), perm("ok")], step="beginning_of_combat")
    g.step()
    assert g.pending["options"]["cannot_attack"][0]["rules"] == rules
    before = g.to_dict()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "a", "target": "p2"}]})
    assert ei.value.rules == rules and "non può attaccare" in ei.value.message
    assert g.to_dict() == before and g.pending is not None


def test_haste_ignores_summoning_sickness():
    g = game([perm("a", summoning_sick=True, keywords=["haste"])], step="beginning_of_combat")
    attack(g, ["a"])
    assert g.state.player("p2").life == 18


def test_cannot_attack_own_player_or_with_opponent_creature():
    g = game([perm("a"), perm("b", controller="p2")], step="beginning_of_combat")
    g.step()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "a", "target": "p1"}]})
    assert "508.1b" in ei.value.rules
    with pytest.raises(IllegalAction):
        g.decide({"attackers": [{"id": "b", "target": "p1"}]})


def test_flying_needs_flying_or_reach_to_block():
    g = game([perm("f", keywords=["flying"]), perm("g", controller="p2"),
              perm("r", controller="p2", keywords=["reach"])], step="beginning_of_combat")
    g.step()
    g.decide({"attackers": ["f"]})
    g.step()
    assert g.pending["options"]["cannot_block"][0]["id"] == "g"
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": [{"id": "g", "blocking": "f"}]})
    assert ei.value.rules == ["702.9b", "509.1b"]
    g.decide({"blockers": [{"id": "r", "blocking": "f"}]})
    assert g.state.combat.attackers[0]["blocked"]


def test_tapped_creature_cannot_block():
    g = game([perm("a"), perm("b", controller="p2", tapped=True), perm("c", controller="p2")],
             step="beginning_of_combat")
    g.step()
    g.decide({"attackers": ["a"]})
    g.step()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": [{"id": "b", "blocking": "a"}]})
    assert ei.value.rules == ["509.1a"]


def test_no_attackers_skips_blockers_and_damage():
    g = game([perm("a")], step="beginning_of_combat")
    g.step()
    g.decide({"attackers": []})
    ev = g.step()
    assert g.state.turn.step == "end_of_combat"
    assert find(ev, "skip_step")[0].rules == ["508.8"]


def test_first_strike_kills_before_regular_damage():
    g = game([perm("a", p=3, t=2), perm("fs", controller="p2", p=2, t=2, keywords=["first strike"])],
             step="beginning_of_combat")
    ev = attack(g, ["a"], [{"id": "fs", "blocking": "a"}])
    assert "a" not in bf_ids(g) and "fs" in bf_ids(g)
    assert find(ev, "first_strike")[0].rules == ["510.4"]
    assert g.state.perm("fs").damage == 0


def test_first_strike_against_double_strike():
    """A 2/2 double strike blocked by a 2/3 first strike: both deal damage first; the
    double striker deals damage again in the regular step (510.4)."""
    g = game([perm("ds", p=2, t=2, keywords=["double strike"]),
              perm("fs", controller="p2", p=2, t=3, keywords=["first strike"])],
             step="beginning_of_combat")
    attack(g, ["ds"], [{"id": "fs", "blocking": "ds"}])
    assert "ds" not in bf_ids(g) and "fs" in bf_ids(g)        # ds died in the first step
    g2 = game([perm("ds", p=2, t=3, keywords=["double strike"]),
               perm("fs", controller="p2", p=2, t=3, keywords=["first strike"])],
              step="beginning_of_combat")
    ev = attack(g2, ["ds"], [{"id": "fs", "blocking": "ds"}])
    assert "fs" not in bf_ids(g2) and "ds" in bf_ids(g2)      # 2 + 2 damage on fs
    dmg = [e for e in ev if e.kind == "damage" and e.objects[0] == "fs"]
    assert [e.step for e in dmg] == ["first_strike_damage", "combat_damage"]


def test_double_strike_unblocked_hits_twice():
    g = game([perm("ds", p=3, t=3, keywords=["double strike"])], step="beginning_of_combat")
    attack(g, ["ds"])
    assert g.state.player("p2").life == 14


def test_deathtouch_trample_assigns_one_to_blocker():
    g = game([perm("s", p=5, t=5, keywords=["deathtouch", "trample"]),
              perm("w", controller="p2", p=0, t=7)], step="beginning_of_combat")
    ev = attack(g, ["s"], [{"id": "w", "blocking": "s"}])
    assert g.state.player("p2").life == 16 and "w" not in bf_ids(g)
    assert find(ev, "destroy")[0].rules == ["704.5h", "702.2b"]


def test_trample_assignment_must_be_lethal_first():
    g = game([perm("t", p=5, t=5, keywords=["trample"]), perm("w", controller="p2", p=0, t=3)],
             step="beginning_of_combat")
    g.step(); g.decide({"attackers": ["t"]}); g.step()
    g.decide({"blockers": [{"id": "w", "blocking": "t"}]})
    g.step()
    assert g.pending["kind"] == "combat_damage_assignment"
    assert g.pending["default"] == {"assignments": {"t": {"w": 3, "p2": 2}}}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"w": 2, "p2": 3}}})
    assert ei.value.rules == ["702.19b"]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"w": 3, "p2": 3}}})
    assert "510.1e" in ei.value.rules
    g.decide({"assignments": {"t": {"w": 5}}})                # may assign all to the blocker
    assert g.state.player("p2").life == 20


def test_trample_with_blocker_removed_hits_player():
    g = game([perm("t", p=4, t=4, keywords=["trample"]), perm("w", controller="p2", p=0, t=3)],
             step="beginning_of_combat")
    g.step(); g.decide({"attackers": ["t"]}); g.step()
    g.decide({"blockers": [{"id": "w", "blocking": "t"}]})
    g.act("destroy", object="w")
    g.step()
    assert g.state.player("p2").life == 16                  # 702.19d


def test_blocked_creature_without_blockers_deals_no_damage():
    g = game([perm("a", p=4, t=4), perm("w", controller="p2", p=0, t=3)], step="beginning_of_combat")
    g.step(); g.decide({"attackers": ["a"]}); g.step()
    g.decide({"blockers": [{"id": "w", "blocking": "a"}]})
    g.act("destroy", object="w")
    g.step()
    assert g.state.player("p2").life == 20                  # 509.1h, 510.1c


def test_two_blockers_damage_division():
    """510.1c example: a 4/3 blocked by a 2/3 and a 1/1."""
    g = game([perm("er", name="Elvish Regrower", p=4, t=3),
              perm("vs", name="Vampire Spawn", controller="p2", p=2, t=3),
              perm("hh", name="Helpful Hunter", controller="p2", p=1, t=1)],
             step="beginning_of_combat")
    ev = attack(g, ["er"], [{"id": "vs", "blocking": "er"}, {"id": "hh", "blocking": "er"}],
                [{"assignments": {"er": {"vs": 1, "hh": 3}}}])
    assert bf_ids(g) == ["vs"]                              # er took 3, hh took 3
    assert g.state.perm("vs").damage == 1
    assert find(ev, "assign")


def test_lifelink_gains_life():
    g = game([perm("l", p=3, t=3, keywords=["lifelink"])], step="beginning_of_combat")
    ev = attack(g, ["l"])
    assert g.state.player("p1").life == 23
    assert [e for e in ev if e.kind == "life" and e.players == ["p1"]][0].rules == ["120.3f", "702.15b"]


def test_infect_gives_poison_and_minus_counters():
    g = game([perm("i", p=2, t=2, keywords=["infect"]), perm("i2", p=2, t=2, keywords=["infect"]),
              perm("b", controller="p2", p=0, t=3)], step="beginning_of_combat")
    ev = attack(g, ["i", "i2"], [{"id": "b", "blocking": "i2"}])
    assert g.state.player("p2").poison == 2 and g.state.player("p2").life == 20
    assert g.state.perm("b").counters == {"-1/-1": 2} and g.state.perm("b").damage == 0
    assert find(ev, "poison")[0].rules == ["703.4m", "510.2", "120.3b", "702.90b"]


def test_wither_puts_minus_counters():
    g = game([perm("w", p=2, t=2, keywords=["wither"]), perm("b", controller="p2", p=0, t=3)],
             step="beginning_of_combat")
    ev = attack(g, ["w"], [{"id": "b", "blocking": "w"}])
    assert g.state.perm("b").counters == {"-1/-1": 2}
    assert "702.80a" in [e for e in ev if e.kind == "damage"][0].rules


def test_attack_planeswalker_and_battle():
    # A battle without battle types is protected by its controller (310.9a).
    g = game([perm("a", p=3, t=3), perm("b", p=2, t=2),
              perm("pw", controller="p2", types=("planeswalker",), counters={"loyalty": 3}),
              perm("bt", controller="p2", types=("battle",), counters={"defense": 5}, protector="p2")],
             step="beginning_of_combat")
    ev = attack(g, [{"id": "a", "target": "pw"}, {"id": "b", "target": "bt"}])
    assert "pw" not in bf_ids(g) and g.state.perm("bt").counters["defense"] == 3
    assert "120.3c" in find(ev, "damage")[0].rules
    assert find(ev, rule="704.5i")


def test_protector_cannot_attack_its_battle():
    g = game([perm("a"), perm("bt", controller="p2", types=("battle",), subtypes=["Siege"],
                               counters={"defense": 5}, protector="p1")], step="beginning_of_combat")
    g.step()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"attackers": [{"id": "a", "target": "bt"}]})
    assert ei.value.rules == ["310.9b"]


def test_commander_combat_damage_accumulates_to_21():
    players = [{"id": "p1"}, {"id": "p2", "commander_damage": {"cmd": 18}}]
    g = game([perm("cmd", p=4, t=4, commander=True, supertypes=["legendary"])],
             step="beginning_of_combat", variant="commander", players=players)
    ev = attack(g, ["cmd"])
    assert g.state.player("p2").commander_damage == {"cmd": 22}
    assert find(ev, "commander_damage")[0].rules == ["903.10a"]
    assert find(ev, "lose")[0].rules == ["704.6c"] and g.result["winners"] == ["p1"]


def test_multiplayer_attacks_and_blocks_in_apnap_order():
    players = [{"id": f"p{i}"} for i in range(1, 4)]
    g = game([perm("a"), perm("b"), perm("x", controller="p2"), perm("y", controller="p3")],
             step="beginning_of_combat", variant="free-for-all", players=players)
    g.step()
    g.decide({"attackers": [{"id": "a", "target": "p2"}, {"id": "b", "target": "p3"}]})
    g.step()
    assert g.pending["player"] == "p2"
    assert g.pending["options"]["creatures"][0]["can_block"] == ["a"]
    with pytest.raises(IllegalAction):
        g.decide({"blockers": [{"id": "x", "blocking": "b"}]})   # b attacks p3
    g.decide({"blockers": [{"id": "x", "blocking": "a"}]})
    assert g.pending["player"] == "p3"
    g.decide({"blockers": []})
    assert [a["blocked"] for a in g.state.combat.attackers] == [True, False]


def test_two_headed_giant_team_blocks_and_shared_life():
    players = [{"id": "a1", "team": "A"}, {"id": "a2", "team": "A"},
               {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]
    g = game([perm("x", controller="a1", p=3, t=3), perm("y", controller="a2", p=2, t=2),
              perm("z", controller="b2", p=1, t=1)], step="beginning_of_combat",
             variant="two-headed-giant", players=players, active="a1")
    g.step()
    g.decide({"attackers": [{"id": "x", "target": "b1"}, {"id": "y", "target": "b1"}]})
    g.step()
    assert g.pending["player"] == "b2"       # b1 has no creatures: nothing to ask
    g.decide({"blockers": [{"id": "z", "blocking": "x"}]})   # b2 blocks an attacker of b1
    g.step()
    assert g.state.player("b1").life == 28 and g.state.player("b2").life == 28


def test_removed_from_combat_when_leaving():
    g = game([perm("a", p=3, t=3)], step="beginning_of_combat")
    g.step(); g.decide({"attackers": ["a"]})
    g.act("destroy", object="a")
    assert g.state.combat.attackers == []
