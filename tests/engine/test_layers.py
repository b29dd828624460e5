"""The layer system (613) and copy effects (707) on small boards: each rule's behaviour and the
rule the explanation cites for it; the effects' records as data (JSON, snapshots, undo)."""

from __future__ import annotations

import json

import pytest

from engine_helpers import card, find, game, perm, scenario
from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.characteristics import continuous, derived, explain, layers
from judge.engine.scenario import scenario_json



@pytest.fixture(autouse=True, scope="module")
def checked_cache():
    """Every read of these tests checks the layers' cache (layers.VERIFY)."""
    saved, layers.VERIFY = layers.VERIFY, True
    yield
    layers.VERIFY = saved


def static(eid, source, affects, does, **kw):
    return {"id": eid, "source": source, "kind": "static", "affects": affects, "does": does, **kw}


def resolved(eid, objects, does, ts=None, **kw):
    d = {"id": eid, "kind": "resolved", "affects": {"objects": objects}, "does": does,
         "duration": "game", **kw}
    if ts is not None:
        d["timestamp"] = ts
    return d


def chars(g, oid):
    return layers.chars(g.state, g.state.perm(oid))


def rows(g, oid):
    return [(r["layer"], r["key"], r["why"]) for r in explain.explain(g.state, oid)["rows"]]


PT = lambda p, t: {"op": "modify_pt", "power": p, "toughness": t}          # noqa: E731
ENCH = ("enchantment",)


# --- 613.8: dependency, loops, re-evaluation ------------------------------------------------------

def test_613_8b_a_dependency_loop_applies_in_timestamp_order():
    """Two creatures, each «other creatures lose all abilities»: applying either would end the
    other (613.8a), a loop: the rule is ignored and the older applies first (613.8b); the newer
    one then has no ability and its effect does not exist."""
    lose = [{"op": "lose_all_abilities"}]
    g = game([perm("x"), perm("y"), perm("z", keywords=["flying"])],
             effects=[static("ex", "x", {"filter": {"types": ["creature"], "other": True}}, lose),
                      static("ey", "y", {"filter": {"types": ["creature"], "other": True}}, lose)])
    assert chars(g, "x").abilities == ("@ex",) and chars(g, "y").abilities == ()
    assert chars(g, "z").abilities == ()
    (row,) = explain.explain(g.state, "y")["rows"]
    assert row["key"] == "ex" and row["why"] == "loop" and "613.8b" in row["rules"]
    assert set(row["loop"]) == {"ex", "ey"}
    assert [n["key"] for n in explain.notes(g.state)] == ["ey"]


def test_613_8a_an_effect_waits_for_the_one_it_depends_on():
    """«Red creatures are blue» (older) and «blue creatures are red»: the second depends on the
    first (it changes what it applies to) and waits for it (613.8b): the creature ends red."""
    g = game([perm("x", colors=["R"]), perm("a", types=ENCH), perm("b", types=ENCH)],
             effects=[static("blu-rosso", "b", {"filter": {"types": ["creature"], "colors": ["U"]}},
                             [{"op": "set_colors", "colors": ["R"]}]),
                      static("rosso-blu", "a", {"filter": {"types": ["creature"], "colors": ["R"]}},
                             [{"op": "set_colors", "colors": ["U"]}])])
    assert chars(g, "x").colors == ("R",)
    assert rows(g, "x") == [("5", "rosso-blu", "timestamp"), ("5", "blu-rosso", "dependency")]
    assert explain.explain(g.state, "x")["rows"][1]["after"] == {"rosso-blu": "applies_to"}


def test_613_8a_c_a_cda_never_depends_on_another_kind():
    """Changeling (a characteristic-defining ability) goes first in layer 4 (613.3), and an effect
    that isn't one can't make it wait (613.8a(c))."""
    g = game([perm("x", keywords=["changeling"]), perm("c", types=ENCH)],
             effects=[static("e", "c", {"filter": {"types": ["creature"]}},
                             [{"op": "add_subtypes", "subtypes": ["Goblin"]}])])
    c = chars(g, "x")
    assert c.every_creature_type and c.has_subtype("Elf") and c.has_subtype("Goblin")
    assert rows(g, "x")[0] == ("4", "changeling:x", "cda")
    assert "613.3" in explain.explain(g.state, "x")["rows"][0]["rules"]


