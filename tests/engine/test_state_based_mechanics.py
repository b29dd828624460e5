"""Every state-based action of the edition in force is walked by a test, and the newer ones
(704.5e, 704.5t–z, 704.6d, 704.6f) behave as their rules say."""

from __future__ import annotations

import re

import pytest

from engine_helpers import (RULES_FILE, bf_ids, card, find, four_players, game, library, perm,
                            zone_ids)
from judge.engine import IllegalAction
from judge.engine.registry import SBAS

ALL_SBA_RULES = sorted(re.findall(r"^(704\.[56][a-z]{1,2})\s", RULES_FILE.read_text(encoding="utf-8-sig"),
                                  re.M))


def _dungeon(marker):
    rooms = [{"name": "Ingresso", "text": "Profetizza 1.", "to": ["Fondo"]},
             {"name": "Fondo", "text": "Pesca una carta."}]
    return {"id": "dg", "name": "Piccolo dungeon", "types": ["dungeon"], "rooms": rooms,
            "venture_marker": marker}


SIEGE = dict(types=("battle",), subtypes=["Siege"])
ROLE = dict(types=("enchantment",), subtypes=["Aura", "Role"], token=True, enchant="creature")

# One board per state-based action; stepping once (defaults for every choice) performs it.
WALK = {
    "704.5a": dict(players=[{"id": "p1", "life": 0}, {"id": "p2"}]),
    "704.5b": dict(players=[{"id": "p1", "attempted_draw_from_empty_library": True}, {"id": "p2"}]),
    "704.5c": dict(players=[{"id": "p1"}, {"id": "p2", "poison": 10}]),
    "704.5d": dict(players=[{"id": "p1", "exile": [card("t", token=True)]}, {"id": "p2"}]),
    "704.5e": dict(players=[{"id": "p1", "exile": [card("c", copy="card")]}, {"id": "p2"}]),
    "704.5f": dict(battlefield=[perm("a", p=1, t=0)]),
    "704.5g": dict(battlefield=[perm("a", damage=2)]),
    "704.5h": dict(battlefield=[perm("a", damage=1, damaged_by_deathtouch=True)]),
    "704.5i": dict(battlefield=[perm("pw", types=("planeswalker",), counters={"loyalty": 0})]),
    "704.5j": dict(battlefield=[perm("k1", name="K", supertypes=["legendary"]),
                                perm("k2", name="K", supertypes=["legendary"])]),
    "704.5k": dict(battlefield=[perm("w1", types=("enchantment",), supertypes=["world"]),
                                perm("w2", types=("enchantment",), supertypes=["world"])]),
    "704.5m": dict(battlefield=[perm("au", types=("enchantment",), subtypes=["Aura"])]),
    "704.5n": dict(battlefield=[perm("l", types=("land",)),
                                perm("eq", types=("artifact",), subtypes=["Equipment"],
                                     attached_to="l")]),
    "704.5p": dict(battlefield=[perm("c1"), perm("c2", attached_to="c1")]),
    "704.5q": dict(battlefield=[perm("a", counters={"+1/+1": 1, "-1/-1": 1})]),
    "704.5r": dict(battlefield=[perm("a", types=("artifact",), counters={"charge": 2},
                                     max_counters={"charge": 1})]),
    "704.5s": dict(battlefield=[perm("s", types=("enchantment",), subtypes=["Saga"], chapters=2,
                                     counters={"lore": 2})]),
    "704.5t": dict(players=[{"id": "p1", "command": [_dungeon("Fondo")]}, {"id": "p2"}]),
    "704.5u": dict(battlefield=[perm("b", keywords=["space sculptor"])]),
    "704.5v": dict(battlefield=[perm("bt", counters={"defense": 0}, protector="p2", **SIEGE)]),
    "704.5w": dict(battlefield=[perm("bt", types=("battle",), counters={"defense": 0}, protector="p1")]),
    "704.5x": dict(battlefield=[perm("bt", counters={"defense": 3}, **SIEGE)]),
    "704.5y": dict(battlefield=[perm("bt", counters={"defense": 3}, protector="p1", **SIEGE)]),
    "704.5z": dict(battlefield=[perm("c"), perm("r1", attached_to="c", **ROLE),
                                perm("r2", attached_to="c", **ROLE)]),
    "704.5aa": dict(battlefield=[perm("auto", keywords=["start your engines!"])]),
    "704.6a": dict(variant="two-headed-giant", active="b1",
                   players=[{"id": "a1", "team": "A", "life": 0}, {"id": "a2", "team": "A", "life": 0},
                            {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]),
    "704.6b": dict(variant="two-headed-giant", active="b1",
                   players=[{"id": "a1", "team": "A", "poison": 15},
                            {"id": "a2", "team": "A", "poison": 15},
                            {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}]),
    "704.6c": dict(variant="commander", players=four_players(p2={"commander_damage": {"cmd": 21}}),
                   battlefield=[perm("cmd", commander=True)]),
    "704.6d": dict(variant="commander",
                   players=four_players(p1={"graveyard": [card("cmd", commander=True,
                                                       moved_since_sba=True)]})),
    "704.6e": dict(variant="archenemy", active="ae",
                   players=[{"id": "ae", "archenemy": True, "command": [card("sc", types=("scheme",))]},
                            {"id": "h1"}, {"id": "h2"}]),
    "704.6f": dict(options={"planechase": True},
                   players=[{"id": "p1", "command": [card("ph", types=("phenomenon",))],
                             "planar_deck": [card("pl", types=("plane",))]}, {"id": "p2"}]),
}


def test_every_state_based_action_of_the_edition_is_registered_and_walked():
    assert ALL_SBA_RULES == sorted(SBAS) == sorted(WALK)
    assert len(ALL_SBA_RULES) == 25 + 6            # 704.5a–z without l and o, and 704.5aa; 704.6a–f


@pytest.mark.parametrize("number", ALL_SBA_RULES)
def test_walk_state_based_action(number):
    g = game(**WALK[number])
    ev = g.step()
    while g.pending is not None:
        ev += g.decide()
    assert [e for e in ev if e.rules[0] == number], [str(e) for e in ev]


# --- 704.5e copies -----------------------------------------------------------------------

def test_704_5e_a_copied_instant_ceases_to_exist_after_resolving():
    g = game(stack=[{"id": "s", "kind": "spell", "controller": "p1",
                     "card": {"id": "s", "name": "Shock", "types": ["instant"]}}])
    ev = g.act("copy_spell", spell="s", controller="p2")
    assert find(ev, "copy")[0].rules == ["707.10"]
    copy = g.state.stack[-1]
    assert copy.card.copy == "spell" and copy.card.owner == "p2"      # 707.10
    ev = g.step()
    assert find(ev, "cease_to_exist")[0].rules == ["704.5e"]
    assert zone_ids(g, "p2", "graveyard") == [] and [i.id for i in g.state.stack] == ["s"]


def test_608_3f_a_copied_permanent_spell_becomes_a_token():
    g = game(stack=[{"id": "s", "kind": "spell", "controller": "p1",
                     "card": {"id": "s", "name": "Orso", "types": ["creature"], "power": 2,
                              "toughness": 2}}])
    g.act("copy_spell", spell="s")
    ev = g.step()
    assert find(ev, "resolve")[0].rules == ["405.5", "608.3a", "608.3f"]
    tok = g.state.battlefield[-1]
    assert tok.token and tok.copy is None
    g.act("destroy", object=tok.id)
    assert find(g.events, "cease_to_exist")[-1].rules == ["704.5d"]


def test_704_5e_a_copy_of_a_card_stays_on_the_battlefield_or_stack_only():
    g = game([perm("cc", copy="card")],
             players=[{"id": "p1", "exile": [card("x", copy="card")]}, {"id": "p2"}])
    ev = g.step()
    assert [e.objects for e in find(ev, "cease_to_exist")] == [["x"]]
    assert "cc" in bf_ids(g)
    g.act("exile", object="cc")
    assert "cc" not in [c.id for c in g.state.player("p1").exile]


# --- 704.5t dungeons ------------------------------------------------------------------------

def test_704_5t_dungeon_removed_only_after_its_room_ability_left_the_stack():
    g = game(players=[{"id": "p1", "library": library("a", 2),
                       "command": [_dungeon("Ingresso")]}, {"id": "p2"}])
    ev = g.act("venture", player="p1")
    assert find(ev, "venture")[0].rules == ["701.49b", "309.5a"]
    assert g.state.player("p1").command[0].venture_marker == "Fondo"
    assert not find(ev, "dungeon_completed")                        # room ability on the stack
    ev = g.step()
    done = find(ev, "dungeon_completed")[0]
    assert done.rules == ["704.5t", "309.7"]
    assert g.state.player("p1").command == [] and g.state.player("p1").completed_dungeons == [
        "Piccolo dungeon"]


def test_701_49a_venture_without_a_dungeon_needs_one():
    g = game()
    with pytest.raises(IllegalAction) as ei:
        g.act("venture", player="p1")
    assert ei.value.rules == ["701.49a"]
    rooms = [{"name": "A", "text": "x", "to": ["B"]}, {"name": "B"}]
    ev = g.act("venture", player="p1", dungeon={"name": "Mio", "rooms": rooms})
    assert find(ev, "venture")[0].rules == ["701.49a", "309.4a"]
    with pytest.raises(IllegalAction):
        g.act("venture", player="p2", dungeon={"name": "Rotto", "rooms": [{"name": "A", "to": ["Z"]}]})


# --- 704.5u sectors ----------------------------------------------------------------------------

def test_704_5u_players_without_space_sculptor_choose_first_in_apnap_order():
    bf = [perm("beleren", controller="p1", keywords=["space sculptor"]),
          perm("x", controller="p3"), perm("y", controller="p2")]
    g = game(bf, variant="free-for-all", players=four_players())
    g.step()
    assert [g.pending["player"], g.pending["rules"]] == ["p2", ["704.5u", "702.158c", "101.4"]]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"sectors": {"y": "delta"}})
    assert ei.value.rules == ["702.158c"]
    g.decide({"sectors": {"y": "gamma"}})
    assert g.pending["player"] == "p3"
    g.decide()
    assert g.pending["player"] == "p1"                               # the sculptor's controller last
    ev = g.decide()
    assert {p.id: p.sector for p in g.state.battlefield} == {"beleren": "alpha", "x": "alpha",
                                                              "y": "gamma"}
    assert [e.players for e in find(ev, "sector")] == [["p2"], ["p3"], ["p1"]]
    g.act("exile", object="beleren")                                  # 702.158b
    assert all(p.sector is None for p in g.state.battlefield)


