"""The toolkit for checking decoded JSON: the formats' limits, the Italian messages that say
what a field should be, ``Errors`` / ``Validator``, which collect them with the field's path
(``players[1].life: atteso un intero``), and ``json_depth_ok`` for the engine's parameters.

``scenario.parse`` reads a scenario with a ``Validator``; ``expected`` checks a library
block with its own combinators (a schema of nested checks, with nothing to build) but the
same messages, limits and error collector.
"""

from __future__ import annotations

import math
from typing import Any

# Limits for hostile or broken files.
MAX_INT = 10**9            # any number (life, counters, damage, …) within ±10^9
MAX_TEXT = 500             # names, titles, ids, …
MAX_LONG_TEXT = 10_000     # descriptions and notes
MAX_STEPS_PER_CALL = 10_000   # steps one call of the engine may take (Game.step_to, expected blocks)
MAX_PARAM_DEPTH = 20          # nesting of a judge action's parameters or of an answer
LONG_TEXT_KEYS = ("description", "question", "answer", "notes")

EXPECTED = {"int": "atteso un intero", "str": "attesa una stringa",
            "bool": "atteso un booleano (true/false)", "list": "attesa una lista",
            "dict": "atteso un oggetto"}
MISSING = "campo obbligatorio mancante"
UNKNOWN_FIELD = "campo sconosciuto"
TOO_LONG = "testo troppo lungo"
NEGATIVE = "atteso un intero non negativo"
OUT_OF_RANGE = f"valore fuori dall'intervallo consentito (da -{MAX_INT} a {MAX_INT})"

_KINDS = {"str": str, "bool": bool, "list": list, "dict": dict}


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)   # True is an int in Python


def is_a(value: Any, kind: str) -> bool:
    """``value`` is of the JSON kind named in ``EXPECTED`` (an ``int`` is never a bool)."""
    return is_int(value) if kind == "int" else isinstance(value, _KINDS[kind])


def json_depth(value: Any, stop_above: int | None = None) -> int:
    """Nesting depth of decoded JSON (a scalar is 0), without recursion. With ``stop_above``, the
    walk stops at the first level deeper than that (a hostile document is not walked whole)."""
    depth = 0
    stack = [(value, 1)]
    while stack:
        cur, d = stack.pop()
        if isinstance(cur, (list, dict)):
            depth = max(depth, d)
            if stop_above is not None and depth > stop_above:
                return depth
            stack.extend((x, d + 1) for x in (cur.values() if isinstance(cur, dict) else cur))
    return depth


def json_depth_ok(value: Any, limit: int) -> bool:
    """True when ``value`` (decoded JSON) nests at most ``limit`` levels."""
    return json_depth(value, stop_above=limit) <= limit


class Errors:
    """The problems found so far, as (path, message), up to ``limit``: the rest would only
    repeat the same mistake."""

    def __init__(self, limit: int = 200) -> None:
        self.errors: list[tuple[str, str]] = []
        self.limit = limit

    def err(self, path: str, msg: str) -> None:
        if len(self.errors) < self.limit:
            self.errors.append((path, msg))


class Validator(Errors):
    """Reads typed fields from decoded JSON objects, reporting each wrong one with its path;
    a wrong or missing field reads as its default."""

    def typed(self, d: dict, key: str, path: str, kind: str, default: Any = None,
              required: bool = False, nullable: bool = False) -> Any:
        p = f"{path}.{key}" if path else key
        if key not in d:
            if required:
                self.err(p, MISSING)
            return default
        v = d[key]
        if v is None:
            if nullable:
                return None
            self.err(p, f"{EXPECTED[kind]}, trovato null")
            return default
        if kind == "int" and isinstance(v, float) and v.is_integer() and math.isfinite(v) \
                and abs(v) <= MAX_INT:
            v = int(v)                  # 3.0: JSON writers may not tell integers from floats
        if not is_a(v, kind):
            self.err(p, EXPECTED[kind])
        elif kind == "int" and abs(v) > MAX_INT:
            self.err(p, OUT_OF_RANGE)
        elif kind == "str" and len(v) > (MAX_LONG_TEXT if key in LONG_TEXT_KEYS else MAX_TEXT):
            self.err(p, TOO_LONG)
        else:
            return v
        return default

    def nonneg(self, value: int | None, path: str) -> None:
        if value is not None and value < 0:
            self.err(path, NEGATIVE)

    def unknown_keys(self, d: dict, allowed: set[str], path: str) -> None:
        for k in d:
            if k not in allowed:
                prefix = f"{path}." if path else ""
                self.err(f"{prefix}{k}", UNKNOWN_FIELD)

    def str_list(self, d: dict, key: str, path: str, allowed: tuple[str, ...] | None = None,
                 what: str = "valore") -> list[str]:
        items = self.typed(d, key, path, "list", [])
        out = []
        for i, x in enumerate(items):
            p = f"{path}.{key}[{i}]"
            if not isinstance(x, str):
                self.err(p, EXPECTED["str"])
            elif len(x) > MAX_TEXT:
                self.err(p, TOO_LONG)
            elif allowed is not None and x not in allowed:
                self.err(p, f'{what} sconosciuto "{x}" (ammessi: {", ".join(allowed)})')
            else:
                out.append(x)
        return out

    def int_map(self, d: dict, key: str, path: str, keys: tuple[str, ...] | None = None,
                nonneg: bool = True) -> dict[str, int]:
        m = self.typed(d, key, path, "dict", {})
        out: dict[str, int] = {}
        if len(m) > 100:
            self.err(f"{path}.{key}", "troppi elementi")
            return out
        for k, v in m.items():
            p = f"{path}.{key}.{k}"
            if keys is not None and k not in keys:
                self.err(p, f'chiave sconosciuta "{k}" (ammesse: {", ".join(keys)})')
                continue
            n = self.typed(m, k, f"{path}.{key}", "int")
            if n is None:
                continue
            if nonneg and n < 0:
                self.err(p, NEGATIVE)
                continue
            out[k] = n
        return out
