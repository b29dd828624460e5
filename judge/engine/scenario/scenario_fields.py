"""Validation of the scenario fields for copies, dungeons, sectors, speed, Planechase,
the rules' own triggered abilities and the engine's saved bookkeeping (pending
decision, procedure, result).

Called by ``scenario.parse`` with its ``validation.Validator`` ``v``; errors carry
the field path and an Italian message, like every other scenario error.
"""

from __future__ import annotations

import json
import re
from typing import Any

from judge.engine.errors import shown
from judge.engine.mechanics import identity
from judge.engine.state import COPY_KINDS, SECTORS, Card, State
# json_depth_ok is re-exported: it was defined here before validation.py held it.
from judge.engine.validation import MISSING, Validator, json_depth_ok  # noqa: F401

ROOM_KEYS = {"name", "text", "to"}
TRIGGER_KEYS = {"id", "controller", "text", "source", "rules", "effect", "on_trigger"}
PENDING_KEYS = {"id", "kind", "player", "rules", "prompt", "options", "default"}
RESULT_KEYS = {"draw", "winners", "rules"}
MAX_ROOMS = 30
MAX_TRIGGERS = 200


def card_fields(v: Validator, d: dict, path: str) -> dict:
    copy = v.typed(d, "copy", path, "str", None, nullable=True)
    if copy is not None and copy not in COPY_KINDS:
        v.err(f"{path}.copy", 'atteso "spell" (copia di una magia) o "card" (copia di una carta)')
        copy = None
    rooms = _rooms(v, v.typed(d, "rooms", path, "list", []), f"{path}.rooms")
    marker = v.typed(d, "venture_marker", path, "str", None, nullable=True)
    if rooms and marker is None:
        marker = rooms[0]["name"]                      # 309.4a: the topmost room
    if marker is not None and marker not in {r["name"] for r in rooms}:
        v.err(f"{path}.venture_marker", f'stanza sconosciuta "{marker}"')
    incarnation = v.typed(d, "incarnation", path, "int", 1)
    if incarnation < 1:
        v.err(f"{path}.incarnation", "atteso un intero da 1 in su (1 + i cambi di zona, regola 400.7)")
        incarnation = 1
    return {"copy": copy, "rooms": rooms, "venture_marker": marker,
            "moved_since_sba": v.typed(d, "moved_since_sba", path, "bool", False),
            "incarnation": incarnation}


def _objects(v: Validator, raw: list, path: str, limit: int, what: str, keys: set[str]):
    """(path, dict) for each object of a list, after checking its size, type and keys."""
    if len(raw) > limit:
        v.err(path, f"troppi elementi (limite {limit})")
        return
    for i, d in enumerate(raw):
        p = f"{path}[{i}]"
        if not isinstance(d, dict):
            v.err(p, f"atteso un oggetto ({what})")
            continue
        v.unknown_keys(d, keys, p)
        yield p, d


def _rooms(v: Validator, raw: list, path: str) -> list[dict]:
    """Rooms top first; arrows point to later rooms; the last one is the bottommost (309.4)."""
    rooms = []
    for p, r in _objects(v, raw, path, MAX_ROOMS, "una stanza", ROOM_KEYS):
        name = v.typed(r, "name", p, "str", required=True)
        if name is None:
            continue
        rooms.append({"name": name, "text": v.typed(r, "text", p, "str", "") or "",
                      "to": v.str_list(r, "to", p)})
    names = [r["name"] for r in rooms]
    for i, r in enumerate(rooms):
        p = f"{path}[{i}]"
        if r["name"] in names[:i]:
            v.err(f"{p}.name", f'stanza duplicata "{r["name"]}"')
        for j, t in enumerate(r["to"]):
            if t not in names[i + 1:]:
                v.err(f"{p}.to[{j}]", f'"{t}" non è una stanza più in basso nel dungeon '
                                      "(le stanze vanno dall'alto in basso)")
        if i < len(rooms) - 1 and not r["to"]:
            v.err(f"{p}.to", "solo l'ultima stanza (la più in basso) non ha frecce in uscita")
    if rooms and rooms[-1]["to"]:
        v.err(f"{path}[{len(rooms) - 1}].to", "l'ultima stanza è la più in basso: niente frecce")
    return rooms


