"""What the search says above its results: a quick answer, and the two meanings of a word that has
two in the game («livello»: a layer, 613, or a leveler's level, 711).

The quick answer is either

- for a full question whose frame the search recognised (judge/search/frames.py), the rule that
  answers the frame, when it is among the first results, with the sentence of that rule that
  answers (the one sharing the most words with what the question is about); or
- an analytic index entry that covers every unit of the question on the rule ranked first (the
  entry is the project's, not the rules': the card sends to the rule); for a full question it
  shows the rule's answering sentence too.

The meanings come from ``significati.tsv``: the search never picks one for the user.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from judge.search.analysis import stem, term_set, terms, words
from judge.search.frames import is_full_question
from judge.search.snippets import make_snippet, shorten
from judge.search.tables import rows

MEANINGS_FILE = Path(__file__).with_name("significati.tsv")


# -- a rule's analytic index entry ------------------------------------------------------------------------

@dataclass(frozen=True)
class EntryMatch:
    text: str  # "ETB: how enters-the-battlefield triggers work"
    html: str  # the same with the query's words marked
    lang: str  # which index: "it" or "en"
    units: int  # how many of the query's units it holds


NO_ENTRY = EntryMatch("", "", "", 0)


@lru_cache(maxsize=4)  # both indexes of a corpus, and a new corpus's while it comes in
def _kept(index) -> tuple[dict[str, tuple], dict[str, tuple[str, ...]]]:
    """An analytic index's entries by rule, with their terms, and each entry's terms by its text:
    filled as searches meet them, never evicted (both indexes hold 6,500 entries). Terms are kept as
    a tuple of distinct, interned strings: as frozensets, in an LRU cache of their own, the entries
    held about 6 MB after 10,000 searches (a frozenset of 5 terms or more is 700 bytes)."""
    return {}, {}


def entry_terms(index, text: str) -> tuple[str, ...]:
    """The distinct indexed terms of an entry of ``index`` (its text), in the index's language."""
    by_text = _kept(index)[1]
    got = by_text.get(text)
    if got is None:
        got = by_text[text] = tuple(dict.fromkeys(sys.intern(t) for t in terms(text, index.lang)))
    return got


