"""Scenario files: validation with Italian messages and field paths, limits,
round trips and the templates of `judge scenario nuovo`."""

from __future__ import annotations

import json

import pytest

from judge.engine import Game, ScenarioError
from judge.engine.scenario.parse import MAX_OBJECTS, parse
from judge.engine.scenario.scenario_json import loads, to_dict
from judge.engine.scenario.templates import new_scenario
from judge.engine.state import VARIANTS

from engine_helpers import card, perm, scenario


def errors_of(data):
    with pytest.raises(ScenarioError) as ei:
        parse(data)
    return ei.value


def test_valid_minimal_scenario_gets_rule_defaults():
    st = parse({"format": "judge-scenario", "version": 1,
                "players": [{"id": "p1"}, {"id": "p2"}]})
    assert [p.life for p in st.players] == [20, 20]          # 119.1
    assert st.players[0].max_hand_size == 7                  # 402.2
    assert st.turn.active_player == "p1" and st.turn.step == "precombat_main"
    assert st.day_night is None and st.combat is None


def test_life_must_be_an_integer_with_path():
    d = scenario()
    d["players"][1]["life"] = "venti"
    e = errors_of(d)
    assert (e.path, e.message) == ("players[1].life", "atteso un intero")
    assert "players[1].life: atteso un intero" in str(e)


def test_all_errors_are_collected():
    d = scenario([perm("x", toughness_typo=1)])
    d["players"][0]["poison"] = -1
    d["turn"]["step"] = "combattimento"
    e = errors_of(d)
    paths = [p for p, _ in e.errors]
    assert "battlefield[0].toughness_typo" in paths
    assert "players[0].poison" in paths
    assert "turn.step" in paths
    assert e.to_dict()["errors"][0].keys() == {"path", "message"}


def test_unknown_attached_to():
    d = scenario([perm("a", types=("enchantment",), subtypes=["Aura"], attached_to="x")])
    e = errors_of(d)
    assert e.path == "battlefield[0].attached_to"
    assert e.message == 'oggetto sconosciuto "x"'


def test_cycle_in_attached_to():
    d = scenario([perm("a", types=("artifact",), subtypes=["Equipment"], attached_to="b"),
                  perm("b", types=("artifact",), subtypes=["Equipment"], attached_to="a")])
    e = errors_of(d)
    assert any("ciclo" in m for _, m in e.errors)
    assert e.path.endswith(".attached_to")


def test_unknown_controller_type_and_keyword():
    d = scenario([perm("a", controller="p9"), perm("b", types=("creatura",)),
                  perm("c", keywords=["volo"])])
    e = errors_of(d)
    msgs = dict(e.errors)
    assert msgs["battlefield[0].controller"] == 'giocatore sconosciuto "p9"'
    assert msgs["battlefield[1].types[0]"].startswith('tipo sconosciuto "creatura"')
    assert msgs["battlefield[2].keywords[0]"].startswith('parola chiave sconosciuta "volo"')


def test_duplicate_ids():
    d = scenario([perm("a"), perm("a")])
    assert any("id duplicato" in m for _, m in errors_of(d).errors)


def test_huge_life_is_a_clear_error():
    d = scenario()
    d["players"][0]["life"] = 10**100
    e = errors_of(d)
    assert e.path == "players[0].life" and "fuori dall'intervallo" in e.message


def test_huge_life_from_json_text():
    text = json.dumps(scenario()).replace('"name": "Alice"', '"name": "Alice", "life": 1' + "0" * 100)
    with pytest.raises(ScenarioError) as ei:
        loads(text)
    assert ei.value.path == "players[0].life"


def test_too_many_cards_is_a_limit_error():
    d = scenario()
    d["players"][0]["library"] = [{"id": f"c{i}", "name": "x"} for i in range(100_000)]
    e = errors_of(d)
    assert "troppi oggetti" in e.message and str(MAX_OBJECTS) in e.message


@pytest.mark.parametrize("text", ["", "{", "[1,2]", "null", '{"format": NaN}', '"x"', "1e999"])
def test_broken_json_is_a_scenario_error(text):
    with pytest.raises(ScenarioError):
        loads(text)


