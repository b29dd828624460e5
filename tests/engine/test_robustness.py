"""Hostile input to judge actions, answers and saved scenarios: an Italian error from the
engine, never a traceback, and work bounded by the state rather than by the numbers asked."""

from __future__ import annotations

import inspect
import json
import math

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import find, game, library, perm, scenario
from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.play.cli import scenario as cli
from judge.engine.registry import ACTIONS


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write(tmp_path, data) -> str:
    f = tmp_path / "s.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    return str(f)


def test_cli_deeply_nested_parameter_is_an_italian_error(tmp_path):
    f = write(tmp_path, scenario())
    for depth in (50, 5000):
        r = run("azione", f, "trigger", "controller=p1", "text=x", "source=" + "[" * depth + "]" * depth)
        assert r.exit_code in (1, 2) and "Traceback" not in r.output
        assert "annidat" in r.output


def test_cli_draw_a_billion_is_bounded_by_the_library(tmp_path):
    f = write(tmp_path, scenario())
    r = run("azione", f, "draw", "player=p1", "count=1000000000", "--json")
    assert r.exit_code == 0
    events = json.loads(r.output)["events"]
    draws = [e for e in events if e["kind"] == "draw"]
    empty = [e for e in events if e["kind"] == "draw_empty"]
    assert len(draws) == 5 and len(empty) == 1
    assert empty[0]["rules"] == ["121.1", "121.2", "121.4"]
    assert empty[0]["data"]["attempts"] == 10**9 - 5
    assert [e["rules"] for e in events if e["kind"] == "lose"] == [["704.5b"]]


def test_each_player_draws_a_billion_is_bounded():
    g = game()
    ev = g.act("each_player_draws", count=10**9, check_sba=False)
    assert len(ev) == 12 and [e.data["attempts"] for e in find(ev, "draw_empty")] == [10**9 - 5] * 2


@pytest.mark.parametrize("pending,path", [
    ({"id": "x", "player": "p1", "rules": [], "prompt": "", "options": {}, "default": {}},
     "pending.kind"),
    ({"id": "x", "kind": "legend_rule", "player": "p1", "rules": [], "prompt": "",
      "options": {"name": "K"}, "default": {"keep": "k"}}, "pending.options"),
    ({"id": "x", "kind": "discard", "player": "p9", "rules": [], "prompt": "",
      "options": {"count": 1, "cards": []}, "default": {"cards": []}}, "pending.player"),
    ({"id": "x", "kind": "discard", "player": "p1", "rules": ["514.1"], "prompt": "",
      "options": {"count": 1, "cards": [{"id": "a0", "name": "A"}]},
      "default": {"cards": ["zz"]}}, "pending.default"),
    ({"kind": "discard", "player": "p1"}, "pending.id"),
    ("qualcosa", "pending"),
])
def test_malformed_pending_is_a_validation_error_with_its_path(pending, path):
    data = scenario(pending=pending, procedure=["tba:703.4n"])
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(data)
    assert path in [p for p, _ in ei.value.errors]


def test_malformed_pending_via_cli_is_reported_not_internal(tmp_path):
    data = scenario(pending={"id": "x", "kind": "legend_rule", "player": "p1", "rules": [],
                             "prompt": "", "options": {}, "default": {}},
                    procedure=["sba"])
    r = run("passo", write(tmp_path, data))
    assert r.exit_code == 2 and "Scenario non valido" in r.output and "pending.options" in r.output
    assert "Errore interno" not in r.output


def test_pending_without_procedure_and_unknown_tasks_are_refused():
    good = {"id": "x", "kind": "discard", "player": "p1", "rules": ["514.1"], "prompt": "",
            "options": {"count": 1, "cards": [{"id": "a0", "name": "A"}]},
            "default": {"cards": ["a0"]}}
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(pending=good))
    assert ei.value.path == "pending"
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(procedure=["tba:999.9", "vola"]))  # riferimenti: nessuno
    assert [p for p, _ in ei.value.errors] == ["procedure[0]", "procedure[1]"]
    # A count in other Unicode digits ("²" is a digit to str.isdigit(), not to int()).
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(procedure=["each_discard:²"]))
    assert [p for p, _ in ei.value.errors] == ["procedure[0]"]
    Game.from_dict(scenario(procedure=["each_discard:2"]))


