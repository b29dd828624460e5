"""The layers' cache changes no result: random games on boards with continuous effects (613)
and replacement and prevention effects (614–616), driven by random steps and judge actions,
give the same log, the same state and the same characteristics of every object in every zone
with the cache on (a board per state version, the quick path) and with it off
(``layers.CACHE``, off while the game is made and played: every read computes the whole board
afresh).  A change of the state that forgot ``st.touch()``, or an event wrongly counted among
those that change no characteristic (``context.SAME_CHARACTERISTICS``), makes the cached game
read stale values and differ."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import scenario
from judge.engine import Game
from judge.engine.characteristics import layers
from judge.engine.errors import IllegalAction, ScenarioError
from judge.engine.state import CARD_LISTS
from test_layer_properties import CREATURES, static_effect

SETTINGS = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture(autouse=True)
def cache_back_on():
    yield
    layers.CACHE = True


def _replacement(kind: str, rid: str, source: str, creature: str) -> dict:
    """Replacement and prevention records as the library writes them."""
    mine = {"filter": {"types": ["creature"], "controller": "you"}}
    return {
        "rip": {"id": rid, "source": source, "kind": "static", "event": "graveyard",
                "affects": {"filter": {"zones": "all"}}, "instead": [{"op": "exile"}]},
        "double": {"id": rid, "source": source, "kind": "static", "event": "counters",
                   "affects": {"filter": {"controller": "you"}}, "instead": [{"op": "double"}]},
        "scales": {"id": rid, "source": source, "kind": "static", "event": "counters",
                   "when": {"counter": ["+1/+1"]}, "affects": mine,
                   "instead": [{"op": "add", "amount": 1}]},
        "tapped": {"id": rid, "source": source, "kind": "static", "event": "enter",
                   "affects": {"filter": {"types": ["creature"], "controller": "opponents"}},
                   "instead": [{"op": "tapped"}]},
        "defender": {"id": rid, "source": source, "kind": "static", "event": "dealt_damage",
                     "affects": mine, "instead": [{"op": "prevent", "amount": 1}]},
        "shield": {"id": rid, "kind": "resolved", "controller": "p2", "event": "dealt_damage",
                   "affects": {"objects": [creature]}, "instead": [{"op": "prevent"}],
                   "shield": 2, "duration": "end_of_turn"},
        "regen": {"id": rid, "kind": "resolved", "controller": "p1", "source": creature,
                  "event": "destroy", "affects": {"objects": [creature]},
                  "instead": [{"op": "regenerate"}], "uses": 1, "duration": "end_of_turn"},
        "boon": {"id": rid, "source": source, "kind": "static", "event": "gain_life",
                 "affects": {"players": "you"}, "instead": [{"op": "double"}]},
    }[kind]


@st.composite
def boards(draw) -> dict:
    n_creatures = draw(st.integers(1, 4))
    n_ench = draw(st.integers(0, 3))
    kinds = draw(st.lists(st.sampled_from(["rip", "double", "scales", "tapped", "defender",
                                           "shield", "regen", "boon"]), max_size=4, unique=True))
    bf, effects = [], []
    for i in range(n_creatures):
        bf.append({"id": CREATURES[i], "name": f"Creatura {i}", "types": ["creature"],
                   "subtypes": [draw(st.sampled_from(["Elf", "Goblin", "Bear"]))],
                   "power": draw(st.integers(0, 4)), "toughness": draw(st.integers(1, 4)),
                   "keywords": draw(st.sampled_from([[], ["flying"], ["changeling"], ["lifelink"]])),
                   "counters": draw(st.sampled_from([{}, {"+1/+1": 1}, {"flying": 1}])),
                   "controller": draw(st.sampled_from(["p1", "p2"]))})
    for j in range(max(n_ench, len(kinds))):
        eid = f"n{j}"
        bf.append({"id": eid, "name": f"Incantesimo {j}", "types": ["enchantment"],
                   "mana_cost": "{2}", "controller": draw(st.sampled_from(["p1", "p2"]))})
        if j < n_ench:
            effects.append(draw(static_effect(f"e{j}", eid)))
    for k, kind in enumerate(kinds):
        effects.append(_replacement(kind, f"x{k}", f"n{k}",
                                    draw(st.sampled_from(CREATURES[:n_creatures]))))
    return scenario(bf, effects=effects, step=draw(st.sampled_from(["upkeep", "precombat_main"])))


VERBS = ["step", "step", "undo", "end", "counter", "pump", "destroy", "exile",
         "phase_out", "phase_in", "regenerate", "prevent", "damage", "control", "sacrifice",
         "token", "gain", "mill"]
# (verb, creature, player, which effect)
ACTION = st.tuples(st.sampled_from(VERBS), st.sampled_from(CREATURES),
                   st.sampled_from(["p1", "p2"]), st.integers(0, 5))


def _settle(g: Game) -> None:
    """Answer what is pending: every creature that may attacks the other player and every one
    that may blocks; any other decision by its default."""
    for _ in range(50):
        p = g.state.pending
        if p is None or g.state.result is not None:
            return
        other = next(pl.id for pl in g.state.players if pl.id != p["player"])
        if p["kind"] == "declare_attackers":
            g.decide({"attackers": [{"id": c["id"], "target": other}
                                    for c in p["options"]["creatures"]]})
        elif p["kind"] == "declare_blockers" and p["options"]["attackers"]:
            atts = [a["id"] for a in p["options"]["attackers"]]
            g.decide({"blockers": [{"id": c["id"], "blocking": [atts[i % len(atts)]]}
                                   for i, c in enumerate(p["options"]["creatures"])]})
        else:
            g.decide()


def _do(g: Game, action: tuple) -> str:
    verb, oid, pid, which = action
    try:
        if verb == "step":
            if g.state.pending is None and g.state.result is None:
                g.step()
            _settle(g)
        elif verb == "undo":
            if g.can_undo():
                g.undo()
        elif verb == "end":
            if g.state.effects:
                g.act("end_effect", which=g.state.effects[which % len(g.state.effects)].id)
        elif verb == "counter":
            g.act("add_counters", target=oid, kind=["+1/+1", "-1/-1", "flying"][which % 3])
        elif verb == "pump":
            g.act("until_end_of_turn", object=oid, power=1, toughness=-1, keywords=["flying"])
        elif verb in ("destroy", "exile", "phase_out", "phase_in", "regenerate", "sacrifice"):
            g.act(verb, object=oid)
        elif verb == "prevent":
            g.act("prevent_damage", target=oid, amount=1)
        elif verb == "damage":
            g.act("deal_damage", target=oid, amount=2)
        elif verb == "control":
            g.act("change_control", object=oid, player=pid)
        elif verb == "token":
            g.act("create_token", controller=pid, name="Soldato", types=["creature"],
                  subtypes=["Soldier"], power=1, toughness=1)
        elif verb == "gain":
            g.act("gain_life", player=pid, amount=2)
        else:
            g.act("mill", player=pid)
    except (IllegalAction, ScenarioError) as e:      # refused: both games refuse it alike
        return f"{type(e).__name__}: {e}"
    return ""


def _objects(g: Game):
    s = g.state
    yield from s.battlefield
    for pl in s.players:
        for z in CARD_LISTS:
            yield from pl.zone(z)
    yield from (i.card for i in s.stack if i.card is not None)


def _seen(g: Game) -> tuple:
    """What a game shows: its log, its state, every object's characteristics, the players'
    and the game's rules as the effects leave them (613.10, 613.11)."""
    s = g.state
    return ([(e.kind, e.text, e.rules) for e in g.events], g.to_dict(),
            [(o.id, layers.chars(s, o)) for o in _objects(g)],
            [layers.player(s, p.id) for p in s.players], layers.rule_off(s, "no_legend_rule"))