def test_613_8c_the_order_is_worked_out_again_after_each_effect():
    """Three effects in layer 4: C (ts 1) makes artifacts creatures, B (ts 2) makes lands
    artifacts, A (ts 3) makes lands snow.  C depends on B and waits until just after it (613.8b);
    then C, free and older, comes before A (613.8c)."""
    g = game([perm("terra", types=("land",)), perm("c", types=ENCH), perm("b", types=ENCH),
              perm("a", types=ENCH)],
             effects=[static("C", "c", {"filter": {"types": ["artifact"]}},
                             [{"op": "add_types", "types": ["creature"]},
                              {"op": "set_pt", "power": 1, "toughness": 1}]),
                      static("B", "b", {"filter": {"types": ["land"]}},
                             [{"op": "add_types", "types": ["artifact"]}]),
                      static("A", "a", {"filter": {"types": ["land"]}},
                             [{"op": "add_supertypes", "supertypes": ["snow"]}])])
    assert [k for layer, k, _ in rows(g, "terra") if layer == "4"] == ["B", "C", "A"]
    assert chars(g, "terra").types == ("land", "artifact", "creature")


# --- 613.6, 611.3: abilities lost and effects that began ------------------------------------------

def test_an_effect_keeps_applying_after_its_ability_is_removed_613_6():
    g = game([perm("u", types=ENCH, mana_cost="{2}{W}{W}"), perm("o", types=ENCH)],
             effects=[static("opal", "o", {"filter": {"types": ["enchantment"], "other": True}},
                             [{"op": "add_types", "types": ["creature"]},
                              {"op": "set_pt", "from": "mana_value"}]),
                      static("umilta", "u", {"filter": {"types": ["creature"]}},
                             [{"op": "lose_all_abilities"},
                              {"op": "set_pt", "power": 1, "toughness": 1}])])
    # Humility (older) loses its ability in layer 6, but its effect began there: 7b goes on
    assert (chars(g, "u").power, chars(g, "u").toughness) == (4, 4)
    last = explain.explain(g.state, "u")["rows"][-1]
    assert last["layer"] == "7b" and last["key"] == "opal" and "613.6" in last["rules"]


def test_removing_the_source_removes_its_effect():
    g = game([perm("x"), perm("inno", types=ENCH)],
             effects=[static("e", "inno", {"filter": {"types": ["creature"]}}, [PT(1, 1)])])
    assert chars(g, "x").power == 3
    g.act("destroy", object="inno")
    assert chars(g, "x").power == 2 and not explain.explain(g.state, "x")["rows"]


# --- timestamps (613.7) ----------------------------------------------------------------------------

def test_613_7c_a_keyword_counter_has_its_own_timestamp():
    """Humility (no abilities for creatures) and a flying counter: what comes later wins."""
    effects = [static("u", "umilta", {"filter": {"types": ["creature"]}}, [{"op": "lose_all_abilities"}])]
    g = game([perm("umilta", types=ENCH), perm("x")], effects=effects)
    g.act("add_counters", target="x", kind="flying")              # after Humility
    assert derived.has_kw(g.state, g.state.perm("x"), "flying")
    row = next(r for r in explain.explain(g.state, "x")["rows"] if r["key"].startswith("counters"))
    assert "613.7c" in row["rules"] and "122.1b" in row["rules"]
    early = game([perm("x", counters={"flying": 1}), perm("umilta", types=ENCH)], effects=effects)
    assert not derived.has_kw(early.state, early.state.perm("x"), "flying")


def test_613_7e_attaching_gives_a_new_timestamp():
    g = game([perm("x"), perm("y"), perm("eq", types=("artifact",), subtypes=["Equipment"],
                                          attached_to="x")])
    before = g.state.perm("eq").timestamp
    g.act("attach", object="eq", to="y")
    assert g.state.perm("eq").timestamp > max(before, g.state.perm("y").timestamp)


def test_a_permanent_entering_gets_the_newest_timestamp_613_7d():
    g = game([perm("x")], players=[{"id": "p1", "hand": [card("h", "Orso", p=2, t=2)]},
                                   {"id": "p2"}])
    g.act("move", object="h", zone="battlefield")
    assert g.state.perm("h").timestamp > g.state.perm("x").timestamp


# --- layer 3, 305.7, copies, face down ----------------------------------------------------------

def test_layer_3_text_change_of_a_land_type_and_a_colour_word():
    g = game([perm("urborg", types=("land",)), perm("f", types=("land",), subtypes=["Forest"]),
              perm("pro", keywords=["protection from white", "swampwalk"])],
             effects=[static("e-urborg", "urborg", {"filter": {"types": ["land"]}},
                             [{"op": "add_subtypes", "subtypes": ["Swamp"]}]),
                      resolved("hack", ["urborg", "pro"],
                               [{"op": "change_text", "from": "Swamp", "to": "Island"},
                                {"op": "change_text", "from": "white", "to": "blue"}])])
    assert chars(g, "f").subtypes == ("Forest", "Island")
    assert set(chars(g, "pro").abilities) == {"protection from blue", "islandwalk"}
    assert rows(g, "pro")[0][0] == "3" and "612.2" in explain.explain(g.state, "pro")["rows"][0]["rules"]


