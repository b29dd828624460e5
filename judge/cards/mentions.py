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
(Counterspell). Two more ways a name is told from the game's words (``GameWords``, from
judge/search/rule_words.py): a name of two long words or more that no rule's text contains is a
name in any case («forza di volontà», «atto di tradimento»), and a word the rules write only as a
name («Grapeshot», «Fog», in their examples) is one when typed with a capital. Short words of a
name («degli», «the») need no capital: «Volere degli Dei» is typed as a name. The longest name
wins where names overlap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.cards.lookup import Match, exact
from judge.cards.names import SPELLED_OUT, name_words
from judge.cards.table import CardTable, load_table
from judge.search.analysis import ALL_STOPS, WORD_RE, fold

MAX_NAME_WORDS = 8  # longer than almost every name; a longer one is still found as a whole query
MAX_MENTIONS = 3
MIN_DISTINCT_CHARS = 4  # the word that makes a name a name, not a phrase of the rules


def _never(_: str) -> bool:
    return False


def _always(_: str) -> bool:
    return True


@dataclass(frozen=True)
class GameWords:
    """What the game's own texts say, to tell a card's name from the words of a question."""

    ordinary: Callable[[str], bool]  # a word of the rules or the glossary; a phrase: a glossary term
    proper: Callable[[str], bool] = _never  # a word the rules write only as a name («grapeshot»)
    # a phrase some rule's text contains («serra angel»); unknown, every phrase is one (no name by it)
    said: Callable[[str], bool] = _always


def game_words(words: GameWords | Callable[[str], bool]) -> GameWords:
    """``words`` as GameWords (a bare ``ordinary`` knows no proper words and no phrases)."""
    return words if isinstance(words, GameWords) else GameWords(words)


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


def is_a_name(text: str, toks: list[tuple[str, int, int]], words: GameWords | Callable[[str], bool]) -> bool:
    """Words that name a card rather than say something of the game: a name of several words typed
    as a name («Serra Angel», «Calice del Nulla», «Volere degli Dei»: its short words aside), a
    name with a word the rules never use, a name of two long words or more that no rule says
    («forza di volontà»), or a word the rules write only as a name, typed with a capital
    («Grapeshot», «Fog»). A name of several words that is itself a term of the game («Two-Headed Giant»,
    the variant and a card) is read as the term: ``ordinary`` of the words joined by spaces says so."""
    words = game_words(words)
    phrase = " ".join(w for w, _, _ in toks)
    if len(toks) > 1 and words.ordinary(phrase):
        return False
    long = [(w, a) for w, a, _ in toks if len(w) >= MIN_DISTINCT_CHARS and w not in ALL_STOPS]
    capitals = bool(long) and all(text[a].isupper() for _, a in long)
    if len(toks) > 1 and capitals:
        return True
    if any(not words.ordinary(w) for w, _ in long):
        return True
    if len(long) >= 2 and not words.said(phrase):
        return True
    return len(toks) == 1 and text[toks[0][1]].isupper() and words.proper(toks[0][0])


def mentioned(text: str, words: GameWords | Callable[[str], bool], table: CardTable | None = None) -> list[Mention]:
    """The cards ``text`` names, in the order written (at most ``MAX_MENTIONS``)."""
    table = table or load_table()
    words = game_words(words)
    toks = _tokens(text)
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
        if maybe and is_a_name(text, toks[i:j + 1], words):
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