# --- 704.5v–704.5y battles -----------------------------------------------------------------------

def test_704_5x_battle_without_protector_controller_chooses_an_opponent():
    g = game([perm("bt", counters={"defense": 3}, **SIEGE)], variant="free-for-all",
             players=four_players(), active="p2")
    g.step()
    p = g.pending
    assert p["kind"] == "choose_protector" and p["rules"] == ["704.5x", "310.12a"]
    assert [x["id"] for x in p["options"]["players"]] == ["p2", "p3", "p4"]
    with pytest.raises(IllegalAction):
        g.decide({"player": "p1"})
    ev = g.decide({"player": "p4"})
    assert g.state.perm("bt").protector == "p4" and find(ev, "protector")[0].rules == [
        "704.5x", "310.12a"]


def test_704_5x_a_battle_without_battle_type_gets_its_controller():
    g = game([perm("bt", controller="p2", types=("battle",), counters={"defense": 3})],
             variant="free-for-all", players=four_players())
    ev = g.step()
    assert g.pending is None                           # nobody chooses: the controller must be chosen
    assert g.state.perm("bt").protector == "p2"
    assert find(ev, "protector")[0].rules == ["704.5x", "310.9a"]


def test_704_5x_not_while_the_battle_is_attacked_and_graveyard_without_candidates():
    cb = {"defending_players": ["p2"], "attackers": [{"id": "a", "target": "bt", "blocked": False}]}
    g = game([perm("a"), perm("bt", controller="p2", counters={"defense": 3}, **SIEGE)],
             step="declare_attackers", combat=cb)
    g.step()
    assert g.state.perm("bt").protector is None
    g2 = game([perm("bt", counters={"defense": 3}, **SIEGE)], variant="free-for-all",
              players=four_players(p2={"lost": True}, p3={"lost": True}, p4={"lost": True}))
    ev = g2.step()
    assert find(ev, "graveyard")[0].rules == ["704.5x"]


