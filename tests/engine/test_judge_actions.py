"""Judge actions outside the turn structure, and undo/redo."""

from __future__ import annotations

import pytest

from engine_helpers import bf_ids, card, find, game, library, perm, zone_ids
from judge.engine import IllegalAction
from judge.engine.registry import ACTIONS, RAW_EDITS


def test_deal_damage_to_creature_and_player():
    g = game([perm("src", p=1, t=1, keywords=["lifelink"]), perm("c", controller="p2", p=2, t=4)])
    ev = g.act("deal_damage", source="src", target="c", amount=3)
    assert g.state.perm("c").damage == 3 and g.state.player("p1").life == 23
    assert find(ev, "damage")[0].rules == ["120.3e"]
    ev = g.act("deal_damage", target="p2", amount=5)
    assert g.state.player("p2").life == 15 and find(ev, "life")[0].rules == ["120.3a"]


def test_damage_to_noncreature_refused():
    g = game([perm("l", types=("land",))])
    with pytest.raises(IllegalAction) as ei:
        g.act("deal_damage", target="l", amount=1)
    assert ei.value.rules == ["120.1a"]


def test_life_gain_loss_and_set():
    g = game(players=[{"id": "p1", "cant_gain_life": True}, {"id": "p2", "cant_lose_life": True}])
    ev = g.act("gain_life", player="p1", amount=3)
    assert g.state.player("p1").life == 20 and find(ev, "life_prevented")[0].rules == ["119.3", "119.7"]
    ev = g.act("lose_life", player="p2", amount=3)
    assert g.state.player("p2").life == 20 and "119.8" in find(ev, "life_prevented")[0].rules
    ev = g.act("set_life", player="p1", value=10)
    assert g.state.player("p1").life == 10 and find(ev, "life")[0].rules == ["119.5"]
    ev = g.act("set_life", player="p2", value=30)
    assert g.state.player("p2").life == 30


def test_pay_life_rules():
    g = game(players=[{"id": "p1", "life": 3}, {"id": "p2", "life": 0, "cant_lose_life": True}])
    with pytest.raises(IllegalAction) as ei:
        g.act("pay_life", player="p1", amount=4)
    assert ei.value.rules == ["119.4"]
    g.act("pay_life", player="p1", amount=3)
    assert g.state.player("p1").life == 0 and g.result is not None
    g2 = game(players=[{"id": "p1"}, {"id": "p2", "cant_lose_life": True}])
    ev = g2.act("pay_life", player="p2", amount=0)
    assert find(ev, "pay_life")[0].rules == ["119.4b"]
    with pytest.raises(IllegalAction) as ei:
        g2.act("pay_life", player="p2", amount=1)
    assert ei.value.rules == ["119.8"]


def test_draw_n_one_at_a_time_and_each_player_apnap():
    g = game(active="p2")
    ev = g.act("draw", player="p1", count=3)
    assert [e.rules for e in find(ev, "draw")] == [["121.1", "121.2"]] * 3
    ev = g.act("each_player_draws", count=1)
    assert [e.players for e in find(ev, "draw")] == [["p2"], ["p1"]]
    assert find(ev, "draw")[0].rules == ["121.2c"]


def test_discard_mill_move_tap_counters_token_mana():
    g = game(players=[{"id": "p1", "hand": [card("h1", "A", ("land",)), card("h2", "B", ("land",))],
                       "library": library("a", 2)}, {"id": "p2"}])
    assert find(g.act("discard", player="p1", cards=["h1"]), "discard")[0].rules == ["701.9a"]
    ev = g.act("mill", player="p1", count=5)
    assert find(ev, "mill")[0].rules == ["701.17a", "701.17b"] and len(zone_ids(g, "p1", "graveyard")) == 3
    ev = g.act("move", object="h2", zone="battlefield")
    assert "h2" in bf_ids(g) and find(ev, "move")[0].rules == ["400.7", "110.2", "110.2a"]
    assert find(g.act("tap", object="h2"), "tap")[0].rules == ["701.26a"]
    with pytest.raises(IllegalAction) as ei:
        g.act("tap", object="h2")
    assert ei.value.rules == ["701.26a"]
    assert find(g.act("untap", object="h2"), "untap")[0].rules == ["701.26b"]
    ev = g.act("add_counters", target="h2", kind="charge", count=2)
    assert find(ev, "counters")[0].rules == ["122.6"]
    ev = g.act("create_token", controller="p2", name="Soldato", power=1, toughness=1, count=2)
    tokens = [p for p in g.state.battlefield if p.token]
    assert len(tokens) == 2 and all(t.summoning_sick and t.owner == "p2" for t in tokens)
    assert find(ev, "create_token")[0].rules == ["111.2", "701.7a"]
    assert find(g.act("add_mana", player="p1", mana={"G": 2}), "add_mana")[0].rules == ["106.4"]


def test_destroy_indestructible_and_sacrifice():
    g = game([perm("i", keywords=["indestructible"]), perm("s")])
    assert find(g.act("destroy", object="i"), "indestructible")[0].rules == ["702.12b"]
    assert find(g.act("sacrifice", object="i"), "sacrifice")[0].rules == ["701.21a"]
    assert bf_ids(g) == ["s"]


def test_token_cannot_come_back():
    g = game([perm("t", token=True)])
    g.act("move", object="t", zone="graveyard", check_sba=False)
    with pytest.raises(IllegalAction) as ei:
        g.act("move", object="t", zone="battlefield")
    assert ei.value.rules == ["111.8"]


def test_unknown_action_and_bad_params_are_italian_errors():
    g = game()
    with pytest.raises(IllegalAction):
        g.act("volare")
    with pytest.raises(IllegalAction):
        g.act("draw", giocatore="p1")
    with pytest.raises(IllegalAction):
        g.act("gain_life", player="p1", amount=10**100)
    with pytest.raises(IllegalAction):
        g.act("gain_life", player="zz", amount=1)