def test_707_9b_copy_artifact_is_an_enchantment_too():
    g = game([perm("jug", types=("artifact", "creature"), subtypes=["Juggernaut"], p=5, t=3),
              perm("copia", types=ENCH)],
             effects=[{"id": "c", "kind": "resolved", "source": "copia", "affects": "self",
                       "duration": "source",
                       "does": [{"op": "copy", "of": "jug", "except": {"add_types": ["enchantment"]}}]}])
    c = chars(g, "copia")
    assert c.types == ("artifact", "creature", "enchantment") and (c.power, c.toughness) == (5, 3)
    assert g.state.effects[0].does[0]["values"]["types"] == ["artifact", "creature", "enchantment"]


def test_707_2b_a_copy_does_not_change_when_the_original_does():
    g = game([perm("orso", name="Orso"), perm("clone", p=0, t=0)],
             effects=[{"id": "c", "kind": "resolved", "source": "clone", "affects": "self",
                       "duration": "source", "does": [{"op": "copy", "of": "orso"}]}])
    g.act("add_effect", effect={"affects": {"objects": ["orso"]},
                                "does": [{"op": "copy", "values": {"name": "Lupo", "types": ["creature"],
                                                                   "power": 5, "toughness": 5}}]})
    assert chars(g, "orso").name == "Lupo" and chars(g, "clone").name == "Orso"


def test_a_face_down_permanent_and_its_explanation():
    g = game([perm("fd", name="Demone", p=6, t=6, keywords=["flying"], colors=["B"], face_down=True)])
    c = chars(g, "fd")
    assert (c.name, c.power, c.colors, c.abilities, c.types) == (None, 2, (), (), ("creature",))
    assert rows(g, "fd") == [("1b", "face_down", "rule")]


# --- 613.10, 613.11: players and rules -------------------------------------------------------------

def test_613_10_a_player_who_cant_gain_life():
    g = game([perm("ench", types=ENCH)],
             effects=[static("e", "ench", {"players": "opponents"}, [{"op": "cant_gain_life"}])])
    g.act("gain_life", player="p2", amount=3)
    assert g.state.player("p2").life == 20
    g.act("gain_life", player="p1", amount=3)
    assert g.state.player("p1").life == 23


def test_613_11_no_maximum_hand_size_and_no_legend_rule():
    hand = [card(f"h{i}", "x", ("land",)) for i in range(9)]
    g = game([perm("torre", types=("land",)), perm("galleria", types=("artifact",)),
              perm("k1", name="Kellan", supertypes=["legendary"]),
              perm("k2", name="Kellan", supertypes=["legendary"])], step="end",
             players=[{"id": "p1", "hand": hand}, {"id": "p2"}],
             effects=[static("t", "torre", {"players": "you"}, [{"op": "max_hand_size", "value": None}]),
                      static("g", "galleria", "game", [{"op": "no_legend_rule"}])])
    g.step()
    assert g.pending is None and len(g.state.player("p1").hand) == 9
    assert {"k1", "k2"} <= {p.id for p in g.state.battlefield}


# --- the rest of the engine reads the computed characteristics ------------------------------------

def test_sba_704_5f_reads_the_layers_toughness():
    g = game([perm("x", p=2, t=2), perm("m", types=ENCH)],
             effects=[static("meno", "m", {"filter": {"types": ["creature"]}}, [PT(-2, -2)])])
    ev = g.step()
    assert "x" not in {p.id for p in g.state.battlefield} and find(ev, rule="704.5f")


def test_combat_reads_flying_granted_by_an_effect():
    g = game([perm("a"), perm("b", controller="p2"),
              perm("aura", types=ENCH, subtypes=["Aura"], enchant="creature", attached_to="a")],
             effects=[static("vola", "aura", "attached", [{"op": "add_abilities", "abilities": ["flying"]}])],
             step="beginning_of_combat")
    g.step()
    g.decide({"attackers": [{"id": "a", "target": "p2"}]})
    ev = g.step()                                     # Bruno's only creature can't block it
    assert find(ev, kind="block", rule="702.9b")


