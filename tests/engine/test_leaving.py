"""Players leaving a multiplayer game (800.4), the designations passing on (725.4, 726.4),
concession at any time (104.3a) and in Two-Headed Giant (810.8b)."""

from __future__ import annotations

from engine_helpers import bf_ids, find, four_players, game, perm, zone_ids
from judge.engine.context import Ctx, NeedDecision


def test_800_4a_objects_leave_control_ends_abilities_cease_rest_exiled():
    bf = [perm("mio", controller="p1"),
          perm("rubato", controller="p1", owner="p3", control_effect=True),   # Control Magic
          perm("rianimato", controller="p1", owner="p2"),                      # put under p1's control
          perm("di_alice_a_carla", controller="p3", owner="p1")]
    stack = [{"id": "ab", "kind": "ability", "controller": "p1", "text": "Abilità di Alice"},
             {"id": "sp", "kind": "spell", "controller": "p1",
              "card": {"id": "sp", "name": "Shock di Dario", "types": ["instant"], "owner": "p4"}},
             {"id": "mia", "kind": "spell", "controller": "p3",
              "card": {"id": "mia", "name": "Magia di Alice", "types": ["sorcery"], "owner": "p1"}}]
    players = four_players(p1={"hand": [{"id": "h1", "name": "Isola", "types": ["land"]}]})
    g = game(bf, variant="free-for-all", players=players, active="p2", stack=stack)
    ev = g.act("concede", player="p1")
    assert find(ev, "lose")[0].rules == ["104.3a"]
    leave = find(ev, "leave_game")[0]
    assert leave.rules == ["800.4a"]
    assert set(leave.data["left"]) == {"mio", "di_alice_a_carla", "mia", "h1", "l10", "l11",
                                       "l12", "l13"}
    assert find(ev, "control")[0].rules == ["800.4a"]
    assert find(ev, "cease_to_exist")[0].objects == ["ab"]
    assert find(ev, "exile")[0].objects == ["rianimato", "sp"]
    assert bf_ids(g) == ["rubato"] and g.state.perm("rubato").controller == "p3"
    assert zone_ids(g, "p2", "exile") == ["rianimato"] and zone_ids(g, "p4", "exile") == ["sp"]
    assert g.state.stack == [] and zone_ids(g, "p1", "hand") == []


def test_800_4d_waiting_abilities_of_a_departed_player_never_reach_the_stack():
    g = game(variant="free-for-all", players=four_players(), active="p2")
    g.act("trigger", abilities=[{"controller": "p1", "text": "Di Alice"}], check_sba=False)
    ev = g.act("concede", player="p1")
    assert find(ev, "trigger_removed")[0].rules == ["800.4a", "800.4d"]
    assert not g.state.waiting_triggers and not g.state.stack


def test_800_4j_the_turn_continues_without_an_active_player():
    g = game([perm("orso", controller="p2")], variant="free-for-all", players=four_players(),
             active="p1", step="precombat_main")
    g.act("concede", player="p1")
    ev = g.step()
    assert find(ev, "step")[0].rules == ["506.1", "800.4j"]
    pr = find(ev, "priority")[0]
    assert pr.rules == ["507.2", "117.3a", "800.4j"] and pr.players == ["p2"]
    ev = g.step()
    assert find(ev, "attack")[0].rules == ["703.4i", "800.4j"]
    ev = g.next_turn(defaults=True)
    assert g.state.turn.active_player == "p2" and g.state.turn.number == 4
    assert find(ev, "turn")[0].players == ["p2"]


def test_725_4_726_4_monarch_and_initiative_go_to_the_active_player():
    g = game(variant="free-for-all", players=four_players(), active="p2", monarch="p3", initiative="p3")
    ev = g.act("concede", player="p3")
    assert g.state.monarch == "p2" and g.state.initiative == "p2"
    assert find(ev, "monarch")[0].rules == ["725.4"]
    assert find(ev, "initiative")[0].rules == ["726.4"]
    assert find(ev, "trigger")[0].rules == ["726.2", "603.3"]        # p2 takes it: ventures


def test_725_4_active_player_leaving_passes_to_the_next_in_turn_order():
    g = game(variant="free-for-all", players=four_players(), active="p2", monarch="p2")
    ev = g.act("concede", player="p2")
    assert g.state.monarch == "p3" and find(ev, "monarch")[0].rules == ["725.4"]


def test_800_4e_damage_to_a_departed_player_is_not_assigned():
    cb = {"defending_players": ["p2", "p3"], "blockers_declared_by": ["p2", "p3"],
          "attackers": [{"id": "a", "target": "p3", "blocked": False},
                        {"id": "b", "target": "p2", "blocked": False}]}
    g = game([perm("a", p=3, t=3), perm("b", p=2, t=2)], variant="free-for-all",
             players=four_players(), step="declare_blockers", combat=cb)
    g.act("concede", player="p3")
    ev = g.step()
    e = find(ev, "no_combat_damage")[0]
    assert e.rules == ["703.4k", "800.4e"] and e.objects == ["a"]
    assert g.state.player("p2").life == 18 and g.state.player("p3").life == 20


def test_800_4e_an_assignment_already_made_to_a_departed_player():
    cb = {"defending_players": ["p3"], "blockers_declared_by": ["p3"],
          "attackers": [{"id": "a", "target": "p3", "blocked": False}],
          "assignments": {"a": {"p3": 3}}}
    g = game([perm("a", p=3, t=3)], variant="free-for-all", players=four_players(p3={"lost": True}),
             step="combat_damage", combat=cb,
             procedure=["tba:703.4m", "sba", "priority"])
    ev = g.step()
    assert find(ev, "no_combat_damage")[0].rules == ["800.4e"]
    assert g.state.player("p3").life == 20


