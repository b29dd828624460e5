"""What each operation of an effect does to one object, in its layer (613.1), with the rule that
says so: copy (707.2, 707.9), control, text change (612), types (205.1a–b, 305.7), colours
(105.3), abilities (113.10; "can't have"), power and toughness (613.4a–d).

``apply(op, w, ctx)`` changes the :class:`Work` in place and returns the rules it followed;
``writes(op)`` is what it may change (613.8a needs it); ``substitute(value, changes)`` applies an
object's text changes (layer 3) to one of its own effects.
"""

from __future__ import annotations

import re
from typing import Any

from judge.engine.characteristics import keywords
from judge.engine.characteristics import subtypes as kinds
from judge.engine.characteristics.layer_work import Work
from judge.engine.state import MANA_COLORS

_COLOR_WORDS = {keywords.COLOR_TERMS[c]: c for c in MANA_COLORS}     # "white" → "W"


def _prune_subtypes(w: Work) -> None:
    """205.1a: a subtype stays only while the object has a card type of its kind."""
    w.subtypes = [s for s in w.subtypes
                  if set(kinds.card_types_of(kinds.kind_of(s))) & set(w.types)]
    if w.every_creature_type and not {"creature", "kindred"} & set(w.types):
        w.every_creature_type = False


def _add(lst: list[str], items) -> None:
    for x in items:
        if x not in lst:
            lst.append(x)


def copy_into(w: Work, values: dict, not_copied: tuple[str, ...] = ()) -> None:
    """707.2: the copiable values become the copied ones (707.9c: except those not copied)."""
    for k in ("name", "mana_cost", "power", "toughness", "loyalty"):
        if k not in not_copied:
            setattr(w, k, values.get(k))
    for k in ("types", "subtypes", "supertypes", "colors", "abilities"):
        if k not in not_copied:
            setattr(w, k, list(values.get(k, ())))
    if "subtypes" not in not_copied:
        w.every_creature_type = False


def apply(op: dict, w: Work, you: str | None, mana_value: int = 0, count: int = 0) -> list[str]:
    """Apply one operation to ``w``; the rules followed (beyond the layer's own)."""
    name = op["op"]
    if name == "copy":
        copy_into(w, op.get("values") or {}, tuple((op.get("except") or {}).get("not_copied", ())))
        return ["707.2"] + (["707.9"] if op.get("except") else [])
    if name == "control":
        w.controller = you if op["player"] == "you" else op["player"]
        return []
    if name == "change_text":
        w.text_changes.append((op["from"], op["to"]))
        w.abilities = [substitute(a, [(op["from"], op["to"])]) for a in w.abilities]
        return ["612.2"]
    if name.endswith("_subtypes") or name == "all_creature_types":
        return _subtypes(name, op, w)
    if name in ("set_types", "add_types", "remove_types"):
        return _types(name, op["types"], w)
    if name.endswith("_supertypes"):
        if name == "set_supertypes":
            w.supertypes = list(op["supertypes"])
        elif name == "add_supertypes":
            _add(w.supertypes, op["supertypes"])
        else:
            w.supertypes = [s for s in w.supertypes if s not in op["supertypes"]]
        return ["205.1b"] if name == "add_supertypes" else []
    if name == "set_colors":
        w.colors = [c for c in MANA_COLORS if c in op["colors"]]
        return ["105.3"]
    if name == "add_colors":
        _add(w.colors, op["colors"])
        w.colors = [c for c in MANA_COLORS if c in w.colors]
        return ["105.3"]
    if name == "add_abilities":       # each instance counts (702.83b, 702.45b…): no dedup
        w.abilities.extend(a for a in op["abilities"] if _name(a) not in w.cant_have)
        return ["113.10"]
    if name == "remove_abilities":
        gone = {_name(a) for a in op["abilities"]} | set(op["abilities"])
        w.abilities = [a for a in w.abilities if a not in gone and _name(a) not in gone]
        return ["113.10"]
    if name == "lose_all_abilities":
        w.abilities = []
        return ["113.10"]
    if name == "cant_have_abilities":
        w.cant_have |= {_name(a) for a in op["abilities"]}
        w.abilities = [a for a in w.abilities if _name(a) not in w.cant_have]
        return ["113.10"]
    if name == "set_pt":
        if op.get("from") == "mana_value":
            w.power = w.toughness = mana_value
            return ["202.3"]
        if "count" in op:
            w.power = w.toughness = count
            return []
        if "power" in op:
            w.power = op["power"]
        if "toughness" in op:
            w.toughness = op["toughness"]
        return []
    if name == "modify_pt":
        w.power = (w.power or 0) + op["power"]
        w.toughness = (w.toughness or 0) + op["toughness"]
        return []
    if name == "switch_pt":
        w.power, w.toughness = w.toughness, w.power
        return []
    raise ValueError(name)


