"""Adding and ending continuous effects, and giving timestamps (613.7): the public way for any
room of the engine to create an effect (a judge action, a triggered ability, a change of
control) — ``add_effect(st, effect)`` — and the rules that end one (514.2, 800.4a, 400.7).

``add_effect`` checks the record (Italian errors), gives it an id and, for an effect of a spell
or ability that resolved, a timestamp (613.7b); it fixes what has to be fixed when the effect
begins: the objects an effect that changes characteristics or control affects (611.2c) and the
values a copy effect copies (707.2, 707.2b, 707.9).  Scenario files go through ``settle`` for
the same reasons.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable

from judge.engine.characteristics import layers, selectors
from judge.engine.characteristics.effect_schema import LAYER, PLAYER_OPS, parse_one
from judge.engine.characteristics.layer_work import Chars, plain
from judge.engine.errors import IllegalAction, invalid_effect
from judge.engine.state import Effect, State


def new_timestamp(st: State) -> int:
    """The next timestamp (613.7): later than every other."""
    newest = max([st.last_timestamp, *(p.timestamp for p in st.battlefield),
                  *(e.timestamp or 0 for e in st.effects)])
    st.last_timestamp = newest + 1
    return st.last_timestamp


def new_effect_id(st: State, prefix: str = "e") -> str:
    taken = st.all_ids() | {e.id for e in st.effects}
    n = len(st.effects) + 1
    while f"{prefix}{n}" in taken:
        n += 1
    return f"{prefix}{n}"


def add_effect(st: State, effect: Effect | dict[str, Any]) -> Effect:
    """Add a continuous effect (a record as in the scenario format, or an ``Effect``).

    Raises ``IllegalAction`` (Italian, with the field paths) when the record is wrong or names
    objects or players the state does not have.  Returns the effect as added."""
    if isinstance(effect, dict):
        e, errors = parse_one(effect)
        if errors or e is None:
            raise invalid_effect(errors, "611.1")
        if "id" not in effect:
            e.id = "?"
    else:
        e = effect
    if e.id in ("?", "") or any(x.id == e.id for x in st.effects) or e.id in st.all_ids():
        e.id = new_effect_id(st)
    _check_refs(st, e)
    if e.kind == "resolved" and e.timestamp is None:
        e.timestamp = new_timestamp(st)                  # 613.7b
    settle(st, [e])
    st.effects.append(e)
    st.touch()
    return e


def _check_refs(st: State, e: Effect) -> None:
    from judge.engine.characteristics.effect_schema import check_refs
    from judge.engine.validation import Validator
    v = Validator()
    probe = State(players=st.players, battlefield=st.battlefield, stack=st.stack,
                  effects=[*st.effects, e])
    check_refs(v, probe, lambda i: "effect" if i == len(st.effects) else f"effects[{i}]")
    mine = [(p, m) for p, m in v.errors if p.startswith("effect.") or p == "effect"]
    if mine:
        raise invalid_effect(mine, "611.1")


def settle(st: State, new: list[Effect]) -> None:
    """What is fixed when effects begin (in timestamp order, each seeing the ones before it):
    611.2c, the objects of a resolved effect that changes characteristics or control; 707.2b
    and 707.2c, the values a copy effect copies."""
    for e in sorted(new, key=lambda x: x.timestamp or 0):
        if any(op["op"] == "copy" and "values" not in op for op in e.does):
            with _before(st, e):
                e.does = [_frozen(st, op) if op["op"] == "copy" and "values" not in op else op
                          for op in e.does]
        if (e.kind == "resolved" and isinstance(e.affects, dict) and "filter" in e.affects
                and not any(op["op"] in PLAYER_OPS for op in e.does)):
            with _before(st, e):
                b = layers.board(st)
                you = e.controller or _controller_of(st, e.source)
                objects = selectors.affected(e.affects, e.source, you, b.works, st)
            e.affects = {"objects": objects, "described": e.affects["filter"]}
        st.touch()


@contextmanager
def _before(st: State, e: Effect):
    """The state as it was when ``e`` began: without it and the effects of later timestamps."""
    saved = st.effects
    cut = e.timestamp if e.timestamp is not None else float("inf")
    st.effects = [x for x in saved if x is not e and (x.kind == "static" or (x.timestamp or 0) < cut)]
    st.touch()
    try:
        yield
    finally:
        st.effects = saved
        st.touch()


def _controller_of(st: State, oid: str | None) -> str | None:
    p = st.perm(oid) if oid else None
    return layers.chars(st, p).controller if p is not None else None


def copiable_values(st: State, oid: str) -> dict[str, Any]:
    """An object's copiable values now (707.2, 613.2c), as a copy effect records them."""
    b = layers.board(st)
    c = b.copiable.get(oid)
    if c is None:
        found = st.find_card(oid)
        if found is None:
            raise IllegalAction(f'oggetto da copiare sconosciuto "{oid}"', ["707.2"])
        c = plain(found[2], layers.static_of(st))
    return _values(c)


