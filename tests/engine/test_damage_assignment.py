"""Combat damage assignment across creatures (702.19b, 702.2c, 702.19c–e) and toxic (702.164)."""

from __future__ import annotations

import pytest

from engine_helpers import bf_ids, find, game, perm
from judge.engine import IllegalAction

TWO = "can block an additional creature each combat"


def to_damage(g, attackers, blockers=()):
    """From beginning of combat: declare, block, and stop at the damage assignment."""
    g.step()
    g.decide({"attackers": attackers})
    g.step()
    if g.pending:
        g.decide({"blockers": list(blockers)})
    g.step()


def walker(pid="pw", loyalty=3, controller="p2"):
    return perm(pid, controller=controller, types=("planeswalker",), counters={"loyalty": loyalty})


def test_rule_702_19b_example_counts_the_other_attackers_damage():
    """702.19b, example: a 2/2 that can block an additional creature blocks a 1/1 and a 3/3
    with trample: 1 from each is lethal, and 2 trample over to the defending player."""
    g = game([perm("a", p=1, t=1), perm("t", p=3, t=3, keywords=["trample"]),
              perm("w", controller="p2", p=2, t=2, keywords=[TWO])], step="beginning_of_combat")
    to_damage(g, ["a", "t"], [{"id": "w", "blocking": ["a", "t"]}])
    assert g.pending["kind"] == "combat_damage_assignment" and g.pending["player"] == "p1"
    (c,) = g.pending["options"]["creatures"]
    assert c["id"] == "t" and c["lethal"] == {"w": 1}           # the 1/1 assigns the other 1
    # The figure's reason, as the stepper shows it: toughness less what the 1/1 assigns (702.19b).
    assert c["lethal_why"]["w"] == {"text": "costituzione 2 meno 1 danno assegnato da altre creature",
                                    "rules": ["120.6", "702.19b"]}
    assert g.pending["options"]["needed"] == {"w": 1}
    assert g.pending["default"]["assignments"] == {"t": {"w": 1, "p2": 2}}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"p2": 3}}})
    assert ei.value.rules == ["702.19b"] and g.pending["kind"] == "combat_damage_assignment"
    ev = g.decide({"assignments": {"t": {"w": 1, "p2": 2}}})
    while g.pending:                                           # the blocker divides its damage
        ev += g.decide()
    assert g.state.player("p2").life == 18
    assert "w" not in bf_ids(g)                                 # 1 + 1 damage: lethal
    assert any(e.rules[0] == "704.5g" and "w" in e.objects for e in find(ev, "destroy"))


def test_two_tramplers_share_the_lethal_damage_of_one_blocker():
    """702.19b: damage from other creatures being assigned in the same step counts, choices
    included; the total assignment is checked (510.1e)."""
    g = game([perm("t1", p=3, t=3, keywords=["trample"]), perm("t2", p=3, t=3, keywords=["trample"]),
              perm("w", controller="p2", p=0, t=4, keywords=[TWO])], step="beginning_of_combat")
    to_damage(g, ["t1", "t2"], [{"id": "w", "blocking": ["t1", "t2"]}])
    assert g.pending["options"]["needed"] == {"w": 4}
    assert g.pending["default"]["assignments"] == {"t1": {"w": 3}, "t2": {"w": 1, "p2": 2}}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t1": {"w": 1, "p2": 2}, "t2": {"w": 2, "p2": 1}}})
    assert ei.value.rules == ["702.19b"] and "altre creature" in ei.value.message
    g.decide({"assignments": {"t1": {"w": 2, "p2": 1}, "t2": {"w": 2, "p2": 1}}})
    assert g.state.player("p2").life == 18 and "w" not in bf_ids(g)


def test_deathtouch_of_another_attacker_makes_the_blocker_lethal():
    """702.2c: any nonzero combat damage assigned by a source with deathtouch is lethal, in
    the same computation: a 1/1 deathtouch blocked by the same 5/5 lets the trampler assign
    all its damage to the player."""
    g = game([perm("d", p=1, t=1, keywords=["deathtouch"]), perm("t", p=3, t=3, keywords=["trample"]),
              perm("w", controller="p2", p=0, t=5, keywords=[TWO])], step="beginning_of_combat")
    to_damage(g, ["d", "t"], [{"id": "w", "blocking": ["d", "t"]}])
    assert g.pending["options"]["needed"] == {"w": 0}
    assert g.pending["default"]["assignments"] == {"t": {"p2": 3}}
    g.decide({"assignments": {"t": {"p2": 3}}})
    assert g.state.player("p2").life == 17 and "w" not in bf_ids(g)


def test_deathtouch_trampler_choice_counts_one_as_lethal():
    g = game([perm("a", p=2, t=2), perm("t", p=4, t=4, keywords=["trample", "deathtouch"]),
              perm("w", controller="p2", p=0, t=6, keywords=[TWO])], step="beginning_of_combat")
    to_damage(g, ["a", "t"], [{"id": "w", "blocking": ["a", "t"]}])
    (c,) = g.pending["options"]["creatures"]
    assert c["lethal"] == {"w": 1} and c["deathtouch"] is True
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"p2": 4}}})
    assert ei.value.rules == ["702.19b", "702.2c"]
    g.decide({"assignments": {"t": {"w": 1, "p2": 3}}})
    assert g.state.player("p2").life == 17 and "w" not in bf_ids(g)


