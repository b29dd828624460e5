"""One scenario per turn-based action (703.4a–q): outcome and cited rules."""

from __future__ import annotations

from engine_helpers import (bf_ids, card, find, game, library, perm, rules_of, scenario,
                            until_end_of_turn, zone_ids)
from judge.engine.characteristics import derived
from judge.engine import Game


def to_untap(g):
    """From cleanup of p1's turn, step into p2's untap step."""
    return g.step()


def test_703_4a_phasing_out_and_in():
    g = game([perm("ph", controller="p2", keywords=["phasing"]),
              perm("eq", controller="p2", types=("artifact",), subtypes=["Equipment"],
                   attached_to="ph"),
              perm("back", controller="p2", phased_out=True)], step="cleanup")
    ev = g.step()
    st = g.state
    assert st.perm("ph").phased_out and st.perm("eq").phased_out_indirectly
    assert not st.perm("back").phased_out
    out = find(ev, "phase_out")
    assert out[0].rules[:2] == ["703.4a", "502.1"] and "702.26g" in out[1].rules
    assert find(ev, "phase_in")[0].objects == ["back"]
    # next untap step of p2: ph phases in, bringing the equipment with it
    g.step_to("untap", defaults=True), g.step_to("untap", defaults=True)
    assert not g.state.perm("ph").phased_out and not g.state.perm("eq").phased_out


def test_703_4b_day_becomes_night_without_spells():
    g = game(step="cleanup", day_night="day")
    ev = g.step()
    assert g.state.day_night == "night"
    e = find(ev, "day_night")[0]
    assert e.rules == ["703.4b", "502.2", "731.2a"] and "Alice" in e.text


def test_703_4b_night_becomes_day_after_two_spells():
    d = scenario(step="cleanup", day_night="night")
    d["turn"]["spells_cast"] = {"p1": 2}
    g = Game.from_dict(d)
    ev = g.step()
    assert g.state.day_night == "day" and find(ev, rule="731.2b")


def test_703_4b_one_spell_keeps_night_and_no_designation_no_check():
    d = scenario(step="cleanup", day_night="night")
    d["turn"]["spells_cast"] = {"p1": 1}
    g = Game.from_dict(d)
    assert not find(g.step(), "day_night") and g.state.day_night == "night"
    g2 = game(step="cleanup")
    assert not find(g2.step(), "day_night") and g2.state.day_night is None   # 731.2c


def test_703_4b_spells_cast_by_action_count():
    g = game(step="precombat_main", day_night="night",
             players=[{"id": "p1", "name": "Alice", "hand": [card("i1", "Shock", ("instant",)),
                                                              card("i2", "Opt", ("instant",))]},
                      {"id": "p2", "name": "Bruno", "library": library("b", 3)}])
    g.act("cast_spell", player="p1", card="i1")
    g.step()                                  # resolves
    g.act("cast_spell", player="p1", card="i2")
    g.step()
    g.step_to("untap")
    assert g.state.day_night == "day"


def test_703_4c_untap_respects_doesnt_untap_and_stun():
    g = game([perm("a", controller="p2", tapped=True), perm("b", controller="p2", tapped=True,
                                                            doesnt_untap=True),
              perm("c", controller="p2", tapped=True, counters={"stun": 1}),
              perm("d", controller="p1", tapped=True)], step="cleanup")
    ev = g.step()
    st = g.state
    assert not st.perm("a").tapped and st.perm("b").tapped and st.perm("c").tapped
    assert st.perm("d").tapped                       # not the active player's
    assert st.perm("c").counters == {}
    assert find(ev, "untap")[0].rules == ["703.4c", "502.3"]
    assert find(ev, "stun")[0].rules == ["122.1d"]
    assert find(ev, "no_priority")[0].rules == ["502.4"]


def test_703_4d_draw_step():
    g = game(step="upkeep")
    top = zone_ids(g, "p1", "library")[0]
    ev = g.step()
    assert zone_ids(g, "p1", "hand") == [top]
    e = find(ev, "draw")[0]
    assert e.rules == ["703.4d", "504.1"] and e.objects == [top]
    assert find(ev, "priority")[0].rules == ["504.2", "117.3a"]


