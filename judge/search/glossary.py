"""The bilingual glossary (Italian <-> English game terms and judges' jargon) used to expand queries.

Pairs come from three places, one job each:

- ``rules_it/terminologia.tsv``, the project's one terminology table (official Italian terms, also
  used by the translation and the engine's log): every English form with its Italian term;
- the project's translation of the Comprehensive Rules glossary (English term | Italian term), when
  the corpus has it;
- ``glossario.tsv`` here, for what the table does not hold: judges' jargon (SBA, ETB, CMC), synonyms
  and variants people type, inflected forms, common question words. One pair per line,
  TAB-separated ``italiano``, ``inglese``, ``nota``; a pair the table already holds is not repeated.

Rows that share a term (in either column) form one *concept*: "azioni generate dallo stato" <->
"state-based actions" and "azioni generate dallo stato" <-> "SBA" make {azioni generate dallo stato,
state-based actions, SBA} one concept, so any of them finds the others' texts.

A row whose note starts with "gergo" marks jargon ("SBA", "fizzle"; "gergo italiano": the Italian
column, "saccare"): the search tells whoever typed it what it means (``Glossary.jargon``).

``load_glossary()`` reads ``glossario.tsv``; ``glossary_entries()`` gives every pair;
``Glossary`` is the matcher the query builder uses.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.terminology import Terminology, load_terminology
from judge.search.analysis import fold, stem, terms, words

GLOSSARY_FILE = Path(__file__).with_name("glossario.tsv")
MAX_TERM_WORDS = 8


@dataclass(frozen=True)
class GlossaryEntry:
    italian: str
    english: str
    note: str = ""
    source: str = "glossario"  # "terminologia", "traduzione" (CR glossary translated) or "glossario"


def _parse(text: str) -> list[GlossaryEntry]:
    out: list[GlossaryEntry] = []
    header_seen = False
    for raw in text.splitlines():
        line = raw.rstrip("\r\n")
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cols = [c.strip() for c in line.split("\t")]
        if not header_seen:
            header_seen = True
            if cols[:2] == ["italiano", "inglese"]:
                continue
        if len(cols) < 2 or not cols[0] or not cols[1]:
            continue
        out.append(GlossaryEntry(cols[0], cols[1], cols[2] if len(cols) > 2 else ""))
    return out


def load_glossary(path: Path | None = None) -> list[GlossaryEntry]:
    """The rows of ``glossario.tsv`` (italian, english, note), in file order."""
    return _parse(Path(path or GLOSSARY_FILE).read_text(encoding="utf-8"))


def terminology_pairs(table: Terminology) -> list[GlossaryEntry]:
    """Every English form of the terminology table with its Italian term."""
    return [GlossaryEntry(t.italian, form, "", "terminologia") for t in table for form in t.english]


def translated_pairs(corpus) -> list[GlossaryEntry]:
    """The Comprehensive Rules glossary terms with the project's Italian term, where translated."""
    entries = getattr(corpus, "glossary", None) or {}
    return [GlossaryEntry(e.it_term, e.term, "", "traduzione") for e in entries.values() if e.it_term]


def glossary_entries(path: Path | None = None, table: Terminology | None = None, corpus=None) -> list[GlossaryEntry]:
    """Every pair the search expands with: the table's, the translated CR glossary's, then glossario.tsv's
    (a pair already given by an earlier source is not repeated)."""
    table = table if table is not None else load_terminology()
    out: list[GlossaryEntry] = []
    seen: set[tuple[str, str]] = set()
    for e in terminology_pairs(table) + (translated_pairs(corpus) if corpus is not None else []) + load_glossary(path):
        key = (fold(e.italian), fold(e.english))
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


@dataclass(frozen=True)
class Jargon:
    """A jargon term and what it means, in Italian (it may cite rules: "regola 608.2b")."""

    term: str
    meaning: str

    def as_json(self) -> dict:
        return {"termine": self.term, "significato": self.meaning}


def jargon_of(entry: GlossaryEntry) -> Jargon | None:
    """The jargon a row declares: "gergo" (the English column) or "gergo italiano" (the Italian one);
    the meaning is the note after the colon or, without one, the row's other term."""
    note = entry.note.strip()
    if not note.lower().startswith("gergo"):
        return None
    italian = note.lower().startswith("gergo italiano")
    _, colon, rest = note.partition(":")
    term, other = (entry.italian, entry.english) if italian else (entry.english, entry.italian)
    return Jargon(term, rest.strip() if colon and rest.strip() else other)


@dataclass
class Concept:
    """Terms that mean the same thing, in both languages."""

    id: int
    italian: list[str]
    english: list[str]

    @property
    def all_terms(self) -> list[str]:
        seen: dict[str, None] = {}
        for t in self.italian + self.english:
            seen.setdefault(t, None)
        return list(seen)


def _key(term: str) -> str:
    return " ".join(words(term))


