"""One scenario per state-based action (704.5, 704.6): outcome and cited rules."""

from __future__ import annotations

from engine_helpers import bf_ids, card, find, game, library, perm, scenario, zone_ids
from judge.engine import Game


def check(g):
    """Pass priority once from a main phase: SBAs are checked on the way."""
    return g.step()


def test_704_5a_zero_life_loses_and_opponent_wins():
    g = game(players=[{"id": "p1", "name": "Alice", "life": 0}, {"id": "p2", "name": "Bruno"}])
    ev = check(g)
    assert find(ev, "lose")[0].rules == ["704.5a"]
    assert g.result == {"draw": False, "winners": ["p2"], "rules": ["104.2a"]}
    assert find(ev, "win")[0].rules == ["104.2a"]


def test_704_5b_draw_from_empty_library():
    g = game(step="upkeep", players=[{"id": "p1", "name": "Alice"}, {"id": "p2"}])
    ev = g.step()
    assert find(ev, "draw_empty")[0].rules == ["703.4d", "504.1", "121.4"]
    assert find(ev, "lose")[0].rules == ["704.5b"] and g.result["winners"] == ["p2"]


def test_704_5c_ten_poison():
    g = game(players=[{"id": "p1"}, {"id": "p2", "poison": 10}])
    ev = check(g)
    assert find(ev, "lose")[0].rules == ["704.5c"] and g.result["winners"] == ["p1"]


def test_704_5d_token_outside_battlefield():
    g = game([perm("t", token=True, name="Soldato")])
    g.act("destroy", object="t")
    assert zone_ids(g, "p1", "graveyard") == []
    ev = g.events
    assert find(ev, "cease_to_exist")[0].rules == ["704.5d"]


def test_704_5f_zero_toughness_even_indestructible():
    g = game([perm("a", p=1, t=1, counters={"-1/-1": 1}, keywords=["indestructible"])])
    ev = check(g)
    assert zone_ids(g, "p1", "graveyard") == ["a"]
    assert find(ev, "graveyard")[0].rules == ["704.5f"]


def test_704_5g_lethal_damage():
    g = game([perm("orso", name="Orso Runeartigli", p=2, t=2, damage=2)])
    ev = check(g)
    e = find(ev, "destroy")[0]
    assert e.rules == ["704.5g"] and "Orso Runeartigli" in e.text and "distrutta" in e.text
    assert zone_ids(g, "p1", "graveyard") == ["orso"]


def test_704_5g_indestructible_survives():
    g = game([perm("d", p=2, t=2, damage=5, keywords=["indestructible"])])
    ev = check(g)
    assert "d" in bf_ids(g)
    assert find(ev, "indestructible")[0].rules == ["704.5g", "702.12b"]


def test_704_5h_deathtouch():
    g = game([perm("a", p=5, t=5, damage=1, damaged_by_deathtouch=True)])
    ev = check(g)
    assert find(ev, "destroy")[0].rules == ["704.5h", "702.2b"]
    assert not g.state.battlefield


def test_704_5i_zero_loyalty():
    g = game([perm("pw", types=("planeswalker",), counters={"loyalty": 0})])
    ev = check(g)
    assert find(ev, "graveyard")[0].rules == ["704.5i"] and zone_ids(g, "p1", "graveyard") == ["pw"]


def test_704_5j_legend_rule_with_choice():
    g = game([perm("k1", name="Kellan", supertypes=["legendary"], damage=1, t=3, p=2),
              perm("k2", name="Kellan", supertypes=["legendary"], t=3, p=2),
              perm("k3", name="Kellan", controller="p2", supertypes=["legendary"], t=3, p=2)])
    g.step()
    p = g.pending
    assert p["kind"] == "legend_rule" and p["player"] == "p1" and p["rules"] == ["704.5j"]
    ev = g.decide({"keep": "k1"})
    assert bf_ids(g) == ["k1", "k3"]                 # another controller: unaffected
    assert find(ev, "graveyard")[0].rules == ["704.5j"]


def test_704_5j_illegal_choice_refused_state_unchanged():
    g = game([perm("k1", name="K", supertypes=["legendary"]),
              perm("k2", name="K", supertypes=["legendary"])])
    g.step()
    before = g.to_dict()
    import pytest
    from judge.engine import IllegalAction
    with pytest.raises(IllegalAction) as ei:
        g.decide({"keep": "nessuno"})
    assert ei.value.rules == ["704.5j"]
    assert g.to_dict() == before


def test_704_5k_world_rule():
    g = game([perm("w1", types=("enchantment",), supertypes=["world"]),
              perm("w2", types=("enchantment",), supertypes=["world"], controller="p2")])
    ev = check(g)
    assert bf_ids(g) == ["w2"] and find(ev, rule="704.5k")


def test_704_5m_aura_on_nothing_goes_to_graveyard():
    g = game([perm("c"), perm("aura", types=("enchantment",), subtypes=["Aura"],
                              enchant="creature", attached_to="c")])
    g.act("destroy", object="c")
    ev = g.events
    assert find(ev, rule="704.5m") and zone_ids(g, "p1", "graveyard") == ["c", "aura"]