def parse_rooms(raw: Any) -> tuple[list[dict], list[tuple[str, str]]]:
    """Rooms given outside a scenario file (the ``venture`` action): (rooms, errors)."""
    v = Validator()
    rooms = _rooms(v, raw, "rooms") if isinstance(raw, list) else []
    if not isinstance(raw, list):
        v.err("rooms", "attesa una lista di stanze")
    return rooms, v.errors


def permanent_fields(v: Validator, d: dict, path: str) -> dict:
    sector = v.typed(d, "sector", path, "str", None, nullable=True)
    if sector is not None and sector not in SECTORS:
        v.err(f"{path}.sector", f'settore sconosciuto "{sector}" (ammessi: {", ".join(SECTORS)})')
        sector = None
    return {"sector": sector, "control_effect": v.typed(d, "control_effect", path, "bool", False)}


def player_fields(v: Validator, d: dict, path: str) -> dict:
    speed = v.typed(d, "speed", path, "int", None, nullable=True)
    if speed is not None and not 1 <= speed <= 4:
        v.err(f"{path}.speed", "la velocità va da 1 a 4 (null: nessuna velocità, regola 702.179)")
        speed = None
    return {"speed": speed, "completed_dungeons": v.str_list(d, "completed_dungeons", path)}


def stack_fields(v: Validator, d: dict, path: str) -> dict:
    return {"rules": v.str_list(d, "rules", path), "effect": effect(v, d, path)}


def effect(v: Validator, d: dict, path: str) -> dict | None:
    from judge.engine.registry import EFFECTS
    eff = v.typed(d, "effect", path, "dict", None, nullable=True)
    if eff is None:
        return None
    p = f"{path}.effect"
    kind = eff.get("kind")
    if not isinstance(kind, str) or kind not in EFFECTS:
        v.err(f"{p}.kind", f'effetto sconosciuto "{shown(kind)}" (ammessi: {", ".join(sorted(EFFECTS))})')
        return None
    params = [param_spec(x) for x in EFFECTS[kind].params]
    v.unknown_keys(eff, {"kind", *(k for k, _, _ in params)}, p)
    out = {"kind": kind}
    for key, kind_, optional in params:
        val = v.typed(eff, key, p, kind_, None, required=not optional, nullable=optional)
        if val is not None:
            out[key] = val
    return out


def param_spec(param: str) -> tuple[str, str, bool]:
    """An effect's parameter as registered: "creature" (a string), "amount:int", "target?"
    (may be missing or null) → (key, type, optional)."""
    key, _, kind = param.partition(":")
    return key.rstrip("?"), kind or "str", key.endswith("?")


def waiting_triggers(v: Validator, data: dict) -> list[dict]:
    raw = v.typed(data, "waiting_triggers", "", "list", [])
    out = []
    for p, t in _objects(v, raw, "waiting_triggers", MAX_TRIGGERS, "un'abilità innescata",
                         TRIGGER_KEYS):
        tid = v.typed(t, "id", p, "str", required=True)
        ctl = v.typed(t, "controller", p, "str", required=True)
        if tid is None or ctl is None:
            continue
        out.append({"id": tid, "controller": ctl, "text": v.typed(t, "text", p, "str", "") or "",
                    "source": v.typed(t, "source", p, "str", None, nullable=True),
                    "rules": v.str_list(t, "rules", p), "effect": effect(v, t, p),
                    "on_trigger": v.typed(t, "on_trigger", p, "bool", False)})
    return out


# --- whole-state checks (after every object has been read) ------------------------------------

