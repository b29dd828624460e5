"""The shape of a library scenario's ``expected`` block (docs/scenario-format.md, «Il blocco
`expected`»), checked before any of it runs.

``problems(block, players)`` lists what is wrong as Italian messages after the field's path
(``expected.refused[2].after: deve essere un intero tra 0 e 4``), like a scenario's own
validation errors.  ``library.verify`` runs only a block without problems, so whatever the
engine raises while running it is a bug, not a malformed block.  Each check mirrors what
``library._verify`` / ``check_state`` do with the key (a lookup, a comparison, a loop).
"""

from __future__ import annotations

from typing import Any, Callable, Collection

from judge.engine.errors import shown
from judge.engine.registry import ACTIONS
from judge.engine.scenario.scenario_fields import PENDING_KEYS
from judge.engine.state import CARD_LISTS, MANA, SECTORS
from judge.engine.steps import STEP_NAMES
from judge.engine.validation import (EXPECTED, MAX_INT, MAX_LONG_TEXT, MAX_PARAM_DEPTH,
                                     MAX_STEPS_PER_CALL, MISSING, OUT_OF_RANGE, TOO_LONG,
                                     UNKNOWN_FIELD, Errors, is_a, is_int)

# A hostile block must not make the checks (or a failure quoting it) slow or deep: answers and
# parameters may nest MAX_PARAM_DEPTH levels below expected.actions[i].decide.
MAX_DEPTH = MAX_PARAM_DEPTH + 4
MAX_VALUES = 10_000          # in the whole block; the library's largest has about 60
MAX_ERRORS = 50              # the rest would only repeat the same mistake
VERBS = ("step", "step_to", "decide", "act")


class _Found(Errors):
    """The errors found so far, and what the checks need to know about the scenario."""

    def __init__(self, players: Collection[str]):
        super().__init__(MAX_ERRORS)
        self.players = set(players)
        self.actions = 0           # how many actions ``after`` may refer to


Check = Callable[[_Found, Any, str], None]


def problems(block: Any, players: Collection[str]) -> list[str]:
    """What is wrong with an ``expected`` block (empty: it can run), for a scenario with
    these player ids."""
    return _run(_block, block, "expected", players)


def state_problems(state: Any, players: Collection[str]) -> list[str]:
    """What is wrong with an ``expected.state`` block alone (for ``check_state``)."""
    return _run(_STATE, state, "expected.state", players)


def _run(check: Check, value: Any, path: str, players: Collection[str]) -> list[str]:
    found = _Found(players)
    if _bounded(found, value, path):
        check(found, value, path)
    return [f"{p}: {message}" for p, message in found.errors]


def _bounded(found: _Found, value: Any, path: str) -> bool:
    """JSON values only, not too deep, not too many, ints and texts within the format's
    limits (``repr`` of a larger int raises); iterative, so any depth is safe."""
    todo, count = [(value, 1, path)], 0
    while todo:
        cur, depth, p = todo.pop()
        count += 1
        if count > MAX_VALUES:
            found.err(path, f"blocco troppo grande (al massimo {MAX_VALUES} valori)")
            return False
        if depth > MAX_DEPTH:
            found.err(p, f"troppo annidato (al massimo {MAX_DEPTH} livelli)")
            return False
        if isinstance(cur, dict):
            for k, x in cur.items():
                if not isinstance(k, str) or len(k) > MAX_LONG_TEXT:
                    found.err(p, "ogni chiave è un testo (al massimo "
                                 f"{MAX_LONG_TEXT} caratteri)")
                    return False
                todo.append((x, depth + 1, _at(p, k)))
        elif isinstance(cur, list):
            todo.extend((x, depth + 1, f"{p}[{i}]") for i, x in enumerate(cur))
        elif not _scalar_ok(found, cur, p):
            return False
    return True


def _scalar_ok(found: _Found, value: Any, path: str) -> bool:
    if isinstance(value, str) and len(value) > MAX_LONG_TEXT:
        found.err(path, TOO_LONG)
    elif is_int(value) and abs(value) > MAX_INT:
        found.err(path, OUT_OF_RANGE)
    elif value is not None and not isinstance(value, (str, int, float)):
        found.err(path, f"valore non ammesso in JSON ({type(value).__name__})")
    else:
        return True
    return False


def _at(path: str, key: str) -> str:
    """A key in a field path, cut short: the path is quoted in every message."""
    return f"{path}.{key if len(key) <= 40 else key[:40] + '…'}"


# --- checks, composed: each reports on its own path and never raises -------------------------

def _scalar(test: Callable[[Any], bool], message: str) -> Check:
    def check(found: _Found, value: Any, path: str) -> None:
        if not test(value):
            found.err(path, message)
    return check


def _any(found: _Found, value: Any, path: str) -> None:
    """Anything JSON (``_bounded`` has seen it): the engine judges it."""


