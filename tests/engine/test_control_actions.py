"""Judge actions on control, combat and phasing: change_control (613.1b, 506.4, 302.6),
remove_from_combat (506.4), phase_out / phase_in (702.26); a combat whose creatures are not
controlled by the attacking and defending players is refused (506.2, 506.4)."""

from __future__ import annotations

import pytest

from engine_helpers import find, four_players, game, perm, scenario
from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.characteristics import derived


def attacking(bf, attackers) -> Game:
    g = game(bf, step="beginning_of_combat")
    g.step()
    g.decide({"attackers": attackers})
    return g


def controller(g: Game, oid: str) -> str:
    return derived.controller(g.state, g.state.perm(oid))


def test_steal_until_end_of_turn_is_a_layer_2_effect_that_ends_in_cleanup():
    g = game([perm("orso", name="Orso Grizzly")])
    ev = g.act("change_control", object="orso", player="p2")
    (e,) = find(ev, "control")
    assert e.rules == ["613.1b", "611.2a", "611.2c", "514.2", "302.6"]
    assert controller(g, "orso") == "p2" and g.state.perm("orso").controller == "p1"
    (eff,) = g.state.effects
    assert eff.does == [{"op": "control", "player": "p2"}] and eff.duration == "end_of_turn"
    assert eff.affects == {"objects": ["orso"]}
    assert g.state.perm("orso").summoning_sick                 # 302.6
    ev = g.step_to("cleanup")
    back = [x for x in find(ev, "control") if "514.2" in x.rules]
    assert back and back[0].rules == ["514.2", "613.1b", "302.6"]
    assert controller(g, "orso") == "p1"


def test_steal_indefinitely_lasts_beyond_the_turn():
    g = game([perm("orso")])
    g.act("change_control", object="orso", player="p2", duration="indefinitely")
    assert g.state.effects[0].duration == "game"
    g.next_turn(defaults=True)
    g.next_turn(defaults=True)
    assert controller(g, "orso") == "p2"
    with pytest.raises(IllegalAction) as ei:
        g.act("change_control", object="orso", player="p1", duration="per sempre")
    assert ei.value.rules == ["611.2a"]


def test_stealing_an_attacker_removes_it_from_combat():
    """506.4: a permanent whose controller changes is removed from combat."""
    g = attacking([perm("orso", p=3, t=3)], [{"id": "orso", "target": "p2"}])
    ev = g.act("change_control", object="orso", player="p2")
    assert "506.4" in find(ev, "control")[0].rules and g.state.combat.attackers == []
    while g.state.turn.step != "postcombat_main":
        g.step()
    assert g.state.player("p2").life == 20                     # no damage to its own controller


def test_a_stolen_creature_cannot_attack_for_its_new_controller():
    """302.6: not under its controller's control continuously since their turn began."""
    g = game([perm("lupo", controller="p2"), perm("orso")], step="beginning_of_combat")
    g.act("change_control", object="lupo", player="p1")
    g.step()
    blocked = {c["id"]: c["rules"] for c in g.pending["options"]["cannot_attack"]}
    assert "302.6" in blocked["lupo"]


def test_stealing_what_is_already_yours_changes_nothing():
    g = game([perm("orso")])
    ev = g.act("change_control", object="orso", player="p1")
    assert "già" in find(ev, "control")[0].text and not g.state.perm("orso").summoning_sick


def test_change_control_is_undone():
    g = game([perm("orso")])
    before = g.to_dict()
    g.act("change_control", object="orso", player="p2")
    g.undo()
    assert g.to_dict() == before and controller(g, "orso") == "p1"


def test_control_change_saved_and_loaded():
    g = game([perm("orso")])
    g.act("change_control", object="orso", player="p2")
    again = Game.from_dict(g.to_dict())
    assert controller(again, "orso") == "p2"


def test_control_effect_ends_when_its_player_leaves_the_game():
    """800.4a: effects that give a departed player control of objects end."""
    g = game([perm("orso", controller="p1")], variant="free-for-all", players=four_players())
    g.act("change_control", object="orso", player="p3", duration="indefinitely")
    g.act("concede", player="p3")
    assert controller(g, "orso") == "p1"