def check_state(v: Validator, st: State) -> None:
    players = {p.id for p in st.players}
    planechase = bool(st.options.get("planechase"))
    for i, pl in enumerate(st.players):
        dungeons_owned: dict[str, int] = {}
        for z in ("hand", "library", "graveyard", "exile", "command", "scheme_deck", "planar_deck"):
            for j, c in enumerate(pl.zone(z)):
                _check_card_zone(v, c, z, f"players[{i}].{z}[{j}]", planechase)
                if "dungeon" in c.types and z == "command":
                    dungeons_owned[c.owner] = dungeons_owned.get(c.owner, 0) + 1
                    if dungeons_owned[c.owner] > 1:
                        v.err(f"players[{i}].{z}[{j}]", "un giocatore può possedere un solo dungeon "
                                                         "nella zona di comando (regola 309.3)")
    for i, c in enumerate(st.battlefield):
        _check_card_zone(v, c, "battlefield", f"battlefield[{i}]", planechase)
    for i, t in enumerate(st.waiting_triggers):
        _check_refs(v, st, f"waiting_triggers[{i}]", t["controller"], t["source"], t["effect"])
    for i, s in enumerate(st.stack):
        if s.effect:
            _check_refs(v, st, f"stack[{i}]", s.controller, None, s.effect)
    for j, pid in enumerate(st.turn.speed_triggered):
        if pid not in players:
            v.err(f"turn.speed_triggered[{j}]", f'giocatore sconosciuto "{pid}"')
    for j, pid in enumerate(st.turn.extra_turns):
        if pid not in players:
            v.err(f"turn.extra_turns[{j}]", f'giocatore sconosciuto "{pid}"')
    if st.turn.extra_after is not None and st.turn.extra_after not in players:
        v.err("turn.extra_after", f'giocatore sconosciuto "{st.turn.extra_after}"')
    if st.planar_controller is not None:
        if not planechase:
            v.err("planar_controller", "c'è un controllore planare solo in una partita Planechase "
                                       "(options.planechase, regola 901.6)")
        elif st.planar_controller not in players:
            v.err("planar_controller", f'giocatore sconosciuto "{st.planar_controller}"')
    _check_result(v, st, players)
    _check_procedure(v, st)
    _check_pending(v, st, players)


def _check_card_zone(v: Validator, c: Card, zone: str, path: str, planechase: bool) -> None:
    if "dungeon" in c.types:
        if zone != "command":
            v.err(path, "un dungeon può stare solo nella zona di comando (regola 309.2c)")
        if not c.rooms:
            v.err(f"{path}.rooms", "un dungeon ha almeno una stanza (regola 309.4)")
    elif c.rooms:
        v.err(f"{path}.rooms", "solo un dungeon ha stanze")
    planar = bool({"plane", "phenomenon"} & set(c.types))
    if planar and zone not in ("command", "planar_deck"):
        v.err(path, "piani e fenomeni restano nella zona di comando (regole 311.2, 312.2)")
    if planar and not planechase:
        v.err(path, "piani e fenomeni si usano solo in una partita Planechase: "
                    "aggiungi options.planechase = true (regola 901)")
    if zone == "planar_deck" and not planar:
        v.err(path, "il mazzo planare contiene solo piani e fenomeni (regola 901.3)")


def _check_refs(v: Validator, st: State, path: str, controller: str, source: str | None,
                effect: dict | None) -> None:
    if not st.has_player(controller):
        v.err(f"{path}.controller", f'giocatore sconosciuto "{controller}"')
    if source is not None and not identity.known(st, source):
        v.err(f"{path}.source", f'oggetto sconosciuto "{source}"')
    for key in ("player", "controller"):
        if effect and key in effect and not st.has_player(effect[key]):
            v.err(f"{path}.effect.{key}", f'giocatore sconosciuto "{effect[key]}"')


def _check_result(v: Validator, st: State, players: set[str]) -> None:
    r = st.result
    if r is None:
        return
    v.unknown_keys(r, RESULT_KEYS, "result")
    draw = v.typed(r, "draw", "result", "bool", required=True)
    winners = v.str_list(r, "winners", "result")
    for j, w in enumerate(winners):
        if w not in players:
            v.err(f"result.winners[{j}]", f'giocatore sconosciuto "{w}"')
    st.result = {"draw": bool(draw), "winners": winners, "rules": v.str_list(r, "rules", "result")}