@pytest.mark.parametrize("bad", [
    {"players": "tutti"}, {"players": [1, 2]}, {"battlefield": {}}, {"turn": []},
    {"variant": "planechase"}, {"day_night": "dusk"}, {"combat": 3},
    {"players": [{"id": "p1", "life": True}, {"id": "p2"}]},
    {"players": [{"id": "p1", "hand": [{"id": 3}]}, {"id": "p2"}]},
    {"players": [{"id": "p1", "mana_pool": {"X": 1}}, {"id": "p2"}]},
    {"players": [{"id": "p1", "commander_damage": {"zzz": -3}}, {"id": "p2"}]},
    {"stack": [{"kind": "spell", "controller": "p1", "id": "s"}]},
    {"combat": {"attackers": [{"id": "nope", "target": "p2"}]}},
])
def test_hostile_shapes_never_traceback(bad):
    d = {"format": "judge-scenario", "version": 1, "players": [{"id": "p1"}, {"id": "p2"}]}
    d.update(bad)
    with pytest.raises(ScenarioError) as ei:
        parse(d)
    assert ei.value.errors and all(isinstance(m, str) and m for _, m in ei.value.errors)


def test_wrong_format_and_version():
    e = errors_of({"format": "x", "version": 2, "players": [{"id": "p1"}, {"id": "p2"}]})
    assert dict(e.errors)["format"].startswith("atteso")
    assert "version" in dict(e.errors)


def test_two_headed_giant_teammates_share_life():
    d = scenario(variant="two-headed-giant", players=[
        {"id": "a1", "team": "A", "life": 30}, {"id": "a2", "team": "A", "life": 25},
        {"id": "b1", "team": "B"}, {"id": "b2", "team": "B"}], active="a1")
    assert any("810.4" in m for _, m in errors_of(d).errors)


def test_round_trip_is_exact():
    d = scenario([perm("a", counters={"+1/+1": 2}, tapped=True, keywords=["flying"]),
                  perm("s", types=("enchantment",), subtypes=["Saga"], chapters=3)],
                 day_night="day", monarch="p2")
    st = parse(d)
    out = to_dict(st)
    assert to_dict(parse(json.loads(json.dumps(out)))) == out
    assert out["battlefield"][1]["counters"] == {"lore": 1}        # 714.3a default


def test_permanent_defaults_from_printed_values():
    st = parse(scenario([perm("pw", types=("planeswalker",), loyalty=4),
                         perm("bt", types=("battle",), subtypes=["Siege"], defense=5,
                              protector="p2")]))
    assert st.battlefield[0].counters == {"loyalty": 4}             # 306.5b
    assert st.battlefield[1].counters == {"defense": 5}             # 310.4b


@pytest.mark.parametrize("variant", VARIANTS)
def test_new_scenario_templates_load(variant):
    n = 4 if variant in ("free-for-all", "commander", "two-headed-giant", "archenemy") else 2
    d = new_scenario(variant, n)
    g = Game.from_dict(d)
    lives = [p.life for p in g.state.players]
    expected = {"two-player": [20, 20], "free-for-all": [20] * 4, "commander": [40] * 4,
                "two-headed-giant": [30] * 4, "brawl": [25, 25], "archenemy": [40, 20, 20, 20],
                "vanguard": [20, 20]}[variant]
    assert lives == expected
    if variant == "two-headed-giant":
        assert [p.team for p in g.state.players] == ["A", "A", "B", "B"]


def test_new_scenario_multiplayer_brawl_life():
    assert {p["life"] for p in new_scenario("brawl", 4)["players"]} == {30}   # 119.1d


def test_new_scenario_rejects_bad_counts():
    with pytest.raises(ScenarioError):
        new_scenario("two-player", 3)
    with pytest.raises(ScenarioError):
        new_scenario("two-headed-giant", 3)


def test_load_file_errors_are_italian(tmp_path):
    with pytest.raises(ScenarioError) as ei:
        Game.load(tmp_path / "manca.json")
    assert "impossibile leggere" in str(ei.value)
    p = tmp_path / "bad.json"
    p.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ScenarioError):
        Game.load(p)


def test_docs_example_loads_and_steps():
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "scenario-format.md").read_text()
    example = json.loads(re.search(r"```json\n(.*?)```", doc, re.S).group(1))
    g = Game.from_dict(example)
    g.step()
    assert g.pending["kind"] == "combat_damage_assignment"


