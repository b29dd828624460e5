"""What an object is and has right now, as the rest of the engine asks it: each function reads
the characteristics the layer system computed for the state (``layers.chars``, 613) — types,
colours, abilities and keywords with their parameters, power and toughness (with counters,
613.4c), controller (layer 2), name — never the printed values.  Loyalty and defense are the
counters on the permanent (306.5b, 310.4b).
"""

from __future__ import annotations

from judge.engine.characteristics import keywords, layers
from judge.engine.state import Card, Permanent, State


ch = layers.chars        # what every function here reads: the layers' result for the object


def power(st: State, c: Card) -> int:
    return ch(st, c).power or 0


def toughness(st: State, c: Card) -> int:
    return ch(st, c).toughness or 0


def types(st: State, c: Card) -> tuple[str, ...]:
    return ch(st, c).types


def is_type(st: State, c: Card, card_type: str) -> bool:
    return card_type in ch(st, c).types


def is_creature(st: State, c: Card) -> bool:
    return "creature" in ch(st, c).types


def subtypes(st: State, c: Card) -> tuple[str, ...]:
    return ch(st, c).subtypes


def has_subtype(st: State, c: Card, name: str) -> bool:
    """Also for an object with every creature type (changeling, 702.73a)."""
    return ch(st, c).has_subtype(name)


def supertypes(st: State, c: Card) -> tuple[str, ...]:
    return ch(st, c).supertypes


def colors(st: State, c: Card) -> tuple[str, ...]:
    """The object's colours as mana symbols (105.1, 202.2); colourless: ()."""
    return ch(st, c).colors


def name(st: State, c: Card) -> str | None:
    """Its name now (a copy has the copied name, 707.2; a face-down permanent none, 708.2a)."""
    return ch(st, c).name


def controller(st: State, p: Card) -> str:
    """Who controls a permanent (layer 2); an object elsewhere: its owner."""
    if not isinstance(p, Permanent):
        return p.owner
    return ch(st, p).controller or p.controller


def kw_instances(st: State, c: Card, name: str | None = None) -> list[keywords.Instance]:
    """Every keyword instance of ``c`` (of the keyword ``name`` only, if given): those its
    abilities include after layer 6, keyword counters among them (122.1b, 613.1f).  Instances
    of a triggered keyword each trigger (702.45b, 702.23c, …)."""
    out = []
    for t in ch(st, c).abilities:
        if t.startswith("@"):
            continue
        inst = keywords.instance(t)
        if inst is not None and (name is None or inst.name == name):
            out.append(inst)
    return out


def has_kw(st: State, c: Card, kw: str) -> bool:
    """``c`` has the keyword named ``kw`` (any instance: "protection" for "protection from red";
    "hexproof" also for "hexproof from …", 702.11e)."""
    abilities = ch(st, c).abilities
    if kw in abilities:
        return True
    return kw in _PARAMETRIC and any(i.name == kw for i in kw_instances(st, c))


_PARAMETRIC = frozenset(s.name for s in keywords.REGISTRY if s.param)


def kw_count(st: State, c: Card, name: str) -> int:
    """How many instances of a keyword ``c`` has (each instance of a trigger triggers)."""
    return len(kw_instances(st, c, name))


def loyalty(p: Permanent) -> int:
    return p.counters.get("loyalty", 0)


def defense(p: Permanent) -> int:
    return p.counters.get("defense", 0)


def describe_pt(st: State, c: Card) -> str:
    return f"{power(st, c)}/{toughness(st, c)}"
