"""Properties of the layer system (613) on random boards of creatures and enchantments with
static abilities and resolved effects:

* the result depends only on timestamps and dependencies, never on the order in which the
  file lists its effects or its permanents (613.7, 613.8);
* an effect of a static ability goes with its source: the board with the source in the
  graveyard is the board without the source and without its effect (611.3b);
* the cached characteristics are those a fresh computation gives, through judge actions.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import scenario
from judge.engine import Game, ScenarioError
from judge.engine.characteristics import layers



@pytest.fixture(autouse=True, scope="module")
def checked_cache():
    """Every read of these tests checks the layers' cache (layers.VERIFY)."""
    saved, layers.VERIFY = layers.VERIFY, True
    yield
    layers.VERIFY = saved

COLORS = ["W", "U", "B", "R", "G"]
CREATURES = ["c1", "c2", "c3", "c4"]
SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _filter(draw, base: dict) -> dict:
    f = dict(base)
    if draw(st.booleans()):
        f["colors"] = [draw(st.sampled_from(COLORS))]
    if draw(st.booleans()):
        f["controller"] = draw(st.sampled_from(["you", "opponents"]))
    return f


@st.composite
def static_effect(draw, eid: str, source: str) -> dict:
    kind = draw(st.sampled_from(["anthem", "humility", "opal", "color", "fly", "nofly", "artifact",
                                 "animate_artifacts", "switch", "control", "elf", "lord"]))
    creatures = {"types": ["creature"]}
    affects = {"filter": _filter(draw, creatures)}
    does: list[dict]
    if kind == "anthem":
        n = draw(st.integers(-1, 2))
        does = [{"op": "modify_pt", "power": n, "toughness": n}]
    elif kind == "humility":
        does = [{"op": "lose_all_abilities"}, {"op": "set_pt", "power": 1, "toughness": 1}]
    elif kind == "opal":
        affects = {"filter": {"types": ["enchantment"], "other": True}}
        does = [{"op": "add_types", "types": ["creature"]}, {"op": "set_pt", "from": "mana_value"}]
    elif kind == "color":
        does = [{"op": "set_colors", "colors": [draw(st.sampled_from(COLORS))]}]
    elif kind == "fly":
        does = [{"op": "add_abilities", "abilities": ["flying"]}]
    elif kind == "nofly":
        does = [{"op": "remove_abilities", "abilities": ["flying"]}]
    elif kind == "artifact":
        does = [{"op": "add_types", "types": ["artifact"]}]
    elif kind == "animate_artifacts":
        affects = {"filter": {"types": ["artifact"], "not_types": ["creature"]}}
        does = [{"op": "add_types", "types": ["creature"]}, {"op": "set_pt", "power": 2, "toughness": 2}]
    elif kind == "switch":
        does = [{"op": "switch_pt"}]
    elif kind == "control":
        does = [{"op": "control", "player": "you"}]
    elif kind == "elf":
        does = [{"op": "set_subtypes", "subtypes": ["Elf"]}]
    else:
        affects = {"filter": {"types": ["creature"], "subtypes": ["Elf"], "other": True}}
        does = [{"op": "modify_pt", "power": 1, "toughness": 1},
                {"op": "add_abilities", "abilities": ["islandwalk"]}]
    return {"id": eid, "source": source, "kind": "static", "affects": affects, "does": does}


