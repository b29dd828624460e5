"""The shape of a scenario's ``expected`` block is checked before anything runs: a malformed
block is a list of Italian errors naming the field, never an exception, and an exception
from the engine while a well-formed block runs is a bug that surfaces."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import perm, scenario
from judge.engine import Game
from judge.engine.play import library
from judge.engine.play.library import verify
from judge.engine.scenario.expected import (MAX_DEPTH, MAX_ERRORS, MAX_VALUES, VERBS, problems,
                                            state_problems)

LIB = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted(LIB.glob("*.json"))
BLOCKS = [json.loads(p.read_text(encoding="utf-8")) for p in FILES]


def players(data: dict) -> list[str]:
    return [p["id"] for p in data["players"]]


def fails_of(expected, **top) -> list[str]:
    return verify(scenario(expected=expected, **top))[0]


@pytest.mark.parametrize("data", BLOCKS, ids=[p.stem for p in FILES])
def test_every_library_block_has_the_right_shape(data):
    assert problems(data["expected"], players(data)) == []
    assert state_problems(data["expected"]["state"], players(data)) == []


@pytest.mark.parametrize("expected,message", [
    ({"actions": [{"step": 1}] * 5, "refused": [{"after": 7, "answer": {}}]},
     "expected.refused[0].after: deve essere un intero tra 0 e 4"),
    ({"actions": [{"step": 1}], "pending_after": [{"after": True}]},
     "expected.pending_after[0].after: deve essere un intero tra 0 e 0"),
    ({"pending_after": [{"after": 0}]},
     "expected.pending_after[0].after: non ci sono azioni (expected.actions) dopo cui controllare"),
    ({"actions": [{"step": 1}] * 3, "refused": [{"after": 1, "answer": 1}, {"after": 1, "answer": 2}]},
     "expected.refused[1].after: dopo l'azione 1 c'è già expected.refused[0]"),
    ({"actions": [{"step": 1}], "refused": [{"after": 0}]},
     "expected.refused[0].answer: campo obbligatorio mancante"),
    ({"actions": [{"step": 1, "decide": None}]},
     "expected.actions[0]: ogni azione ha una sola chiave tra step, step_to, decide, act "
     "(trovate: step, decide)"),
    ({"actions": [{"step": 2.0}]}, "expected.actions[0].step: atteso un numero di passi da 1 a 10000"),
    ({"actions": [{"step": 1, "defaults": True}]}, "expected.actions[0].defaults: campo sconosciuto"),
    ({"actions": [{"step_to": "pranzo"}]}, 'expected.actions[0].step_to: sottofase sconosciuta "pranzo"'),
    ({"actions": [{"act": "draw", "player": "p1", "check_sba": "no"}]},
     "expected.actions[0].check_sba: atteso un booleano (true/false)"),
    ({"events": [{"kind": "draw"}]}, "expected.events[0].rules: campo obbligatorio mancante"),
    ({"events": [{"rules": "704.5a"}]}, "expected.events[0].rules: attesa una lista"),
    ({"steps_seen": ["upkeep", "merenda"]}, 'expected.steps_seen[1]: sottofase sconosciuta "merenda"'),
    ({"state": {"life": {"p9": 20}}}, 'expected.state.life.p9: giocatore sconosciuto "p9" '
                                      "(nello scenario: p1, p2)"),
    ({"state": {"life": {"p1": True}}}, "expected.state.life.p1: atteso un intero"),
    ({"state": {"zones": {"p1.life": []}}}, 'expected.state.zones.p1.life: atteso "giocatore.zona"'),
    ({"state": {"zones": {"p1.hand": "a0"}}}, "expected.state.zones.p1.hand: attesa una lista"),
    ({"state": {"battlefield": ["a", 1]}}, "expected.state.battlefield[1]: attesa una stringa"),
    ({"state": {"mana_pool": {"p1": {"X": 1}}}},
     'expected.state.mana_pool.p1.X: colore di mana sconosciuto "X"'),
    ({"state": {"result": {"draw": False, "winners": ["p1"]}}},
     "expected.state.result.rules: campo obbligatorio mancante"),
    ({"state": {"turn": 1.5}}, "expected.state.turn: atteso un intero"),
    ({"stato": {}}, "expected.stato: campo sconosciuto"),
    ([{"step": 1}], "expected: atteso un oggetto"),
    ({"actions": [{"act": "deal_damage", "target": "p2", "amount": 10**40}]},
     "expected.actions[0].amount: valore fuori dall'intervallo consentito"),
    ({"actions": [{"step": 1}] * (MAX_VALUES + 1)},
     f"expected: blocco troppo grande (al massimo {MAX_VALUES} valori)"),
])
def test_malformed_block_messages(expected, message):
    fails = fails_of(expected)
    assert any(f.startswith(message) for f in fails), fails


def test_deep_nesting_is_named_where_it_goes_too_deep():
    fails = fails_of({"actions": [{"decide": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]})
    assert fails == ["expected.actions[0].decide" + "[0]" * 21
                     + f": troppo annidato (al massimo {MAX_DEPTH} livelli)"]


def test_malformed_block_is_not_run():
    """One wrong field anywhere and nothing runs: no events, and no engine failure next to it."""
    fails, events = verify(scenario(expected={"actions": [{"step": 1}, {"act": "nope"}]}))
    assert events == [] and len(fails) == 1 and fails[0].startswith("expected.actions[1].act:")


def test_a_refusal_by_the_engine_is_still_a_failure_of_the_run():
    fails = fails_of({"actions": [{"act": "deal_damage", "target": "p9", "amount": 1}]})
    assert len(fails) == 1 and fails[0].startswith("azione 0 (") and "non è un permanente" in fails[0]


def test_after_is_checked_whatever_the_order_of_the_keys():
    block = {"refused": [{"after": 1, "answer": {}}], "actions": [{"step": 1}, {"step": 1}]}
    assert problems(block, ["p1", "p2"]) == []


def test_errors_are_bounded():
    fails = fails_of({"events": [5] * 5000})
    assert len(fails) == MAX_ERRORS


def test_no_pending_decision_is_written_kind_null():
    """The library writes ``{"after": n, "kind": null}``: after action n nothing is pending."""
    data = scenario([perm("k1", name="K", supertypes=["legendary"]),
                     perm("k2", name="K", supertypes=["legendary"])],
                    expected={"actions": [{"step": 1}, {"decide": None}],
                              "pending_after": [{"after": 0, "kind": "legend_rule", "player": "p1"},
                                                {"after": 1, "kind": None}]})
    fails, events = verify(data)
    assert fails == [] and events


# --- an engine bug is not a malformed block -----------------------------------------------------

def _boom(*args, **kwargs):
    raise KeyError("bug")


@pytest.mark.parametrize("target,name", [(library, "check_state"), (library, "_match_event"),
                                         (Game, "step")])
def test_an_engine_bug_propagates(monkeypatch, target, name):
    monkeypatch.setattr(target, name, _boom)
    data = scenario(expected={"actions": [{"step": 1}], "events": [{"rules": ["500.1"]}],
                              "state": {"turn": 3}})
    with pytest.raises(KeyError, match="bug"):
        verify(data)


# --- damaged library blocks -----------------------------------------------------------------------

# What the engine judges, not the validator: answers, a decision's default and options, and a
# judge action's own parameters.  Damage under them may be accepted (then the engine runs it).
ENGINE_JUDGES = re.compile(r"\.(decide|answer|default|options)\b")
ACT_PARAM = re.compile(r"^expected\.actions\[(\d+)\]\.(\w+)")


def _free(exp: dict, path: str) -> bool:
    m = ACT_PARAM.match(path)
    act_param = bool(m) and "act" in exp["actions"][int(m[1])] and m[2] not in ("act", "check_sba")
    return act_param or bool(ENGINE_JUDGES.search(path))
# The keys a block cannot do without, by the path of the object holding them.
REQUIRED = [(re.compile(r"^expected\.(pending_after|refused)\[\d+\]$"), {"after"}),
            (re.compile(r"^expected\.refused\[\d+\]$"), {"answer"}),
            (re.compile(r"^expected\.events\[\d+\]$"), {"rules"}),
            (re.compile(r"^expected\.actions\[\d+\]$"), set(VERBS)),
            (re.compile(r"^expected\.state\.result$"), {"draw", "winners", "rules"})]
# Never right outside the free places: no field of the block holds a fraction.
WRONG = [1.5, [1.5], {"zz": 1.5}]


def _places(value, path="expected"):
    """(path, container, key) for every value inside the block."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, x in items:
        p = f"{path}.{k}" if isinstance(value, dict) else f"{path}[{k}]"
        yield p, value, k
        yield from _places(x, p)


