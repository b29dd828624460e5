"""The corpus: every rule number with its Italian and English text, titles and versions.

``load_corpus()`` reads ``rules_it/`` (Italian section files and the navigation
index) and every English edition in ``rules_en/`` (the newest is in force), and
joins them by rule number. It knows nothing of the web or the search index.
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.corpus.citations import cited_numbers
from judge.corpus.numbers import RuleNumber, RuleNumberError, is_chapter, sort_key
from judge.corpus.rules_en import Edition, edition_paths, parse_edition
from judge.corpus.rules_it import INDEX_FILE, ItalianSection, NavIndex, load_sections, parse_index_file
from judge.corpus.titles import TitleMatch, align_titles

MONTHS_IT = [
    "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno",
    "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre",
]


def italian_date(d: dt.date) -> str:
    return f"{d.day} {MONTHS_IT[d.month - 1]} {d.year}"


@dataclass
class Text:
    """One language's text of a rule, with where it comes from and how current it is."""

    lang: str  # "it" or "en"
    text: str
    examples: list[str]
    version: str  # a label for users
    date: dt.date | None
    source: str  # file name
    line: int = 0


@dataclass
class Rule:
    """A chapter ("7"), section ("703"), rule ("703.4") or subrule ("703.4d")."""

    number: str
    kind: str  # "capitolo", "sezione", "regola", "sottoregola"
    it: Text | None = None
    en: Text | None = None
    parent: str | None = None
    children: list[str] = field(default_factory=list)

    @property
    def is_heading(self) -> bool:
        return self.kind in ("capitolo", "sezione")

    @property
    def section(self) -> str | None:
        if self.kind == "capitolo":
            return None
        return self.number.split(".")[0]

    @property
    def chapter(self) -> str:
        return self.number[0]

    @property
    def best(self) -> Text | None:
        """The text to show first: Italian where we have it."""
        return self.it or self.en


def edition_label(edition: Edition, in_force: bool) -> str:
    suffix = ", in vigore" if in_force else ""
    return f"Comprehensive Rules, edizione del {italian_date(edition.date)}{suffix}"


