"""Scenario files as JSON: a state to the scenario format and back, read from files or text
(Italian errors, bounded size), and written for people (each card of a zone on one line).

``parse(to_dict(s))`` round-trips; ``loads`` and ``load_file`` validate with ``scenario.parse``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from judge.engine.errors import ScenarioError
from judge.engine.mechanics import identity
from judge.engine.scenario import (card_defaults, scenario_effects, scenario_phases,
                                   scenario_step_triggers)
from judge.engine.scenario.parse import FORMAT, LONG_TEXT_KEYS, MAX_FILE_BYTES, VERSION, entering_counters, parse
from judge.engine.scenario.scenario_combat import to_json_combat
from judge.engine.state import ZONES, Card, Permanent, State


def _copy(value: Any) -> Any:
    """A field's value as the file writes it: a list (a tuple too: a colourless card's ``colors``)."""
    return list(value) if isinstance(value, (list, tuple)) else value


def _same(ref: str) -> str:
    return ref


def _card_dict(c: Card, ref=_same) -> dict:
    d: dict[str, Any] = {"id": c.id, "name": c.name, "types": list(c.types)}
    for key in ("subtypes", "supertypes", "keywords", "colors"):
        if getattr(c, key):
            d[key] = list(getattr(c, key))
    for key in ("power", "toughness", "loyalty", "defense", "chapters", "enchant", "notes"):
        if getattr(c, key) is not None:
            d[key] = getattr(c, key)
    for key in ("token", "commander", "ongoing", "moved_since_sba"):
        if getattr(c, key):
            d[key] = True
    if c.owner:
        d["owner"] = c.owner
    if c.copy is not None:
        d["copy"] = c.copy
    if c.rooms:
        d["rooms"] = [{"name": r["name"], "text": r["text"], "to": list(r["to"])} for r in c.rooms]
    if c.venture_marker is not None:
        d["venture_marker"] = c.venture_marker
    if c.mana_cost is not None:
        d["mana_cost"] = c.mana_cost
    if c.incarnation > 1:
        d["incarnation"] = c.incarnation
    if c.card is not None:
        # Every field a card fills in is written, empty ones too: a keyword or a subtype the
        # judge removed must not come back from the table when the file is read again.
        d["card"] = c.card
        for key in card_defaults.FILLED:
            d.setdefault(key, _copy(getattr(c, key)))
    if isinstance(c, Permanent):
        d["controller"] = c.controller
        for key in ("tapped", "damaged_by_deathtouch", "summoning_sick", "phased_out",
                    "phased_out_indirectly", "doesnt_untap", "control_effect"):
            if getattr(c, key):
                d[key] = True
        if c.damage:
            d["damage"] = c.damage
        for key in ("counters", "max_counters"):
            m = {k: n for k, n in getattr(c, key).items() if n}
            if key == "counters":  # a counter the reader would default, written even at 0
                m.update({k: c.counters.get(k, 0) for k in entering_counters(c) if k not in m})
            if m:
                d[key] = m
        if c.attached_to is not None:
            d["attached_to"] = ref(c.attached_to)
        if c.protector is not None:
            d["protector"] = c.protector
        if c.sector is not None:
            d["sector"] = c.sector
        if c.goaded_by:
            d["goaded_by"] = list(c.goaded_by)
    return d


def to_dict(st: State) -> dict:
    """The scenario JSON (as Python data) for a state; ``parse(to_dict(s))`` round-trips.
    References to objects are written as judges write them (``State.ref_out``): the id for
    the object a card is now, «orso#N» for an earlier one (400.7)."""
    ref = st.ref_out
    out: dict[str, Any] = {"format": FORMAT, "version": VERSION, "title": st.title}
    for k in (*LONG_TEXT_KEYS, "rules", "sources", "expected"):
        if k in st.extra:
            out[k] = json.loads(json.dumps(st.extra[k]))
    out["variant"] = st.variant
    out["options"] = dict(st.options)
    out["players"] = [{
        "id": p.id, "name": p.name, "team": p.team, "life": p.life, "poison": p.poison,
        "max_hand_size": p.max_hand_size,
        **{z: [_card_dict(c) for c in p.zone(z)] for z in ZONES},
        "mana_pool": {k: n for k, n in p.mana_pool.items() if n},
        "commander_damage": dict(p.commander_damage),
        "cant_gain_life": p.cant_gain_life, "cant_lose_life": p.cant_lose_life,
        "lost": p.lost,
        **({"attempted_draw_from_empty_library": True} if p.attempted_draw_from_empty_library else {}),
        **({"archenemy": True, "scheme_deck": [_card_dict(c) for c in p.scheme_deck]}
           if p.archenemy or p.scheme_deck else {}),
        **({"planar_deck": [_card_dict(c) for c in p.planar_deck]} if p.planar_deck else {}),
        **({"speed": p.speed} if p.speed is not None else {}),
        **({"completed_dungeons": list(p.completed_dungeons)} if p.completed_dungeons else {}),
    } for p in st.players]
    out["battlefield"] = [{**_card_dict(c, ref), **scenario_effects.permanent_json(c, i)}
                          for i, c in enumerate(st.battlefield)]
    if st.effects:
        out["effects"] = scenario_effects.to_json(st)
    out["stack"] = [{"id": s.id, "kind": s.kind, "controller": s.controller, "text": s.text,
                     **({"card": _card_dict(s.card)} if s.card is not None else {}),
                     **({"source": ref(s.source)} if s.source is not None else {}),
                     **({"rules": list(s.rules)} if s.rules else {}),
                     **({"effect": _effect(s.effect, ref)} if s.effect else {}),
                     **({"targets": [ref(t) for t in s.targets]} if s.targets else {})}
                    for s in st.stack]
    t = st.turn
    out["turn"] = {"number": t.number, "active_player": t.active_player, "step": t.step,
                   "spells_cast": dict(t.spells_cast),
                   "last_turn": json.loads(json.dumps(t.last_turn)) if t.last_turn else None}
    if t.cleanup_again:
        out["turn"]["cleanup_again"] = True
    if t.speed_triggered:
        out["turn"]["speed_triggered"] = list(t.speed_triggered)
    if t.extra_turns:
        out["turn"]["extra_turns"] = list(t.extra_turns)
    if t.extra_after:
        out["turn"]["extra_after"] = t.extra_after
    out["turn"].update(scenario_phases.to_json(st))
    out["day_night"] = st.day_night
    out["monarch"] = st.monarch
    out["initiative"] = st.initiative
    if st.planar_controller is not None:
        out["planar_controller"] = st.planar_controller
    if st.waiting_triggers:
        out["waiting_triggers"] = [
            {**json.loads(json.dumps(t)), "source": ref(t["source"]) if t.get("source") else
             t.get("source"), "effect": _effect(t.get("effect"), ref)}
            for t in st.waiting_triggers]
    if st.step_triggers:
        out["step_triggers"] = scenario_step_triggers.to_json(st)
    cb = st.combat
    out["combat"] = None if cb is None else {
        "defending_players": list(cb.defending_players),
        "attackers": [dict(a) for a in cb.attackers],
        "blockers": [{"id": b["id"], "blocking": list(b["blocking"])} for b in cb.blockers],
        "attackers_declared": cb.attackers_declared,
        "blockers_declared_by": list(cb.blockers_declared_by),
        "first_strikers": None if cb.first_strikers is None else list(cb.first_strikers),
        "dealt_first_strike": list(cb.dealt_first_strike),
        "assignments": {k: dict(x) for k, x in cb.assignments.items()},
        "assigned_by": list(cb.assigned_by),
        **to_json_combat(cb, ref),
    }
    out["seed"] = st.seed
    out["random_calls"] = st.random_calls
    out["next_id"] = st.next_id
    out["result"] = json.loads(json.dumps(st.result)) if st.result is not None else None
    out["pending"] = json.loads(json.dumps(st.pending)) if st.pending is not None else None
    out["procedure"] = list(st.procedure)
    out["answers"] = json.loads(json.dumps(st.answers))
    return out


