"""The rules' own triggered abilities (monarch, initiative, speed, Siege) and APNAP order
when several abilities trigger at once (101.4, 603.3b)."""

from __future__ import annotations

import pytest

from engine_helpers import bf_ids, find, four_players, game, perm, zone_ids
from judge.engine import IllegalAction


def attacking(attackers, defenders=("p1",)):
    return {"defending_players": list(defenders),
            "attackers": [{"id": a, "target": t, "blocked": False} for a, t in attackers],
            "blockers_declared_by": list(defenders)}


# --- the monarch (725.2) -------------------------------------------------------------

def test_725_2_monarch_draws_at_the_beginning_of_their_end_step():
    g = game(step="postcombat_main", monarch="p1")
    ev = g.step()
    trig = find(ev, "trigger")[0]
    assert trig.rules == ["725.2", "603.3"] and g.state.stack[-1].controller == "p1"
    assert find(ev, "priority")[0].rules == ["513.1", "117.3a"]     # after the trigger
    ev = g.step()
    assert find(ev, "draw")[0].rules == ["725.2", "121.1"]
    assert zone_ids(g, "p1", "hand") == ["a0"]


def test_725_2_no_draw_on_another_players_end_step():
    g = game(step="postcombat_main", monarch="p2")
    ev = g.step()
    assert not find(ev, "trigger") and not g.state.stack


def test_725_2_combat_damage_to_the_monarch_makes_its_controller_monarch():
    g = game([perm("orso", controller="p2", p=3, t=3)], step="declare_blockers", active="p2",
             monarch="p1", combat=attacking([("orso", "p1")]))
    ev = g.step()
    assert g.state.monarch == "p1"                          # triggered, on the stack
    assert find(ev, "trigger")[0].rules == ["725.2", "603.3"]
    assert g.state.stack[-1].controller == "p1"              # controlled by the monarch
    ev = g.step()
    assert g.state.monarch == "p2"
    assert find(ev, "monarch")[0].rules == ["725.2", "725.3"]


def test_725_2_two_attackers_the_monarch_orders_the_triggers():
    """Creatures of two players hit the monarch: two triggers, both controlled by the
    monarch, who chooses their order (603.3b); the last to resolve decides.  Two players'
    creatures attack together with shared team turns (805.10a): Two-Headed Giant."""
    bf = [perm("b1", controller="p3", p=1, t=1), perm("c1", controller="p4", p=1, t=1)]
    g = game(bf, step="declare_blockers", active="p3", variant="two-headed-giant",
             players=four_players(), monarch="p1",
             combat=attacking([("b1", "p1"), ("c1", "p1")]))
    g.step()
    p = g.pending
    assert p["kind"] == "order_triggers" and p["player"] == "p1"
    assert p["rules"] == ["603.3b", "805.7"]
    by_text = {a["text"].split("(")[1].split(" ")[0]: a["id"] for a in p["options"]["abilities"]}
    ev = g.decide({"order": [by_text["c1"], by_text["b1"]]})    # b1's resolves first
    assert find(ev, "trigger_order")[0].rules == ["603.3b", "805.7"]
    g.step()
    assert g.state.monarch == "p3"
    g.step()
    assert g.state.monarch == "p4"                     # c1's resolves last


# --- the initiative (726.2) and Undercity ----------------------------------------------

def test_726_2_taking_the_initiative_ventures_into_undercity():
    g = game()
    ev = g.act("take_initiative", player="p1")
    assert find(ev, "initiative")[0].rules == ["726.3"]
    assert find(ev, "trigger")[0].rules == ["726.2", "603.3"]
    ev = g.step()                                            # the venture resolves
    v = find(ev, "venture")[0]
    assert v.rules == ["726.2", "701.49d", "309.4a"]
    undercity = g.state.player("p1").command[0]
    assert undercity.name == "Undercity" and undercity.venture_marker == "Secret Entrance"
    room = find(ev, "trigger")[0]
    assert room.rules == ["309.4c", "603.3"] and "Secret Entrance" in room.text
    ev = g.step()                                            # the room ability: the judge applies it
    assert find(ev, "resolve")[0].rules == ["405.5", "608.2n"]


def test_726_2_the_holder_ventures_at_the_beginning_of_their_upkeep_only():
    g = game(step="untap", initiative="p1")
    ev = g.step()                                            # p1's upkeep begins
    trig = find(ev, "trigger")
    assert [t.rules for t in trig] == [["726.2", "603.3"]] and trig[0].players == ["p1"]
    assert g.state.stack[-1].effect == {"kind": "initiative_venture"}
    assert find(ev, "priority")[0].rules == ["503.1", "117.3a"]   # after the trigger
    ev = g.step()
    assert find(ev, "venture")[0].rules == ["726.2", "701.49d", "309.4a"]
    other = game(step="untap", initiative="p2")
    assert not find(other.step(), "trigger")                 # not on another player's upkeep