def _a(kind: str) -> Check:
    """A value of that JSON kind; unlike in a scenario, 2.0 is not an integer."""
    return _scalar(lambda value: is_a(value, kind), EXPECTED[kind])


_INT, _BOOL, _STR, _DICT = map(_a, ("int", "bool", "str", "dict"))


def _among(names: Collection[str], unknown: str) -> Check:
    """A string among ``names``; ``unknown`` starts the message (``sottofase sconosciuta``)."""
    def check(found: _Found, value: Any, path: str) -> None:
        if not isinstance(value, str):
            found.err(path, EXPECTED["str"])
        elif value not in names:
            found.err(path, f'{unknown} "{shown(value)}" (valori ammessi: {", ".join(names)})')
    return check


def _player(found: _Found, value: Any, path: str) -> None:
    if not isinstance(value, str):
        found.err(path, "attesa una stringa (l'id di un giocatore)")
    elif value not in found.players:
        found.err(path, f'giocatore sconosciuto "{shown(value)}" '
                        f'(nello scenario: {", ".join(sorted(found.players))})')


def _nullable(check: Check) -> Check:
    def nullable(found: _Found, value: Any, path: str) -> None:
        if value is not None:
            check(found, value, path)
    return nullable


def _list_of(item: Check) -> Check:
    def check(found: _Found, value: Any, path: str) -> None:
        if not isinstance(value, list):
            found.err(path, EXPECTED["list"])
            return
        for i, x in enumerate(value):
            item(found, x, f"{path}[{i}]")
    return check