def test_104_3a_concede_while_a_decision_is_pending_asks_again():
    cb = {"defending_players": ["p2", "p3"], "blockers_declared_by": [],
          "attackers": [{"id": "a", "target": "p2", "blocked": False},
                        {"id": "c", "target": "p3", "blocked": False}]}
    bf = [perm("a"), perm("c"), perm("m2", controller="p2"), perm("m3", controller="p3")]
    g = game(bf, variant="free-for-all", players=four_players(), step="declare_attackers", combat=cb)
    g.step()
    assert g.pending["kind"] == "declare_blockers" and g.pending["player"] == "p2"
    g.decide({"blockers": [{"id": "m2", "blocking": "a"}]})
    assert g.pending["player"] == "p3"
    ev = g.act("concede", player="p3")              # while p3 is choosing
    assert find(ev, "leave_game") and "m3" not in bf_ids(g)
    # the step starts again: p2's choice is asked anew, p3's is gone (800.4a)
    assert g.pending["kind"] == "declare_blockers" and g.pending["player"] == "p2"
    g.decide({"blockers": []})
    assert g.pending is None and g.state.combat.blockers_declared_by == ["p2"]


def test_800_4h_a_choice_of_a_departed_player_is_made_by_the_next_player():
    g = game(variant="free-for-all", players=four_players(p2={"lost": True}))
    ctx = Ctx(g.state)
    decision = {"id": "x", "kind": "legend_rule", "player": "p2", "rules": ["704.5j"],
                "prompt": "…", "options": {"name": "K", "permanents": []},
                "default": {"keep": None}}
    try:
        ctx.ask(decision)
    except NeedDecision:
        pass
    assert g.state.pending["player"] == "p3"
    assert g.state.pending["rules"] == ["704.5j", "800.4h"]


def test_810_8b_concession_in_two_headed_giant():
    players = [{"id": "a1", "team": "A"}, {"id": "a2", "team": "A"},
               {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]
    g = game(variant="two-headed-giant", players=players, active="a1")
    ev = g.act("concede", player="a2")
    assert [e.rules for e in find(ev, "lose")] == [["104.3a", "810.8b"], ["810.8b"]]
    assert g.result == {"draw": False, "winners": ["b1", "b2"], "rules": ["104.2c"]}


def test_800_4p_the_planar_controller_leaving():
    players = four_players(p1={"command": [{"id": "piano", "name": "Piano", "types": ["plane"]}],
                       "planar_deck": [{"id": "p1a", "name": "Altro piano", "types": ["plane"]}]},
                   p2={"planar_deck": [{"id": "p2a", "name": "Piano di Bruno", "types": ["plane"]}]})
    g = game(variant="free-for-all", players=players, active="p1", options={"planechase": True})
    ev = g.act("concede", player="p1")
    assert g.state.planar_controller == "p2"
    assert find(ev, "planar_controller")[0].rules == ["800.4p", "311.5"]
    # 901.10: the face-up plane left with its owner: the planar controller planeswalks
    pw = find(ev, "planeswalk")[0]
    assert pw.rules == ["901.10", "701.31c", "701.31b"] and pw.players == ["p2"]
    assert zone_ids(g, "p2", "command") == ["p2a"]


def test_725_4_726_4_without_an_active_player_the_next_in_turn_order():
    """The active player left earlier in their turn: there is no active player, so the
    monarch and the initiative go to the next player in turn order (725.4, 726.4)."""
    g = game(variant="free-for-all", players=four_players(), active="p2", monarch="p4",
             initiative="p4")
    g.act("concede", player="p2")
    ev = g.act("concede", player="p4")
    assert g.state.monarch == "p3" and g.state.initiative == "p3"
    assert find(ev, "monarch")[0].rules == ["725.4"] and find(ev, "monarch")[0].players == ["p3"]
    assert find(ev, "initiative")[0].rules == ["726.4"]
    assert find(ev, "trigger")[0].rules == ["726.2", "603.3"] and find(ev, "trigger")[0].players == [
        "p3"]


def test_800_4a_concede_while_choosing_how_ones_own_ability_resolves():
    """Bruno concedes while choosing the room of his initiative's venture (the ability is
    resolving): it leaves the stack with him and does not resolve, and neither does Alice's
    ability under it."""
    import json
    from pathlib import Path
    lib = Path(__file__).resolve().parents[2] / "scenarios" / "iniziativa-e-undercity.json"
    undercity = json.loads(lib.read_text(encoding="utf-8"))["players"][0]["command"][0]
    stack = [{"id": "sotto", "kind": "ability", "controller": "p1", "text": "Abilità di Alice"},
             {"id": "ab", "kind": "ability", "controller": "p2", "text": "Iniziativa di Bruno",
              "effect": {"kind": "initiative_venture"}}]
    g = game(variant="free-for-all", players=four_players(p2={"command": [undercity]}),
             stack=stack, initiative="p2")
    g.step()
    assert g.pending["kind"] == "venture_room" and g.pending["player"] == "p2"
    ev = g.act("concede", player="p2")
    assert find(ev, "cease_to_exist")[0].objects == ["ab"]
    assert not find(ev, "resolve")                       # nothing resolves in its place
    assert "sotto" in [i.id for i in g.state.stack] and g.pending is None
    assert ev[-1].kind == "priority"