def test_704_5m_aura_illegal_object():
    g = game([perm("land", types=("land",)),
              perm("aura", types=("enchantment",), subtypes=["Aura"], enchant="creature",
                   attached_to="land")])
    ev = check(g)
    assert find(ev, "graveyard")[0].rules == ["704.5m"]


def test_704_5n_equipment_unattaches():
    g = game([perm("land", types=("land",)),
              perm("eq", types=("artifact",), subtypes=["Equipment"], attached_to="land")])
    ev = check(g)
    assert g.state.perm("eq").attached_to is None and "eq" in bf_ids(g)
    assert find(ev, "unattach")[0].rules == ["704.5n"]


def test_704_5p_creature_attached_unattaches():
    g = game([perm("c1"), perm("c2", attached_to="c1")])
    ev = check(g)
    assert g.state.perm("c2").attached_to is None
    assert find(ev, "unattach")[0].rules == ["704.5p"]


def test_704_5q_counters_annihilate():
    g = game([perm("a", counters={"+1/+1": 3, "-1/-1": 1})])
    ev = check(g)
    assert g.state.perm("a").counters == {"+1/+1": 2}
    assert find(ev, "counters")[0].rules == ["704.5q"]


def test_704_5r_counter_limit():
    g = game([perm("a", counters={"charge": 5}, max_counters={"charge": 3},
                   types=("artifact",))])
    ev = check(g)
    assert g.state.perm("a").counters == {"charge": 3} and find(ev, rule="704.5r")


def test_704_5s_saga_sacrificed_after_final_chapter_resolves():
    g = game([perm("saga", name="La Saga", types=("enchantment",), subtypes=["Saga"],
                   chapters=3, counters={"lore": 2})], step="draw")
    ev = g.step()
    assert "saga" in bf_ids(g) and len(g.state.stack) == 1        # chapter III on the stack
    assert not find(ev, "sacrifice")
    ev = g.step()                                                 # chapter III resolves
    assert find(ev, "resolve")[0].rules == ["405.5", "608.2n"]
    e = find(ev, "sacrifice")[0]
    assert e.rules == ["704.5s", "714.4"] and zone_ids(g, "p1", "graveyard") == ["saga"]


def test_704_5v_battle_zero_defense():
    g = game([perm("bt", types=("battle",), subtypes=["Siege"], counters={"defense": 0},
                   protector="p2")])
    ev = check(g)
    assert find(ev, "graveyard")[0].rules == ["704.5v"]


def test_704_6a_two_headed_giant_team_life():
    players = [{"id": "a1", "team": "A", "life": 0}, {"id": "a2", "team": "A", "life": 0},
               {"id": "b1", "team": "B", "life": 3}, {"id": "b2", "team": "B", "life": 3}]
    g = game(variant="two-headed-giant", players=players, active="b1")
    ev = check(g)
    assert [e.rules for e in find(ev, "lose")] == [["704.6a"], ["704.6a"]]
    assert g.result == {"draw": False, "winners": ["b1", "b2"], "rules": ["104.2c"]}


def test_704_6b_fifteen_poison_not_ten():
    players = [{"id": "a1", "team": "A", "poison": 12}, {"id": "a2", "team": "A", "poison": 12},
               {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]
    g = game(variant="two-headed-giant", players=players, active="b1")
    check(g)
    assert g.result is None                       # 704.5c ignored in 2HG
    g.act("add_counters", target="a2", kind="poison", count=3)
    assert g.result["winners"] == ["b1", "b2"]
    assert find(g.events, "lose")[0].rules == ["704.6b"]


def test_704_6c_commander_damage():
    players = [{"id": f"p{i}", "commander_damage": {"cmd": 21} if i == 2 else {}}
               for i in range(1, 5)]
    g = game([perm("cmd", commander=True, supertypes=["legendary"])], variant="commander",
             players=players)
    ev = check(g)
    assert find(ev, "lose")[0].rules == ["704.6c"] and g.state.player("p2").lost
    assert g.result is None                                  # three players remain
    assert find(ev, "leave_game") == [] or find(ev, "leave_game")[0].rules == ["800.4a"]


def test_104_4a_all_lose_at_once_is_a_draw():
    g = game(players=[{"id": "p1", "life": 0}, {"id": "p2", "life": -3}])
    ev = check(g)
    assert g.result == {"draw": True, "winners": [], "rules": ["104.4a"]}
    assert find(ev, "game_draw")[0].rules == ["104.4a"]


def test_multiplayer_loser_leaves_with_objects():
    players = [{"id": f"p{i}"} for i in range(1, 4)]
    g = game([perm("x", controller="p2"), perm("y", controller="p3")], variant="free-for-all",
             players=players)
    g.act("lose_life", player="p2", amount=20)
    assert g.state.player("p2").lost and bf_ids(g) == ["y"]
    assert find(g.events, "leave_game")[0].rules == ["800.4a"]
    assert g.result is None


def test_simultaneous_sbas_one_event():
    """All applicable SBAs are performed at once (704.3): creature dies and player loses."""
    g = game([perm("a", damage=3)], players=[{"id": "p1", "life": 0}, {"id": "p2"}])
    ev = check(g)
    kinds = [e.kind for e in ev]
    assert "destroy" in kinds and "lose" in kinds