def _check_procedure(v: Validator, st: State) -> None:
    from judge.engine.registry import TASKS, TBAS
    for j, task in enumerate(st.procedure):
        name, _, arg = task.partition(":")
        if name == "tba" and arg in TBAS:
            continue
        if name == "each_discard" and re.fullmatch(r"[0-9]{1,9}", arg):
            continue
        if name == "act":
            _check_act_task(v, j, arg)
            continue
        if name == "resolve":
            _check_resolving(v, st, j, arg)
            continue
        if name in TASKS and not arg:
            continue
        v.err(f"procedure[{j}]", f'passo della procedura sconosciuto "{task}"')


def _check_act_task(v: Validator, j: int, arg: str) -> None:
    """``act:{"name": …, "params": {…}}``: a judge action that stopped on a replacement
    effect's choice and runs again once it is answered."""
    from judge.engine.registry import ACTIONS
    try:
        act = json.loads(arg)
    except ValueError:
        act = None
    if not (isinstance(act, dict) and set(act) == {"name", "params"}
            and isinstance(act["params"], dict) and act["name"] in ACTIONS):
        v.err(f"procedure[{j}]", 'atteso act:{"name": azione del giudice, "params": {…}}')


def _check_resolving(v: Validator, st: State, j: int, item_id: str) -> None:
    """``resolve:<id>``: that object is on the stack.  A plain ``resolve`` (saved before the
    resolving object was named) is the top of the stack, as it was then: it is named here,
    so that editing the stack afterwards cannot change which object finishes resolving."""
    from judge.engine.mechanics import resolve
    if not item_id:
        if not st.stack:
            v.err(f"procedure[{j}]", "nessun oggetto in pila da risolvere")
        else:
            st.procedure[j] = resolve.task(st.stack[-1].id)
    elif not any(i.id == item_id for i in st.stack):
        # Refused rather than dropped: the object already started resolving and would finish
        # even off the stack (608.2m); the judge puts it back or discards the pending choice.
        v.err(f"procedure[{j}]", f'l\'oggetto "{shown(item_id)}" che si sta risolvendo non è in '
                                 "pila: rimettilo in pila o scarta la decisione in sospeso e la "
                                 "procedura (un oggetto che ha iniziato a risolversi finisce di "
                                 "risolversi, regola 608.2m)")


def _check_pending(v: Validator, st: State, players: set[str]) -> None:
    """A saved decision: its shape, and a default its own validator accepts."""
    from judge.engine.errors import IllegalAction
    from judge.engine.registry import DECISIONS
    p = st.pending
    if p is None:
        return
    v.unknown_keys(p, PENDING_KEYS, "pending")
    ok = all([v.typed(p, "id", "pending", "str", required=True) is not None,
              v.typed(p, "player", "pending", "str", required=True) is not None,
              v.typed(p, "prompt", "pending", "str", required=True) is not None,
              v.typed(p, "options", "pending", "dict", required=True) is not None])
    v.str_list(p, "rules", "pending")
    if "default" not in p:
        v.err("pending.default", MISSING)
        ok = False
    kind = p.get("kind")
    if not isinstance(kind, str) or kind not in DECISIONS:
        v.err("pending.kind", f'tipo di decisione sconosciuto "{shown(kind)}" '
                              f'(ammessi: {", ".join(sorted(DECISIONS))})')
        ok = False
    if ok and p["player"] not in players:
        v.err("pending.player", f'giocatore sconosciuto "{p["player"]}"')
        ok = False
    if not st.procedure:
        v.err("pending", "una decisione in sospeso richiede la procedura da riprendere (procedure)")
    if not ok:
        return
    try:
        DECISIONS[kind](st, p, p["default"])
    except IllegalAction as e:
        v.err("pending.default", f"risposta predefinita non valida: {e.message}")
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        v.err("pending.options", f"opzioni non valide per una decisione «{kind}»")