class Glossary:
    """Concepts and a matcher from analysed word sequences to concepts."""

    key = ""  # what it was made of (``_built``): what is derived from it is cached under it

    def __init__(self, entries: list[GlossaryEntry]):
        self.entries = entries
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        # A term spelled the same in either column ("mulligan", "Commander") is one node.
        for e in entries:
            a, b = find(_key(e.italian)), find(_key(e.english))
            if a != b:
                parent[b] = a
        groups: dict[str, Concept] = {}
        for e in entries:
            root = find(_key(e.italian))
            concept = groups.get(root)
            if concept is None:
                concept = groups[root] = Concept(len(groups), [], [])
            if e.italian not in concept.italian:
                concept.italian.append(e.italian)
            if e.english not in concept.english:
                concept.english.append(e.english)
        self.concepts: list[Concept] = list(groups.values())
        # (lang, stems) -> concept ids. Italian terms are keyed by Italian stems, English terms by
        # English stems; a query is matched in both languages.
        self._index: dict[tuple[str, tuple[str, ...]], set[int]] = {}
        self.max_len = 1
        for concept in self.concepts:
            for lang, items in (("it", concept.italian), ("en", concept.english)):
                for term in items:
                    key = tuple(terms(term, lang))
                    if not key or len(key) > MAX_TERM_WORDS:
                        continue
                    self._index.setdefault((lang, key), set()).add(concept.id)
                    self.max_len = max(self.max_len, len(key))
        # Exact spellings (folded words, stop words included) -> concept ids: an exact match wins
        # over a stem match ("phasing" is its own concept, though it stems like "phase").
        self._surface: dict[tuple[str, ...], set[int]] = {}
        for concept in self.concepts:
            for term in concept.all_terms:
                key = tuple(words(term))
                if key:
                    self._surface.setdefault(key, set()).add(concept.id)
        self.words: set[str] = {w for e in entries for w in words(e.italian) + words(e.english)}
        # (lang, stems of the jargon term) -> its explanations, to find whatever form was typed.
        self._jargon: dict[tuple[str, tuple[str, ...]], list[Jargon]] = {}
        for e in entries:
            j = jargon_of(e)
            if j is None:
                continue
            for lang in ("it", "en"):
                key = tuple(terms(j.term, lang))
                if key and j not in self._jargon.setdefault((lang, key), []):
                    self._jargon[(lang, key)].append(j)
        self._analysed: dict[int, list[tuple[str, tuple[str, ...]]]] = {}

    def analysed(self, concept_id: int) -> list[tuple[str, tuple[str, ...]]]:
        """(language, indexed terms) of every term of a concept, in both analyzers (computed once)."""
        got = self._analysed.get(concept_id)
        if got is None:
            got = [(lang, seq) for term in self.concepts[concept_id].all_terms for lang in ("it", "en")
                   if (seq := tuple(terms(term, lang)))]
            self._analysed[concept_id] = got
        return got

    def jargon(self, typed: list[str]) -> list[Jargon]:
        """What the jargon among ``typed`` (words or phrases, as the user wrote them) means."""
        out: list[Jargon] = []
        for text in typed:
            for lang in ("it", "en"):
                for j in self._jargon.get((lang, tuple(terms(text, lang))), ()):
                    if all(j.meaning != seen.meaning for seen in out):  # "tutor" and "tutorare": once
                        out.append(j)
        return out

    def all_jargon(self) -> list[Jargon]:
        """Every jargon term with its meaning, alphabetical (the glossary page lists them)."""
        seen = {j for js in self._jargon.values() for j in js}
        return sorted(seen, key=lambda j: (fold(j.term), j.meaning))

    def surface_terms(self) -> dict[tuple[str, ...], set[int]]:
        """Every term as typed (folded words) -> its concepts (the offline index carries them)."""
        return self._surface

    def lookup(self, lang: str, stems: tuple[str, ...]) -> set[int]:
        return self._index.get((lang, stems), set())

    def match(self, folded_words: list[str]) -> list[tuple[int, int, set[int]]]:
        """Longest glossary matches in a word sequence: (start, end, concept ids), non-overlapping,
        left to right. Stop words inside a term are skipped, as the analyzers do."""
        n = len(folded_words)
        stems = {lang: [stem(w, lang) for w in folded_words] for lang in ("it", "en")}
        found: list[tuple[int, int, set[int]]] = []
        i = 0
        while i < n:
            best: tuple[int, set[int]] | None = None  # (end, ids)
            for lang in ("it", "en"):
                seq = stems[lang]
                if seq[i] is None:
                    continue
                key: list[str] = []
                j = i
                while j < n and len(key) < self.max_len:
                    if seq[j] is not None:
                        key.append(seq[j])
                        ids = self.lookup(lang, tuple(key))
                        if ids and (best is None or j + 1 > best[0]):
                            best = (j + 1, set(ids))
                        elif ids and best is not None and j + 1 == best[0]:
                            best[1].update(ids)
                    j += 1
            exact = None
            for j in range(min(n, i + self.max_len * 2), i, -1):
                ids = self._surface.get(tuple(folded_words[i:j]))
                if ids:
                    exact = (j, set(ids))
                    break
            if exact and (best is None or exact[0] >= best[0]):
                best = exact
            if best:
                found.append((i, best[0], best[1]))
                i = best[0]
            else:
                i += 1
        return found


_cache: dict[tuple, Glossary] = {}
_lock = threading.Lock()


def get_glossary(path: Path | None = None, corpus=None) -> Glossary:
    """The glossary matcher, cached until glossario.tsv, the terminology table or the corpus change."""
    p = Path(path or GLOSSARY_FILE)
    st = p.stat()
    table = corpus.terminology if corpus is not None and len(corpus.terminology) else load_terminology()
    key = (str(p), st.st_mtime_ns, st.st_size, id(table), corpus.content_hash if corpus is not None else None)
    with _lock:
        g = _cache.get(key)
        if g is None:
            g = _built(glossary_entries(p, table, corpus))
            _cache.clear()
            _cache[key] = g
        return g


def _built(entries: list[GlossaryEntry]) -> Glossary:
    """The matcher for ``entries``, kept in the build cache (judge/build_cache.py): every term stemmed
    in both languages is half a second of a server's start. ``Glossary.key`` says what it was made of."""
    from judge import build_cache

    key = build_cache.digest(build_cache.code_digest("search"),
                             *("\t".join((e.italian, e.english, e.note, e.source)) for e in entries))
    g = build_cache.value("glossario", key, lambda: Glossary(entries), "glossario della ricerca", keep=4, quiet=True)
    g.key = key
    return g
