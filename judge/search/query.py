"""From what a user typed to ranked rules.

Pipeline:

1. Clean: control characters removed, length capped (``MAX_QUERY_CHARS`` / ``MAX_WORDS``).
2. A query that is only a rule reference ("704.5a", "cr 704.5a", "regola 121.4", "704,5a",
   "704.5 a") names a rule: the result is that rule (the page redirects to it).
3. Parse our small syntax (judge/search/syntax.py), which never fails. Magic notation ("-1/-1",
   "{T}") is text. When the strict reading (phrases, required words) finds nothing, the same
   words are searched loosely, with a note: punctuation alone never empties a result.
4. The question read (judge/search/question.py): the cards it names (their names are not searched
   as words) and the frame of a full question (its own words weigh less).
5. Typo tolerance: a word found nowhere in the corpus (nor as a stem, nor in the glossary) is
   completed if it is a prefix of known words, else corrected to the nearest known words.
6. Glossary expansion: the longest glossary terms in the query become *concepts* searched
   with every Italian and English term of the concept (phrases in order); other words are
   searched in both languages.
7. Score with BM25F over the rule text, its context (section title, parent rule), the CR
   glossary terms pointing to it, the analytic indexes' entries and its examples; then rerank by
   how many of the query's units a document matches (all words beat some words; rarer words weigh
   more), prefer Italian documents, put rules that are only a name below the rules that answer,
   lead the words the analytic indexes and the jargon tie to rules to those rules
   (judge/search/headwords.py), add the candidate rules of the question (its cards', its frame's,
   those of the questions like it), and collapse to one result per rule (Italian text where it
   matched).
8. Above the results: a quick answer (the rule answering a full question's frame, with its answering
   sentence, or an analytic index entry) and the meanings of a word that has two
   (judge/search/answers.py).
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from whoosh.filedb.filestore import FileStorage

from judge import build_cache
from judge.lru import ByteLRU, text_size
from judge.corpus import Corpus
from judge.corpus.citations import as_rule_query, find_citations
from judge.corpus.turn_names import section_name
from judge.search.analysis import EN_STOPS, IT_STOPS, STEMS_KEPT, is_notation, is_power_toughness, stem, words
from judge.cards.mentions import GameWords
from judge.cards.table import CardTable, load_table
from judge.search.answers import ambiguous_words, answer_for, best_entry
from judge.search.glossary import Glossary, get_glossary
from judge.search.headwords import Headwords
from judge.search.learned import Memory, get_memory
from judge.search.question import W_FRAME_WORD, candidate_rules, read_question
from judge.search.index import layer_of, shown_text
from judge.search.results import Hit, SearchResult
from judge.search.rule_words import rule_words
from judge.search.arrays import load as load_arrays
from judge.search.layout import Layout
from judge.search.scoring import A, F, Node, O, P, Scorer, T
from judge.search.snippets import make_snippet, shorten
from judge.search.spelling import Speller, english_forms
from judge.search.syntax import MAX_QUERY_CHARS, MAX_WORDS, Item, clean, parse, relaxed, truncate, with_rule_dots

__all__ = ["Engine", "Hit", "Item", "LANGS", "MAX_LIMIT", "MAX_QUERY_CHARS", "SearchResult", "clean", "make_snippet", "parse"]

MAX_LIMIT = 100
# Results kept per engine (popular questions repeat), in bytes; JUDGE_SEARCH_CACHE=0 disables (benchmarks).
CACHE_SIZE = int(os.environ.get("JUDGE_SEARCH_CACHE", "1") != "0") * 2 * 1024 * 1024


def result_size(r: SearchResult) -> int:
    """Bytes a kept result holds of its own (a hit's rule text is the index's, shared)."""
    return 1000 + sum(600 + text_size(h.snippet, h.snippet_html, h.index_entry, h.index_entry_html)
                      for h in r.hits) + text_size(*r.notes)

LANGS = ("it", "en", "tutte")
TURN_WAIT = 0.005           # seconds a search waits for the one running (see _one_at_a_time)

# Weights (general, not tuned to single questions): where a term matches, and how much.
W_BODY = 1.0
W_CTX = 0.15
W_TERMS = 0.8
W_EXAMPLES = 0.15
W_TITLE = 0.8  # what the rule is called (section or rule title, glossary terms)
W_ALT = 0.5  # the rule's other Italian text (translation behind the community text, or the reverse)
W_INDEX = 0.8  # the analytic indexes' doubts pointing to the rule (rules_it/indice_analitico*.tsv); 0.5 before issue 36
W_NUMBER = 20.0
MAX_MISSING_NOTES = 3  # «La regola … non esiste.» for the first cited numbers that name no rule
W_LOOSE = 0.4  # a multi-word term whose words occur apart
W_PT_MEANING = 0.15  # "2/2", "-1/-1" also mean power and toughness (weaker than rules writing the notation)
W_CORRECTED = 0.7  # a corrected or completed word counts a bit less than what was typed
# A query unit that is an analytic index headword or a jargon term leads to the rules under it
# (judge/search/headwords.py): score × (1 + W_HEADWORD × weight). Chosen on the tuning half.
W_HEADWORD = 1.0
# A rule whose text is only a name (702.19 «Travolgere») answers no question: its score counts this
# much, unless the query is that name. Chosen on the tuning half.
W_HEADING_ONLY = 0.6
# In the coverage a unit weighs (log of its rarity) ** COVERAGE_IDF: the words that carry a question's
# subject are rarer than those of its frame. Chosen on the tuning halves (issue 36).
COVERAGE_IDF = 0.5

# The letters a citation of no rule was meant to go on with («704.5l e m», «704.5o/p», riferimenti: nessuno):
# not words to search (citations.py continues no letter after one the rules skip).
_MORE_LETTERS = re.compile(r"(?:\s*(?:/|,|\be\b|\bed\b|\bo\b|\band\b|\bor\b)\s*[a-z](?![\w/]))+", re.IGNORECASE)


def _letters_after(text: str, end: int) -> int:
    m = _MORE_LETTERS.match(text, end)
    return m.end() if m else end


# -- the engine -----------------------------------------------------------------------------------------


@dataclass
class Unit:
    """One thing the user asked for (a word, a phrase or a glossary concept) and its query."""

    label: str
    query: Node | None
    weight: float = 1.0
    stems: dict[str, set[str]] = field(default_factory=lambda: {"it": set(), "en": set()})


def _fields(lang: str) -> tuple[tuple[str, float], ...]:
    """Where a term is looked for in one language, and how much each place counts."""
    extra = (("terms_en", W_TERMS),) if lang == "en" else (("alt_it", W_ALT),)
    return ((f"body_{lang}", W_BODY), (f"ctx_{lang}", W_CTX), (f"examples_{lang}", W_EXAMPLES), *extra,
            (f"index_{lang}", W_INDEX), (f"title_{lang}", W_TITLE))


class _Fields(tuple):
    """A tuple of (field, weight) that hashes once: every query node of a word carries one, and nodes
    are hashed as they are made (scoring.py)."""

    def __hash__(self):
        h = self.__dict__.get("_hash")
        if h is None:
            h = self.__dict__["_hash"] = tuple.__hash__(self)
        return h


FIELDS = {lang: _Fields(_fields(lang)) for lang in ("it", "en")}
PT_WORDS = {"it": ("forza", "costituzione"), "en": ("power", "toughness")}
# A phrase is looked for in the same places but the examples.
PHRASE_FIELDS = {lang: _Fields(f for f in FIELDS[lang] if not f[0].startswith("examples")) for lang in ("it", "en")}


def _field_query(lang: str, seq: list[str], boost: float, strict: bool = False) -> Node | None:
    """The query for a term (stems ``seq``) in one language's fields. ``strict`` (quoted by the
    user): the exact phrase in the rule text only."""
    if not seq:
        return None
    if strict:
        if len(seq) == 1:
            return T(f"body_{lang}", seq[0], boost)
        return P(f"body_{lang}", tuple(seq), boost)
    if len(seq) == 1:
        return F(FIELDS[lang], (seq[0],), boost)
    return O((
        F(PHRASE_FIELDS[lang], tuple(seq), boost),
        # The words of a term apart ("combat damage by the same commander" for "commander damage").
        A(tuple(T(f"body_{lang}", t) for t in dict.fromkeys(seq)), boost * W_LOOSE),
    ))


def _variants(subs: list[Node]) -> Node:
    """One unit, several ways to say it (languages, synonyms, corrections). Scores add up: a rule
    that says the same thing in several ways is more about it (measured better than taking the max)."""
    if len(subs) == 1:
        return subs[0]
    return O(tuple(subs))


class Engine:
    """An open index with its vocabulary; answers searches. Thread-safe."""

    def __init__(self, path: Path, corpus: Corpus, saved_arrays: bool = True):
        """``saved_arrays``: read the index from the arrays saved beside it (arrays.py), as every
        engine does; False reads Whoosh term by term (to compare the two)."""
        self.path = path
        self.corpus = corpus
        # No mmap: a file truncated under a memory map kills the process with SIGBUS, while a
        # plain read just fails (and the index is rebuilt, see run_search).
        self.ix = FileStorage(str(path), supports_mmap=False).open_index()
        self.scorer = Scorer(self.ix, load_arrays(path) if saved_arrays else None)
        self.layout = Layout(self.scorer.stored)
        self.glossary: Glossary = get_glossary(corpus=corpus)
        self.speller = self._speller()
        self.headwords = Headwords.build(corpus, self.glossary)
        self.memory: Memory = get_memory(corpus)
        self._cards: CardTable | bool | None = None  # read on first use: False when there is none
        self.heading_factor = np.where(self.layout.heading_only, np.float32(W_HEADING_ONLY),
                                       np.float32(1.0)).astype(np.float32)
        self.known_stems = {
            "it": {t for f in ("body_it", "ctx_it", "alt_it", "title_it", "index_it") for t in self.scorer.terms(f)},
            "en": {t for f in ("body_en", "ctx_en", "terms_en", "title_en", "index_en") for t in self.scorer.terms(f)},
        }
        self._cache: ByteLRU[SearchResult] = ByteLRU(CACHE_SIZE, result_size)
        self._titles: dict[str, str] = {}
        self._labels: dict[tuple[str, str], str] = {}
        self.ordinary = lru_cache(maxsize=STEMS_KEPT)(self._ordinary)
        said = rule_words(corpus)
        self.game_words = GameWords(self.ordinary, lambda w: said.proper(w) and w not in self.glossary.words,
                                    said.said)
        self._run_lock = threading.Lock()

    def _speller(self) -> Speller:
        """The typo corrector over the index's vocabulary and the glossary's words (kept in the build
        cache: building its deletes takes a second or two)."""
        vocabulary = self.path / "vocabulary.json"
        preferred = self.glossary.words

        def build() -> Speller:
            vocab: dict[str, int] = dict(json.loads(vocabulary.read_text(encoding="utf-8"))["words"])
            for w in preferred:
                vocab[w] = vocab.get(w, 0) + 5
            return Speller(vocab, preferred=preferred)

        key = build_cache.digest(build_cache.code_digest("search"), build_cache.file_digest(vocabulary), *sorted(preferred))
        return build_cache.value("ortografia", key, build, "correttore ortografico", keep=4)

    # -- words ---------------------------------------------------------------------------------------
    def known(self, w: str) -> bool:
        if w.isdigit() or w in self.speller or w in IT_STOPS or w in EN_STOPS:
            return True
        si, se = stem(w, "it"), stem(w, "en")
        return (si is not None and si in self.known_stems["it"]) or (se is not None and se in self.known_stems["en"])

    def fix(self, w: str) -> tuple[list[str], str | None]:
        """Alternatives to search for a word, and the correction to suggest (None for none)."""
        if is_notation(w) and not self.known(w):
            # A symbol or P/T the rules never write ("{vu}", "7/13"): its letters and digits as words.
            return list(dict.fromkeys(re.findall(r"[a-z]{2,}|\d+", w))) or [w], None
        if len(w) < 4 or self.known(w) or any(ch.isdigit() for ch in w):
            return [w], None
        english = [e for e in english_forms(w) if e in self.speller]
        if english:
            return english[:1], None
        completions = self.speller.complete(w)
        if completions:
            return completions, None
        corrections = self.speller.correct(w)
        if corrections:
            return corrections, corrections[0]
        return [w], None

    # -- building queries ------------------------------------------------------------------------------
    def _word_unit(self, alts: list[str], weight: float) -> Unit | None:
        subs: list[Node] = []
        unit = Unit(label=alts[0], query=None, weight=weight)
        for w in alts:
            for lang in ("it", "en"):
                s = stem(w, lang)
                if s is None:
                    continue
                unit.stems[lang].add(s)
                q = _field_query(lang, [s], weight)
                if q is not None:
                    subs.append(q)
        if not subs:
            return None
        if W_PT_MEANING > 0 and any(is_power_toughness(w) for w in alts):
            # What the notation means, searched as words, weaker than the notation itself.
            meaning = [(lang, stem(w, lang)) for lang, ws in PT_WORDS.items() for w in ws]
            subs.append(O(tuple(T(f"body_{lang}", s, weight * W_PT_MEANING) for lang, s in meaning if s)))
            for lang, s in meaning:
                unit.stems[lang].add(s)
        unit.query = _variants(subs)
        return unit

    def _concept_unit(self, label: str, concept_ids: set[int], weight: float, strict: bool = False) -> Unit:
        subs: list[Node] = []
        seen: set[tuple[str, tuple[str, ...]]] = set()
        unit = Unit(label=label, query=None, weight=weight)
        for cid in sorted(concept_ids):
            for lang, seq in self.glossary.analysed(cid):
                if (lang, seq) in seen:
                    continue
                seen.add((lang, seq))
                unit.stems[lang].update(seq)
                q = _field_query(lang, list(seq), weight, strict)
                if q is not None:
                    subs.append(q)
        unit.query = _variants(subs) if subs else None
        return unit

    def _phrase_unit(self, ws: list[str]) -> Unit | None:
        subs: list[Node] = []
        unit = Unit(label='"' + " ".join(ws) + '"', query=None)
        for lang in ("it", "en"):
            seq = [s for s in (stem(w, lang) for w in ws) if s is not None]
            unit.stems[lang].update(seq)
            q = _field_query(lang, seq, 1.0, strict=True)
            if q is not None:
                subs.append(q)
        # A quoted glossary term also finds its translations.
        for start, end, ids in self.glossary.match(ws):
            if start == 0 and end == len(ws):
                c = self._concept_unit(unit.label, ids, 1.0, strict=True)
                if c.query is not None:
                    subs.append(c.query)
                for lang in ("it", "en"):
                    unit.stems[lang] |= c.stems[lang]
        if not subs:
            return None
        unit.query = _variants(subs)
        return unit

    def _units(self, items: list[Item], corrections: dict[str, list[str]],
               frame_words: set[str] = frozenset()) -> list[tuple[Unit, str]]:
        """Units with their mode, for one clause."""
        out: list[tuple[Unit, str]] = []
        run: list[list[str]] = []  # alternatives per word, for a run of plain "should" words
        run_weights: list[float] = []

        def flush_run():
            if not run:
                return
            primary = [alts[0] for alts in run]
            matches = self.glossary.match(primary)
            covered: set[int] = set()
            for start, end, ids in matches:
                w = min(run_weights[start:end])
                out.append((self._concept_unit(" ".join(primary[start:end]), ids, w), "should"))
                covered.update(range(start, end))
            for i, alts in enumerate(run):
                if i in covered:
                    continue
                # A corrected word may be a glossary term on its own ("travolgre" -> "travolgere").
                ids: set[int] = set()
                for a in alts:
                    for s, e, cids in self.glossary.match([a]):
                        ids |= cids
                if ids:
                    out.append((self._concept_unit(alts[0], ids, run_weights[i]), "should"))
                    continue
                u = self._word_unit(alts, run_weights[i])
                if u is not None:
                    out.append((u, "should"))
            run.clear()
            run_weights.clear()

        for item in items:
            if item.phrase:
                flush_run()
                u = self._phrase_unit(item.words)
                if u is not None:
                    out.append((u, item.mode))
                continue
            for w in item.words:
                alts, correction = self.fix(w)
                if alts != [w]:
                    corrections[w] = alts
                weight = W_CORRECTED if alts != [w] else 1.0
                if w in frame_words:
                    weight *= W_FRAME_WORD
                if item.mode == "should":
                    run.append(alts)
                    run_weights.append(weight)
                else:
                    flush_run()
                    ids = set().union(*(cids for _, _, cids in self.glossary.match([alts[0]]))) if alts else set()
                    u = self._concept_unit(alts[0], ids, weight) if ids else self._word_unit(alts, weight)
                    if u is not None:
                        out.append((u, item.mode))
        flush_run()
        return out

    def _evaluate(self, clauses: list[list[Item]], number_units: list[Unit], corrections: dict[str, list[str]],
                  memo: dict, frame_words: set[str] = frozenset()):
        """The documents the query admits (mask), their scores, and the query's positive units.
        Clauses are alternatives (OR): a document admitted by several adds their scores."""
        sc = self.scorer
        admitted = np.zeros(sc.n, dtype=bool)
        total = np.zeros(sc.n, dtype=np.float32)
        positive_units: list[Unit] = list(number_units)
        for items in clauses:
            units = [(u, m) for u, m in self._units(items, corrections, frame_words) if u.query is not None]
            positives = [u for u, m in units if m in ("should", "must")]
            nots = [u for u, m in units if m == "not"]
            positive_units.extend(positives)
            if positives:
                scores = sc.scores(O(tuple(u.query for u in positives)), memo)
                mask = scores > 0
                for u, m in units:
                    if m == "must":
                        mask &= sc.scores(u.query, memo) > 0
            elif nots:
                scores = np.zeros(sc.n, dtype=np.float32)
                mask = np.ones(sc.n, dtype=bool)  # "NOT x" alone: everything but x
            else:
                continue
            for u in nots:
                mask &= ~(sc.scores(u.query, memo) > 0)
            admitted |= mask
            total += scores * mask
        if number_units:
            scores = sc.scores(O(tuple(u.query for u in number_units)), memo)
            admitted |= scores > 0
            total += scores
        return admitted, total, positive_units

    # -- searching ----------------------------------------------------------------------------------------
    def search(
        self,
        query: str | None,
        lang: str = "tutte",
        chapter: str | None = None,
        section: str | None = None,
        page: int = 1,
        per_page: int = 10,
    ) -> SearchResult:
        q, notes = clean(query)
        lang = lang if lang in LANGS else "tutte"
        per_page = max(1, min(int(per_page or 10), MAX_LIMIT))
        page = max(1, min(int(page or 1), 1000))
        chapter = chapter if chapter and re.fullmatch(r"[1-9]", chapter) else None
        section = section if section and re.fullmatch(r"[1-9]\d\d", section) else None
        key = (q, lang, chapter, section, page, per_page)
        if CACHE_SIZE <= 0:
            return self._one_at_a_time(q, notes, lang, chapter, section, page, per_page)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        return self._cache.put(key, self._one_at_a_time(q, notes, lang, chapter, section, page, per_page))

    def _one_at_a_time(self, *args) -> SearchResult:
        """Searches take turns, but nobody waits long for one.  A search is many small numpy
        operations, each releasing and taking back the GIL: threads interleaving them slow each
        other down, so a search first waits for the one running to finish -- at most
        ``TURN_WAIT`` seconds: then it runs anyway, so a slow search never holds up the others
        (with a global lock, three 2-second searches put every user's search at 11 s)."""
        got = self._run_lock.acquire(timeout=TURN_WAIT)
        try:
            return self._search(*args)
        finally:
            if got:
                self._run_lock.release()

    def _search(self, q, notes, lang, chapter, section, page, per_page) -> SearchResult:
        result = SearchResult(query=q, lang=lang, page=page, per_page=per_page, notes=notes)
        if not q:
            return result
        q_ref = with_rule_dots(q)
        number = as_rule_query(q_ref)
        if number is not None:
            rule = self.corpus.get(number)
            if rule is not None:
                result.rule = number
                hit = self._direct_hit(number, lang)
                if hit is not None:
                    result.hits, result.total = [hit], 1
                return result
            # A well-formed number that names no rule: say so and offer the nearest ones.
            self._no_such_rules(result, [number], nearest=True)
            result.suggestion = result.nearest[0] if result.nearest else None
            return result

        # Rule numbers inside a longer query are matched on the number field.
        # A cited number that names no rule («travolgere 704.5o», riferimenti: nessuno) is said so, and is not
        # searched as words either (its letters would read as notation: «o/p»).
        number_units: list[Unit] = []
        missing: list[str] = []
        spans: list[tuple[int, int]] = []  # what the citations take out of the words
        for c in find_citations(q_ref):
            end = c.end
            for n in c.numbers[:5]:
                if n in self.corpus:
                    number_units.append(Unit(label=n, query=T("number", n, W_NUMBER)))
                else:
                    end = _letters_after(q_ref, c.end)
                    if n not in missing:
                        missing.append(n)
            spans.append((c.start, end))
        text = "".join(" " if any(a <= i < b for a, b in spans) else ch for i, ch in enumerate(q_ref)) if spans else q_ref
        self._no_such_rules(result, missing, nearest=not number_units)

        # The cards a question names and its frame (judge/search/question.py): the words are searched
        # without the cards' names.
        question = read_question(text, self.corpus, self.game_words, self._card_table())
        result.cards = question.cards.cards
        clauses = parse(question.text)
        total_words = sum(len(it.words) for c in clauses for it in c)
        if total_words > MAX_WORDS:
            clauses = truncate(clauses, MAX_WORDS)
            result.notes.append(f"Ricerca troppo lunga: considerate le prime {MAX_WORDS} parole.")
        corrections: dict[str, list[str]] = {}
        memo: dict = {}
        frame_words = question.frame_words
        admitted, raw, positive_units = self._evaluate(clauses, number_units, corrections, memo, frame_words)
        loose = relaxed(clauses)
        if not admitted.any() and loose != clauses:
            admitted, raw, positive_units = self._evaluate(loose, number_units, corrections, memo, frame_words)
            if admitted.any():
                result.notes.append("Nessuna regola corrisponde esattamente (frasi tra virgolette, parole "
                                    "richieste): risultati con le stesse parole, senza vincoli.")
        result.corrections = corrections
        result.jargon = self.glossary.jargon([u.label.strip('"') for u in positive_units])
        result.ambiguous = ambiguous_words(text)
        suggestion_words = []
        changed = False
        for w in words(text):
            alts = corrections.get(w)
            if alts and self.speller.correct(w)[:1] == alts[:1]:
                suggestion_words.append(alts[0])
                changed = True
            else:
                suggestion_words.append(w)
        if changed:
            result.suggestion = " ".join(suggestion_words)
        allowed = self.layout.filter(lang, chapter, section)
        admitted &= allowed
        if not admitted.any() and not question.cards.rules:  # a card's name alone finds the card's rules
            return result

        # Coverage: the share of the query's units (by weight) each document matches; all words beat
        # some words. Reranking can lower a score, never raise it.
        if len(positive_units) > 1:
            matched = [self.scorer.scores(u.query, memo) > 0 for u in positive_units]
            weights = [u.weight * self._rarity(m) for u, m in zip(positive_units, matched)]
            total_weight = sum(weights) or 1.0
            cov = np.zeros(self.scorer.n, dtype=np.float32)
            for w, m in zip(weights, matched):
                cov += np.float32(w) * m
            cov = np.minimum(cov / np.float32(total_weight), 1.0)
            score = raw * (0.15 + 0.85 * cov * cov)
        else:
            score = raw.copy()
        named = self.layout.named.get(" ".join(words(text)))
        score *= self.layout.language_boost * self._heading_factor(named)
        # A query that is a rule's name («Travolgere») leads to that rule and its definition, as the
        # title field makes it; the rules under the same headword come after them.
        headword_rules = self.headword_rules(positive_units) if W_HEADWORD or page == 1 else {}
        boost = None if named else self._headword_boost(headword_rules)
        if boost is not None:
            score *= boost
        words_top = float(score[admitted].max()) if admitted.any() else 0.0
        score, admitted = self._with_candidates(candidate_rules(question, text, self.memory), score, admitted, allowed)
        if not admitted.any():
            return result
        ranked, _, result.total = self.layout.rank(score, admitted, (page - 1) * per_page + per_page)
        stems = {"it": set(), "en": set()}
        for u in positive_units:
            for k in ("it", "en"):
                stems[k] |= u.stems[k]
        typed_words = words(text)
        typed = {k: {stem(w, k) for w in typed_words} - {None} for k in ("it", "en")}
        asked = (stems, positive_units, typed)
        result.hits = [self._hit(self.scorer.stored[self.layout.shown(r, lang)], float(sc), *asked)
                       for r, sc in ranked[(page - 1) * per_page:]]
        if page == 1 and result.hits:
            result.answer = answer_for(question.text, result.hits, question.reading, len(positive_units),
                                       headword_rules, stems)
        if result.hits and result.suggestion is None and words_top < 0.5 and corrections:
            result.suggestion = " ".join(suggestion_words)
        return result

    def _no_such_rules(self, result: SearchResult, numbers: list[str], nearest: bool) -> None:
        """«La regola … non esiste.» for the first of ``numbers`` (cited, naming no rule), and with ``nearest`` the
        rules nearest the first."""
        result.notes += [f"La regola {n} non esiste." for n in numbers[:MAX_MISSING_NOTES]]
        if numbers and nearest:
            result.nearest = [r.number for r in self.corpus.nearest(numbers[0])]

    def _card_table(self) -> CardTable | None:
        """The card table (judge/cards/table.py), read once; None when there is none."""
        if self._cards is None:
            try:
                self._cards = load_table()
            except OSError:
                self._cards = False
        return self._cards or None

    def _ordinary(self, word: str) -> bool:
        """A word the rules' own texts use, or the search glossary's (a card's name is not:
        judge/cards/mentions.py). ``ordinary`` is this, with its answers kept."""
        if " " in word:  # a phrase: one term of the glossary, whole («two headed giant»)
            found = self.glossary.match(word.split())
            return len(found) == 1 and found[0][:2] == (0, len(word.split()))
        if word in self.glossary.words:
            return True
        for lang in ("it", "en"):
            s = stem(word, lang)
            if s is None or len(self.scorer.postings(f"body_{lang}", s).docs):
                return True
        return False

    def _with_candidates(self, rules: dict[str, float], score: np.ndarray, admitted: np.ndarray,
                         allowed: np.ndarray):
        """The words' scores plus what the candidate rules add, as a share of the best words' score
        (each may enter the results without the words; judge/search/question.py)."""
        added: dict[int, float] = {}
        for n, w in rules.items():
            for d in self.layout.docs_of.get(n, ()):
                added[d] = w
        if not added:
            return score, admitted
        # score / top + w ranks as score + w × top: only the candidates' scores change (in place: the
        # arrays are this search's own).
        top = float(np.max(score, where=admitted, initial=0.0)) or 1.0
        docs = np.fromiter(added, dtype=np.int64, count=len(added))
        score[docs] += np.fromiter(added.values(), dtype=np.float32, count=len(added)) * np.float32(top)
        admitted[docs] |= allowed[docs]
        return score, admitted

    def _rarity(self, matched: np.ndarray) -> float:
        """How much a unit weighs in the coverage: rarer units carry the question's subject."""
        if not COVERAGE_IDF:
            return 1.0
        df = int(np.count_nonzero(matched))
        return float(np.log(1.0 + self.scorer.n / (1.0 + df))) ** COVERAGE_IDF

    def _heading_factor(self, named: list[int] | None) -> np.ndarray:
        """W_HEADING_ONLY on rules that are only a name, unless the query is that name (``named``: its
        documents; «travolgere» asks for 702.19 Travolgere, «tocco letale e travolgere» for the rules
        that answer)."""
        if not named:
            return self.heading_factor
        factor = self.heading_factor.copy()
        factor[named] = 1.0
        return factor

    def headword_rules(self, units: list[Unit]) -> dict[str, float]:
        """Rules the query's units name as headwords or jargon, with their mean weight over the units."""
        labels = [u.label.strip('"') for u in units if u.label]
        acc: dict[str, float] = {}
        for label in labels:
            for n, w in self.headwords.rules_for(label).items():
                acc[n] = acc.get(n, 0.0) + w
        return {n: w / len(labels) for n, w in acc.items()}

    def _headword_boost(self, found: dict[str, float]) -> np.ndarray | None:
        """× (1 + W_HEADWORD × weight) on the documents of the rules the query's headwords name."""
        if not W_HEADWORD or not found:
            return None
        factor = np.ones(self.scorer.n, dtype=np.float32)
        for n, w in found.items():
            for d in self.layout.docs_of.get(n, ()):
                factor[d] = 1.0 + W_HEADWORD * w
        return factor

    # -- hits -------------------------------------------------------------------------------------------
    def _section_title(self, number: str) -> str:
        """The section's title as the breadcrumbs show it: Italian where there is one, a phase or
        step by the name the whole site uses (judge/corpus/turn_names.py)."""
        title = self._titles.get(number)
        if title is None:
            sec = self.corpus.section_of(number) or self.corpus.get(number)
            t = sec.best if sec is not None else None
            title = section_name(sec.number) if sec is not None and sec.kind == "sezione" else None
            title = self._titles[number] = title or (t.text if t else "")
        return title

    def _direct_hit(self, number: str, lang: str) -> Hit | None:
        rule = self.corpus.get(number)
        if rule is None:
            return None
        t = rule.en if lang == "en" else (shown_text(rule, "it") if lang == "it" else rule.best)
        if t is None:
            t = rule.best
        if t is None:
            return None
        snippet = shorten(t.text)
        return Hit(
            number=number,
            lang=t.lang,
            kind=rule.kind,
            section=rule.section or "",
            section_title=self._section_title(number),
            text=t.text,
            snippet=snippet,
            snippet_html=html.escape(snippet),
            version=t.version,
            score=1.0,
            layer=layer_of(t),
            label=t.label,
        )

    def _hit(self, f: dict, score: float, stems: dict[str, set[str]], units: list[Unit],
             typed: dict[str, set[str]]) -> Hit:
        snippet, snippet_html = make_snippet(f["text"], f["lang"], stems[f["lang"]])
        entry = best_entry(self.corpus, f["number"], stems, units, typed)
        return Hit(
            number=f["number"],
            lang=f["lang"],
            kind=f["kind"],
            section=f["section"],
            section_title=self._section_title(f["number"]),
            text=f["text"],
            snippet=snippet,
            snippet_html=snippet_html,
            version=f["version"],
            score=score,
            layer=f.get("layer", ""),
            index_entry=entry.text,
            index_entry_html=entry.html,
            index_entry_lang=entry.lang,
            index_entry_units=entry.units,
            label=self._label(f["number"], f["lang"]),
        )

    def _label(self, number: str, lang: str) -> str:
        """The label of the text a hit shows (the index stores the text, the corpus knows its layer and
        date), kept per rule and language: met again by every search. A handful of distinct labels for
        thousands of rules, each kept once (interned: 0.4 MB less after 10,000 searches)."""
        label = self._labels.get((number, lang))
        if label is None:
            t = shown_text(self.corpus.get(number), lang)
            label = self._labels[(number, lang)] = sys.intern(t.label) if t is not None else ""
        return label