class Corpus:
    """All rules, ordered numerically, with lookups by number in either language."""

    def __init__(
        self,
        editions: list[Edition],
        italian: list[ItalianSection],
        nav: NavIndex | None,
        files: list[Path],
    ):
        if not editions:
            raise ValueError("nessuna edizione inglese del Regolamento in rules_en/")
        self.editions = editions  # oldest first
        self.italian_sections = {s.section: s for s in italian}
        self.nav = nav
        self.files = files
        self.rules: dict[str, Rule] = {}
        self._build()

    # -- construction -------------------------------------------------------------
    @property
    def in_force(self) -> Edition:
        return self.editions[-1]

    def edition(self, ident: str) -> Edition | None:
        return next((e for e in self.editions if e.id == ident), None)

    def _build(self) -> None:
        en = self.in_force
        label = edition_label(en, True)
        self.title_matches: dict[int, TitleMatch] = (
            align_titles(self.nav.sections, [e.sections for e in self.editions]) if self.nav else {}
        )
        for ch, title in en.chapters.items():
            it_title = self.nav.chapters.get(ch) if self.nav else None
            rule = Rule(str(ch), "capitolo", en=Text("en", title, [], label, en.date, en.path.name))
            if it_title:
                rule.it = Text("it", it_title, [], self._nav_label(), self._nav_date(), INDEX_FILE)
            self.rules[str(ch)] = rule
        for sec, title in en.sections.items():
            rule = Rule(str(sec), "sezione", en=Text("en", title, [], label, en.date, en.path.name), parent=str(sec // 100))
            match = self.title_matches.get(sec)
            if match and match.title_it:
                rule.it = Text("it", match.title_it, [], self._nav_label(), self._nav_date(), INDEX_FILE)
            self.rules[str(sec)] = rule
        for r in en.rules:
            self._ensure(r.number).en = Text("en", r.text, r.examples, label, en.date, en.path.name, r.line)
        for section in self.italian_sections.values():
            heading = self._ensure(section.section)
            version = f"Aggiornato a {section.updated_label}" if section.updated_label else "data sconosciuta"
            if section.title:
                heading.it = Text("it", section.title, [], version, section.updated_date, section.path.name)
            for r in section.rules:
                self._ensure(r.number).it = Text(
                    "it", r.text, r.examples, version, section.updated_date, section.path.name, r.line
                )
        self.numbers = sorted(self.rules, key=sort_key)
        self._keys = [sort_key(n) for n in self.numbers]
        self._position = {n: i for i, n in enumerate(self.numbers)}
        for n in self.numbers:
            rule = self.rules[n]
            if rule.parent and rule.parent in self.rules:
                self.rules[rule.parent].children.append(n)

    def _nav_label(self) -> str:
        if self.nav and self.nav.meta.get("aggiornato_a"):
            return f"Indice del wiki, aggiornato a {self.nav.meta['aggiornato_a']}"
        return "Indice del wiki"

    def _nav_date(self) -> dt.date | None:
        iso = self.nav.meta.get("data_iso") if self.nav else None
        return dt.date.fromisoformat(iso) if isinstance(iso, str) else None

    def _ensure(self, number: str) -> Rule:
        rule = self.rules.get(number)
        if rule is None:
            parsed = RuleNumber.parse(number)
            kind = {0: "sezione", 1: "regola", 2: "sottoregola"}[parsed.depth]
            parent = parsed.parent
            rule = Rule(number, kind, parent=str(parent) if parent else str(parsed.chapter))
            self.rules[number] = rule
        return rule

    # -- lookups ------------------------------------------------------------------
    def __contains__(self, number: str) -> bool:
        return number in self.rules

    def __len__(self) -> int:
        return len(self.rules)

    def get(self, number: str) -> Rule | None:
        return self.rules.get(number)

    def resolve(self, text: str) -> Rule | None:
        """A rule from what a user typed ("704.5A", "cr 704.5a", "7045a", "8"); None if absent or malformed."""
        t = (text or "").strip()
        if is_chapter(t):
            return self.rules.get(t)
        try:
            return self.rules.get(str(RuleNumber.parse_loose(t)))
        except RuleNumberError:
            return None

    def parent(self, number: str) -> Rule | None:
        rule = self.rules.get(number)
        return self.rules.get(rule.parent) if rule and rule.parent else None

    def children(self, number: str) -> list[Rule]:
        rule = self.rules.get(number)
        return [self.rules[c] for c in rule.children] if rule else []

    def descendants(self, number: str) -> list[Rule]:
        out: list[Rule] = []
        for child in self.children(number):
            out.append(child)
            out.extend(self.descendants(child.number))
        return out

    def section_of(self, number: str) -> Rule | None:
        rule = self.rules.get(number)
        return self.rules.get(rule.section) if rule and rule.section else None

    def chapter_of(self, number: str) -> Rule | None:
        rule = self.rules.get(number)
        return self.rules.get(rule.chapter) if rule else None

    def _neighbour(self, number: str, delta: int) -> Rule | None:
        rule = self.rules.get(number)
        if rule is None:
            return None
        # Neighbours are of the same level: sections step through sections, rules through rules.
        idx = self._position[number] + delta
        while 0 <= idx < len(self.numbers):
            cand = self.rules[self.numbers[idx]]
            if cand.kind == rule.kind or (not rule.is_heading and not cand.is_heading):
                return cand
            idx += delta
        return None

    def previous(self, number: str) -> Rule | None:
        return self._neighbour(number, -1)

    def next(self, number: str) -> Rule | None:
        return self._neighbour(number, 1)

    def chapters(self) -> list[Rule]:
        return [self.rules[n] for n in self.numbers if self.rules[n].kind == "capitolo"]

    def sections(self, chapter: str | None = None) -> list[Rule]:
        return [
            self.rules[n]
            for n in self.numbers
            if self.rules[n].kind == "sezione" and (chapter is None or self.rules[n].chapter == chapter)
        ]

    def nearest(self, text: str, limit: int = 5) -> list[Rule]:
        """Existing rules nearest in numeric order to what the user typed (for "did you mean")."""
        t = (text or "").strip()
        try:
            key = sort_key(t) if is_chapter(t) else RuleNumber.parse_loose(t).sort_key()
        except (RuleNumberError, ValueError):
            digits = "".join(ch for ch in t if ch in "0123456789")[:3]  # not isdigit(): "²" is a digit to it
            if len(digits) < 3 or digits[0] == "0":
                return []
            key = RuleNumber(int(digits)).sort_key()
        pos = bisect.bisect_left(self._keys, key)
        lo, hi = max(0, pos - limit // 2), min(len(self.numbers), pos + limit - limit // 2)
        if hi - lo < limit:
            lo = max(0, hi - limit)
        return [self.rules[n] for n in self.numbers[lo:hi]]

    def has_italian(self, number: str) -> bool:
        rule = self.rules.get(number)
        return bool(rule and rule.it)

    # -- citations ------------------------------------------------------------------
    def citations(self, number: str, lang: str) -> list[str]:
        rule = self.rules.get(number)
        text = getattr(rule, lang, None) if rule else None
        if text is None:
            return []
        return cited_numbers("\n".join([text.text, *text.examples]))

    @cached_property
    def cited_by(self) -> dict[str, list[str]]:
        """number -> rules whose text (in either language) cites it."""
        out: dict[str, list[str]] = {}
        for n in self.numbers:
            cited = set(self.citations(n, "it")) | set(self.citations(n, "en"))
            for c in cited:
                out.setdefault(c, []).append(n)
        return out

    # -- versions -----------------------------------------------------------------
    @cached_property
    def content_hash(self) -> str:
        h = hashlib.sha256()
        for path in self.files:
            h.update(path.name.encode())
            h.update(path.read_bytes())
        return h.hexdigest()[:16]

    @property
    def version_label(self) -> str:
        return f"en {self.in_force.id}, it {len(self.italian_sections)} sezioni, {self.content_hash}"


_cache: dict[tuple, Corpus] = {}
_lock = threading.Lock()
# Folders -> (monotonic time of the last look at the files, corpus then current).
_recent: dict[tuple[Path, Path], tuple[float, Corpus]] = {}
# How often the files are looked at again: edits show up within this delay, and a
# busy server does not pay a directory scan on every request.
RECHECK_SECONDS = 1.0


def _fingerprint(paths: list[Path]) -> tuple:
    out = []
    for p in paths:
        st = p.stat()
        out.append((str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


def corpus_files(rules_it: Path, rules_en: Path) -> list[Path]:
    it_files = sorted(p for p in rules_it.glob("*.md") if not p.name.startswith(("_", "README")))
    return it_files + edition_paths(rules_en)


def load_corpus(
    rules_it: Path | None = None, rules_en: Path | None = None, max_age: float = RECHECK_SECONDS
) -> Corpus:
    """The corpus from the given folders (default: the repository's); cached until a file changes.

    Files are looked at again at most every ``max_age`` seconds (0: now)."""
    rules_it = Path(rules_it or RULES_IT_DIR)
    rules_en = Path(rules_en or RULES_EN_DIR)
    now = time.monotonic()
    recent = _recent.get((rules_it, rules_en))
    if recent is not None and now - recent[0] < max_age:
        return recent[1]
    files = corpus_files(rules_it, rules_en)
    key = _fingerprint(files)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            _recent[(rules_it, rules_en)] = (now, cached)
            return cached
        editions = [parse_edition(p) for p in edition_paths(rules_en)]
        index_path = rules_it / INDEX_FILE
        nav = parse_index_file(index_path) if index_path.exists() else None
        corpus = Corpus(editions, load_sections(rules_it), nav, files)
        if len(_cache) > 4:
            _cache.clear()
        _cache[key] = corpus
        _recent[(rules_it, rules_en)] = (now, corpus)
        return corpus
