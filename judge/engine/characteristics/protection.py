"""Protection (702.16): which qualities an object has, and what protection from them does.

Protection does four things, remembered as DEBT: Damage from sources with the quality is
prevented (702.16e, 615), it can't be Enchanted or Equipped by them (702.16c–d: the
state-based actions 704.5m and 704.5n), it can't be Blocked by creatures with the quality
(702.16f), and it can't be the Target of spells with the quality or of abilities from sources
with it (702.16b).  Here are the quality tests; the engine applies them in ``ops`` (damage),
``attachment`` (enchant, equip), ``evasion`` (blocks) and ``targeting`` (targets).
Protection from everything (702.16j) and from a player (702.16k) are variants; a quality may
also be multicoloured or monocoloured (105.2a–b), as "hexproof from" qualities may (702.11d).

Players have no keywords in the scenario format: protection of a player is not modelled.
"""

from __future__ import annotations

from judge.engine.characteristics import derived, keywords
from judge.engine.characteristics.keywords import (ALL_COLORS, COLOR_TERMS, EVERYTHING,
                                                   MONOCOLORED, MULTICOLORED, PLAYER,
                                                   TYPE_PLURALS, Instance)
from judge.engine.state import Card, Permanent, State

_SYMBOL = {en: sym for sym, en in COLOR_TERMS.items()}
_TYPE_OF = {plural: t for t, plural in TYPE_PLURALS.items()}


def controller_of(st: State, obj: Card) -> str:
    """Who controls an object: a permanent's controller; elsewhere its owner (the format keeps
    a spell's controller on its stack entry, see ``source_controller`` arguments)."""
    return derived.controller(st, obj) if isinstance(obj, Permanent) else obj.owner


def has_quality(st: State, quality: str, obj: Card, controller: str | None = None) -> bool:
    """Does ``obj`` (a source, an Aura, an Equipment, a blocker) have the stated quality?"""
    if quality == EVERYTHING:
        return True                                           # 702.16j
    if quality in _SYMBOL:
        return _SYMBOL[quality] in derived.colors(st, obj)
    if quality == ALL_COLORS:
        return bool(derived.colors(st, obj))                  # 702.16h
    if quality == MULTICOLORED:
        return len(derived.colors(st, obj)) >= 2              # 105.2b
    if quality == MONOCOLORED:
        return len(derived.colors(st, obj)) == 1              # 105.2a
    if quality in _TYPE_OF:
        return derived.is_type(st, obj, _TYPE_OF[quality])    # 702.16a
    if quality.startswith(PLAYER):
        pid = quality[len(PLAYER):]                           # 702.16k
        ctl = controller if controller is not None else controller_of(st, obj)
        return ctl == pid
    return any(quality == s or quality in _plurals(s) for s in derived.subtypes(st, obj))


def _plurals(subtype: str) -> tuple[str, ...]:
    """The plurals cards print for a subtype: Goblins, Elves, Faeries, Sphinxes."""
    low = subtype
    out = [low + "s", low + "es"]
    if low.endswith("f"):
        out.append(low[:-1] + "ves")
    if low.endswith("y"):
        out.append(low[:-1] + "ies")
    return tuple(out)


def protection_from(st: State, holder: Card, obj: Card,
                    controller: str | None = None) -> Instance | None:
    """The first protection of ``holder`` from a quality ``obj`` has, or None."""
    if not derived.has_kw(st, holder, "protection"):
        return None
    for inst in derived.kw_instances(st, holder, "protection"):
        if has_quality(st, inst.quality, obj, controller):
            return inst
    return None


def variant_rule(inst: Instance, general: str) -> list[str]:
    """The rule of the protection at work: the general one, and the variant's (702.16j, k)."""
    if inst.quality == EVERYTHING:
        return [general, "702.16j"]
    if inst.quality.startswith(PLAYER):
        return [general, "702.16k"]
    return [general]


def describe(inst: Instance, st: State) -> str:
    """«protezione dal rosso», «protezione da Bruno»."""
    return keywords.italian(inst.text, st.name_of)