def test_actions_refused_while_decision_pending():
    g = game([perm("a")], step="beginning_of_combat")
    g.step()
    with pytest.raises(IllegalAction):
        g.act("gain_life", player="p1", amount=1)
    with pytest.raises(IllegalAction):
        g.step()


def test_every_action_has_citations_and_summary():
    """A raw edit cites no rule (none governs it) and says it is one."""
    for name, entry in ACTIONS.items():
        assert entry.summary, name
        if name in RAW_EDITS:
            assert not entry.cites and entry.summary.startswith("Modifica diretta"), name
        else:
            assert entry.cites, name


def test_undo_redo_restores_exact_states():
    g = game([perm("a", p=3, t=3)], step="beginning_of_combat")
    snapshots = [g.to_dict()]
    g.step(); snapshots.append(g.to_dict())
    g.decide({"attackers": ["a"]}); snapshots.append(g.to_dict())
    g.step(); snapshots.append(g.to_dict())
    g.step(); snapshots.append(g.to_dict())
    n_events = len(g.events)
    g.undo(4)
    assert g.to_dict() == snapshots[0] and g.events == []
    g.redo(2)
    assert g.to_dict() == snapshots[2]
    g.redo(2)
    assert g.to_dict() == snapshots[4] and len(g.events) == n_events
    g.undo_to(1)
    assert g.to_dict() == snapshots[1] and g.history == ["passo da beginning_of_combat"]
    g.undo_to(0)
    g.act("gain_life", player="p1", amount=1)
    assert not g.can_redo()
    with pytest.raises(IllegalAction):
        g.undo(99)


def test_failed_operation_leaves_state_and_history_unchanged():
    g = game()
    before = g.to_dict()
    with pytest.raises(IllegalAction):
        g.act("pay_life", player="p1", amount=50)
    assert g.to_dict() == before and g.history == []


def test_game_over_refuses_steps():
    g = game(players=[{"id": "p1", "life": 0}, {"id": "p2"}])
    g.step()
    with pytest.raises(IllegalAction) as ei:
        g.step()
    assert ei.value.rules == ["104.2a"]


def test_stack_spell_resolves_to_battlefield():
    g = game(players=[{"id": "p1", "hand": [card("c", "Orso", ("creature",), 2, 2)]}, {"id": "p2"}])
    g.act("cast_spell", player="p1", card="c")
    assert g.state.stack and g.state.turn.spells_cast == {"p1": 1}
    ev = g.step()
    assert "c" in bf_ids(g) and find(ev, "resolve")[0].rules == ["405.5", "608.3a"]
    assert find(ev, "priority")[0].rules == ["117.3b"] and g.state.turn.step == "precombat_main"


def test_events_and_pending_are_json_serialisable():
    import json
    g = game([perm("a")], step="beginning_of_combat")
    ev = g.step()
    json.dumps([e.to_dict() for e in ev])
    json.dumps(g.pending)
    assert set(ev[0].to_dict()) >= {"rules", "text", "kind", "objects", "players", "turn", "step"}


def test_each_player_discards_choices_in_apnap_order_then_together():
    hand = lambda p: [card(f"{p}h{i}", f"Carta {p}{i}") for i in range(3)]
    players = [{"id": "p1", "hand": hand("p1")}, {"id": "p2", "hand": hand("p2")},
               {"id": "p3", "hand": [card("p3h0", "Unica")]}]
    g = game(variant="free-for-all", players=players, active="p2")
    g.act("each_player_discards", count=2)
    p = g.pending
    assert p["kind"] == "discard" and p["player"] == "p2" and p["rules"] == ["701.9a", "101.4"]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"cards": ["p2h0"]})
    assert ei.value.rules == ["701.9a"]
    g.decide({"cards": ["p2h0", "p2h1"]})
    assert g.pending["player"] == "p1"                     # p3 has no choice: one card
    assert zone_ids(g, "p2", "hand") == ["p2h0", "p2h1", "p2h2"]     # nothing discarded yet
    ev = g.decide()
    assert [e.players for e in find(ev, "discard")] == [["p2"], ["p3"], ["p1"]]
    assert all(e.rules == ["701.9a", "101.4"] for e in find(ev, "discard"))
    assert zone_ids(g, "p1", "graveyard") == ["p1h1", "p1h2"] and zone_ids(g, "p3", "hand") == []


def test_copy_an_ability_on_the_stack():
    g = game(stack=[{"id": "ab", "kind": "ability", "controller": "p2", "text": "Abilità",
                     "source": "a1"}],
             players=[{"id": "p1", "graveyard": [card("a1")]}, {"id": "p2"}])
    ev = g.act("copy_spell", spell="ab")
    assert find(ev, "copy")[0].rules == ["707.10", "707.10b"]
    top = g.state.stack[-1]
    assert top.kind == "ability" and top.source == "a1" and top.controller == "p2"
    with pytest.raises(IllegalAction) as ei:
        g.act("copy_spell", spell="nessuna")
    assert ei.value.rules == ["707.10"]


def test_action_parameters_checked_in_italian():
    g = game()
    with pytest.raises(IllegalAction) as ei:
        g.act("draw", giocatore="p1")
    assert "parametro sconosciuto" in ei.value.message and "player" in ei.value.message
    with pytest.raises(IllegalAction) as ei:
        g.act("deal_damage", target="p2")
    assert "mancano parametri obbligatori" in ei.value.message and "amount" in ei.value.message
    with pytest.raises(IllegalAction) as ei:
        g.act("create_token", controller="p1", name="X", types=["dungeon"])
    assert "types" in ei.value.message
