"""Derived characteristics of an object, pure functions of it: power and toughness with counters
and effects until end of turn (122.1a), its keywords printed, gained or from keyword counters
(122.1b), colours, loyalty, defense."""

from __future__ import annotations

import re

from judge.engine.characteristics import keywords
from judge.engine.state import Card, Permanent

_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")


def counter_pt(counters: dict[str, int]) -> tuple[int, int]:
    """Power/toughness change from +X/+Y and -X/-Y counters (122.1a, 613.4c)."""
    dp = dt = 0
    for kind, n in counters.items():
        m = _PT_COUNTER.match(kind)
        if m and n:
            dp += int(m.group(1)) * n
            dt += int(m.group(2)) * n
    return dp, dt


def power(c: Card) -> int:
    base = c.power or 0
    if isinstance(c, Permanent):
        dp, _ = counter_pt(c.counters)
        return base + dp + int(c.until_end_of_turn.get("power", 0) or 0)
    return base


def toughness(c: Card) -> int:
    base = c.toughness or 0
    if isinstance(c, Permanent):
        _, dt = counter_pt(c.counters)
        return base + dt + int(c.until_end_of_turn.get("toughness", 0) or 0)
    return base


def has_kw(c: Card, kw: str) -> bool:
    """``c`` has the keyword named ``kw`` (any instance: "protection" for "protection from red";
    "hexproof" also for "hexproof from …", 702.11e), printed, from an effect until end of turn,
    or from a keyword counter (122.1b)."""
    if kw in c.keywords:
        return True
    if kw in _PARAMETRIC:
        return any(i.name == kw for i in kw_instances(c))
    if isinstance(c, Permanent):
        if kw in c.until_end_of_turn.get("keywords", ()):
            return True
        if kw in keywords.COUNTER_KEYWORDS and c.counters.get(kw, 0) > 0:     # 122.1b
            return True
    return False


_PARAMETRIC = frozenset(s.name for s in keywords.REGISTRY if s.param)


def kw_instances(c: Card, name: str | None = None) -> list[keywords.Instance]:
    """Every keyword instance of ``c`` (of the keyword ``name`` only, if given): printed, until
    end of turn, and one per keyword counter (122.1b).  Instances of a triggered keyword each
    trigger (702.45b, 702.23c, …)."""
    texts = list(c.keywords)
    if isinstance(c, Permanent):
        texts += c.until_end_of_turn.get("keywords", ())
        for kind, n in c.counters.items():               # "hexproof from …": a variant, 122.1b
            if n > 0 and (kind in keywords.COUNTER_KEYWORDS or kind.startswith("hexproof from")):
                texts += [kind] * n
    out = []
    for t in texts:
        inst = keywords.instance(t)
        if inst is not None and (name is None or inst.name == name):
            out.append(inst)
    return out


def kw_count(c: Card, name: str) -> int:
    """How many instances of a keyword ``c`` has (each instance of a trigger triggers)."""
    return len(kw_instances(c, name))


def colors(c: Card) -> tuple[str, ...]:
    """The object's colours as mana symbols (105.1, 202.2); colourless: []."""
    return c.colors


def is_creature(c: Card) -> bool:
    return "creature" in c.types


def loyalty(p: Permanent) -> int:
    return p.counters.get("loyalty", 0)


def defense(p: Permanent) -> int:
    return p.counters.get("defense", 0)


def describe_pt(c: Card) -> str:
    return f"{power(c)}/{toughness(c)}"
