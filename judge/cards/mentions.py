"""Cards named inside a longer text: «con Rest in Peace le creature muoiono?», «Tarmogoyf conta
i tipi nei cimiteri», «con Riposa in Pace…».

A name counts when it is written whole (any case, accents or not, Italian or English) and it
cannot be a phrase of the game's own: it is typed as a name (several words, each long one with a
capital: «Serra Angel», «Calice del Nulla»), or at least one of its long words is not an ordinary
word of the game (``ordinary``, given by the caller: the search says which words its rules' texts
and its glossary use, and which phrases are terms of its glossary). So «Tarmogoyf», «Rest in Peace» and «nebbia» (Fog) are cards, while
«volare» and «cautela», the Italian names of Flight and Vigilance and words of the rules, are read
as the words they are (the whole query «cautela» still shows the card: judge.cards.lookup.named).
A word players use that the rules do not («contromagia») is read as the card it names
(Counterspell). The longest name wins where names overlap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.cards.lookup import Match, exact
from judge.cards.names import SPELLED_OUT, name_words
from judge.cards.table import CardTable, load_table
from judge.search.analysis import WORD_RE, fold

MAX_NAME_WORDS = 8  # longer than almost every name; a longer one is still found as a whole query
MAX_MENTIONS = 3
MIN_DISTINCT_CHARS = 4  # the word that makes a name a name, not a phrase of the rules


@dataclass(frozen=True)
class Mention:
    match: Match
    start: int  # where the name is in the text (characters)
    end: int


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """The text's words as names compare them, with where each is in ``text``."""
    folded = fold(text).translate(SPELLED_OUT)
    if len(folded) == len(text):  # accents only: the folded text's positions are the text's
        return [(m.group(0), m.start(), m.end()) for m in WORD_RE.finditer(folded)]
    return [(w, m.start(), m.end()) for m in WORD_RE.finditer(text) for w in name_words(m.group(0))]


def is_a_name(text: str, toks: list[tuple[str, int, int]], ordinary: Callable[[str], bool]) -> bool:
    """Words that name a card rather than say something of the game: a name of several words typed
    as a name («Serra Angel», «Calice del Nulla»), or any name with a word the rules never use. A
    name of several words that is itself a term of the game («Two-Headed Giant», the variant and a
    card) is read as the term: ``ordinary`` of the words joined by spaces says so."""
    if len(toks) > 1 and ordinary(" ".join(w for w, _, _ in toks)):
        return False
    long = [(w, a) for w, a, _ in toks if len(w) >= MIN_DISTINCT_CHARS]
    if len(toks) > 1 and long and all(text[a].isupper() for _, a in long):
        return True
    return any(not ordinary(w) for w, _ in long)


def mentioned(text: str, ordinary: Callable[[str], bool], table: CardTable | None = None) -> list[Mention]:
    """The cards ``text`` names, in the order written (at most ``MAX_MENTIONS``)."""
    table = table or load_table()
    toks = _tokens(text)
    # A name needs a capitalised long word or a long word the rules never use: most questions have
    # neither, and are done without looking at a single name.
    if not any(len(w) >= MIN_DISTINCT_CHARS and (text[a].isupper() or not ordinary(w)) for w, a, _ in toks):
        return []
    runs, keys = [], []
    for i in range(len(toks)):
        key = toks[i][0]
        for j in range(i, min(len(toks), i + MAX_NAME_WORDS)):
            if j > i:
                key = f"{key} {toks[j][0]}"
            runs.append((i, j))
            keys.append(key)
    names = {}  # start -> the longest name starting there
    for (i, j), key, maybe in zip(runs, keys, table.index.may_be_names(keys)):
        if maybe and is_a_name(text, toks[i:j + 1], ordinary):
            names[i] = (j, key)  # runs from i grow longer: the last one kept is the longest
    out: list[Mention] = []
    i = 0
    while i < len(toks) and len(out) < MAX_MENTIONS:
        if i in names:
            j, key = names[i]
            found = exact(key, table)
            if found:
                out.append(Mention(found[0], toks[i][1], toks[j][2]))
                i = j + 1
                continue
        i += 1
    return out