@st.composite
def boards(draw) -> dict:
    n_creatures = draw(st.integers(1, 4))
    n_ench = draw(st.integers(1, 5))
    n_resolved = draw(st.integers(0, 3))
    total = n_creatures + n_ench + n_resolved
    stamps = draw(st.permutations(list(range(1, total + 1))))
    bf, effects = [], []
    for i in range(n_creatures):
        bf.append({"id": CREATURES[i], "name": f"Creatura {i}", "types": ["creature"],
                   "subtypes": [draw(st.sampled_from(["Elf", "Goblin", "Bear"]))],
                   "power": draw(st.integers(0, 4)), "toughness": draw(st.integers(1, 4)),
                   "colors": [draw(st.sampled_from(COLORS))],
                   "keywords": draw(st.sampled_from([[], ["flying"], ["changeling"]])),
                   "controller": draw(st.sampled_from(["p1", "p2"])), "timestamp": stamps[i]})
    for j in range(n_ench):
        eid = f"n{j}"
        bf.append({"id": eid, "name": f"Incantesimo {j}", "types": ["enchantment"],
                   "mana_cost": "{" + str(draw(st.integers(1, 5))) + "}",
                   "controller": draw(st.sampled_from(["p1", "p2"])),
                   "timestamp": stamps[n_creatures + j]})
        effects.append(draw(static_effect(f"e{j}", eid)))
    for k in range(n_resolved):
        op = draw(st.sampled_from([{"op": "modify_pt", "power": 2, "toughness": -1},
                                   {"op": "switch_pt"}, {"op": "set_pt", "power": 0, "toughness": 3},
                                   {"op": "set_colors", "colors": ["B"]},
                                   {"op": "add_types", "types": ["artifact"]}]))
        target = draw(st.sampled_from(CREATURES[:n_creatures]))
        effects.append({"id": f"r{k}", "kind": "resolved", "affects": {"objects": [target]},
                        "does": [op], "duration": "game", "controller": "p1",
                        "timestamp": stamps[n_creatures + n_ench + k]})
    return scenario(bf, effects=effects)


def all_chars(data: dict) -> dict:
    g = Game.from_dict(copy.deepcopy(data))
    return {p.id: layers.chars(g.state, p) for p in g.state.battlefield}


@SETTINGS
@given(boards(), st.randoms(use_true_random=False))
def test_the_result_depends_on_timestamps_not_on_the_order_of_the_file(data, rnd):
    shuffled = copy.deepcopy(data)
    rnd.shuffle(shuffled["effects"])
    rnd.shuffle(shuffled["battlefield"])
    assert all_chars(shuffled) == all_chars(data)


@SETTINGS
@given(boards(), st.data())
def test_an_effect_goes_with_its_source(data, pick):
    sources = [p["id"] for p in data["battlefield"] if p["types"] == ["enchantment"]]
    gone = pick.draw(st.sampled_from(sources))
    moved = copy.deepcopy(data)
    card = next(p for p in moved["battlefield"] if p["id"] == gone)
    moved["battlefield"].remove(card)
    moved["players"][0]["graveyard"] = [{k: v for k, v in card.items()
                                         if k not in ("controller", "timestamp")} | {"owner": "p1"}]
    without = copy.deepcopy(data)
    without["battlefield"] = [p for p in without["battlefield"] if p["id"] != gone]
    without["effects"] = [e for e in without["effects"] if e.get("source") != gone]
    assert all_chars(moved) == all_chars(without)


@SETTINGS
@given(boards(), st.lists(st.tuples(st.sampled_from(["counter", "pump", "end", "destroy", "undo"]),
                                    st.sampled_from(CREATURES)), max_size=6))
def test_the_cache_always_gives_what_a_fresh_computation_gives(data, actions):
    g = Game.from_dict(data)
    for verb, oid in actions:
        present = g.state.perm(oid) is not None
        if verb == "counter" and present:
            g.act("add_counters", target=oid, kind="+1/+1")
        elif verb == "pump" and present:
            g.act("until_end_of_turn", object=oid, power=1, toughness=1, keywords=["flying"])
        elif verb == "end" and g.state.effects:
            g.act("end_effect", which=g.state.effects[0].id)
        elif verb == "destroy" and present:
            g.act("destroy", object=oid)
        elif verb == "undo" and g.can_undo():
            g.undo()
        cached = layers.board(g.state)
        fresh = layers.compute(g.state)
        assert cached.chars == fresh.chars


@st.composite
def plain_boards(draw) -> dict:
    """Boards without continuous effects: counters, changeling, basic land types, face down."""
    bf = []
    for i in range(draw(st.integers(1, 6))):
        land = draw(st.booleans())
        bf.append({"id": f"x{i}", "name": f"Oggetto {i}",
                   "types": ["land"] if land else ["creature"],
                   "subtypes": draw(st.sampled_from([[], ["Forest"], ["Island", "Swamp"]])) if land
                   else draw(st.sampled_from([[], ["Elf"]])),
                   "power": None if land else draw(st.integers(0, 3)),
                   "toughness": None if land else draw(st.integers(1, 3)),
                   "keywords": draw(st.sampled_from([[], ["changeling"], ["flying"]])),
                   "counters": draw(st.dictionaries(st.sampled_from(["+1/+1", "-1/-1", "flying",
                                                                     "exalted", "charge"]),
                                                    st.integers(1, 2), max_size=3)),
                   "face_down": draw(st.booleans()) and not land, "controller": "p1"})
    return scenario(bf)