def test_704_5y_siege_protected_by_its_controller():
    g = game([perm("bt", counters={"defense": 3}, protector="p1", **SIEGE)])
    ev = g.step()
    assert find(ev, "protector")[0].rules == ["704.5y", "310.12a"]
    assert g.state.perm("bt").protector == "p2"


def test_704_5y_a_battle_without_battle_type_protected_by_someone_else():
    """Control of a battle without battle types changed: only its controller can protect it (310.9a)."""
    g = game([perm("bt", controller="p1", types=("battle",), counters={"defense": 3}, protector="p2")])
    ev = g.step()
    e = find(ev, "protector")[0]
    assert e.rules == ["704.5y", "310.9a"] and g.state.perm("bt").protector == "p1"


def test_704_5y_a_new_protector_removes_the_attacked_battle_from_combat():
    """506.4 (20260925): a permanent whose protector changes is removed from combat; the creature
    attacking it keeps attacking nothing (506.4c)."""
    cb = {"defending_players": ["p2"], "attackers": [{"id": "a", "target": "bt", "blocked": False}]}
    g = game([perm("a"), perm("bt", controller="p1", types=("battle",), counters={"defense": 3},
                              protector="p2")], step="declare_attackers", combat=cb)
    ev = g.step()
    e = find(ev, "protector")[0]
    assert e.rules == ["704.5y", "310.9a", "506.4"] and g.state.perm("bt").protector == "p1"
    assert g.state.combat.attackers == [{"id": "a", "target": None, "blocked": False}]