def test_103_8a_starting_player_skips_first_draw():
    g = game(step="upkeep", number=1)
    ev = g.step()
    assert g.state.turn.step == "precombat_main"
    assert find(ev, "skip_step")[0].rules == ["103.8a"]
    assert zone_ids(g, "p1", "hand") == []


def test_103_8c_multiplayer_no_skip():
    players = [{"id": f"p{i}", "library": library(f"x{i}", 2)} for i in range(1, 4)]
    g = game(step="upkeep", number=1, variant="free-for-all", players=players)
    g.step()
    assert g.state.turn.step == "draw" and len(zone_ids(g, "p1", "hand")) == 1


def test_703_4e_archenemy_sets_scheme_in_motion():
    players = [{"id": "ae", "archenemy": True, "scheme_deck": [
        card("s1", "Intrigo Uno", ("scheme",)), card("s2", "Intrigo Due", ("scheme",))]},
               {"id": "h1"}, {"id": "h2"}]
    g = game(step="draw", variant="archenemy", players=players, active="ae")
    ev = g.step()
    assert find(ev, "scheme")[0].rules == ["703.4e", "505.3", "701.32b"]
    assert zone_ids(g, "ae", "command") == ["s1"] and len(g.state.stack) == 1
    ev = g.step()                                    # the trigger resolves
    assert find(ev, "scheme")[0].rules == ["704.6e"]  # back to the bottom
    assert zone_ids(g, "ae", "scheme_deck") == ["s2", "s1"]


def test_703_4f_lore_counter_and_chapter_trigger():
    g = game([perm("saga", types=("enchantment",), subtypes=["Saga"], chapters=3,
                   counters={"lore": 1})], step="draw")
    ev = g.step()
    assert g.state.perm("saga").counters["lore"] == 2
    assert find(ev, "lore")[0].rules == ["703.4f", "505.4", "714.3c"]
    assert find(ev, "trigger")[0].rules == ["714.2b", "603.3"]


def test_703_4g_attractions_roll_is_deterministic():
    bf = [perm("at", types=("artifact",), subtypes=["Attraction"])]
    rolls = []
    for _ in range(2):
        g = game(bf, step="draw", seed=7)
        ev = g.step()
        e = find(ev, "attractions")[0]
        assert e.rules == ["703.4g", "505.5", "701.52a"]
        rolls.append(e.data["roll"])
    assert rolls[0] == rolls[1] and 1 <= rolls[0] <= 6


def test_703_4h_choose_defending_player():
    players = [{"id": f"p{i}"} for i in range(1, 5)]
    g = game([perm("a")], step="precombat_main", variant="free-for-all", players=players,
             options={"attack": "choose"})
    g.step()
    assert g.pending["kind"] == "choose_defending_player"
    assert g.pending["default"] == {"player": "p2"}
    ev = g.decide({"player": "p3"})
    assert g.state.combat.defending_players == ["p3"]
    assert find(ev, "defending_player")[0].rules == ["703.4h", "507.1"]


def test_703_4h_attack_left_dictates_choice():
    players = [{"id": f"p{i}"} for i in range(1, 5)]
    g = game(step="precombat_main", variant="free-for-all", players=players,
             options={"attack": "left"}, active="p4")
    ev = g.step()
    assert g.state.combat.defending_players == ["p1"]
    assert find(ev, "defending_player")[0].rules == ["703.4h", "507.1", "803.1a"]


def test_703_4h_attack_multiple_players():
    players = [{"id": f"p{i}"} for i in range(1, 5)]
    g = game(step="precombat_main", variant="commander", players=players)
    ev = g.step()
    assert g.state.combat.defending_players == ["p2", "p3", "p4"]
    assert find(ev, "defending_player")[0].rules == ["802.2"]


