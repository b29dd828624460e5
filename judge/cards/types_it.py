"""A card's type line in Italian, as Italian cards print it: «Creatura Artefatto Leggendaria —
Umano Mago» for «Legendary Artifact Creature — Human Wizard».

- card types from the terminology table (the engine's names, judge/engine/terms.py), in the
  reverse order of the English (the last English type is the noun: «Artifact Creature» is a
  «Creatura Artefatto»);
- supertypes after them, agreeing with the first type («Creatura Leggendaria», «Artefatto
  Leggendario»; «Terra Base Innevata»);
- subtypes as the project's translation of the subtype lists of rule 205.3 names them («Orso
  (Bear)», «Equipaggiamento (Equipment)»); a subtype the lists keep in English (Goblin, Sliver)
  or do not hold stays as printed.

The English type line stays the card's (judge/cards/table.py CardFace.type_line): pages show
both.
"""

from __future__ import annotations

import re
import threading

from judge.cards.rules import SUBTYPES
from judge.engine import terms

FEMININE = {"creature", "land", "sorcery", "battle"}
# Supertypes as Italian cards print them (masculine, feminine), in the order they follow the types.
SUPERTYPES_IT = {"basic": ("Base", "Base"), "snow": ("Innevato", "Innevata"), "world": ("Mondiale", "Mondiale"),
                 "legendary": ("Leggendario", "Leggendaria"), "ongoing": ("Continuo", "Continua")}
# Types the terminology table does not hold (older or casual card types).
OTHER_TYPES_IT = {"conspiracy": "Cospirazione", "vanguard": "Vanguard", "tribal": "Tribale"}

_PAIR = re.compile(r"^(?P<it>.+?) \((?P<en>[^()]+)\)(?: \(vedi regol[ae] [^()]*\))?$")
_cache: dict[int, dict[str, str]] = {}
_lock = threading.Lock()


def _items(text: str) -> list[str]:
    """The items of a subtype rule's list: «I tipi di … sono A (a), B (b) e C (c).» (the sentence with
    the most items: a rule may add one, «Di quella lista, Foresta … sono i tipi di terra base»)."""
    sentence = max(re.split(r"(?<=\))\. |\.$", text), key=lambda x: x.count(", "))
    head, sep, tail = sentence.partition(" sono ")
    if not sep:
        return []
    items = [x.strip() for x in tail.rstrip(". ").split(", ")]
    if items and " e " in items[-1]:
        last, _, final = items[-1].rpartition(" e ")
        items[-1:] = [last, final]
    return items


def subtype_names(corpus) -> dict[str, str]:
    """English subtype (folded to lower case) -> its Italian name, from the project's translation of
    the subtype lists (the rules under 205.3), read once per corpus."""
    got = _cache.get(id(corpus))
    if got is not None:
        return got
    out: dict[str, str] = {}
    for rule in corpus.descendants(SUBTYPES):
        t = rule.tr
        if t is None or not t.current:
            continue
        for item in _items(t.text):
            m = _PAIR.match(item)
            if m and len(m["it"].split()) <= 4 and not re.search(r"\b(?:vedi|see|regol[ae])\b", m["en"], re.I):
                out[_key(m["en"])] = m["it"]
    with _lock:
        _cache.clear()
        _cache[id(corpus)] = out
    return out


def _key(name: str) -> str:
    return name.replace("’", "'").lower()


def italian_subtype(name: str, corpus) -> str:
    return subtype_names(corpus).get(_key(name), name)


def italian_types(types, supertypes) -> str:
    """«Creatura Artefatto Leggendaria»: the card types, then the supertypes agreeing with the first."""
    kinds = [t.lower() for t in types]
    words = [(terms.TYPE_IT.get(k) or OTHER_TYPES_IT.get(k) or k).capitalize() for k in reversed(kinds)]
    feminine = bool(kinds) and kinds[-1] in FEMININE
    supers = {s.lower() for s in supertypes}
    words += [forms[feminine] for key, forms in SUPERTYPES_IT.items() if key in supers]
    words += [s for s in supertypes if s.lower() not in SUPERTYPES_IT]
    return " ".join(words)


def italian_type_line(types, supertypes, subtypes, corpus) -> str:
    """The whole Italian type line: «Creatura Leggendaria — Umano Mago»."""
    left = italian_types(types, supertypes)
    if not subtypes:
        return left
    names = [italian_subtype(s, corpus) for s in subtypes]
    for i in range(len(names) - 1):  # «Urza's Tower»: «Torre di Urza», the genitive after its noun
        if names[i].startswith("di "):
            names[i], names[i + 1] = names[i + 1], names[i]
    return f"{left} — {' '.join(names)}"