@SETTINGS
@given(plain_boards())
def test_without_effects_the_quick_path_is_the_full_computation(data):
    g = Game.from_dict(data)
    full = layers.compute(g.state)
    for p in g.state.battlefield:
        assert layers.chars(g.state, p) == full.chars[p.id]


@SETTINGS
@given(plain_boards(), st.lists(st.sampled_from(["rip", "static", "enter"]), unique=True),
       st.sampled_from(["x0", "g0", "l0", "s0"]), st.booleans())
def test_with_replacement_records_only_the_quick_path_is_the_full_computation(data, kinds,
                                                                            source, spell):
    """Records of replacement effects (614) have no operations in the layers: every object in
    every zone, the layers' objects and who has a record's ability are those of the full
    computation, read one at a time."""
    source = source if spell or source != "s0" else "g0"
    effects = {"rip": {"id": "rip", "source": source, "kind": "static", "event": "graveyard",
                       "affects": {"filter": {"zones": "all"}}, "instead": [{"op": "exile"}]},
               "static": {"id": "doubling", "source": source, "kind": "static", "event": "counters",
                          "affects": {"filter": {"controller": "you"}},
                          "instead": [{"op": "double"}]},
               "enter": {"id": "tapped", "source": "x0", "kind": "static", "event": "enter",
                         "affects": {"filter": {"types": ["creature"]}},
                         "instead": [{"op": "tapped"}]}}
    data["effects"] = [effects[k] for k in kinds]
    data["players"][0]["graveyard"] = [{"id": "g0", "name": "Cangiante", "types": ["creature"],
                                        "power": 1, "toughness": 1, "keywords": ["changeling"]}]
    data["players"][0]["library"][0]["id"] = "l0"
    if spell:
        data["stack"] = [{"id": "s0", "kind": "spell", "controller": "p2", "text": "Orso",
                          "card": {"id": "s0", "name": "Orso", "types": ["creature"],
                                   "power": 2, "toughness": 2, "owner": "p1"}}]
    g = Game.from_dict(data)
    quick, full = layers.board(g.state), layers.compute(g.state)
    assert quick.quick
    s = g.state
    objects = [*s.battlefield, *(c for pl in s.players for z in ("hand", "library", "graveyard",
                                                                "exile", "command")
                                 for c in pl.zone(z)), *(i.card for i in s.stack if i.card)]
    for obj in objects:
        assert layers.chars(s, obj) == layers._from_board(full, obj), obj.id
    assert list(quick.works) == list(full.works)
    for oid in full.works:
        assert quick.works.get(oid) == full.works[oid], oid
    for e in s.effects:
        assert quick.holders(f"@{e.id}") == full.holders(f"@{e.id}")


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=6)
                    | st.sampled_from(["self", "attached", "game", "creature", "modify_pt", "copy",
                                       "control", "you", "static", "resolved", "x1"]),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(["id", "op", "kind", "affects", "does", "filter",
                                                       "objects", "types", "power", "player",
                                                       "source", "of", "values", "except",
                                                       "condition", "count", "zones"]),
                                      inner, max_size=4), max_leaves=12)


@SETTINGS
@given(JSON)
def test_any_effect_record_is_read_or_refused_in_italian(raw):
    """A file may hold anything as an effect: it is read or refused with field paths, never
    an exception of another kind."""
    data = scenario([{"id": "x1", "name": "X", "types": ["creature"], "power": 1, "toughness": 1,
                      "controller": "p1"}], effects=[raw])
    try:
        g = Game.from_dict(data)
    except ScenarioError as e:
        assert all(p.startswith("effects") or p == "" for p, _ in e.errors), e.errors
        return
    layers.compute(g.state)