def test_704_5v_waits_for_the_siege_ability_704_5w_does_not():
    siege = perm("s", controller="p2", counters={"defense": 1}, protector="p1", **SIEGE)
    other = perm("o", controller="p2", types=("battle",), counters={"defense": 1}, protector="p2")
    g = game([siege, other])
    ev = g.act("deal_damage", target="s", amount=1)
    assert find(ev, "trigger")[0].rules == ["310.12b", "603.3"] and not find(ev, "graveyard")
    ev = g.act("deal_damage", target="o", amount=1)
    assert [e.rules for e in find(ev, "graveyard")] == [["704.5w"]]
    assert "s" in bf_ids(g) and "o" not in bf_ids(g)


def test_704_5z_only_the_newest_role_of_each_controller_stays():
    bf = [perm("c"), perm("r1", attached_to="c", **ROLE), perm("r2", attached_to="c", **ROLE),
          perm("r3", controller="p2", attached_to="c", **ROLE)]
    ev = game(bf).step()
    e = find(ev, "graveyard")[0]
    assert e.rules == ["704.5z"] and e.objects == ["r1", "r2"]
    assert [x.rules for x in find(ev, "cease_to_exist")] == [["704.5d"]]   # a token


def test_704_5aa_speed_becomes_one():
    g = game([perm("auto", controller="p2", keywords=["start your engines!"])])
    ev = g.step()
    assert find(ev, "speed")[0].rules == ["704.5aa"] and g.state.player("p2").speed == 1
    assert g.state.player("p1").speed is None


# --- 704.6d commander -------------------------------------------------------------------------

def test_704_6d_owner_may_put_the_commander_into_the_command_zone_apnap():
    bf = [perm("c2", controller="p2", commander=True), perm("c3", controller="p3", commander=True)]
    g = game(bf, variant="commander", players=four_players(), active="p3")
    g.act("destroy", object="c2", check_sba=False)
    g.act("exile", object="c3", check_sba=False)
    g.step()
    p = g.pending
    assert p["player"] == "p3" and p["rules"] == ["704.6d", "903.9a", "101.4"]
    assert p["default"] == {"to_command_zone": ["c3"]}
    g.decide()
    assert g.pending["player"] == "p2"
    ev = g.decide({"to_command_zone": []})
    assert zone_ids(g, "p3", "command") == ["c3"] and zone_ids(g, "p2", "graveyard") == ["c2"]
    assert find(ev, "command_zone")[0].rules == ["704.6d", "903.9a"]
    assert find(ev, "commander_stays")[0].rules == ["704.6d", "903.9a"]
    g.step()                                                     # not asked again
    assert g.pending is None and zone_ids(g, "p2", "graveyard") == ["c2"]


