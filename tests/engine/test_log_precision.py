"""Defects found by judge scenarios: one event per thing, with the rule that governs it."""

from __future__ import annotations

from engine_helpers import find, game, perm, zone_ids


def blocked(attacker, blockers, target="p2"):
    return {"defending_players": ["p2"], "blockers_declared_by": ["p2"],
            "attackers": [{"id": attacker, "target": target, "blocked": True}],
            "blockers": [{"id": b, "blocking": [attacker]} for b in blockers]}


def test_702_15b_lifelink_one_life_gain_event_per_source():
    """A lifelink trampler damages its blocker and the player: one life gain of the total."""
    g = game([perm("ll", p=5, t=5, keywords=["lifelink", "trample"]),
              perm("w", controller="p2", p=0, t=2)], step="declare_blockers",
             combat=blocked("ll", ["w"]))
    g.step()
    ev = g.decide()                                   # default: 2 to the wall, 3 to Bruno
    gains = [e for e in find(ev, "life") if e.data["delta"] > 0]
    assert len(gains) == 1 and gains[0].data["delta"] == 5
    # One source, two recipients: one event, because a life gain event is a source's (119.9).
    assert gains[0].rules == ["120.3f", "702.15b", "119.9"]
    assert g.state.player("p1").life == 25


def test_702_15e_two_lifelink_sources_two_events():
    cb = {"defending_players": ["p2"], "blockers_declared_by": ["p2"],
          "attackers": [{"id": "x", "target": "p2", "blocked": False},
                        {"id": "y", "target": "p2", "blocked": False}]}
    g = game([perm("x", p=2, t=2, keywords=["lifelink"]), perm("y", p=3, t=3, keywords=["lifelink"])],
             step="declare_blockers", combat=cb)
    ev = g.step()
    gains = [e for e in find(ev, "life") if e.data["delta"] > 0]
    assert [e.data["delta"] for e in gains] == [2, 3]
    assert all(e.rules == ["120.3f", "702.15b", "702.15e", "119.9"] for e in gains)


def test_510_4_first_strike_event_once_after_a_decision():
    g = game([perm("fs", p=4, t=4, keywords=["first strike"]),
              perm("w1", controller="p2", p=1, t=2), perm("w2", controller="p2", p=1, t=2)],
             step="declare_blockers", combat=blocked("fs", ["w1", "w2"]))
    g.step()
    assert g.pending["kind"] == "combat_damage_assignment"
    g.decide()
    assert [e.rules for e in g.events if e.kind == "first_strike"] == [["510.4"]]


def test_702_26h_aura_with_phasing_phases_out_indirectly():
    g = game([perm("c", keywords=["phasing"]),
              perm("au", types=("enchantment",), subtypes=["Aura"], keywords=["phasing"],
                   enchant="creature", attached_to="c")], step="cleanup", active="p2")
    ev = g.step()
    direct = find(ev, "phase_out", rule="702.26a")[0]
    assert direct.objects == ["c"]
    ind = find(ev, "phase_out", rule="702.26h")[0]
    assert ind.rules == ["703.4a", "702.26g", "702.26h"] and ind.objects == ["au"]
    assert g.state.perm("au").phased_out_indirectly
    # it phases in with the creature, not by itself (702.26g)
    g.next_turn(defaults=True)
    ev = g.next_turn(defaults=True)
    assert not g.state.perm("au").phased_out and not g.state.perm("c").phased_out


def test_702_19d_blocked_trampler_without_blockers():
    g = game([perm("t", p=3, t=3, keywords=["trample"])], step="declare_blockers",
             combat=blocked("t", []))
    ev = g.step()
    assert find(ev, "assign")[0].rules == ["703.4k", "510.1", "702.19d"]
    assert g.state.player("p2").life == 17


def test_510_1c_blocked_creature_without_blockers_deals_no_damage_and_says_why():
    g = game([perm("n", p=2, t=2)], step="declare_blockers", combat=blocked("n", []))
    ev = g.step()
    e = find(ev, "no_combat_damage")[0]
    assert e.rules == ["703.4k", "510.1c"] and e.objects == ["n"]
    assert not find(ev, "assign") and g.state.player("p2").life == 20


def test_510_1d_blocker_whose_attacker_left_says_why():
    cb = {"defending_players": ["p2"], "blockers_declared_by": ["p2"],
          "attackers": [], "blockers": [{"id": "w", "blocking": []}]}
    g = game([perm("w", controller="p2", p=2, t=2)], step="declare_blockers", combat=cb)
    g.state.combat.attackers = [{"id": "gone", "target": "p2", "blocked": True}]
    ev = g.step()
    assert find(ev, "no_combat_damage")[0].rules == ["703.4k", "510.1d"]


def test_704_5f_creature_gets_no_704_5q_event():
    g = game([perm("a", p=1, t=1, counters={"+1/+1": 1, "-1/-1": 2})])
    ev = g.step()
    assert find(ev, "graveyard")[0].rules == ["704.5f"]
    assert not find(ev, rule="704.5q") and zone_ids(g, "p1", "graveyard") == ["a"]


def test_indestructible_note_not_repeated_after_a_decision():
    g = game([perm("d", p=2, t=2, damage=5, keywords=["indestructible"]),
              perm("k1", name="K", supertypes=["legendary"]),
              perm("k2", name="K", supertypes=["legendary"])])
    g.step()
    g.decide()
    assert len([e for e in g.events if e.kind == "indestructible"]) == 1