def test_control_change_moves_the_creature_to_the_other_player():
    g = game([perm("x")])
    g.act("add_effect", effect={"affects": {"objects": ["x"]}, "controller": "p2",
                                "does": [{"op": "control", "player": "you"}],
                                "duration": "end_of_turn"})
    assert derived.controller(g.state, g.state.perm("x")) == "p2"
    g.step_to("cleanup")
    assert derived.controller(g.state, g.state.perm("x")) == "p1"          # 514.2


# --- effects as data -------------------------------------------------------------------------------

BOARD = dict(battlefield=[perm("x"), perm("inno", types=ENCH)],
             effects=[static("e", "inno", {"filter": {"types": ["creature"]}}, [PT(1, 1)]),
                      resolved("r", ["x"], [{"op": "switch_pt"}], ts=9, duration="end_of_turn")])


def test_effects_round_trip_through_json_and_snapshots():
    g = Game.from_dict(scenario(**BOARD))
    text = g.to_json()
    again = Game.from_json(text)
    assert again.to_json() == text and json.loads(text)["effects"][1]["timestamp"] == 9
    snap = Game.from_snapshot(g.snapshot())
    assert chars(snap, "x") == chars(g, "x")


def test_undo_takes_an_effect_back():
    g = Game.from_dict(scenario(**BOARD))
    g.act("add_effect", effect={"affects": {"objects": ["x"]}, "does": [PT(5, 0)]})
    assert chars(g, "x").toughness == 8
    g.undo()
    assert chars(g, "x").toughness == 3 and len(g.state.effects) == 2


def test_old_until_end_of_turn_fields_load_as_effects():
    g = game([perm("x", until_end_of_turn={"power": 2, "keywords": ["flying"]})])
    (e,) = g.state.effects
    assert (e.kind, e.duration) == ("resolved", "end_of_turn")
    assert chars(g, "x").power == 4 and "flying" in chars(g, "x").abilities
    assert "until_end_of_turn" not in g.to_dict()["battlefield"][0]


@pytest.mark.parametrize("bad, message", [
    ({"id": "e", "kind": "static", "affects": "self", "does": []}, "fonte"),
    ({"id": "e", "source": "x", "affects": "self", "does": [{"op": "vola"}]}, "operazione sconosciuta"),
    ({"id": "e", "source": "nessuno", "affects": "self", "does": [PT(1, 1)]}, "oggetto sconosciuto"),
    ({"id": "e", "source": "x", "affects": {"players": "you"}, "does": [PT(1, 1)]}, "oggetti"),
    ({"id": "e", "source": "x", "affects": "self", "does": [{"op": "set_pt"}]}, "indica power"),
])
def test_a_wrong_effect_is_an_italian_error_with_its_path(bad, message):
    with pytest.raises(ScenarioError) as e:
        Game.from_dict(scenario([perm("x")], effects=[bad]))
    assert any(p.startswith("effects[0]") and message in m for p, m in e.value.errors), e.value.errors


def test_add_effect_refuses_a_wrong_record_and_changes_nothing():
    g = game([perm("x")])
    with pytest.raises(IllegalAction) as e:
        g.act("add_effect", effect={"affects": {"objects": ["zz"]}, "does": [PT(1, 1)]})
    assert "oggetto sconosciuto" in e.value.message and not g.state.effects


def test_add_effect_is_the_public_function_and_fixes_611_2c():
    """An effect of a resolved spell that changes characteristics affects the objects that
    match when it begins, and only those (611.2c)."""
    g = game([perm("w", colors=["W"]), perm("b", colors=["B"])],
             players=[{"id": "p1", "hand": [card("h", "Bianca", p=2, t=2, colors=["W"])]},
                      {"id": "p2"}])
    e = continuous.add_effect(g.state, {"kind": "resolved", "affects": {"filter": {"colors": ["W"]}},
                                        "does": [PT(1, 1)], "duration": "end_of_turn"})
    assert e.affects["objects"] == ["w"] and e.timestamp
    g.act("move", object="h", zone="battlefield")
    assert chars(g, "h").power == 2 and chars(g, "w").power == 3


def test_the_cache_is_one_computation_per_state_version():
    g = Game.from_dict(scenario(**BOARD))
    b = layers.board(g.state)
    assert layers.board(g.state) is b
    g.state.touch()
    assert layers.board(g.state) is not b


def test_scenario_json_writes_timestamps_only_when_they_differ_from_the_order():
    d = scenario_json.to_dict(Game.from_dict(scenario(**BOARD)).state)
    assert "timestamp" not in d["battlefield"][0]
