"""What an effect applies to and whether its condition holds, read from the characteristics the
layers have computed so far (611.3a: a static ability's effect applies at any moment to whatever
its text indicates; 613.9: the results of one effect can decide whether another applies).

``affected(inst, works, st)`` lists the objects; ``holds(inst, works, st)`` checks the
condition; ``reads(effect)`` names the characteristics they read, so that the dependency test
(613.8a) only tries the pairs where one effect could change what the other reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine.characteristics import keywords
from judge.engine.seats import opponents
from judge.engine.state import State

if TYPE_CHECKING:
    from judge.engine.characteristics.layer_work import Work


def _whose(who: str, pid: str | None, you: str | None, st: State) -> bool:
    if pid is None:
        return False
    if who == "you":
        return pid == you
    if who == "opponents":
        return you is not None and st.has_player(you) and pid in {p.id for p in opponents(st, you)}
    return pid == who


def matches(w: "Work", f: dict, source: str | None, you: str | None, st: State) -> bool:
    """``w`` is in the set a filter describes, for an effect of ``source`` controlled by
    ``you``."""
    return compiled(f)(w, source, you, st)


_COMPILED: dict[int, tuple[dict, Any]] = {}


def compiled(f: dict):
    """The filter as one function, with its values read once: filters are tested thousands of
    times per computation of the layers."""
    hit = _COMPILED.get(id(f))
    if hit is not None and hit[0] is f:
        return hit[1]
    zones = tuple(f.get("zones", ("battlefield",)))
    types, not_types = tuple(f.get("types", ())), tuple(f.get("not_types", ()))
    subs, not_subs = tuple(f.get("subtypes", ())), tuple(f.get("not_subtypes", ()))
    sups, not_sups = tuple(f.get("supertypes", ())), tuple(f.get("not_supertypes", ()))
    colors, not_colors = frozenset(f.get("colors", ())), frozenset(f.get("not_colors", ()))
    colorless, multi = bool(f.get("colorless")), bool(f.get("multicolored"))
    other, token, nontoken = bool(f.get("other")), bool(f.get("token")), bool(f.get("nontoken"))
    rest = {k: f[k] for k in ("controller", "owner", "name", "abilities") if k in f}

    def fn(w, source, you, st):
        if w.zone not in zones:
            return False
        t = w.types
        for x in types:
            if x not in t:
                return False
        for x in not_types:
            if x in t:
                return False
        for x in subs:
            if not w.has_subtype(x):
                return False
        for x in not_subs:
            if w.has_subtype(x):
                return False
        sup = w.supertypes
        for x in sups:
            if x not in sup:
                return False
        for x in not_sups:
            if x in sup:
                return False
        if colors and colors.isdisjoint(w.colors) or not_colors and not not_colors.isdisjoint(w.colors):
            return False
        if colorless and w.colors or multi and len(w.colors) < 2:
            return False
        if other and w.oid == source or token and not w.token or nontoken and w.token:
            return False
        return not rest or _matches(w, rest, source, you, st)

    if len(_COMPILED) > 5000:
        _COMPILED.clear()
    _COMPILED[id(f)] = (f, fn)
    return fn


def _matches(w: "Work", f: dict, source: str | None, you: str | None, st: State) -> bool:
    """The checks of ``f`` one by one (``compiled`` leaves it controller, owner, name and
    abilities)."""
    if w.zone not in f.get("zones", (w.zone,)):
        return False
    types = w.types
    if any(t not in types for t in f.get("types", ())) or any(t in types for t in f.get("not_types", ())):
        return False
    if any(not w.has_subtype(s) for s in f.get("subtypes", ())):
        return False
    if any(w.has_subtype(s) for s in f.get("not_subtypes", ())):
        return False
    sup = w.supertypes
    if any(s not in sup for s in f.get("supertypes", ())) \
            or any(s in sup for s in f.get("not_supertypes", ())):
        return False
    colors = f.get("colors")
    if colors and not set(colors) & set(w.colors):
        return False
    if set(f.get("not_colors", ())) & set(w.colors):
        return False
    if f.get("colorless") and w.colors:
        return False
    if f.get("multicolored") and len(w.colors) < 2:
        return False
    if "controller" in f and not _whose(f["controller"], w.controller, you, st):
        return False
    if "owner" in f and not _whose(f["owner"], w.owner, you, st):
        return False
    if f.get("other") and w.oid == source:
        return False
    if f.get("token") and not w.token or f.get("nontoken") and w.token:
        return False
    if "name" in f and w.name != f["name"]:
        return False
    if "abilities" in f:
        have = {i.name for a in w.abilities if (i := keywords.instance(a)) is not None} | set(w.abilities)
        wanted = {(i.name if (i := keywords.instance(a)) is not None else a) for a in f["abilities"]}
        if not wanted <= have:
            return False
    return True


def affected(affects: Any, source: str | None, you: str | None, works: dict[str, "Work"],
             st: State) -> list[str]:
    """The objects an effect's selector names now, in the order of the universe."""
    if affects == "self":
        return [source] if source in works else []
    if affects == "attached":
        w = works.get(source) if source is not None else None
        return [w.attached_to] if w is not None and w.attached_to in works else []
    if not isinstance(affects, dict):
        return []
    if "objects" in affects:
        wanted = set(affects["objects"])
        return [oid for oid in works if oid in wanted]
    f = affects.get("filter")
    if f is None:
        return []
    return [oid for oid, w in works.items() if matches(w, f, source, you, st)]