# --- fields for copies, dungeons, sectors, speed, Planechase and waiting triggers -------------

ROOMS = [{"name": "A", "text": "Profetizza 1.", "to": ["B", "C"]},
         {"name": "B", "text": "", "to": ["C"]}, {"name": "C", "text": "Pesca."}]


def test_round_trip_with_the_newer_fields():
    players = [{"id": "p1", "speed": 2, "completed_dungeons": ["Undercity"],
                "command": [card("dg", types=("dungeon",), rooms=ROOMS, venture_marker="B"),
                            card("pl", types=("plane",))],
                "planar_deck": [card("ph", types=("phenomenon",))],
                "exile": [card("cp", copy="card")],
                "graveyard": [card("cmd", commander=True, moved_since_sba=True)]},
               {"id": "p2"}]
    d = scenario([perm("s", sector="beta", control_effect=True, owner="p2")], players=players,
                 options={"planechase": True}, planar_controller="p2",
                 stack=[{"id": "t1", "kind": "ability", "controller": "p1", "text": "Monarca",
                         "rules": ["725.2"], "effect": {"kind": "monarch_draw"}}],
                 waiting_triggers=[{"id": "t2", "controller": "p2", "text": "Velocità",
                                    "rules": ["702.179d"], "effect": {"kind": "speed"}}])
    d["turn"]["speed_triggered"] = ["p2"]
    out = to_dict(parse(d))
    assert to_dict(parse(json.loads(json.dumps(out)))) == out
    assert out["players"][0]["command"][0]["venture_marker"] == "B"
    assert out["waiting_triggers"][0]["effect"] == {"kind": "speed"}
    assert out["battlefield"][0]["sector"] == "beta"


def test_dungeon_marker_defaults_to_the_topmost_room():
    st = parse(scenario(players=[{"id": "p1", "command": [card("dg", types=("dungeon",),
                                                                rooms=ROOMS)]}, {"id": "p2"}]))
    assert st.players[0].command[0].venture_marker == "A"               # 309.4a


@pytest.mark.parametrize("mutate,path", [
    (lambda d: d["players"][0]["exile"].append(card("x", copy="forse")), "players[0].exile[0].copy"),
    (lambda d: d["battlefield"].append(perm("x", sector="delta")), "battlefield[0].sector"),
    (lambda d: d["players"][0].update(speed=7), "players[0].speed"),
    (lambda d: d["players"][0]["command"].append(card("dg", types=("dungeon",), rooms=[
        {"name": "A", "to": ["Z"]}, {"name": "Z", "to": ["A"]}])), "players[0].command[0].rooms[1].to[0]"),
    (lambda d: d["players"][0]["command"].append(card("dg", types=("dungeon",), rooms=ROOMS,
                                                       venture_marker="Q")),
     "players[0].command[0].venture_marker"),
    (lambda d: d["battlefield"].append(perm("dg", types=("dungeon",), rooms=ROOMS)),
     "battlefield[0]"),
    (lambda d: d["players"][0]["command"].extend([card("d1", types=("dungeon",), rooms=ROOMS),
                                                   card("d2", types=("dungeon",), rooms=ROOMS)]),
     "players[0].command[1]"),
    (lambda d: d["players"][0]["command"].append(card("pl", types=("plane",))),
     "players[0].command[0]"),
    (lambda d: d.update(planar_controller="p1"), "planar_controller"),
    (lambda d: d.update(waiting_triggers=[{"id": "t", "controller": "p9"}]),
     "waiting_triggers[0].controller"),
    (lambda d: d.update(waiting_triggers=[{"id": "t", "controller": "p1",
                                           "effect": {"kind": "volare"}}]),
     "waiting_triggers[0].effect.kind"),
    (lambda d: d.update(stack=[{"id": "t", "kind": "ability", "controller": "p1",
                                "effect": {"kind": "monarch_steal", "player": "p1"}}]),
     "stack[0].effect.creature"),
])
def test_newer_fields_are_validated_with_their_path(mutate, path):
    d = scenario(players=[{"id": "p1"}, {"id": "p2"}])
    for p in d["players"]:
        for z in ("exile", "command"):
            p.setdefault(z, [])
    mutate(d)
    assert path in [p for p, _ in errors_of(d).errors]