def test_malformed_result_is_refused():
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(result={"winners": ["p7"]}))
    assert {"result.draw", "result.winners[0]"} <= {p for p, _ in ei.value.errors}


def test_stale_saved_answer_is_asked_again():
    g = game([perm("k1", name="K", supertypes=["legendary"]),
              perm("k2", name="K", supertypes=["legendary"])])
    g.step()
    data = g.to_dict()
    data["answers"] = {data["pending"]["id"]: {"keep": "non-esiste"}}
    g2 = Game.from_dict(data)
    g2.decide({"keep": "k1"})
    assert [p.id for p in g2.state.battlefield] == ["k1"]


# --- random hostile judge actions -----------------------------------------------------------

HOSTILE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.sampled_from(
        [0, 1, -1, 10**9, 10**9 + 1, 2**63, math.inf, -math.inf, math.nan, 1.5]) |
    st.text(max_size=8) | st.sampled_from(["p1", "p2", "orso", "leg", "a0", "s1", "poison",
                                           "defense", "battlefield", "exile", "day", "R"]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(
        st.sampled_from(["controller", "text", "source", "R", "name", "rooms", "to", "x"]), c,
        max_size=3),
    max_leaves=8)


IDS = st.sampled_from(["p1", "p2", "p3", "orso", "leg", "bt", "s1", "a0", "b1", "nessuno"])
SMALL = st.integers(-3, 12) | st.sampled_from([10**9, 10**9 + 1, 2**63, -(2**63)])
PLAUSIBLE = {
    "player": IDS, "controller": IDS, "target": IDS, "object": IDS, "card": IDS, "spell": IDS,
    "source": IDS, "to": IDS,
    "amount": SMALL, "count": SMALL, "value": SMALL | st.sampled_from(["day", "night"]),
    "power": SMALL, "toughness": SMALL, "random": SMALL,
    "zone": st.sampled_from(["hand", "library", "graveyard", "exile", "command", "battlefield"]),
    "kind": st.sampled_from(["poison", "defense", "+1/+1", "-1/-1", "loyalty", "stun"]),
    "name": st.text(max_size=6), "text": st.text(max_size=6), "id": st.text(max_size=4),
    "types": st.lists(st.sampled_from(["creature", "land", "battle", "instant", "dungeon"]),
                      max_size=2),
    "subtypes": st.lists(st.sampled_from(["Siege", "Aura", "Role", "Saga"]), max_size=2),
    "supertypes": st.lists(st.sampled_from(["legendary", "world"]), max_size=2),
    "keywords": st.lists(st.sampled_from(["flying", "lifelink", "space sculptor",
                                          "start your engines!"]), max_size=2),
    "cards": st.lists(IDS, max_size=2), "mana": st.dictionaries(st.sampled_from("WURC"), SMALL),
    "abilities": st.lists(st.fixed_dictionaries({"controller": IDS, "text": st.text(max_size=4)},
                                                optional={"source": IDS,
                                                          "on_trigger": st.booleans()}),
                          max_size=3),
    "room": st.sampled_from(["Forge", "Lost Well", "A", "B"]),
    "dungeon": st.fixed_dictionaries({"name": st.text(min_size=1, max_size=4), "rooms": st.lists(
        st.fixed_dictionaries({"name": st.sampled_from(["A", "B"]),
                               "to": st.lists(st.sampled_from(["A", "B"]), max_size=2)}),
        max_size=3)}),
}


def _params_of(name: str) -> list[inspect.Parameter]:
    return list(inspect.signature(ACTIONS[name].func).parameters.values())[1:]


@st.composite
def hostile_calls(draw):
    """Judge actions with their real parameters (required ones always, optional ones
    sometimes, a stray one now and then), each value plausible or hostile."""
    calls = []
    for _ in range(draw(st.integers(1, 4))):
        name = draw(st.sampled_from(sorted(ACTIONS)))
        params = {}
        for p in _params_of(name):
            if p.default is inspect.Parameter.empty or draw(st.booleans()):
                plausible = PLAUSIBLE.get(p.name, HOSTILE)
                params[p.name] = draw(plausible if draw(st.integers(0, 3)) else HOSTILE)
        if draw(st.integers(0, 9)) == 0:
            params["junk"] = draw(HOSTILE)
        calls.append((name, params))
    return calls


