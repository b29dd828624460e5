"""The continuous effects of a scenario file (``effects``, docs/scenario-format.md «Effetti
continui») and what the layers need on a permanent: its timestamp (613.7d), whether it is face
down (708), the timestamps of its keyword counters (613.7c).

Files written before effects existed still load: a permanent's ``until_end_of_turn`` becomes a
resolved effect lasting until end of turn (611.2a, 514.2), and a file without timestamps numbers
the battlefield in its order (1, 2, 3…), then the resolved effects without one in theirs.
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import continuous, effect_schema, replacement_schema
from judge.engine.mechanics import addition_schema, skip_schema
from judge.engine.scenario import scenario_combat as scb
from judge.engine.state import Effect, Permanent, State
from judge.engine.validation import Validator

PERM_KEYS = {"timestamp", "face_down", "counter_timestamps"}
EOT_KEYS = {"power", "toughness", "keywords"}


def permanent_fields(v: Validator, d: dict, path: str) -> dict:
    ts = v.typed(d, "timestamp", path, "int", None, nullable=True)
    if ts is not None and ts < 1:
        v.err(f"{path}.timestamp", "atteso un intero positivo (1 è il più vecchio)")
        ts = None
    return {"timestamp": ts or 0, "face_down": v.typed(d, "face_down", path, "bool", False),
            "counter_timestamps": v.int_map(d, "counter_timestamps", path)}


def legacy_until_end_of_turn(v: Validator, d: dict, path: str) -> dict[str, Any]:
    """An old ``until_end_of_turn`` field, checked ({} if absent)."""
    eot = v.typed(d, "until_end_of_turn", path, "dict", {})
    out: dict[str, Any] = {}
    if eot:
        p = f"{path}.until_end_of_turn"
        v.unknown_keys(eot, EOT_KEYS, p)
        for k in ("power", "toughness"):
            n = v.typed(eot, k, p, "int")
            if n:
                out[k] = n
        kws = scb.keyword_list(v, eot, "keywords", p)
        if kws:
            out["keywords"] = kws
    return out


def eot_effect(perm_id: str, eot: dict[str, Any], eid: str) -> Effect:
    """The resolved effect an old ``until_end_of_turn`` stands for (611.2a)."""
    does: list[dict] = []
    if eot.get("power") or eot.get("toughness"):
        does.append({"op": "modify_pt", "power": eot.get("power", 0),
                     "toughness": eot.get("toughness", 0)})
    if eot.get("keywords"):
        does.append({"op": "add_abilities", "abilities": list(eot["keywords"])})
    return Effect(id=eid, text="Effetto fino alla fine del turno", source=None, kind="resolved",
                  affects={"objects": [perm_id]}, does=does, duration="end_of_turn")


SOURCE_KEYS = {"card", "ruling", "rule", "example", "text"}


def sources(v: Validator, data: dict) -> list[dict]:
    """What a library scenario rests on: a card's official ruling ({"card", "ruling": date}),
    an example of a rule ({"rule", "example": n}), or a text."""
    out = []
    for i, s in enumerate(v.typed(data, "sources", "", "list", [])):
        p = f"sources[{i}]"
        if not isinstance(s, dict) or not s:
            v.err(p, "atteso un oggetto (card e ruling, rule ed example, oppure text)")
            continue
        v.unknown_keys(s, SOURCE_KEYS, p)
        item = {k: v.typed(s, k, p, "int" if k == "example" else "str") for k in SOURCE_KEYS
                if k in s}
        out.append({k: x for k, x in item.items() if x is not None})
    return out


def read_effects(v: Validator, data: dict) -> list[Effect]:
    raw = v.typed(data, "effects", "", "list", [])
    if len(raw) > effect_schema.MAX_EFFECTS:
        v.err("effects", f"troppi effetti (limite {effect_schema.MAX_EFFECTS})")
        return []
    # A record with an ``event`` is a replacement or prevention effect (614, 615); one with a
    # step, phase or turn as its event skips it (614.10).  One that adds phases or steps
    # (500.8–500.10) changes the turn instead: scenario_phases reads it.
    return [e for i, d in enumerate(raw) if not addition_schema.is_addition(d)
            and (e := _reader(d)(v, d, f"effects[{i}]"))]


def _reader(d):
    if addition_schema.is_addition(d):
        return addition_schema.read
    if skip_schema.is_skip(d):
        return skip_schema.read
    return replacement_schema.read if replacement_schema.is_replacement(d) else effect_schema.read


def finish(v: Validator, st: State, legacy: list[tuple[Permanent, dict]]) -> None:
    """Timestamps where the file gives none, old effects as records, references checked, and
    what effects fix as they begin (continuous.settle)."""
    for i, p in enumerate(st.battlefield):
        if not p.timestamp:
            p.timestamp = i + 1
    newest = max((p.timestamp for p in st.battlefield), default=0)
    newest = max([newest, *(e.timestamp or 0 for e in st.effects)])
    for e in st.effects:
        if e.kind == "resolved" and e.timestamp is None:
            newest += 1
            e.timestamp = newest
    for p, eot in legacy:
        if eot:
            e = eot_effect(p.id, eot, continuous.new_effect_id(st, "fdt"))
            newest += 1
            e.timestamp = newest
            st.effects.append(e)
    st.last_timestamp = newest
    effect_schema.check_refs(v, st)
    replacement_schema.check_refs(v, st)


def settle(st: State) -> None:
    # 611.2c fixes the objects of continuous effects only: a prevention effect of a resolved
    # spell applies to whatever it describes when the damage would be dealt (615.1).
    continuous.settle(st, [e for e in st.effects if e.event is None])


def to_json(st: State) -> list[dict]:
    return [effect_schema.to_json(e) if e.event is None else
            skip_schema.to_json(e) if e.event in skip_schema.TURN_EVENTS else
            replacement_schema.to_json(e) for e in st.effects]


def permanent_json(p: Permanent, index: int) -> dict[str, Any]:
    """The layer fields of a permanent, when they differ from the defaults."""
    d: dict[str, Any] = {}
    if p.timestamp != index + 1:
        d["timestamp"] = p.timestamp
    if p.face_down:
        d["face_down"] = True
    if p.counter_timestamps:
        d["counter_timestamps"] = dict(p.counter_timestamps)
    return d