def test_trample_over_planeswalkers_unblocked():
    """702.19c: past the planeswalker's loyalty, the excess may go to its controller."""
    g = game([perm("t", p=5, t=5, keywords=["trample over planeswalkers"]), walker(loyalty=3)],
             step="beginning_of_combat")
    to_damage(g, [{"id": "t", "target": "pw"}])
    (c,) = g.pending["options"]["creatures"]
    assert c["recipients"] == ["pw", "p2"] and c["loyalty"] == {"pw": 3}
    assert g.pending["default"]["assignments"] == {"t": {"pw": 3, "p2": 2}}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"pw": 2, "p2": 3}}})
    assert ei.value.rules == ["702.19c"]
    ev = g.decide({"assignments": {"t": {"pw": 3, "p2": 2}}})
    assert g.state.player("p2").life == 18 and "pw" not in bf_ids(g)
    assert "702.19c" in find(ev, "assign")[0].rules


def test_trample_over_planeswalkers_counts_another_attackers_damage_to_the_walker():
    g = game([perm("a", p=2, t=2), perm("t", p=4, t=4, keywords=["trample over planeswalkers"]),
              walker(loyalty=3)], step="beginning_of_combat")
    to_damage(g, [{"id": "a", "target": "pw"}, {"id": "t", "target": "pw"}])
    assert g.pending["options"]["needed"] == {"pw": 1}
    assert g.pending["default"]["assignments"] == {"t": {"pw": 1, "p2": 3}}
    g.decide(None)
    assert g.state.player("p2").life == 17


def test_trample_over_planeswalkers_blocked_needs_the_blocker_first():
    g = game([perm("t", p=6, t=6, keywords=["trample over planeswalkers"]), walker(loyalty=2),
              perm("b", controller="p2", p=1, t=3)], step="beginning_of_combat")
    to_damage(g, [{"id": "t", "target": "pw"}], [{"id": "b", "blocking": "t"}])
    assert g.pending["default"]["assignments"] == {"t": {"b": 3, "pw": 2, "p2": 1}}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"assignments": {"t": {"b": 2, "pw": 2, "p2": 2}}})
    assert ei.value.rules == ["702.19b"]


def test_plain_trample_attacking_a_planeswalker_never_reaches_its_controller():
    """702.19f: without trample over planeswalkers, the excess stays on the planeswalker."""
    g = game([perm("t", p=5, t=5, keywords=["trample"]), walker(loyalty=2)],
             step="beginning_of_combat")
    to_damage(g, [{"id": "t", "target": "pw"}])
    assert g.pending is None                                   # all 5 fixed on the planeswalker
    assert g.state.player("p2").life == 20


def test_trample_over_planeswalkers_walker_removed_from_combat_hits_its_controller():
    """702.19e: the planeswalker left combat; the damage goes to the defending player."""
    g = game([perm("t", p=4, t=4, keywords=["trample over planeswalkers"]), walker(loyalty=3)],
             step="beginning_of_combat")
    g.step()
    g.decide({"attackers": [{"id": "t", "target": "pw"}]})
    g.act("destroy", object="pw")
    assert g.state.combat.attackers[0] == {"id": "t", "target": None, "blocked": False,
                                           "defender": "p2"}
    data = g.to_dict()                                          # the format keeps it
    assert data["combat"]["attackers"][0]["defender"] == "p2"
    g.step()
    ev = g.step()
    assert g.state.player("p2").life == 16
    assert "702.19e" in find(ev, "assign")[0].rules


def test_toxic_gives_poison_counters_with_combat_damage():
    """702.164c, 120.3g: poison counters equal to the total toxic value (702.164b), in
    addition to the damage's other results."""
    g = game([perm("r", p=1, t=1, keywords=["toxic 1", "tossico 2"])], step="beginning_of_combat")
    g.step()
    g.decide({"attackers": ["r"]})
    ev = []
    while g.state.turn.step != "end_of_combat":
        ev += g.step()
    assert g.state.player("p2").life == 19 and g.state.player("p2").poison == 3
    (e,) = find(ev, "poison")
    assert e.rules == ["703.4m", "510.2", "120.3g", "702.164c"] and "tossico 3" in e.text


def test_toxic_only_to_players_and_only_combat_damage():
    g = game([perm("r", p=2, t=2, keywords=["toxic 2"]), perm("b", controller="p2", p=0, t=4)],
             step="beginning_of_combat")
    g.step()
    g.decide({"attackers": ["r"]})
    g.step()
    g.decide({"blockers": [{"id": "b", "blocking": "r"}]})
    while g.state.turn.step != "end_of_combat":
        g.step()
    assert g.state.player("p2").poison == 0                    # damage to a creature
    g.act("deal_damage", source="r", target="p2", amount=2)
    assert g.state.player("p2").poison == 0                    # noncombat damage