def holds(cond: dict | None, source: str | None, you: str | None, works: dict[str, "Work"],
          st: State) -> bool:
    """An "as long as" condition (611.3, 611.2b) holds now."""
    if not cond:
        return True
    if "count" in cond:
        n = sum(1 for w in works.values() if matches(w, cond["count"], source, you, st))
        if "at_least" in cond and n < cond["at_least"] or "at_most" in cond and n > cond["at_most"]:
            return False
    if "your_turn" in cond and (st.turn.active_player == you) != cond["your_turn"]:
        return False
    if cond.get("you_control_source"):
        w = works.get(source) if source is not None else None
        if w is None or w.zone != "battlefield" or w.controller != you:
            return False
    if "graveyard_at_least" in cond:
        if you is None or not st.has_player(you) \
                or len(st.player(you).graveyard) < cond["graveyard_at_least"]:
            return False
    return True


# --- what a selector or a condition reads (for 613.8a) ----------------------------------------

_FILTER_READS = {"types": "types", "not_types": "types", "subtypes": "types", "not_subtypes": "types",
                 "supertypes": "types", "not_supertypes": "types", "colors": "colors",
                 "not_colors": "colors", "colorless": "colors", "multicolored": "colors",
                 "controller": "controller", "abilities": "abilities", "name": "copiable"}


def filter_reads(f: dict) -> set[str]:
    out = {_FILTER_READS[k] for k in f if k in _FILTER_READS}
    if f.get("controller") in ("you", "opponents") or f.get("owner") in ("you", "opponents"):
        out.add("you")
    return out


def reads(affects: Any, cond: dict | None) -> set[str]:
    """The characteristics an effect's selector and condition read: "types" (card types,
    subtypes, supertypes), "colors", "controller", "abilities", "copiable" (name, mana cost),
    "you" (its controller, i.e. its source's controller)."""
    out: set[str] = set()
    if isinstance(affects, dict) and "filter" in affects:
        out |= filter_reads(affects["filter"])
    if affects == "attached":
        out.add("attached")
    if cond:
        if "count" in cond:
            out |= filter_reads(cond["count"])
        if cond.get("you_control_source"):
            out |= {"controller", "you"}
        if "your_turn" in cond or "graveyard_at_least" in cond:
            out.add("you")
    return out