def _entries(index, number: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A rule's entries in one analytic index with their terms."""
    by_rule = _kept(index)[0]
    got = by_rule.get(number)
    if got is None:
        got = by_rule[number] = tuple((e.text, entry_terms(index, e.text)) for e in index.for_rule(number))
    return got


def best_entry(corpus, number: str, stems: dict[str, set[str]], units, typed: dict[str, set[str]]) -> EntryMatch:
    """The rule's analytic index entry, in either language, that matches the most of what the user
    asked for (units, not stems: synonyms in the other language must not count twice), then the most
    of the words as typed (``typed``: their stems in each language; an English query shows the
    English entry), then the most stems; none matching none."""
    best, best_lang, best_key = None, "it", (0, 0, 0)
    for lang, index in corpus.analytic_indexes.items():
        asked = stems[lang]
        for text, held in _entries(index, number):
            shared = asked.intersection(held)
            if not shared:  # most entries of a hit: nothing to weigh
                continue
            key = (sum(1 for u in units if not u.stems[lang].isdisjoint(shared)),
                   len(typed[lang] & shared), len(shared))
            if key > best_key:
                best, best_lang, best_key = text, lang, key
    if not best:
        return NO_ENTRY
    return EntryMatch(*make_snippet(best, best_lang, stems[best_lang]), best_lang, best_key[0])


# -- the quick answer -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class QuickAnswer:
    entry: str  # the analytic index entry («» for the answer to a frame)
    entry_html: str
    entry_lang: str
    number: str
    text: str  # the rule's text as the hit shows it, shortened
    label: str  # its label («Traduzione del progetto · 19 giugno 2026»)
    layer: str  # "ufficiale", "traduzione" or "comunità"
    lang: str
    sentence: str = ""  # for a full question: the sentence of the rule that answers it
    sentence_html: str = ""  # the same with the question's words marked
    asks: str = ""  # what the question's frame asks («chi controlla?»), when the answer is the frame's

    @property
    def url(self) -> str:
        return f"/regole/{self.number}"

    def as_json(self) -> dict:
        return {"voce": self.entry or None, "lingua_voce": self.entry_lang or None, "regola": self.number,
                "testo": self.text, "frase": self.sentence or None, "domanda": self.asks or None,
                "etichetta": self.label, "strato": self.layer, "url": self.url}


# The rule's text on the card: a glance (a phone shows the first result below it, in view).
ANSWER_CHARS = 150
# A one-word question gets a card only when its headword points mostly at a few rules ("ETB": 603.6a,
# 603.6b, 614.12), not at a family of equals ("layers": every layer of 613.1).
MAX_TOP_RULES = 3


def quick_answer(hit, n_units: int, named: dict[str, float]) -> QuickAnswer | None:
    """A card for the first result when its index entry holds every unit of the question and either
    the question holds more than one unit (a question, not a word) or its word is a headword whose
    most named rules, few, include this one (``named``: rule -> weight, judge/search/headwords.py)."""
    if hit is None or not hit.index_entry or n_units < 1 or hit.index_entry_units < n_units:
        return None
    if n_units < 2:
        tops = [n for n, w in named.items() if w >= 1.0]
        if hit.number not in tops or len(tops) > MAX_TOP_RULES:
            return None
    return QuickAnswer(hit.index_entry, hit.index_entry_html, hit.index_entry_lang, hit.number,
                       shorten(hit.text, ANSWER_CHARS), hit.label, hit.layer, hit.lang)


# A rule's sentences: a full stop (or a semicolon) and a space before a capital, a quote or a bracket.
# (The offline copy splits with the same pattern: judge/search/offline_index.py ships it.)
SENTENCE_END = re.compile(r"(?<=[.;!?])\s+(?=[A-ZÀ-ÖØ-Þ«“\"(])")
SENTENCE_CHARS = 320
# A frame's rule answers when it is among the first results.
FRAME_WITHIN = 3


def answering_sentence(text: str, lang: str, stems: set[str]) -> tuple[str, str]:
    """The sentence of ``text`` sharing the most terms with ``stems`` (the first of the best), as
    text and as HTML with the shared words marked."""
    sentences = [x for x in SENTENCE_END.split(" ".join(text.split())) if x.strip()] or [text]
    best = max(sentences, key=lambda x: len(term_set(x, lang) & stems))
    return make_snippet(best, lang, stems, SENTENCE_CHARS)


def frame_answer(hits, frames, stems: dict[str, set[str]], within: int = FRAME_WITHIN) -> QuickAnswer | None:
    """The answer to a question's frame (judge/search/frames.py: ``frames``, the rows it matched, each
    with ``rules`` and what it ``asks``): among the first ``within`` hits, the best ranked that is the
    first rule of a row, else of any rule of a row; with its answering sentence."""
    top = hits[:within]
    for first_only in (True, False):
        for h in top:
            frame = next((f for f in frames if f.rules and (h.number == f.rules[0] or
                                                            (not first_only and h.number in f.rules))), None)
            if frame is not None:
                sentence, marked = answering_sentence(h.text, h.lang, stems[h.lang])
                return QuickAnswer("", "", "", h.number, shorten(h.text, ANSWER_CHARS), h.label, h.layer, h.lang,
                                   sentence, marked, frame.asks)
    return None


def answer_for(text: str, hits, reading, n_units: int, named: dict[str, float],
               stems: dict[str, set[str]]) -> QuickAnswer | None:
    """The quick answer to ``text``: for a full question, the rule that answers its frame
    (``reading``: judge/search/frames.py) with the sentence that answers; otherwise, or when that
    rule is not among the first results, an analytic index entry holding the whole question
    (``quick_answer``), with its rule's answering sentence for a full question. The sentence is
    chosen by the words of the subject (``stems`` without the frame's words)."""
    full = is_full_question(text)
    subject = {k: v - {stem(w, k) for w in reading.frame_words} for k, v in stems.items()}
    if full and reading.frames:
        answer = frame_answer(hits, reading.frames, subject)
        if answer is not None:
            return answer
    answer = quick_answer(hits[0], n_units, named)
    if answer is not None and full:
        sentence, marked = answering_sentence(hits[0].text, answer.lang, subject[answer.lang])
        answer = replace(answer, sentence=sentence, sentence_html=marked)
    return answer


# -- words with two meanings --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Meaning:
    meaning: str
    rules: tuple[str, ...]
    search: str  # what to search for this meaning

    def as_json(self) -> dict:
        return {"significato": self.meaning, "regole": list(self.rules), "ricerca": self.search}


@dataclass(frozen=True)
class Ambiguous:
    word: str  # as the user typed it (folded)
    meanings: tuple[Meaning, ...]

    def as_json(self) -> dict:
        return {"parola": self.word, "significati": [m.as_json() for m in self.meanings]}


def parse_meanings(text: str) -> dict[str, tuple[Meaning, ...]]:
    """``significati.tsv``: word form -> its meanings, in file order."""
    out: dict[str, list[Meaning]] = {}
    for _, (forms, meaning, rules, search) in rows(text, "parole", 4, MEANINGS_FILE.name):
        m = Meaning(meaning, tuple(rules.split()), search)
        for form in forms.split("|"):
            out.setdefault(" ".join(words(form)), []).append(m)
    return {k: tuple(v) for k, v in out.items()}


@lru_cache(maxsize=1)
def load_meanings() -> dict[str, tuple[Meaning, ...]]:
    return parse_meanings(MEANINGS_FILE.read_text(encoding="utf-8"))


def ambiguous_words(query: str, table: dict[str, tuple[Meaning, ...]] | None = None) -> list[Ambiguous]:
    """The words of ``query`` that have two meanings in the game, each once."""
    table = load_meanings() if table is None else table
    seen: dict[str, Ambiguous] = {}
    for w in words(query):
        if w in table and len(table[w]) > 1 and w not in seen:
            seen[w] = Ambiguous(w, table[w])
    return list(seen.values())