def hostile_board() -> dict:
    bf = [perm("orso", p=2, t=2), perm("leg", controller="p2", supertypes=["legendary"]),
          perm("bt", controller="p2", types=("battle",), subtypes=["Siege"],
               counters={"defense": 1}, protector="p1")]
    stack = [{"id": "s1", "kind": "spell", "controller": "p1",
              "card": {"id": "s1", "name": "Shock", "types": ["instant"]}}]
    players = [{"id": "p1", "library": library("a", 3), "speed": 1,
                "command": [{"id": "piano", "name": "Piano", "types": ["plane"]}]},
               {"id": "p2", "library": library("b", 3),
                "planar_deck": [{"id": "feno", "name": "Fenomeno", "types": ["phenomenon"]}]},
               {"id": "p3"}]
    return scenario(bf, variant="free-for-all", players=players, stack=stack, monarch="p2",
                    initiative="p1", options={"planechase": True})


@settings(max_examples=400, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_calls())
def test_random_hostile_actions_raise_only_engine_errors(calls):
    g = Game.from_dict(hostile_board())
    for name, params in calls:
        before = g.to_dict()
        try:
            g.act(name, **params)
        except IllegalAction as e:
            assert isinstance(e.message, str) and e.message
            assert g.to_dict() == before                  # refused: nothing changed
        if g.pending is not None:
            try:
                g.decide(params.get("junk"))
            except IllegalAction:
                g.decide()
        if g.result is not None:
            break
    json.dumps(g.to_dict())


# --- hostile saved decisions ----------------------------------------------------------------

@pytest.mark.parametrize("kind", [[], {}, ["legend_rule"], 3, None])
def test_pending_or_effect_kind_of_any_json_type_is_a_validation_error(kind):
    pending = {"id": "x", "kind": kind, "player": "p1", "rules": [], "prompt": "",
               "options": {}, "default": {}}
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(pending=pending, procedure=["sba"]))
    assert "pending.kind" in [p for p, _ in ei.value.errors]
    waiting = [{"id": "t", "controller": "p1", "text": "x", "effect": {"kind": kind}}]
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(scenario(waiting_triggers=waiting))
    assert "waiting_triggers[0].effect.kind" in [p for p, _ in ei.value.errors]


def test_cli_unhashable_pending_kind_and_deep_file_are_reported(tmp_path):
    data = scenario(pending={"id": "x", "kind": ["a"], "player": "p1", "rules": [], "prompt": "",
                             "options": {}, "default": {}}, procedure=["sba"])
    r = run("passo", write(tmp_path, data))
    assert r.exit_code == 2 and 'pending.kind: tipo di decisione sconosciuto "lista"' in r.output
    deep = tmp_path / "deep.json"
    deep.write_text('{"pending": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    r = run("passo", str(deep))
    assert r.exit_code == 2 and "JSON non valido: troppo annidato" in r.output


def _saved_decisions() -> list[dict]:
    """Saved states waiting on decisions of several kinds."""
    sculptor = [perm("sc", keywords=["space sculptor"]), perm("y", controller="p2")]
    boards = [
        scenario([perm("k1", name="K", supertypes=["legendary"]),
                  perm("k2", name="K", supertypes=["legendary"])]),
        scenario(sculptor),
        scenario([perm("bt", counters={"defense": 3}, types=("battle",), subtypes=["Siege"])],
                 variant="free-for-all",
                 players=[{"id": "p1"}, {"id": "p2"}, {"id": "p3"}]),
        scenario([perm("a", p=3, t=3, keywords=["trample"]), perm("w1", controller="p2"),
                  perm("w2", controller="p2")], step="declare_blockers",
                 combat={"defending_players": ["p2"], "blockers_declared_by": ["p2"],
                         "attackers": [{"id": "a", "target": "p2", "blocked": True}],
                         "blockers": [{"id": "w1", "blocking": ["a"]},
                                      {"id": "w2", "blocking": ["a"]}]}),
        scenario(step="end", players=[{"id": "p1", "hand": library("h", 9)}, {"id": "p2"}]),
    ]
    out = []
    for data in boards:
        g = Game.from_dict(data)
        g.step()
        assert g.pending is not None
        out.append(g.to_dict())
    trig = Game.from_dict(scenario())
    trig.act("trigger", abilities=[{"controller": "p1", "text": "A"},
                                   {"controller": "p1", "text": "B"}])
    out.append(trig.to_dict())
    return out


SAVED = _saved_decisions()


@st.composite
def mutated_pending(draw):
    """A saved decision with one to three of its values, at any depth, replaced or removed."""
    data = json.loads(json.dumps(draw(st.sampled_from(SAVED))))
    for _ in range(draw(st.integers(1, 3))):
        if "pending" not in data:
            break
        node, key = data, "pending"
        while isinstance(node[key], (dict, list)) and node[key] and draw(st.booleans()):
            node = node[key]
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict)
                                       else range(len(node))))
        if isinstance(node, dict) and draw(st.integers(0, 4)) == 0:
            del node[key]
        else:
            node[key] = draw(HOSTILE)
    return data