def test_704_6d_lethal_damage_then_command_zone_in_one_check():
    g = game([perm("cmd", controller="p2", commander=True, damage=2)], variant="commander",
             players=four_players())
    ev = g.step()
    ev += g.decide()
    assert [e.rules[0] for e in ev if e.rules[0].startswith("704")] == ["704.5g", "704.6d"]
    assert zone_ids(g, "p2", "command") == ["cmd"]


def test_704_6d_not_outside_commander():
    g = game([perm("cmd", commander=True, damage=2)])
    g.step()
    assert g.pending is None and zone_ids(g, "p1", "graveyard") == ["cmd"]


# --- 704.6f Planechase -------------------------------------------------------------------------

def test_704_6f_planeswalk_away_from_a_phenomenon_after_its_ability():
    players = [{"id": "p1", "planar_deck": [card("ph", types=("phenomenon",)),
                                            card("pl", types=("plane",))]}, {"id": "p2"}]
    g = game(players=players, options={"planechase": True})
    ev = g.act("planeswalk")
    assert find(ev, "planeswalk")[0].rules == ["701.31a", "701.31b"]
    assert find(ev, "trigger")[0].rules == ["312.5", "603.3"]          # "when you encounter"
    assert zone_ids(g, "p1", "command") == ["ph"]                     # waits for its ability
    ev = g.step()
    e = find(ev, "planeswalk")[0]
    assert e.rules == ["704.6f", "701.31b"]
    assert zone_ids(g, "p1", "command") == ["pl"] and zone_ids(g, "p1", "planar_deck") == ["ph"]


# --- simultaneous choices in APNAP order (101.4) -------------------------------------------------

def test_704_5j_legend_rule_several_players_choose_in_apnap_order():
    legends = [perm(f"{pid}k{i}", controller=pid, name="Leggenda", supertypes=["legendary"])
               for pid in ("p1", "p2", "p4") for i in (1, 2)]
    g = game(legends, variant="free-for-all", players=four_players(), active="p3")
    g.step()
    asked = []
    while g.pending is not None:
        p = g.pending
        assert p["kind"] == "legend_rule" and p["rules"] == ["704.5j", "101.4"]
        asked.append(p["player"])
        ev = g.decide({"keep": f"{p['player']}k1"} if p["player"] == "p1" else None)
    assert asked == ["p4", "p1", "p2"]                 # from the active player p3, in turn order
    gone = find(ev, "graveyard")
    assert [e.rules for e in gone] == [["704.5j"]] * 3
    assert [e.objects[0] for e in gone] == ["p4k1", "p1k2", "p2k1"]
    assert sorted(bf_ids(g)) == ["p1k1", "p2k2", "p4k2"]


def test_704_5j_one_player_choosing_cites_no_apnap():
    g = game([perm("k1", name="K", supertypes=["legendary"]),
              perm("k2", name="K", supertypes=["legendary"])])
    g.step()
    assert g.pending["rules"] == ["704.5j"]


# --- 704.6e schemes: no ability of *any* scheme pending ------------------------------------------

def test_704_6e_a_pending_ability_of_any_scheme_keeps_every_scheme_face_up():
    players = [{"id": "ae", "archenemy": True,
                "command": [card("s1", "Intrigo Uno", ("scheme",)),
                            card("s2", "Intrigo Due", ("scheme",))]}, {"id": "h1"}, {"id": "h2"}]
    stack = [{"id": "ab", "kind": "ability", "controller": "ae", "text": "Intrigo Uno",
              "source": "s1", "rules": ["904.9"]}]
    g = game(variant="archenemy", active="ae", players=players, stack=stack)
    g.act("gain_life", player="h1", amount=1)           # state-based actions are checked
    assert zone_ids(g, "ae", "command") == ["s1", "s2"]  # s2's own abilities are not pending
    ev = g.step()                                        # s1's ability resolves
    assert [e.rules for e in find(ev, "scheme")] == [["704.6e"], ["704.6e"]]
    assert zone_ids(g, "ae", "command") == [] and zone_ids(g, "ae", "scheme_deck") == ["s1", "s2"]