def test_703_4n_cleanup_discard_default_and_choice():
    hand = [card(f"h{i}", f"Carta {i}", ("land",)) for i in range(9)]
    g = game(step="end", players=[{"id": "p1", "name": "Alice", "hand": hand},
                                  {"id": "p2", "name": "Bruno"}])
    g.step()
    p = g.pending
    assert p["kind"] == "discard" and p["options"]["count"] == 2
    assert p["rules"] == ["703.4n", "514.1"]
    ev = g.decide({"cards": ["h0", "h3"]})
    assert zone_ids(g, "p1", "graveyard") == ["h0", "h3"] and len(zone_ids(g, "p1", "hand")) == 7
    assert find(ev, "discard")[0].rules == ["703.4n", "514.1", "701.9a"]


def test_703_4n_no_maximum_hand_size():
    hand = [card(f"h{i}", "x", ("land",)) for i in range(12)]
    g = game(step="end", players=[{"id": "p1", "hand": hand, "max_hand_size": None}, {"id": "p2"}])
    g.step()
    assert g.pending is None and len(zone_ids(g, "p1", "hand")) == 12


def test_703_4p_damage_removed_and_end_of_turn_effects_end():
    g = game([perm("a", damage=1, t=3, p=3, until_end_of_turn={"power": 2, "keywords": ["flying"]}),
              perm("ph", controller="p2", damage=1, phased_out=True)], step="end")
    ev = g.step()
    st = g.state
    assert st.perm("a").damage == 0 and until_end_of_turn(st, "a") == {}
    assert derived.power(st, st.perm("a")) == 3 and not derived.has_kw(st, st.perm("a"), "flying")
    assert st.perm("ph").damage == 0                  # phased-out ones too (514.2)
    assert {e.kind for e in find(ev, rule="514.2")} == {"damage_removed", "end_of_turn_effects"}
    assert find(ev, "no_priority")[0].rules == ["514.3"]


def test_514_3a_cleanup_repeats_after_state_based_actions():
    g = game([perm("a", p=1, t=1, until_end_of_turn={"toughness": 2}, counters={"-1/-1": 1})],
             step="end")
    ev = g.step()
    assert "a" not in bf_ids(g)                       # toughness 0 once the effect ends
    assert find(ev, rule="704.5f") and find(ev, rule="514.3a")
    ev = g.step()
    assert g.state.turn.step == "cleanup" and find(ev, rule="514.3a")
    ev = g.step()
    assert g.state.turn.step == "untap" and g.state.turn.active_player == "p2"


def test_703_4q_mana_empties_without_mana_burn():
    d = scenario(step="precombat_main")
    d["players"][0]["mana_pool"] = {"R": 2, "G": 1}
    g = Game.from_dict(d)
    ev = g.step()
    assert g.state.player("p1").mana_pool == {} and g.state.player("p1").life == 20
    e = find(ev, "mana_empty")[0]
    assert e.rules == ["703.4q", "500.5"] and "non si perdono punti vita" in e.text


def test_summoning_sickness_ends_when_turn_begins():
    g = game([perm("a", controller="p2", summoning_sick=True),
              perm("b", controller="p1", summoning_sick=True)], step="cleanup")
    ev = g.step()
    assert not g.state.perm("a").summoning_sick and g.state.perm("b").summoning_sick
    assert find(ev, "summoning_sickness")[0].rules == ["302.6"]
    assert find(ev, "turn")[0].rules == ["500.1"] and g.state.turn.number == 4


def test_two_headed_giant_team_turn_draws_for_both():
    players = [{"id": "a1", "team": "A", "library": library("x", 2)},
               {"id": "a2", "team": "A", "library": library("y", 2)},
               {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]
    g = game(step="upkeep", variant="two-headed-giant", players=players, active="a1")
    ev = g.step()
    draws = find(ev, "draw")
    assert [e.players for e in draws] == [["a1"], ["a2"]]
    assert draws[0].rules == ["703.4d", "504.1", "805.4b"]
    g.step_to("untap")
    assert g.state.turn.active_player == "b1"


def test_full_turn_order_of_steps():
    g = game([perm("a", controller="p1")], step="cleanup", active="p2")
    seen = [g.state.turn.step]
    for _ in range(13):
        g.step()
        if g.pending:
            g.decide()
        seen.append(g.state.turn.step)
    assert seen == ["cleanup", "untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
                    "declare_attackers", "end_of_combat", "postcombat_main", "end", "cleanup",
                    "untap", "upkeep", "draw"]