def _effect(effect: dict | None, ref) -> dict | None:
    return json.loads(json.dumps(identity.map_effect(effect, ref))) if effect else effect


def load_file(path: str | Path) -> State:
    """Read and validate a scenario file; any problem is a ScenarioError."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise ScenarioError([("", f"impossibile leggere il file {p}: {e.strerror or e}")]) from None
    if size > MAX_FILE_BYTES:
        raise ScenarioError([("", f"file troppo grande ({size} byte, limite {MAX_FILE_BYTES})")])
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError([("", f"impossibile leggere il file {p}: {e}")]) from None
    return loads(text)


def loads(text: str) -> State:
    if len(text) > MAX_FILE_BYTES:
        raise ScenarioError([("", "scenario troppo grande")])
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        raise ScenarioError([("", f"JSON non valido alla riga {e.lineno}, colonna {e.colno}: {e.msg}")]) from None
    except RecursionError:
        raise ScenarioError([("", "JSON non valido: troppo annidato")]) from None
    except ValueError as e:
        raise ScenarioError([("", f"JSON non valido: {e}")]) from None
    return parse(data)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"valore non ammesso {name}")


def dumps(st: State) -> str:
    return format_json(to_dict(st))


_ONE_PER_LINE = (*ZONES, "scheme_deck", "battlefield", "stack")


def format_json(data: Any, indent: str = "") -> str:
    """Scenario JSON for people: indented, but each card of a zone on one line (a library of
    40 cards is 40 lines, not 200)."""
    if indent == "":
        return format_json(data, "\n") .lstrip("\n") + "\n"
    flat = json.dumps(data, ensure_ascii=False)
    if not isinstance(data, dict) or len(flat) <= 72:
        return flat
    inner = indent + "  "
    items = []
    for k, v in data.items():
        key = json.dumps(k, ensure_ascii=False)
        if k in _ONE_PER_LINE and isinstance(v, list) and v:
            cards = f",{inner}  ".join(json.dumps(c, ensure_ascii=False) for c in v)
            items.append(f"{key}: [{inner}  {cards}{inner}]")
        elif isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(x, dict) for x in v)):
            items.append(f"{key}: {_format_value(v, inner)}")
        else:
            items.append(f"{key}: {json.dumps(v, ensure_ascii=False)}")
    return "{" + inner + f",{inner}".join(items) + indent + "}"


def _format_value(v: Any, indent: str) -> str:
    if isinstance(v, list) and len(json.dumps(v, ensure_ascii=False)) > 72:
        inner = indent + "  "
        return "[" + inner + f",{inner}".join(format_json(x, inner) for x in v) + indent + "]"
    return format_json(v, indent)