@settings(max_examples=300, deadline=2000, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_pending(), HOSTILE)
def test_hostile_saved_decisions_raise_only_engine_errors(data, answer):
    """Any damage to a saved `pending` block is a validation error with a field path, or a
    decision the engine can still answer, refuse, or abandon by a concession."""
    try:
        g = Game.from_dict(data)
    except ScenarioError as e:
        assert all(isinstance(p, str) and isinstance(m, str) and m for p, m in e.errors)
        return
    for attempt in (lambda: g.decide(answer), g.decide, lambda: g.act("concede", player="p2")):
        try:
            attempt()
        except IllegalAction as e:
            assert isinstance(e.message, str) and e.message
    Game.from_dict(g.to_dict())


@pytest.mark.parametrize("expected,message", [
    ({"actions": 5}, "expected.actions: attesa una lista"),
    ({"actions": [], "state": {"life": 7}}, "expected.state.life: atteso un oggetto"),
    ([1], "expected: atteso un oggetto"),
    ({"actions": [{"step": 10**9}]}, "expected.actions[0].step: atteso un numero di passi da 1 a 10000"),
    ({"actions": [{"step": True}]}, "expected.actions[0].step: atteso un numero di passi"),
    ({"actions": ["[" * 500 + "]" * 500]}, "expected.actions[0]: atteso un oggetto (un'azione"),
    ({"actions": [{"step": 1}], "events": [5]}, "expected.events[0]: atteso un oggetto"),
    ({"actions": [{"decide": "[" * 10_001}]}, "expected.actions[0].decide: testo troppo lungo"),
])
def test_cli_verifica_malformed_expected_block_is_a_failure_not_a_traceback(tmp_path, expected,
                                                                             message):
    r = run("verifica", write(tmp_path, scenario(expected=expected)))
    assert r.exit_code == 1 and message in r.output and "Traceback" not in r.output
    assert len(r.output) < 1000                       # hostile values are quoted cut short


def test_cli_deeply_nested_answers_are_an_italian_error(tmp_path):
    f = write(tmp_path, scenario([perm("k1", name="K", supertypes=["legendary"]),
                                  perm("k2", name="K", supertypes=["legendary"])]))
    r = run("passo", f, "--decisioni", "[" * 100_000 + "]" * 100_000)
    assert r.exit_code == 2 and "--decisioni: JSON troppo annidato" in r.output
    r = run("passo", f, "--decisioni", "[" + "[" * 30 + "]" * 30 + "]")
    assert r.exit_code in (0, 1) and "Traceback" not in r.output


_JSON = st.recursive(st.none() | st.integers() | st.text(max_size=3),
                     lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids, max_size=3),
                     max_leaves=30)


@given(value=_JSON, limit=st.integers(0, 8))
def test_depth_check_stops_early_but_agrees_with_the_full_walk(value, limit):
    from judge.engine.validation import json_depth, json_depth_ok

    assert json_depth_ok(value, limit) == (json_depth(value) <= limit)
    assert json_depth(value, stop_above=limit) == json_depth(value) or json_depth(value) > limit