def _types(name: str, types: list[str], w: Work) -> list[str]:
    if name == "set_types":
        # 205.1a: the new card types replace the old ones; instant and sorcery stay.
        kept = [t for t in w.types if t in ("instant", "sorcery")]
        w.types = kept + [t for t in types if t not in kept]
        _prune_subtypes(w)
        return ["205.1a"]
    if name == "add_types":
        _add(w.types, types)
        return ["205.1b"]
    w.types = [t for t in w.types if t not in types]
    _prune_subtypes(w)
    return ["205.1a"]


def _subtypes(name: str, op: dict, w: Work) -> list[str]:
    if name == "all_creature_types":
        w.every_creature_type = True
        return ["702.73a"]
    new = op["subtypes"]
    if name == "add_subtypes":
        _add(w.subtypes, new)
        return ["205.1b"] + (["305.7"] if _basic(new) and "land" in w.types else [])
    if name == "remove_subtypes":
        w.subtypes = [s for s in w.subtypes if s not in new]
        return []
    kind = op.get("category") or (kinds.kind_of(new[0]) if new else "creature")
    w.subtypes = [s for s in w.subtypes if kinds.kind_of(s) != kind] + list(new)
    if kind == "creature":
        w.every_creature_type = False
    rules = ["205.1a"]
    if kind == "land" and "land" in w.types and new and _basic(new):
        # 305.7: it loses its old land types and every ability of its rules text.
        from_text = set(w.copiable.abilities) if w.copiable is not None else set()
        w.abilities = [a for a in w.abilities if a not in from_text]
        w.rules_text_lost = True
        rules.append("305.7")
    _prune_subtypes(w)
    return rules


def _basic(subtypes: list[str]) -> bool:
    return bool(subtypes) and all(s in kinds.BASIC_LAND_MANA for s in subtypes)


def intrinsic(w: Work) -> bool:
    """305.6: a land with a basic land type has its mana ability; True if one was added."""
    if "land" not in w.types:
        return False
    added = False
    for basic in kinds.BASIC_LAND_MANA:
        ability = kinds.intrinsic_ability(basic)
        if basic in w.subtypes and ability not in w.abilities:
            w.abilities.append(ability)
            added = True
    return added


def _name(ability: str) -> str:
    inst = keywords.instance(ability) if not ability.startswith("@") else None
    return inst.text if inst is not None else ability


# --- what an operation may change (613.8a) -----------------------------------------------------

_WRITES = {"1a": {"copiable", "types", "colors", "abilities", "pt"}, "2": {"controller", "you"},
           "3": {"abilities", "text"}, "4": {"types"}, "5": {"colors"}, "6": {"abilities"},
           "7a": {"pt"}, "7b": {"pt"}, "7c": {"pt"}, "7d": {"pt"}}


def writes(layer: str, op: dict) -> set[str]:
    out = set(_WRITES.get(layer, ()))
    if op["op"] == "set_subtypes" and _basic(op.get("subtypes", [])):
        out.add("abilities")                       # 305.7
    return out


# --- layer 3: text changes of an object's own effects (612.2) ----------------------------------

def _color_symbol(word: str) -> str | None:
    if word in MANA_COLORS:
        return word
    return _COLOR_WORDS.get(word.lower())


def substitute(value: Any, changes: list[tuple[str, str]]) -> Any:
    """``value`` (a keyword text, a selector, an operation) with its colour words and subtypes
    changed as the text changes say, in order (612.2: a word used as a colour or a type)."""
    for old, new in changes:
        value = _sub(value, old, new)
    return value


def _sub(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {k: (v if k in ("op", "id") else _sub(v, old, new)) for k, v in value.items()}
    if isinstance(value, list):
        return [_sub(v, old, new) for v in value]
    if not isinstance(value, str):
        return value
    o, n = _color_symbol(old), _color_symbol(new)
    if o and n:
        if value == o:
            return n
        word_o, word_n = keywords.COLOR_TERMS[o], keywords.COLOR_TERMS[n]
        return re.sub(rf"\b{word_o}\b", word_n, value)
    if value == old:
        return new
    low_o, low_n = old.lower(), new.lower()
    return re.sub(rf"\b{re.escape(low_o)}walk\b", f"{low_n}walk", value)     # landwalk, 702.14
