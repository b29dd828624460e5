"""Finding glossary entries from what a user types: the Italian term, the English term, or a synonym.

``/glossario?q=travolgere`` lists "Trample": an entry matches when the words typed (accents and
inflections aside: "travolgente", "creature") are in its Italian or English term, or when the
search glossary (judge/search/glossary.py: the terminology table, the translated terms, the jargon)
maps them to a term the entry names ("SBA" -> "State-Based Actions"). Whole-term matches first,
then terms that start with the words, then terms that contain them; alphabetical within each.
"""

from __future__ import annotations

from judge.search.analysis import fold, terms, words
from judge.search.glossary import Glossary

MAX_QUERY_CHARS = 100


def _rank(query: dict[str, tuple[str, ...]], folded: str, term: str | None, lang: str) -> int | None:
    """0 the whole term, 1 the term starts with the query, 2 the term contains every query word; None.
    Stems are compared in the term's own language ("pila" is not the English "pile")."""
    if not term:
        return None
    if fold(term) == folded:
        return 0
    q, t = query[lang], tuple(terms(term, lang))
    if not q or not set(q) <= set(t):
        return None
    return 0 if q == t else (1 if t[: len(q)] == q else 2)


def search_entries(entries: list[dict], query: str, glossary: Glossary | None = None) -> list[dict]:
    """The entries (dicts with "term" and "it_term") that match ``query``, best first."""
    q = " ".join(query.split())[:MAX_QUERY_CHARS]
    folded = fold(q)
    stems = {lang: tuple(terms(q, lang)) for lang in ("it", "en")}
    if not folded.strip() or not (stems["it"] or stems["en"]):
        return []
    synonyms: set[str] = set()
    if glossary is not None:
        ws = words(q)
        for start, end, ids in glossary.match(ws):
            if end - start == len(ws):  # the whole query is a glossary term: its other names count
                for cid in ids:
                    synonyms.update(fold(t) for t in glossary.concepts[cid].all_terms)
    ranked = []
    for e in entries:
        ranks = [r for r in (_rank(stems, folded, e.get("it_term"), "it"), _rank(stems, folded, e["term"], "en"))
                 if r is not None]
        if fold(e["term"]) in synonyms or (e.get("it_term") and fold(e["it_term"]) in synonyms):
            ranks.append(0)
        if ranks:
            ranked.append((min(ranks), e["term"].lower(), e))
    ranked.sort(key=lambda x: x[:2])
    return [e for _, _, e in ranked]
