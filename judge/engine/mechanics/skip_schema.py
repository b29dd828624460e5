"""Skipping steps, phases and turns as JSON (500.11, 614.1b, 614.10): a replacement record of
the ``effects`` list whose ``event`` is ``step``, ``phase`` or ``turn``, read and checked with
Italian errors and written back.  docs/scenario-format.md («Saltare sottofasi, fasi e turni»)
documents it.

It shares the replacement records' fields (``replacement_schema``, whose writer it uses), with
``instead`` always ``[{"op": "skip"}]`` (614.10: «skip» is «instead of doing it, do nothing»),
``when`` naming the step or phase, ``affects`` the players whose steps, phases or turns are
skipped, and ``uses`` for «your next N» (614.10a).  The turn structure consults them where it
begins each turn, phase and step (``play.procedure`` through ``mechanics.skipping``).
"""

from __future__ import annotations

import inspect
import json
from typing import Any

from judge.engine.characteristics import effect_schema, replacement_schema
from judge.engine.registry import ACTIONS, RAW_EDITS
from judge.engine.state import Effect
from judge.engine.steps import STEPS
from judge.engine.validation import Validator

# What a skip record watches: the Italian for the log and the docs.
TURN_EVENTS = {"step": "le sottofasi", "phase": "le fasi", "turn": "i turni"}
# The steps (501.1, 506.1, 512.1): the main phases have none (505.2).  «combat_damage» is both
# combat damage steps of a combat with first strike (510.4).
SKIPPABLE_STEPS = tuple(s.name for s in STEPS
                        if s.phase not in ("precombat_main", "postcombat_main")
                        and s.name != "first_strike_damage")
PHASES = ("beginning", "precombat_main", "combat", "postcombat_main", "ending")   # 500.1
KEYS = {"id", "text", "source", "kind", "controller", "affects", "duration", "condition",
        "timestamp", "granted_by", "card", "event", "when", "instead", "optional", "uses",
        "functions_in", "then"}
MAX_THEN_PARAMS = 10
SKIP = [{"op": "skip"}]


def is_skip(d: Any) -> bool:
    """A record of the ``effects`` list (or a judge action's) that skips a step, phase or turn."""
    return isinstance(d, dict) and d.get("event") in TURN_EVENTS


def read(v: Validator, d: Any, path: str) -> Effect | None:
    """One skip record, checked (``is_skip(d)`` holds).  The fields it shares with the other
    replacement records are read by their schema, as a skip of a player's event (a draw's)."""
    v.unknown_keys(d, KEYS, path)
    event = d["event"]
    if d.get("instead", SKIP) != SKIP:
        v.err(f"{path}.instead", 'saltare una sottofase, una fase o un turno è «invece non fare '
                                 'nulla» (614.10): instead è [{"op": "skip"}] (o si omette)')
    shared = {k: x for k, x in d.items()
              if k in KEYS and k not in ("when", "event", "instead", "then")}
    e = replacement_schema.read(v, {**shared, "affects": d.get("affects", "game"),
                                    "event": "draw", "instead": SKIP}, path)
    if e is None:
        return None
    e.event, e.when = event, _when(v, d.get("when"), event, f"{path}.when")
    if "then" in d:
        e.then = _then(v, d["then"], f"{path}.then")
    _coherent(v, e, path)
    return e


def _then(v: Validator, t: Any, path: str) -> dict | None:
    """614.10b: «skip …, then …» as a judge action, ``{"act": "untap", "object": "…"}``: its
    name and the names of its parameters are checked here, their values when it is done."""
    if not isinstance(t, dict) or not isinstance(t.get("act"), str) or len(t) > MAX_THEN_PARAMS:
        v.err(path, 'l\'azione dopo il salto (614.10b): {"act": nome di un\'azione del giudice, '
                    '…i suoi parametri}, per esempio {"act": "untap", "object": "…"}')
        return None
    name = t["act"]
    if name not in ACTIONS or name in RAW_EDITS:
        v.err(f"{path}.act", f'azione del giudice sconosciuta "{name[:40]}" (le modifiche dirette '
                             "non sono azioni di gioco)")
        return None
    params = {k: x for k, x in t.items() if k != "act"}
    sig = inspect.signature(ACTIONS[name].func).parameters
    known = [n for n in sig if n != "ctx"]
    for k in params:
        if k not in known:
            v.err(f"{path}.{k}", f"parametro sconosciuto per {name} (ammessi: {', '.join(known)})")
    for n in known:
        if sig[n].default is inspect.Parameter.empty and n not in params:
            v.err(f"{path}.{n}", f"parametro obbligatorio di {name}")
    return {"act": name, **params}


def _when(v: Validator, w: Any, event: str, path: str) -> dict | None:
    """Which step or phase: ``{"step": "draw"}``, ``{"phase": "combat"}``; none for a turn."""
    if event == "turn":
        if w is not None:
            v.err(path, "un turno si salta tutto: togli when")
        return None
    names = SKIPPABLE_STEPS if event == "step" else PHASES
    what = "sottofase" if event == "step" else "fase"
    if not isinstance(w, dict) or set(w) != {event}:
        v.err(path, f'indica quale {what}: {{"{event}": …}} (ammesse: {", ".join(names)})')
        return {event: names[0]}
    name = w[event]
    if name not in names:
        hint = (" (le fasi principali non hanno sottofasi, 505.2: usa l'evento phase)"
                if event == "step" and name in PHASES else "")
        v.err(f"{path}.{event}", f'{what} sconosciuta "{str(name)[:40]}" (ammesse: '
                                 f'{", ".join(names)}){hint}')
        return {event: names[0]}
    return {event: name}


def _coherent(v: Validator, e: Effect, path: str) -> None:
    """«Next» is counted for one player (the shared fields are checked by the schema)."""
    players = isinstance(e.affects, dict) and "players" in e.affects
    if e.uses is not None and not (players and isinstance(e.affects["players"], list)
                                   and len(e.affects["players"]) == 1
                                   or e.affects == {"players": "you"}):
        v.err(f"{path}.uses", "«la prossima» si conta per un giocatore (614.10a): un record per "
                              'giocatore, con affects {"players": ["…"]} o {"players": "you"}')


def to_json(e: Effect) -> dict:
    d = replacement_schema.to_json(e)
    if e.then is not None:
        d["then"] = json.loads(json.dumps(e.then))
    return d


def parse_one(raw: Any, path: str = "effect") -> tuple[Effect | None, list[tuple[str, str]]]:
    """A skip record given outside a scenario file (a judge action): (effect, errors)."""
    return effect_schema.parse_one(raw, path, reader=read)
