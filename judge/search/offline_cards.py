"""The cards a question names, for the offline search: the section ``carte`` of the offline index
(judge/search/offline_index.py), read by static/js/ricerca-offline.js.

The server finds a card's name inside a question (judge/cards/mentions.py) and brings the rules the
card relies on (judge/search/named_cards.py). The browser does the same with what is computed here,
by the server's own functions, for every name of the card table:

- whether the name counts when found in a question: always (one of its long words is not an
  ordinary word of the game: «Tarmogoyf», «Necropotence»), only when typed as a name (several
  words, each long one with a capital: «Rest in Peace», «Calice del Nulla»), or never («volare»,
  «cautela»: words of the rules). A name that never counts, or has more words than the server looks
  at (``mentions.MAX_NAME_WORDS``), is not matched (a card with no name that counts is left out);
- the face it stands for (``lookup.exact``: the first, as the server takes it), and that face's
  candidate rules with their weights (``named_cards``: keywords, types, layout, the rules its text
  invokes).

Format (JSON, compact: the 32,510 faces with a name that may count, about 50,000 names):

- ``schede``: one line per card (``\n`` between), in the order of its English name; a line is ``e`` or
  ``i`` (``i``: its second name is the Italian one shown, with the English beside it) and its names as
  the table writes them, ``|`` between, each after a ``0`` (never counts: kept to be shown), ``1``
  (always counts) or ``2`` (counts typed as a name). The browser folds them as the server does
  (judge.cards.names.name_key): written once, a name both matches and shows;
- ``regole``: each card's rule set, in the order of ``schede``, base 36, space-separated;
- ``insiemi``: the rule sets, the commonest first, each "position:weight …" (rule position in
  ``regole`` of the index, base 36; the weight as the server computes it);
- ``descrizioni``: what each card is, in the words a question's subject may use (``named_cards.card_about``),
  the distinct ones, the commonest first; ``descrizione``: each card's, in the order of ``schede``, base 36,
  space-separated;
- ``parole``: ``mentions.MAX_NAME_WORDS``, ``carte``: ``mentions.MAX_MENTIONS``, ``lunghe``:
  ``mentions.MIN_DISTINCT_CHARS``, ``peso``: ``question.W_CARD``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from judge.cards.lookup import exact
from judge.cards.names import name_key
from judge.cards.mentions import MAX_MENTIONS, MAX_NAME_WORDS, MIN_DISTINCT_CHARS, GameWords, is_a_name
from judge.cards.rules import card_rules
from judge.cards.table import CardTable
from judge.search import question
from judge.search.named_cards import add_face, card_about

NEVER, ALWAYS, TYPED_AS_NAME = "0", "1", "2"


def b36(n: int) -> str:
    """``n`` in base 36 (the offline index's numbers)."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def counts_as(key: str, words: GameWords | Callable[[str], bool]) -> str | None:
    """When the name ``key`` counts as a mention, found in a question (mentions.is_a_name): always,
    only typed as a name, or never (None)."""
    toks, at = [], 0
    for w in key.split():
        toks.append((w, at, at + len(w)))
        at += len(w) + 1
    if is_a_name(key, toks, words):  # no capitals: a word or a phrase the rules never use makes it a name
        return ALWAYS
    capitalised = " ".join(w[0].upper() + w[1:] if len(w[0].upper()) == 1 else w for w in key.split())
    return TYPED_AS_NAME if is_a_name(capitalised, toks, words) else None


def _weight(w: float) -> str:
    return repr(round(w, 6)).rstrip("0").rstrip(".") if w != int(w) else str(int(w))


def build_cards(corpus, words: GameWords | Callable[[str], bool], table: CardTable | None) -> dict:
    """The ``carte`` section of the offline index (nothing in it when there is no card table)."""
    position = {n: i for i, n in enumerate(corpus.numbers)}
    lines: list[tuple[str, str, str, str]] = []  # (English key, the card's line, its rule set, what it is)
    if table is not None:
        rules = card_rules(corpus)
        for row in range(len(table)):
            face = table.face(row)
            entries, seen, counted, italian = [], set(), False, "e"
            for i, (name, _) in enumerate(table.names_of(row)):
                key = name_key(name)
                if not key or key in seen:
                    continue
                seen.add(key)
                kind = counts_as(key, words) if len(key.split()) <= MAX_NAME_WORDS else None
                # A name two cards share stands for the one the server takes (lookup.exact: the first).
                shared = any(h.row != row for h in table.index.exact(key))
                if kind is not None and shared and exact(key, table)[0].face.name != face.name:
                    kind = None
                shown = i == 0 or name == face.name_it
                if kind is not None or shown:
                    entries.append((kind or NEVER) + name)
                    if i and name == face.name_it:  # shown, with the English name beside it
                        italian = "i"
                counted |= kind is not None
            if not counted:
                continue
            acc: dict[str, float] = {}
            add_face(acc, face, rules, corpus)
            rule_set = " ".join(f"{b36(position[n])}:{_weight(w)}" for n, w in sorted(acc.items(), key=lambda x: position[x[0]]))
            lines.append((name_key(face.name), italian + "|".join(entries), rule_set, card_about(face, acc, corpus)))
    lines.sort()
    sets, set_id = _by_use(r for _, _, r, _ in lines)
    abouts, about_id = _by_use(a for _, _, _, a in lines)
    return {
        "schede": "\n".join(line for _, line, _, _ in lines),
        "regole": " ".join(set_id[r] for _, _, r, _ in lines),
        "insiemi": sets,
        "descrizione": " ".join(about_id[a] for _, _, _, a in lines),
        "descrizioni": abouts,
        "parole": MAX_NAME_WORDS, "carte": MAX_MENTIONS, "lunghe": MIN_DISTINCT_CHARS, "peso": question.W_CARD,
    }


def _by_use(values) -> tuple[list[str], dict[str, str]]:
    """The distinct values, the commonest first, and each one's id (base 36: the commonest get the shortest)."""
    by_use = Counter(values)
    distinct = sorted(by_use, key=lambda v: (-by_use[v], v))
    return distinct, {v: b36(i) for i, v in enumerate(distinct)}