def test_726_2_upkeep_venture_asks_the_room_when_the_dungeon_branches():
    g = game(step="untap", initiative="p1")
    g.act("take_initiative", player="p1", check_sba=False)   # in the untap step: waits
    assert g.state.waiting_triggers and not g.state.stack
    g.step()                                                 # upkeep: two abilities, same player
    assert g.pending["kind"] == "order_triggers"
    g.decide()
    g.step()                                                 # upkeep venture: enters Undercity
    g.step()                                                 # its room ability
    g.step()                                                 # "taking" venture: a branch
    p = g.pending
    assert p["kind"] == "venture_room" and p["options"]["rooms"] == ["Forge", "Lost Well"]
    assert p["rules"] == ["726.2", "701.49b", "309.5a"] and p["default"] == {"room": "Forge"}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"room": "Throne of the Dead Three"})
    assert ei.value.rules == ["701.49b", "309.5a"]
    ev = g.decide({"room": "Lost Well"})
    assert find(ev, "venture")[0].rules == ["726.2", "701.49b", "309.5a"]
    assert g.state.player("p1").command[0].venture_marker == "Lost Well"


def test_726_2_combat_damage_takes_the_initiative_once_per_player():
    bf = [perm("g1", controller="p2", p=1, t=1), perm("g2", controller="p2", p=1, t=1)]
    g = game(bf, step="declare_blockers", active="p2", initiative="p1",
             combat=attacking([("g1", "p1"), ("g2", "p1")]))
    ev = g.step()
    trig = find(ev, "trigger")
    assert len(trig) == 1 and trig[0].rules == ["726.2", "603.3"]   # "one or more creatures"
    ev = g.step()
    assert g.state.initiative == "p2"
    assert find(ev, "initiative")[0].rules == ["726.2", "726.3"]
    assert find(ev, "trigger")[0].rules == ["726.2", "603.3"]       # and p2 ventures


def test_726_5_taking_it_again_still_ventures():
    g = game(initiative="p1")
    ev = g.act("take_initiative", player="p1")
    assert find(ev, "initiative")[0].rules == ["726.3", "726.5"]
    assert find(ev, "trigger")[0].rules == ["726.2", "603.3"]


# --- speed (702.179d) ---------------------------------------------------------------------

def test_702_179d_speed_increases_once_each_turn():
    g = game([perm("auto", keywords=["start your engines!"])],
             players=[{"id": "p1", "speed": 2}, {"id": "p2"}])
    ev = g.act("lose_life", player="p2", amount=1)
    assert find(ev, "trigger")[0].rules == ["702.179d", "603.3"]
    ev = g.step()
    assert g.state.player("p1").speed == 3 and find(ev, "speed")[0].rules == ["702.179d"]
    ev = g.act("deal_damage", target="p2", amount=2)
    assert not find(ev, "trigger")                       # only once each turn
    assert g.state.player("p1").speed == 3


def test_702_179d_not_on_an_opponents_turn_nor_at_max_speed():
    g = game(players=[{"id": "p1", "speed": 1}, {"id": "p2", "speed": 4}], active="p2")
    ev = g.act("lose_life", player="p2", amount=1)       # p2's own loss, p2's turn
    assert not find(ev, "trigger")
    ev = g.act("lose_life", player="p1", amount=1)       # p2 has max speed: no trigger (603.4)
    assert not find(ev, "trigger") and g.state.player("p2").speed == 4


def test_702_179d_intervening_if_checked_again_on_resolution():
    g = game(players=[{"id": "p1", "speed": 3}, {"id": "p2"}])
    g.act("lose_life", player="p2", amount=1)
    g.state.player("p1").speed = 4                      # an effect set it meanwhile
    ev = g.step()
    assert find(ev, "speed")[0].rules == ["702.179d", "603.4"]
    assert g.state.player("p1").speed == 4


# --- the Siege (310.12b) ------------------------------------------------------------------------

def test_310_12b_siege_exiled_by_its_trigger_not_put_into_the_graveyard():
    bt = perm("assedio", name="Assedio", controller="p2", types=("battle",), subtypes=["Siege"],
              counters={"defense": 3}, protector="p1")
    g = game([bt])
    ev = g.act("deal_damage", target="assedio", amount=3)
    assert find(ev, "trigger")[0].rules == ["310.12b", "603.3"]
    assert not find(ev, rule="704.5v") and "assedio" in bf_ids(g)     # waits for its ability
    ev = g.step()
    assert find(ev, "siege")[0].rules == ["310.12b"]
    assert zone_ids(g, "p2", "exile") == ["assedio"] and zone_ids(g, "p2", "graveyard") == []


def test_310_12b_removing_the_last_counter_also_triggers():
    bt = perm("assedio", controller="p2", types=("battle",), subtypes=["Siege"],
              counters={"defense": 2}, protector="p1")
    g = game([bt])
    ev = g.act("remove_counters", target="assedio", kind="defense", count=2)
    assert find(ev, "trigger")[0].rules == ["310.12b", "603.3"]