def _map_of(item: Check, key: Check = _any) -> Check:
    """An object whose every key passes ``key`` (a player id, …) and every value ``item``."""
    def check(found: _Found, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            found.err(path, EXPECTED["dict"])
            return
        for k, x in value.items():
            key(found, k, _at(path, k))
            item(found, x, _at(path, k))
    return check


def _fields(spec: dict[str, Check], required: tuple[str, ...] = ()) -> Check:
    """An object with only the keys of ``spec``, each passing its check."""
    def check(found: _Found, value: Any, path: str) -> None:
        if not isinstance(value, dict):
            found.err(path, EXPECTED["dict"])
            return
        for k in required:
            if k not in value:
                found.err(f"{path}.{k}", MISSING)
        for k, x in value.items():
            if k in spec:
                spec[k](found, x, _at(path, k))
            else:
                found.err(_at(path, k), UNKNOWN_FIELD)
    return check


# --- the block ----------------------------------------------------------------------------------

def _steps(found: _Found, value: Any, path: str) -> None:
    if not is_int(value) or not 1 <= value <= MAX_STEPS_PER_CALL:
        found.err(path, f"atteso un numero di passi da 1 a {MAX_STEPS_PER_CALL}")


_ACT_FIELDS = {"act": _among(sorted(ACTIONS), "azione sconosciuta"), "check_sba": _BOOL}
_VERB_FIELDS: dict[str, dict[str, Check]] = {
    "step": {"step": _steps},
    "step_to": {"step_to": _among(STEP_NAMES, "sottofase sconosciuta"), "defaults": _BOOL},
    "decide": {"decide": _any},
}


def _action(found: _Found, value: Any, path: str) -> None:
    """One of ``library._do``'s verbs; a judge action's other parameters are the engine's
    to check (an unknown or wrong one is a refusal, reported as a failure)."""
    if not isinstance(value, dict):
        found.err(path, f"atteso un oggetto (un'azione: {', '.join(VERBS)})")
        return
    verbs = [k for k in VERBS if k in value]
    if len(verbs) != 1:
        found.err(path, f"ogni azione ha una sola chiave tra {', '.join(VERBS)}"
                        f" (trovate: {', '.join(verbs) or 'nessuna'})")
    elif verbs[0] == "act":
        for k, check in _ACT_FIELDS.items():
            if k in value:
                check(found, value[k], _at(path, k))
    else:
        _fields(_VERB_FIELDS[verbs[0]])(found, value, path)


def _after(found: _Found, value: Any, path: str) -> None:
    if found.actions < 0:
        return                      # expected.actions is wrong already: no range to check
    if found.actions == 0:
        found.err(path, "non ci sono azioni (expected.actions) dopo cui controllare")
    elif not is_int(value) or not 0 <= value < found.actions:
        found.err(path, f"deve essere un intero tra 0 e {found.actions - 1}")


def _after_list(spec: dict[str, Check], required: tuple[str, ...]) -> Check:
    """``pending_after`` or ``refused``: at most one entry after each action (``_verify``
    keeps only the last one it reads)."""
    entry = _fields({"after": _after, **spec}, ("after", *required))

    def check(found: _Found, value: Any, path: str) -> None:
        _list_of(entry)(found, value, path)
        seen: dict[int, int] = {}
        for i, x in enumerate(value if isinstance(value, list) else []):
            after = x.get("after") if isinstance(x, dict) else None
            if is_int(after) and after in seen:
                found.err(f"{path}[{i}].after", f"dopo l'azione {after} c'è già "
                                                f"{path}[{seen[after]}]")
            elif is_int(after):
                seen[after] = i
    return check


_STRS = _list_of(_STR)
# null: the decision has no such field, or there is no decision ("kind": null)
_PENDING_FIELDS: dict[str, Check] = {k: _any for k in PENDING_KEYS} | {
    k: _nullable(check) for k, check in (("id", _STR), ("kind", _STR), ("player", _player),
                                         ("prompt", _STR), ("rules", _STRS), ("options", _DICT))
} | {"offered": _STRS}      # a replacement_order decision: the effects offered (616.1), in order
_EVENT = _fields({"rules": _STRS, "kind": _STR, "objects": _STRS, "players": _STRS}, ("rules",))


# --- expected.state: what check_state compares --------------------------------------------------

def _zone_key(found: _Found, key: str, path: str) -> None:
    pid, dot, zone = key.partition(".")
    if not dot or zone not in CARD_LISTS:
        found.err(path, f'atteso "giocatore.zona" con zona tra {", ".join(CARD_LISTS)}')
    else:
        _player(found, pid, path)


_RESULT = _fields({"draw": _BOOL, "winners": _list_of(_player), "rules": _STRS},
                  ("draw", "winners", "rules"))
# What the layers compute for an object (613), and the order of its explanation's rows.
CHARACTERISTICS = ("name", "types", "subtypes", "supertypes", "colors", "abilities",
                   "static_abilities", "power", "toughness", "controller", "every_creature_type")
_CHARS = _fields({**{k: _STRS for k in ("types", "subtypes", "supertypes", "colors",
                                           "abilities", "static_abilities")},
                  "name": _nullable(_STR), "power": _nullable(_INT), "toughness": _nullable(_INT),
                  "controller": _nullable(_player), "every_creature_type": _BOOL})
_ROW = _fields({"layer": _STR, "key": _STR, "effect": _nullable(_STR), "why": _STR,
                "rules": _STRS, "after": _STRS}, ("layer", "key"))
_NOTE = _fields({"key": _STR, "reason": _STR, "layer": _STR}, ("key", "reason"))
_STATE = _fields({
    **{k: _map_of(_INT, _player) for k in ("life", "poison", "hand_size")},
    "speed": _map_of(_nullable(_INT), _player),
    "mana_pool": _map_of(_map_of(_INT, _among(MANA, "colore di mana sconosciuto")), _player),
    "completed_dungeons": _map_of(_STRS, _player),
    **{k: _STRS for k in ("battlefield", "not_battlefield", "phased_out", "stack")},
    "zones": _map_of(_STRS, _zone_key),
    # per permanent; null: not on the battlefield (or, for attached_to, not attached)
    "counters": _map_of(_nullable(_map_of(_INT))),
    "damage": _map_of(_nullable(_INT)),
    "tapped": _map_of(_nullable(_BOOL)),
    **{k: _map_of(_nullable(_STR)) for k in ("attached_to", "controller", "protector")},
    "sector": _map_of(_nullable(_among(SECTORS, "settore sconosciuto"))),
    "lost": _list_of(_player),
    "result": _nullable(_RESULT),
    "turn": _INT,
    "step": _among(STEP_NAMES, "sottofase sconosciuta"),
    "day_night": _nullable(_among(("day", "night"), "valore sconosciuto")),
    "active_player": _player,
    **{k: _nullable(_player) for k in ("monarch", "initiative", "planar_controller")},
    "characteristics": _map_of(_nullable(_CHARS)),
    "explanation": _map_of(_list_of(_ROW)),
    "notes": _list_of(_NOTE),
})

_BLOCK_FIELDS = _fields({
    "actions": _list_of(_action),
    "pending_after": _after_list(_PENDING_FIELDS, ()),
    "refused": _after_list({"answer": _any, "rules": _STRS}, ("answer",)),
    "steps_seen": _list_of(_among(STEP_NAMES, "sottofase sconosciuta")),
    "events": _list_of(_EVENT),
    # every line of the replacement effects' explanation (614–616), in order: its step and rules
    "replacement_log": _list_of(_fields({"step": _STR, "rules": _STRS, "effect": _STR},
                                        ("step", "rules"))),
    "state": _STATE,
})


def _block(found: _Found, value: Any, path: str) -> None:
    # ``after`` needs the number of actions, whatever the order of the keys in the file.
    actions = value.get("actions", []) if isinstance(value, dict) else None
    found.actions = len(actions) if isinstance(actions, list) else -1
    _BLOCK_FIELDS(found, value, path)
