"""A card of the table as scenario fields: what ``"card": "Grizzly Bears"`` fills in.

The table's characteristics become the engine's fields (lower-case types, whole numbers);
fields a scenario gives explicitly are the judge's and always win. Type lines follow the
current Oracle wording where the table has it (``xmage_diff``: Hound → Dog), the rest the
table's. Keywords are split into those the engine automates, read from the engine's own
registry (``keywords.known``) at each call, so every keyword the engine learns is filled in
with no change here, and the others, which a page shows as not automated. Power,
toughness, loyalty or defense printed as «*» or «X» cannot be filled in: the scenario (or the
judge in the builder) gives their value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from judge.cards import lookup
from judge.cards.table import CardFace
from judge.engine import state, terms

# The fields a card of the table fills in (besides "card" itself).
from judge.engine.characteristics import keywords
FILLED = ("name", "types", "subtypes", "supertypes", "power", "toughness", "loyalty", "defense",
          "colors", "mana_cost", "keywords", "ongoing")
NUMBERS = ("power", "toughness", "loyalty", "defense")
COLORS = ("W", "U", "B", "R", "G")
NUMBER_LABELS = {k: terms.italian(k) for k in NUMBERS}     # «forza», «fedeltà»…


@dataclass
class Filled:
    """What a card fills in, and what it cannot."""

    face: CardFace
    fields: dict[str, Any]
    not_automated: list[str] = field(default_factory=list)   # keywords the engine does not know
    printed: dict[str, str] = field(default_factory=dict)     # "power": "*": not a number
    other_types: list[str] = field(default_factory=list)      # types the engine has no use for


def engine_keyword(keyword: str) -> str | None:
    """The engine's text for a keyword of the table ("protection from red", "bushido 2"), when
    the engine automates it."""
    k = re.sub(r"\s+", " ", keyword.strip().lower())
    try:
        return ", ".join(keywords.canonical([k]))
    except keywords.KeywordError:
        return None


def _number(value: str | None) -> int | None:
    return int(value) if value is not None and re.fullmatch(r"[+-]?\d{1,6}", value) else None


def card_fields(face: CardFace, name: str | None = None) -> Filled:
    """The scenario fields of ``face`` (``name``: the name to show, default the English)."""
    current = face.xmage_diff or {}
    types = current.get("types") or list(face.types)
    supertypes = current.get("supertypes") or list(face.supertypes)
    out = Filled(face, {"card": face.name, "name": name or face.name})
    out.fields["types"] = [t.lower() for t in types if t.lower() in state.CARD_TYPES]
    out.other_types = [t for t in types if t.lower() not in state.CARD_TYPES]
    out.fields["supertypes"] = [s.lower() for s in supertypes if s.lower() in state.SUPERTYPES]
    out.fields["subtypes"] = list(current.get("subtypes") or face.subtypes)
    for key in NUMBERS:
        printed = current.get(key) if key == "defense" and current.get(key) else getattr(face, key)
        out.fields[key] = _number(printed)
        if printed is not None and out.fields[key] is None:
            out.printed[key] = printed
    out.fields["colors"] = [c for c in COLORS if c in face.colors]
    out.fields["mana_cost"] = current.get("mana_cost") or face.mana_cost
    known = []
    for kw in face.keywords:
        engine = engine_keyword(kw)
        if engine is None:
            out.not_automated.append(kw)
        elif engine not in known:
            known.append(engine)
    out.fields["keywords"] = known
    out.fields["ongoing"] = any(s.lower() == "ongoing" for s in supertypes)
    return out


def with_card(d: dict, path: str, on_battlefield: bool, err) -> dict:
    """A scenario object with ``"card"`` completed from the table: the table's values for the
    fields it leaves out. ``err(path, message)`` records an Italian error: an unknown name (with
    the nearest ones), or a creature on the battlefield whose power or toughness the card
    prints as «*» and the file does not give."""
    text = d.get("card")
    if text is None:
        return d
    if not isinstance(text, str) or not text.strip():
        err(f"{path}.card", "atteso il nome di una carta (italiano o inglese)")
        return {k: v for k, v in d.items() if k != "card"}
    try:
        matches = lookup.exact(text)
        if len(matches) != 1:
            lookup.resolve(text)          # raises with the message and the nearest names
    except lookup.CardNotFound as e:
        err(f"{path}.card", e.message)
        return {"name": text, **{k: v for k, v in d.items() if k != "card"}}
    except OSError as e:                  # the table itself is missing or unreadable
        err(f"{path}.card", f"tabella delle carte non disponibile ({e.__class__.__name__})")
        return {"name": text, **{k: v for k, v in d.items() if k != "card"}}
    filled = card_fields(matches[0].face, matches[0].face_name)
    merged = {**filled.fields, **d, "card": filled.face.name}
    types = merged.get("types") if isinstance(merged.get("types"), list) else []
    if on_battlefield and "creature" in types:
        for key in ("power", "toughness"):
            if key not in d and key in filled.printed:
                err(f"{path}.{key}", f"{filled.face.name} ha {NUMBER_LABELS[key]} «{filled.printed[key]}» "
                                     f"(definita da un'abilità): indica il valore con \"{key}\"")
    return merged