def test_704_5w_a_non_siege_battle_with_defense_0_goes_to_its_owners_graveyard():
    bt = perm("bt", owner="p3", controller="p2", types=("battle",), counters={"defense": 1}, protector="p2")
    g = game([bt], variant="free-for-all", players=four_players())
    ev = g.act("deal_damage", target="bt", amount=1)
    assert not find(ev, "trigger")                    # no Siege ability to wait for (310.8)
    assert find(ev, "graveyard")[0].rules == ["704.5w"] and zone_ids(g, "p3", "graveyard") == ["bt"]


# --- APNAP (101.4, 603.3b) ------------------------------------------------------------------------

def test_603_3b_judge_trigger_several_players_apnap():
    g = game(variant="free-for-all", players=four_players(), active="p2")
    g.act("trigger", abilities=[{"controller": "p1", "text": "A"}, {"controller": "p3", "text": "C"},
                                {"controller": "p2", "text": "B1"}, {"controller": "p2", "text": "B2"}])
    p = g.pending
    assert p["kind"] == "order_triggers" and p["player"] == "p2"
    assert [a["text"] for a in p["options"]["abilities"]] == ["B1", "B2"]
    assert p["default"]["order"] == [a["id"] for a in p["options"]["abilities"]]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"order": [p["options"]["abilities"][0]["id"]]})
    assert ei.value.rules == ["603.3b", "101.4"]
    ev = g.decide({"order": [a["id"] for a in reversed(p["options"]["abilities"])]})
    # the active player's go on the stack first, then each other player in turn order
    assert [i.text for i in g.state.stack] == ["B2", "B1", "C", "A"]
    orders = find(ev, "trigger_order")
    assert [e.players for e in orders] == [["p2"], ["p3"], ["p1"]]
    assert all(e.rules == ["603.3b", "101.4"] for e in orders)
    assert [e.rules for e in find(ev, "trigger")] == [["603.3"]] * 4


def test_603_3b_second_part_abilities_that_trigger_on_triggering():
    g = game()
    g.act("trigger", abilities=[{"controller": "p2", "text": "Innescata da un'innescata",
                                 "on_trigger": True},
                                {"controller": "p2", "text": "Normale"},
                                {"controller": "p1", "text": "Di Alice"}])
    assert [i.text for i in g.state.stack] == ["Di Alice", "Normale", "Innescata da un'innescata"]


def test_805_7_shared_team_turns_order_by_team():
    players = [{"id": "a1", "team": "A"}, {"id": "a2", "team": "A"},
               {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]
    g = game(variant="two-headed-giant", players=players, active="b1")
    g.act("trigger", abilities=[{"controller": "a1", "text": "X"}, {"controller": "b2", "text": "Y"},
                                {"controller": "b1", "text": "Z"}])
    p = g.pending
    assert p["player"] == "b1" and p["rules"] == ["603.3b", "805.7"]
    assert {a["controller"] for a in p["options"]["abilities"]} == {"b1", "b2"}
    g.decide()
    assert [i.text for i in g.state.stack][-1] == "X"             # the nonactive team last


def test_identical_abilities_need_no_ordering_choice():
    g = game()
    g.act("trigger", abilities=[{"controller": "p1", "text": "Uguale"}] * 2)
    assert g.pending is None and len(g.state.stack) == 2


def test_trigger_single_form_still_goes_on_the_stack():
    g = game()
    ev = g.act("trigger", controller="p2", text="Abilità di Bruno")
    assert find(ev, "trigger")[0].rules == ["603.3"] and g.state.stack[-1].controller == "p2"


def test_waiting_triggers_go_on_the_stack_before_anyone_passes():
    g = game()
    g.act("trigger", controller="p1", text="In attesa", check_sba=False)
    assert g.state.waiting_triggers and g.state.turn.step == "precombat_main"
    ev = g.step()
    assert g.state.turn.step == "precombat_main" and g.state.stack[-1].text == "In attesa"
    assert find(ev, "priority")[0].rules == ["505.6", "117.3a"]


def test_trigger_refuses_bad_abilities_state_unchanged():
    g = game()
    before = g.to_dict()
    for bad in ([], [{"controller": "p9", "text": "x"}], [{"controller": "p1", "text": ""}],
                [{"controller": "p1", "text": "x", "colore": "blu"}], "abc", [1]):
        with pytest.raises(IllegalAction):
            g.act("trigger", abilities=bad)
    with pytest.raises(IllegalAction):
        g.act("trigger", controller="p1", text="x", abilities=[{"controller": "p1", "text": "y"}])
    assert g.to_dict() == before


def test_two_sagas_chapters_ordered_by_their_controller():
    saga = dict(types=("enchantment",), subtypes=["Saga"], chapters=3, counters={"lore": 1})
    g = game([perm("s1", name="Saga Uno", **saga), perm("s2", name="Saga Due", **saga)],
             step="draw")
    g.step()
    p = g.pending
    assert p["kind"] == "order_triggers" and p["player"] == "p1"
    ev = g.decide()
    assert [e.rules for e in find(ev, "trigger")] == [["714.2b", "603.3"]] * 2
    assert [i.source for i in g.state.stack] == ["s1", "s2"]