def _nest(value, depth: int):
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def damaged(draw):
    """(scenario, damaged path, whether the block must now be refused)."""
    data = copy.deepcopy(draw(st.sampled_from(BLOCKS)))
    exp = data["expected"]
    places = list(_places(exp))
    how = draw(st.sampled_from(["wrong", "drop", "after", "deep", "huge"]))
    if how == "after":
        # the block's own «after» fields (a judge action's parameters may have one too: the
        # record of add_extra_phases, 500.8)
        afters = [(p, c, k) for p, c, k in places
                  if re.fullmatch(r"expected\.(pending_after|refused)\[\d+\]\.after", p)]
        if afters:
            path, box, key = draw(st.sampled_from(afters))
            n = len(exp["actions"])
            box[key] = draw(st.sampled_from([-1, n, n + 7, True, "0", None, 1.0]))
            return data, path, True
        how = "wrong"
    if how == "drop":
        objects = [(p, c[k]) for p, c, k in places if isinstance(c[k], dict) and c[k]]
        path, box = draw(st.sampled_from(objects))
        key = draw(st.sampled_from(sorted(box)))
        del box[key]
        needed = any(rx.match(path) and key in keys for rx, keys in REQUIRED)
        return data, path, needed and not _free(exp, path)
    if how == "wrong" or not places:
        if draw(st.integers(0, 9)) == 0 or not places:
            data["expected"] = draw(st.sampled_from(WRONG[1:]))   # 1.5: scenario.parse refuses it
            return data, "expected", True
        path, box, key = draw(st.sampled_from(places))
        free = _free(exp, path)                  # before the damage: it may be the action itself
        box[key] = copy.deepcopy(draw(st.sampled_from(WRONG)))
        return data, path, not free
    path, box, key = draw(st.sampled_from(places)) if places else ("expected", data, "expected")
    box[key] = _nest(box[key], MAX_DEPTH + 1) if how == "deep" else [0] * (MAX_VALUES + 1)
    return data, path, True                  # too deep or too large anywhere, free or not


def _related(a: str, b: str) -> bool:
    """One path is the other or inside it."""
    short, long_ = sorted((a, b), key=len)
    return long_ == short or long_.startswith((short + ".", short + "["))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_blocks_are_failures_naming_the_field(case):
    data, path, refused = case
    fails, events = verify(data)                     # never raises
    assert all(isinstance(f, str) and f for f in fails)
    if refused:
        assert fails and events == []
        paths = [f.split(": ", 1)[0] for f in fails]
        assert all(p.startswith("expected") for p in paths), fails
        assert any(_related(p, path) for p in paths), (path, fails)


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.sampled_from(["actions", "state", "after", "step", "act",
                                                       "life", "p1", "zones", "p1.hand", "rules",
                                                       "refused", "events", "decide", "x"]),
                                      kids, max_size=4), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_is_judged_without_an_exception(block):
    for found in (problems(block, ["p1", "p2"]), state_problems(block, ["p1", "p2"])):
        assert len(found) <= MAX_ERRORS
        assert all(f.startswith("expected") and ": " in f for f in found), found