def test_remove_from_combat():
    g = attacking([perm("orso", p=3, t=3), perm("lupo", p=2, t=2)],
                  [{"id": "orso", "target": "p2"}, {"id": "lupo", "target": "p2"}])
    ev = g.act("remove_from_combat", object="orso")
    (e,) = find(ev, "remove_from_combat")
    assert e.rules == ["506.4"] and [a["id"] for a in g.state.combat.attackers] == ["lupo"]
    with pytest.raises(IllegalAction) as ei:
        g.act("remove_from_combat", object="orso")
    assert ei.value.rules == ["506.4"]
    while g.state.turn.step != "postcombat_main":
        g.step()
    assert g.state.player("p2").life == 18                     # only lupo's damage
    g2 = attacking([perm("orso", p=3, t=3), perm("pw", controller="p2", types=("planeswalker",),
                                                 counters={"loyalty": 4})],
                   [{"id": "orso", "target": "pw"}])
    ev = g2.act("remove_from_combat", object="pw")
    assert find(ev, "remove_from_combat")[0].rules == ["506.4", "506.4c"]
    assert g2.state.combat.attackers[0]["target"] is None


def test_phase_out_and_in_with_what_is_attached():
    """702.26b: treated as though it doesn't exist, removed from combat; 702.26g: what is
    attached phases out indirectly and comes back with it, never alone."""
    g = attacking([perm("orso", p=2, t=2),
                   perm("spada", types=("artifact",), subtypes=["Equipment"], attached_to="orso")],
                  [{"id": "orso", "target": "p2"}])
    ev = g.act("phase_out", object="orso")
    (e,) = find(ev, "phase_out")
    assert e.rules == ["702.26b", "702.26d", "702.26g", "506.4"]
    orso, spada = g.state.perm("orso"), g.state.perm("spada")
    assert orso.phased_out and not orso.phased_out_indirectly
    assert spada.phased_out and spada.phased_out_indirectly and spada.attached_to == "orso"
    assert g.state.combat.attackers == []
    with pytest.raises(IllegalAction):
        g.act("tap", object="orso")                             # 702.26b
    with pytest.raises(IllegalAction) as ei:
        g.act("phase_in", object="spada")
    assert ei.value.rules == ["702.26g"]
    ev = g.act("phase_in", object="orso")
    assert find(ev, "phase_in")[0].rules == ["702.26c", "702.26g"]
    assert not g.state.perm("spada").phased_out and g.state.perm("spada").attached_to == "orso"
    with pytest.raises(IllegalAction) as ei:
        g.act("phase_in", object="orso")
    assert ei.value.rules == ["702.26c"]
    g.undo(2)
    assert not g.state.perm("orso").phased_out and g.state.combat.attackers


def test_aura_phased_out_directly_comes_back_unattached_if_its_creature_left():
    """702.26i: it phases in unattached; state-based actions apply (704.5m)."""
    g = game([perm("orso"), perm("volo", types=("enchantment",), subtypes=["Aura"],
                                 enchant="creature", attached_to="orso")])
    g.act("phase_out", object="volo")
    g.act("destroy", object="orso")
    ev = g.act("phase_in", object="volo")
    assert "702.26i" in find(ev, "phase_in")[0].rules
    assert g.state.perm("volo") is None                        # 704.5m


def test_combat_of_creatures_the_attacking_player_does_not_control_is_refused():
    data = scenario([perm("orso", controller="p2"), perm("lupo", controller="p1")],
                    step="declare_blockers",
                    combat={"attackers": [{"id": "orso", "target": "p2", "blocked": True}],
                            "blockers": [{"id": "lupo", "blocking": ["orso"]}]})
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(data)
    paths = dict(ei.value.errors)
    assert "506.2" in paths["combat.attackers[0].id"] and "506.4" in paths["combat.attackers[0].id"]
    assert "Bruno" in paths["combat.attackers[0].id"]
    assert "combat.blockers[0].id" in paths


def test_two_headed_giant_team_attacks_together():
    data = scenario([perm("a", controller="p1"), perm("b", controller="p2")],
                    step="declare_blockers", variant="two-headed-giant", players=four_players(),
                    combat={"attackers": [{"id": "a", "target": "p3"}, {"id": "b", "target": "p4"}]})
    Game.from_dict(data)                                       # 805.10a: the active team