def _with_cache(on: bool, fn, arg):
    layers.CACHE = on
    try:
        return fn(arg)
    finally:
        layers.CACHE = True


@SETTINGS
@given(boards(), st.lists(ACTION, min_size=1, max_size=8))
def test_the_cache_changes_nothing_a_game_shows(data, actions):
    cached, fresh = Game.from_dict(data), _with_cache(False, Game.from_dict, data)
    assert _with_cache(True, _seen, cached) == _with_cache(False, _seen, fresh)
    for action in actions:
        refused = _with_cache(True, lambda g: _do(g, action), cached)
        assert _with_cache(False, lambda g: _do(g, action), fresh) == refused
        assert _with_cache(True, _seen, cached) == _with_cache(False, _seen, fresh), action
        assert "_layers" not in fresh.state.__dict__          # nothing was kept: all fresh


def test_with_the_cache_off_a_stale_value_is_never_read():
    """The reference is a fresh computation: a change made behind the engine's back (no
    ``touch``) is seen at once with the cache off, and not with it on."""
    data = scenario([{"id": "c1", "name": "Orso", "types": ["creature"], "power": 2,
                      "toughness": 2, "controller": "p1"}],
                    effects=[{"id": "e", "source": "c1", "kind": "static", "affects": "self",
                              "does": [{"op": "modify_pt", "power": 1, "toughness": 1}]}])

    def read_change_read(g: Game) -> tuple[int, int]:
        p = g.state.battlefield[0]
        before = layers.chars(g.state, p).power
        p.power = 5
        return before, layers.chars(g.state, p).power

    assert read_change_read(Game.from_dict(data)) == (3, 3)       # cached: the change didn't touch
    assert _with_cache(False, lambda d: read_change_read(Game.from_dict(d)), data) == (3, 6)
