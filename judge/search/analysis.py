"""Text analysis for the search index: Italian and English analyzers, shared by index and queries.

Both analyzers fold accents *before* stemming, so "priorità", "priorita" and
"Priorità" give the same term, and stop words are removed in both spellings
("perché"/"perche", "più"/"piu"). Word splitting keeps hyphenated words apart
("state-based" -> "state", "based") and splits Italian elisions ("un'azione" ->
"un", "azione"; the apostrophe is not a word character).

Magic notation is one token, never stemmed: power/toughness and its changes
("+1/+1", "-1/-1", "X/X", "*/*", "2/2") and symbols ("{T}", "{Q}", "{W/P}", "{CHAOS}"),
so "segnalini -1/-1" finds "-1/-1 counters" and not every rule with a "1" in it.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from whoosh.analysis import CharsetFilter, Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.lang import stopwords_for_language
from whoosh.support.charset import accent_map

# Magic notation: symbols in braces, and power/toughness (or a change to it) as one token.
SYMBOL_PATTERN = r"\{(?:[A-Za-z0-9]{1,2}(?:/[A-Za-z0-9]{1,2})?|CHAOS|chaos)\}"
PT_PATTERN = r"[+\-]?(?:\d{1,3}|[xX*])/[+\-]?(?:\d{1,3}|[xX*])(?![\w/])"
NOTATION_PATTERN = rf"{SYMBOL_PATTERN}|{PT_PATTERN}"
# Words: notation first, then letters/digits ("704.5a" gives "704", "5a": rule numbers are looked
# up through their own field).
WORD_PATTERN = rf"{NOTATION_PATTERN}|[^\W_]+"  # "_" joins nothing: "grimorio_vuoto" is two words
_NOTATION_RE = re.compile(rf"(?:{NOTATION_PATTERN})")


# A search folds the same short texts again and again (the query, each of its tokens): kept, up to a
# query's length each (longer texts are folded every time, and are not kept).
FOLDS_KEPT = 4096


def fold(text: str) -> str:
    """Lowercase and strip accents: 'Priorità' -> 'priorita'."""
    if len(text) <= 300:  # syntax.MAX_QUERY_CHARS
        return _fold_kept(text)
    return _fold(text)


@lru_cache(maxsize=FOLDS_KEPT)
def _fold_kept(text: str) -> str:
    return _fold(text)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.lower())
    # lower() again: a compatibility decomposition may give a capital ("ᴬ" -> "A")
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _stops(lang: str, extra: tuple[str, ...] = ()) -> frozenset[str]:
    words = set(stopwords_for_language(lang)) | set(extra)
    return frozenset(words | {fold(w) for w in words})


# A few very frequent words of rule text and questions that carry no meaning for search.
IT_STOPS = _stops("it", ("cosa", "succede", "quando", "posso", "puo", "può", "devo", "viene", "essere", "puoi", "possono", "deve", "devono", "serve", "fanno", "fare", "qual", "quali", "ogni", "d", "l", "c", "un", "dell", "nell", "sull", "all", "dall", "po")) - {"faccia"}
EN_STOPS = _stops("en", ("s", "t", "can", "does", "do", "what", "when", "how", "happens", "if", "would", "could", "should", "must"))
# Both analyzers drop both lists: queries mix languages, and an Italian "di" or "che" must not
# become a term in English fields (nor "the" in Italian ones).
# Negations stay: "a library with no cards" is not "a library for a card".
NEGATIONS = frozenset({"no", "not", "non", "nor"})
ALL_STOPS = (IT_STOPS | EN_STOPS) - NEGATIONS


# The Italian stemmer keeps a verb and its -zione noun apart ("prevenire" -> "preven", "prevenzione"
# -> "prevenzion"): rules name the action with the noun, questions with the verb. The noun's suffix
# is removed after stemming, where what is left is a root of the verb ("dichiarazione" -> "dichiar",
# "attivazione" -> "attiv", "definizione" -> "defin"), and is long enough to mean something.
_NOUN_SUFFIXES = ("azion", "izion", "nzion")


class NounToVerbFilter(Filter):
    def __call__(self, tokens):
        for t in tokens:
            text = t.text
            for suffix in _NOUN_SUFFIXES:
                if text.endswith(suffix):
                    cut = len(suffix) - 1 if suffix == "nzion" else len(suffix)  # "prevenzion" -> "preven"
                    if len(text) - cut >= 4:
                        t.text = text[:-cut]
                    break
            yield t


class ThreadSafeStemFilter(StemFilter):
    """Whoosh's StemFilter with the standard library's LRU cache around the stemmer.

    Whoosh's own LFU cache is not thread-safe: evictions racing between the server's threads leave
    its two dicts out of step, and from then on every unseen word raises KeyError (search broken
    until a restart). ``functools.lru_cache`` stays consistent under threads (at worst a word is
    stemmed twice); the Snowball stemmers themselves hold no state.
    """

    def clear(self):
        if self.lang:
            from whoosh.lang import stemmer_for_language

            stemfn = stemmer_for_language(self.lang)
        else:
            stemfn = self.stemfn
        self._stem = lru_cache(maxsize=self.cachesize)(stemfn) if self.cachesize else stemfn

    def cache_info(self):
        return self._stem.cache_info() if self.cachesize else None


# Stems kept: the corpus's own words (about 8,000 a language, what snippets stem again and again)
# fit. A word is at most a query long (syntax.MAX_QUERY_CHARS), so whatever is typed the cache holds
# at most 16,384 x about 900 bytes (15 MB; 2 MB in practice). Whoosh's stemmers keep as many.
STEMS_KEPT = 16384


def italian_analyzer():
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | CharsetFilter(accent_map)
        | StopFilter(stoplist=ALL_STOPS, minsize=1)
        | ThreadSafeStemFilter(lang="it", cachesize=STEMS_KEPT)
        | NounToVerbFilter()
    )


def english_analyzer():
    return (
        RegexTokenizer(WORD_PATTERN)
        | LowercaseFilter()
        | CharsetFilter(accent_map)
        | StopFilter(stoplist=ALL_STOPS, minsize=1)
        | ThreadSafeStemFilter(lang="en", cachesize=STEMS_KEPT)
    )


IT = italian_analyzer()
EN = english_analyzer()
ANALYZERS = {"it": IT, "en": EN}

WORD_RE = re.compile(WORD_PATTERN)


def is_notation(token: str) -> bool:
    return bool(_NOTATION_RE.fullmatch(token))


_PT_RE = re.compile(PT_PATTERN)


def is_power_toughness(token: str) -> bool:
    """Power/toughness or a change to it ("2/2", "X/X", "-1/-1"), not a mana symbol."""
    return bool(_PT_RE.fullmatch(token))


def words(text: str) -> list[str]:
    """Surface words, folded (no stemming, no stop-word removal)."""
    return WORD_RE.findall(fold(text))




@lru_cache(maxsize=STEMS_KEPT)
def stem(word: str, lang: str) -> str | None:
    """The indexed term for one word (folded or as written) in a language, or None if it is a stop
    word there."""
    toks = [t.text for t in ANALYZERS[lang](word)]
    return toks[0] if toks else None


def terms(text: str, lang: str) -> list[str]:
    """The indexed terms of a text (what a phrase query must match, in order)."""
    return [t.text for t in ANALYZERS[lang](text)]


@lru_cache(maxsize=STEMS_KEPT)
def term_tuple(text: str, lang: str) -> tuple[str, ...]:
    """``terms`` of a short text that comes up again and again (a word or a phrase of a query, looked
    up in the glossary and the analytic indexes' headwords by every search that has it)."""
    return tuple(terms(text, lang))


# Every entry of both analytic indexes (6,500) fits.
@lru_cache(maxsize=8192)
def term_set(text: str, lang: str) -> frozenset[str]:
    """The indexed terms of a short text that comes up again and again (an analytic index entry,
    met by every search that finds its rule and by every filter of the index page)."""
    return frozenset(terms(text, lang))