def _values(c: Chars) -> dict[str, Any]:
    return {"name": c.name, "mana_cost": c.mana_cost, "types": list(c.types),
            "subtypes": list(c.subtypes), "supertypes": list(c.supertypes),
            "colors": list(c.colors), "abilities": list(c.abilities), "power": c.power,
            "toughness": c.toughness, "loyalty": c.loyalty}


def _frozen(st: State, op: dict) -> dict:
    """A copy effect with the values it copies fixed now (707.2b), its exceptions applied
    (707.9a–b) and the characteristic-defining abilities it must not copy left out (707.9d)."""
    values = copiable_values(st, op["of"])
    exc = op.get("except") or {}
    replaced = set(exc.get("set", {})) | set(exc.get("not_copied", ()))
    if replaced:
        by_id = {e.id: e for e in st.effects}

        def defines(ref: str) -> set[str]:
            e = by_id.get(ref[1:])
            if e is None or not e.cda:
                return set()
            out = set()
            for o in e.does:
                layer = LAYER[o["op"]]
                out |= {"4": {"subtypes"}, "5": {"colors"}, "7b": {"power", "toughness"}}.get(layer, set())
            return out
        values["abilities"] = [a for a in values["abilities"]
                               if not (a.startswith("@") and defines(a) & replaced)
                               and not (a == "changeling" and "subtypes" in replaced)]
    for k, v in exc.get("set", {}).items():
        values[k] = list(v) if isinstance(v, list) else v
    for key, field in (("add_types", "types"), ("add_subtypes", "subtypes"),
                       ("add_supertypes", "supertypes"), ("add_abilities", "abilities")):
        for x in exc.get(key, ()):
            if x not in values[field]:
                values[field].append(x)
    return {**op, "values": values}


def pump(st: State, oid: str, power: int, toughness: int, abilities: list[str] | tuple = (),
         text: str = "", source: str | None = None) -> Effect:
    """An effect until end of turn on one object (611.2a): +power/+toughness (layer 7c) and
    abilities (layer 6)."""
    does: list[dict] = []
    if power or toughness or not abilities:
        does.append({"op": "modify_pt", "power": power, "toughness": toughness})
    if abilities:
        does.append({"op": "add_abilities", "abilities": list(abilities)})
    p = st.perm(source) if source else None
    return add_effect(st, Effect(id="?", text=text, source=source, kind="resolved",
                                 controller=layers.chars(st, p).controller if p else None,
                                 affects={"objects": [oid]}, does=does, duration="end_of_turn"))


# --- ending effects -----------------------------------------------------------------------------

def end_effects(st: State, ends: Callable[[Effect], bool]) -> list[Effect]:
    """Remove the effects ``ends`` says are over; returns them."""
    gone = [e for e in st.effects if ends(e)]
    if gone:
        st.effects = [e for e in st.effects if not ends(e)]
        st.touch()
    return gone


def until_end_of_turn(st: State) -> list[Effect]:
    """514.2: "until end of turn" effects end in the cleanup step."""
    return end_effects(st, lambda e: e.kind == "resolved" and e.duration == "end_of_turn")


def object_left(st: State, oid: str) -> list[Effect]:
    """400.7: an object that left the battlefield is a new object: the effects that affected
    it by name forget it, and those lasting "for as long as" it stayed end (611.2a)."""
    for e in st.effects:
        if isinstance(e.affects, dict) and oid in e.affects.get("objects", ()):
            e.affects = {**e.affects, "objects": [x for x in e.affects["objects"] if x != oid]}
    st.touch()
    return end_effects(st, lambda e: e.kind == "resolved" and e.duration == "source"
                       and e.source == oid)


def control_ends(st: State, pid: str) -> list[Effect]:
    """800.4a: the effects that give a player who leaves the game control of objects end."""
    def gives(e: Effect) -> bool:
        if e.kind != "resolved":
            return False
        for op in e.does:
            if op["op"] == "control" and (op["player"] == pid
                                          or op["player"] == "you" and e.controller == pid):
                return True
        return False
    return end_effects(st, gives)
