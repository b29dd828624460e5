"""Search in the tournament documents: the MTR, IPG and JAR sections a judge's words lead to.

A small index of its own, kept in memory (about 150 sections): the rules' search
(judge/search/) stays as it is, and /cerca shows both. Each section is a document with fields,
analysed with the rules' search analyzers (judge/search/analysis.py: Italian stems, accents
folded; English stems):

- ``title``: its English title, and the project's Italian title where there is one;
- ``names``: what judges call it: for each term of the tournament terminology that its title
  uses, the term's English forms and abbreviations («GRV», «FtMGS»), its Italian and its gloss
  («violazione delle regole di gioco», «gioco lento»), and the curated words of
  judge/tournament/gergo.tsv («innesco dimenticato», «D/DD», «bribery»);
- ``body``: its paragraphs, English and the project's Italian.

Scores are BM25 summed over the fields (weights below); a query that is exactly one of a
section's names (folded) weighs as a title match. Measured on tests/search/questions_tornei.json
(docs/ricerca.md, «Documenti dei tornei»).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from judge.search.analysis import fold, terms, words
from judge.search.glossary import Glossary, GlossaryEntry, glossary_entries
from judge import RULES_IT_DIR
from judge.tournament.analytic_index import INDEX_FILE, read_index
from judge.tournament.loading import TournamentDocs, load_documents
from judge.tournament.model import DOCUMENTS, HEADING
from judge.tournament.terminology import TournamentTerminology, load_tournament_terminology
from judge.tournament.tsv import rows
from judge.tournament.view import Translations, load_translations

JARGON_FILE = Path(__file__).with_name("gergo.tsv")
WEIGHTS = {"title": 3.0, "names": 3.0, "body": 1.0}
K1, B = 1.2, 0.75
EXACT_NAME = 8.0  # a query that is a section's name, whole
EXPANSION = 0.6  # a word the query's words mean in the other language (the search glossary), as a share of one typed
LANGS = ("it", "en")


@dataclass
class Hit:
    doc: str
    section: str
    title: str
    score: float
    paragraph: int | None = None  # the paragraph that matches best
    snippet: str = ""
    named: bool = False  # a word typed (not only what the glossary adds) is in its title or names

    @property
    def citation(self) -> str:
        return f"{DOCUMENTS[self.doc].short} {self.section}"


@dataclass
class _Doc:
    doc: str
    section: str
    title: str
    fields: dict[str, Counter] = field(default_factory=dict)  # "title_it" -> stem counts
    lengths: dict[str, int] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)  # folded whole names
    paragraphs: list[tuple[int, str, frozenset]] = field(default_factory=list)  # (number, text, stems)


def read_jargon(path: Path = JARGON_FILE) -> list[tuple[str, str, str]]:
    """(words, doc, section) rows of gergo.tsv."""
    return [tuple(cells) for _, cells in rows(path, ("parole", "documento", "sezione"))]


def _names(title: str, terms_table: TournamentTerminology) -> list[str]:
    out = []
    for t in terms_table:
        if any(re.search(rf"(?<![\w]){re.escape(f)}(?![\w])", title, re.IGNORECASE) for f in t.term.english):
            out += [*t.term.english, t.italian]
            if t.gloss:
                out.append(t.gloss)
    return out


class TournamentIndex:
    def __init__(self, docs: TournamentDocs, translations: Translations, terms_table: TournamentTerminology,
                 jargon: list[tuple[str, str, str]], glossary: Glossary | None = None):
        self.glossary = glossary
        extra: dict[tuple[str, str], list[str]] = {}
        for words_, doc, section in jargon:
            extra.setdefault((doc, section), []).append(words_)
        for entry in read_index():  # the analytic index: its words lead to its sections
            for ref in entry.sections:
                extra.setdefault(ref, []).append(entry.text)
        self.docs: list[_Doc] = []
        for code in DOCUMENTS:
            edition = docs.in_force(code)
            if edition is None:
                continue
            for s in edition.sections:
                st = translations.get(code, s.number)
                it_title = st.title.italian if st and st.title and st.title.italian else ""
                names = _names(s.title, terms_table) + extra.get((code, s.number), [])
                body_en = [p.text for p in s.paragraphs]
                body_it = [u.italian for u in st.units if u.italian and u.number] if st else []
                d = _Doc(code, s.number, s.title)
                texts = {"title_en": s.title, "title_it": it_title, "names_en": "\n".join(names),
                         "names_it": "\n".join(names), "body_en": "\n".join(body_en), "body_it": "\n".join(body_it)}
                for key, text in texts.items():
                    stems = terms(text, key[-2:]) if text else []
                    d.fields[key] = Counter(stems)
                    d.lengths[key] = len(stems)
                d.names = {fold(n) for n in names + [s.title, it_title] if n}
                units = {u.number: u.italian for u in st.units if u.italian} if st else {}
                for p in s.paragraphs:
                    if p.kind == HEADING:
                        continue
                    text = units.get(p.number) or p.text
                    d.paragraphs.append((p.number, p.text if p.number not in units else text,
                                         frozenset(terms(p.text, "en")) | frozenset(terms(text, "it"))))
                self.docs.append(d)
        n = len(self.docs)
        self.average = {k: (sum(d.lengths[k] for d in self.docs) / n if n else 1) or 1 for k in self.docs[0].lengths} if n else {}
        df: Counter = Counter()
        for d in self.docs:
            for key, counts in d.fields.items():
                df.update((key, t) for t in counts)
        self.idf = {kt: math.log(1 + (n - c + 0.5) / (c + 0.5)) for kt, c in df.items()}

    def query_terms(self, query: str) -> dict[str, dict[str, float]]:
        """lang → {stem: weight}: the query's own words (1), and what the search glossary says they
        mean in either language (``EXPANSION``): «pescato» brings "draw", «grimorio» "library"."""
        out: dict[str, dict[str, float]] = {lang: dict.fromkeys(terms(query, lang), 1.0) for lang in LANGS}
        if self.glossary is not None:
            for _, _, ids in self.glossary.match(words(query)):
                for cid in ids:
                    for lang, seq in self.glossary.analysed(cid):
                        for t in seq:
                            out[lang].setdefault(t, EXPANSION)
        return out

    def search(self, query: str, doc: str | None = None, limit: int = 10) -> list[Hit]:
        folded = fold(query or "").strip()
        if not folded:
            return []
        q = self.query_terms(query)
        hits = []
        for d in self.docs:
            if doc and d.doc != doc:
                continue
            score = 0.0
            in_names: dict[str, set[str]] = {lang: set() for lang in LANGS}
            for key, counts in d.fields.items():
                weight = WEIGHTS[key[:-3]]
                for t, share in q[key[-2:]].items():
                    tf = counts.get(t)
                    if tf:
                        norm = tf * (K1 + 1) / (tf + K1 * (1 - B + B * d.lengths[key] / self.average[key]))
                        score += share * weight * self.idf[(key, t)] * norm
                        if share == 1.0 and not key.startswith("body"):
                            in_names[key[-2:]].add(t)
            # Named: the query is one of its names, or every word typed is in its title or names.
            named = folded in d.names or any(
                typed and typed <= in_names[lang] for lang in LANGS
                if (typed := {t for t, share in q[lang].items() if share == 1.0}))
            if folded in d.names:
                score += EXACT_NAME
            if score > 0:
                hits.append((score, d, named))
        hits.sort(key=lambda x: (-x[0], list(DOCUMENTS).index(x[1].doc)))
        out = []
        wanted = set(q["it"]) | set(q["en"])
        for score, d, named in hits[:limit]:
            best = max(d.paragraphs, key=lambda p: len(p[2] & wanted), default=None)
            para = best if best and best[2] & wanted else (d.paragraphs[0] if d.paragraphs else None)
            snippet = para[1] if para else ""
            if len(snippet) > 240:
                snippet = snippet[:240].rsplit(" ", 1)[0] + "…"
            out.append(Hit(d.doc, d.section, d.title, round(score, 3), para[0] if para else None, snippet, named))
        return out


_lock = threading.Lock()
_cache: dict[tuple, TournamentIndex] = {}


def tournament_index() -> TournamentIndex:
    """The index of the documents in force and their translation, rebuilt when a file changes."""
    docs = load_documents()
    translations = load_translations()
    terms_table = load_tournament_terminology()
    files = [JARGON_FILE, RULES_IT_DIR / INDEX_FILE]
    key = (id(docs), id(translations), id(terms_table), *((p.stat().st_mtime_ns, p.stat().st_size) for p in files))
    with _lock:
        got = _cache.get(key)
        if got is None:
            got = TournamentIndex(docs, translations, terms_table, read_jargon(), _glossary(terms_table))
            _cache.clear()
            _cache[key] = got
        return got


def _glossary(terms_table: TournamentTerminology) -> Glossary:
    """The rules' search glossary (terminology, translated CR glossary, glossario.tsv) with the
    tournament terms: each English form with the Italian and the gloss."""
    from judge.corpus import load_corpus

    extra = [GlossaryEntry(it, form, "", "terminologia") for t in terms_table for form in t.term.english
             for it in (t.italian, t.gloss) if it and it != form]
    return Glossary(glossary_entries(corpus=load_corpus()) + extra)


def search_documents(query: str, doc: str | None = None, limit: int = 10) -> list[Hit]:
    return tournament_index().search(query, doc, limit)
