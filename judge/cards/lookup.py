"""Cards by name, as the rest of the product asks for them: what someone typed (Italian or
English, any case, accents or not, typos) → the faces of the table.

- ``find``/``suggest``: the best matches, for a list (suggestions as one types, /carte?q=);
- ``exact``: the faces a name stands for, letter case, accents and punctuation aside (the
  scenario format: a file names a card, it does not guess one);
- ``named``: the card(s) a search query names, whole name, with at most a small typo;
- ``resolve``: one face for a name or an Italian error with the nearest names.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.cards.index import EXACT, SOME_WORDS, Hit
from judge.cards.names import name_key
from judge.cards.table import CardFace, CardTable, load_table
from judge.search.spelling import osa_distance

MAX_SUGGESTIONS = 20
MIN_SUGGEST_CHARS = 2


@dataclass(frozen=True)
class Match:
    face: CardFace
    name: str        # the name that matched, as the table spells it
    lang: str        # "en" or "it"
    tier: int        # judge.cards.index: EXACT, PREFIX, WORDS, SOME_WORDS
    edits: int

    @property
    def exact(self) -> bool:
        return self.tier == EXACT

    @property
    def face_name(self) -> str:
        """The name of the face itself, in the language it was asked in: «Fire // Ice» asked for
        is the face «Fire» (a permanent is one face of a multi-part card)."""
        if " // " not in self.name:
            return self.name
        return (self.face.name_it or self.face.name) if self.lang == "it" else self.face.name


class CardNotFound(LookupError):
    """A name the table does not know, or knows for more than one card."""

    def __init__(self, text: str, message: str, nearest: list[str]):
        super().__init__(message)
        self.text, self.message, self.nearest = text, message, nearest


def _match(table: CardTable, hit: Hit) -> Match:
    names = table.names_of(hit.row)
    name, lang = names[hit.position] if hit.position < len(names) else names[0]
    return Match(table.face(hit.row), name, lang, hit.tier, hit.edits)


def find(text: str, limit: int = 10, table: CardTable | None = None) -> list[Match]:
    """The best matches for what was typed, best first, one per face."""
    table = table or load_table()
    limit = max(1, min(limit, MAX_SUGGESTIONS))
    return [_match(table, h) for h in table.index.search(name_key(text), limit)]


def suggest(text: str, limit: int = 8, table: CardTable | None = None) -> list[Match]:
    """Suggestions as one types: nothing for fewer than two letters, and never a name that has
    only some of the words typed."""
    if len(name_key(text)) < MIN_SUGGEST_CHARS:
        return []
    return [m for m in find(text, limit, table) if m.tier < SOME_WORDS]


def exact(text: str, table: CardTable | None = None) -> list[Match]:
    """The faces whose English or Italian name is ``text`` (case, accents, punctuation aside)."""
    table = table or load_table()
    seen: dict[int, Match] = {}
    for h in table.index.exact(name_key(text)):
        seen.setdefault(h.row, _match(table, h))
    return sorted(seen.values(), key=lambda m: (m.lang != "en", m.face.name))


def nearest(text: str, n: int = 5, table: CardTable | None = None) -> list[str]:
    """The names nearest to ``text`` (in the language they matched), for an error message."""
    return [m.name for m in find(text, n, table)]


def _typo_allowed(key: str) -> int:
    return 0 if len(key) < 5 else 1 if len(key) < 9 else 2


def named(text: str, table: CardTable | None = None, limit: int = 3) -> list[Match]:
    """The card(s) a search query names: the whole query is a name, or one with a typo or two
    in a long name («orso grizly»). Never a name that merely starts with the query."""
    key = name_key(text)
    if not key:
        return []
    hits = exact(text, table)
    if hits:
        return hits[:limit]
    if not _typo_allowed(key):
        return []
    return close_names(key, find(text, 5, table))[:limit]


def close_names(key: str, found: list[Match]) -> list[Match]:
    """Of ``found`` (``find``'s answer for ``key``), the names that are ``key`` with a typo or two
    in a long name: as many words, within the distance a name of its length allows."""
    allowed = _typo_allowed(key)
    if not allowed:
        return []
    out = []
    for m in found:
        k = name_key(m.name)
        if len(k.split()) == len(key.split()) and osa_distance(k, key, allowed + 1) <= allowed:
            out.append(m)
    return out


def resolve(text: str, table: CardTable | None = None) -> CardFace:
    """The one face ``text`` names, or ``CardNotFound`` with an Italian message and the nearest
    names (an Italian name shared by two cards names neither: the English one decides)."""
    table = table or load_table()
    found = exact(text, table)
    if len(found) == 1:
        return found[0].face
    shown = text.strip()[:80]
    if found:
        names = [m.face.name for m in found]
        raise CardNotFound(text, f"«{shown}» è il nome italiano di più carte "
                                 f"({', '.join(names)}): scrivi il nome inglese", names)
    near = nearest(text, 5, table)
    hint = f"; le più vicine: {', '.join(near)}" if near else ""
    raise CardNotFound(text, f"carta sconosciuta «{shown}»{hint}", near)


def by_slug(text: str, table: CardTable | None = None) -> CardFace | None:
    """The face whose canonical address is ``text`` (its English name as a key)."""
    table = table or load_table()
    for h in table.index.exact(name_key(text)):
        if h.position == 0:
            return table.face(h.row)
    return None
