"""The corpus: every rule number with its Italian and English text, titles and versions.

``Corpus`` joins, by rule number, the Italian section files and the navigation index of
``rules_it/``, the project's translation and every English edition in ``rules_en/`` (the newest
is in force); ``load_corpus()`` (loading.py) reads them. It knows nothing of the web or the
search index.
"""

from __future__ import annotations

import bisect
import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from judge import build_cache
from judge.corpus.analytic_index import ANALYTIC_INDEX_FILES, AnalyticIndex
from judge.corpus.citations import cited_numbers
from judge.corpus.edition_register import Known, Verification, verify
from judge.corpus.lineage import Lineage
from judge.corpus.staleness import VALID, quoted_titles, verdict
from judge.corpus.numbers import SUBRULE_LETTERS, RuleNumber, RuleNumberError, is_chapter, sort_key
from judge.corpus.rules_en import Edition
from judge.corpus.rules_it import INDEX_FILE, ItalianSection, NavIndex
from judge.corpus.titles import TitleMatch, align_titles
from judge.corpus.terminology import Terminology
from judge.corpus.translation import TranslationFile, english_hash

MONTHS_IT = [
    "gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno",
    "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre",
]


def italian_date(d: dt.date) -> str:
    return f"{d.day} {MONTHS_IT[d.month - 1]} {d.year}"


# The three texts a rule can have, named the same way on every page, result, API answer and command.
LAYER_NAMES = {
    "ufficiale": "Inglese ufficiale",  # the Comprehensive Rules: the text that governs
    "traduzione": "Traduzione del progetto",  # the project's unofficial translation of the English
    "comunità": "Testo della comunità",  # the Italian wiki's text, verbatim
}


def _letter_before(ch: str) -> str:
    """A letter the rules use, itself or the last one before it in the alphabet («l» → «k»)."""
    return ch if ch in SUBRULE_LETTERS else max((c for c in SUBRULE_LETTERS if c < ch), default="a")


@dataclass(slots=True)
class Text:
    """One language's text of a rule, with where it comes from and how current it is."""

    lang: str  # "it" or "en"
    text: str
    examples: list[str]
    version: str  # a label for users
    date: dt.date | None
    source: str  # file name
    line: int = 0
    layer: str = ""  # "ufficiale" (English), "comunità" (wiki, verbatim), "traduzione" (the project's)
    edition: str | None = None  # translation: the English edition it translates
    current: bool = True  # translation: the English it translates is still the one in force
    verified: bool = True  # English: the edition's copy is the published file (rules_en/edizioni.tsv)
    in_force: dt.date | None = None  # translation: the date of the edition in force, when it translates its text

    def __post_init__(self) -> None:
        if not self.layer:
            self.layer = "ufficiale" if self.lang == "en" else "comunità"

    @property
    def label(self) -> str:
        """«Inglese ufficiale · 25 settembre 2026»; «Traduzione del progetto · traduce il testo in vigore,
        25 settembre 2026» when the English it translates is the one in force, whichever edition it was
        written for, else «Traduzione del progetto · 19 giugno 2026» (the English edition it translates,
        now changed); «Testo della comunità · 23 novembre 2024» (the wiki's update)."""
        name = LAYER_NAMES[self.layer]
        if self.layer == "traduzione" and self.current and self.in_force:
            return f"{name} · traduce il testo in vigore, {italian_date(self.in_force)}"
        return f"{name} · {italian_date(self.date)}" if self.date else name


@dataclass(frozen=True)
class Outdated:
    """Why a community Italian rule no longer matches the English in force."""

    code: str  # "assente-in-inglese", "citazione-obsoleta", "italiano-superato", "inglese-modificato"
    only_it: tuple[str, ...] = ()  # citazione-obsoleta, italiano-superato: numbers only the Italian cites
    only_en: tuple[str, ...] = ()  # ... and those only the English cites
    editions: tuple[str, ...] = ()  # inglese-modificato: (older, newer) edition ids
    now: tuple[str | None, ...] = ()  # citazione-obsoleta: per only_it, its number today when known


@dataclass
class GlossaryEntry:
    """An English glossary entry of the edition in force, with the project's Italian when it has one."""

    term: str
    text: str
    it_term: str | None = None
    it_text: str | None = None
    current: bool = True  # the Italian translates this English text


# A rule whose whole text is a name ("Travolgere", "Tocco letale"): short, and not a sentence.
MAX_NAME_CHARS = 70


def is_name_only(text: str) -> bool:
    """Whether a rule's text is only a name (702.19 «Travolgere»): it answers no question itself."""
    text = text.strip()
    return bool(text) and len(text) <= MAX_NAME_CHARS and not text.endswith((".", ":", "?", "!", ";"))


@dataclass
class Rule:
    """A chapter ("7"), section ("703"), rule ("703.4") or subrule ("703.4d")."""

    number: str
    kind: str  # "capitolo", "sezione", "regola", "sottoregola"
    it: Text | None = None  # community text (rules_it/NNN.md, verbatim) or the wiki's title
    en: Text | None = None  # official English, edition in force
    tr: Text | None = None  # the project's translation of the English (rules_it/traduzione/)
    parent: str | None = None
    children: list[str] = field(default_factory=list)
    community_outdated: tuple[Outdated, ...] = ()  # why the community text no longer matches the English

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
    def italian(self) -> Text | None:
        """The Italian text to show first: the community text while it is current, otherwise the
        project's translation (the community text, if outdated, is still shown beside it)."""
        if self.it is not None and not self.community_outdated:
            return self.it
        return self.tr or self.it

    @property
    def best(self) -> Text | None:
        """The text to show first: Italian where we have it, otherwise the official English."""
        return self.italian or self.en


@dataclass(frozen=True)
class Coverage:
    """Rules of the edition in force (headings aside) with each Italian text."""

    rules: int
    translated: int  # with the project's translation
    translated_current: int  # ... of the English text in force
    community_sections: int
    community_rules: int
    community_current: int  # community texts still in line with the English in force


def edition_label(edition: Edition, in_force: bool, verification: Verification | None = None) -> str:
    suffix = ", in vigore" if in_force else ""
    unverified = " (testo non verificato)" if verification is not None and not verification.verified else ""
    return f"Comprehensive Rules, edizione del {italian_date(edition.date)}{suffix}{unverified}"


class Corpus:
    """All rules, ordered numerically, with lookups by number in either language."""

    def __init__(
        self,
        editions: list[Edition],
        italian: list[ItalianSection],
        nav: NavIndex | None,
        files: list[Path],
        translation: list[TranslationFile] | None = None,
        terminology: Terminology | None = None,
        analytic_indexes: dict[str, AnalyticIndex] | None = None,
        register: dict[str, Known] | None = None,
    ):
        if not editions:
            raise ValueError("nessuna edizione inglese del Regolamento in rules_en/")
        self.editions = editions  # oldest first
        self.italian_sections = {s.section: s for s in italian}
        self.nav = nav
        self.files = files
        self.translation = translation or []
        self.terminology = terminology or Terminology([])
        # The analytic indexes by language: "it" (rules_it/indice_analitico.tsv) and "en".
        self.analytic_indexes = {lang: (analytic_indexes or {}).get(lang) or AnalyticIndex([], lang=lang)
                                 for lang in ANALYTIC_INDEX_FILES}
        # The register of official editions (rules_en/edizioni.tsv) and whether each copy is the published file.
        self.register = register or {}
        self.verification: dict[str, Verification] = {e.id: verify(e.path, self.register.get(e.id)) for e in editions}
        self.rules: dict[str, Rule] = {}
        self.glossary: dict[str, GlossaryEntry] = {}
        self._build()

    # -- construction -------------------------------------------------------------
    @property
    def analytic_index(self) -> AnalyticIndex:
        """The Italian analytic index, the one the site shows first."""
        return self.analytic_indexes["it"]

    @property
    def in_force(self) -> Edition:
        return self.editions[-1]

    def edition(self, ident: str) -> Edition | None:
        return next((e for e in self.editions if e.id == ident), None)

    @cached_property
    def lineage(self) -> Lineage:
        """The editions with the rule trace between them: where every rule went (lineage.py)."""
        return Lineage(self.editions)

    def _build(self) -> None:
        en = self.in_force
        label = edition_label(en, True, self.verification.get(en.id))
        verified = bool(self.verification.get(en.id) and self.verification[en.id].verified)
        self.title_matches: dict[int, TitleMatch] = (
            align_titles(self.nav.sections, [e.sections for e in self.editions]) if self.nav else {}
        )
        for ch, title in en.chapters.items():
            it_title = self.nav.chapters.get(ch) if self.nav else None
            rule = Rule(str(ch), "capitolo", en=Text("en", title, [], label, en.date, en.path.name, verified=verified))
            if it_title:
                rule.it = Text("it", it_title, [], self._nav_label(), self._nav_date(), INDEX_FILE)
            self.rules[str(ch)] = rule
        for sec, title in en.sections.items():
            rule = Rule(str(sec), "sezione", en=Text("en", title, [], label, en.date, en.path.name, verified=verified),
                        parent=str(sec // 100))
            match = self.title_matches.get(sec)
            if match and match.title_it:
                rule.it = Text("it", match.title_it, [], self._nav_label(), self._nav_date(), INDEX_FILE)
            self.rules[str(sec)] = rule
        for r in en.rules:
            self._ensure(r.number).en = Text("en", r.text, r.examples, label, en.date, en.path.name, r.line,
                                             verified=verified)
        for section in self.italian_sections.values():
            heading = self._ensure(section.section)
            version = f"Aggiornato a {section.updated_label}" if section.updated_label else "data sconosciuta"
            if section.title:
                heading.it = Text("it", section.title, [], version, section.updated_date, section.path.name)
            for r in section.rules:
                self._ensure(r.number).it = Text(
                    "it", r.text, r.examples, version, section.updated_date, section.path.name, r.line
                )
        self._attach_translation()
        self.numbers = sorted(self.rules, key=sort_key)
        self._keys = [sort_key(n) for n in self.numbers]
        self._position = {n: i for i, n in enumerate(self.numbers)}
        for n in self.numbers:
            rule = self.rules[n]
            if rule.parent and rule.parent in self.rules:
                self.rules[rule.parent].children.append(n)
        for section in self.italian_sections.values():
            for r in section.rules:
                self.rules[r.number].community_outdated = tuple(self._outdated(r.number, section.updated_date))

    def _attach_translation(self) -> None:
        """The project's translation goes on the rules, titles and glossary entries of the English in
        force; a translation of a number the English no longer has is left to the checks."""
        en = self.in_force
        for term, text in en.glossary.items():
            self.glossary[term] = GlossaryEntry(term, text)

        def text(number: str, value: str, examples: list[str], stamp, path: Path, line: int, english: list[str]) -> Text:
            edition = stamp.edition if stamp else None
            current = bool(stamp) and stamp.hash == english_hash(*english)
            date = dt.date(int(edition[:4]), int(edition[4:6]), int(edition[6:])) if edition else None
            version = (f"Traduzione non ufficiale del progetto judge dall'edizione inglese del {italian_date(date)}"
                       if date else "Traduzione non ufficiale del progetto judge")
            if current and edition != en.id:
                version += ", il cui testo è invariato nell'edizione in vigore"
            return Text("it", value, examples, version, date, path.name, line, "traduzione", edition, current,
                        in_force=en.date if current else None)

        for tf in self.translation:
            if tf.kind == "capitoli":
                for c in tf.chapters:
                    title = en.chapters.get(int(c.number))
                    if title is not None and c.number in self.rules:
                        self.rules[c.number].tr = text(c.number, c.title, [], c.stamp, tf.path, c.line, [title])
            elif tf.kind == "glossario":
                for e in tf.entries:
                    entry = self.glossary.get(e.term)
                    if entry is not None:
                        entry.it_term, entry.it_text = e.it_term, e.text
                        entry.current = bool(e.stamp) and e.stamp.hash == english_hash(e.term, entry.text)
            else:
                if tf.title and int(tf.section) in en.sections and tf.section in self.rules:
                    self.rules[tf.section].tr = text(tf.section, tf.title.title, [], tf.title.stamp, tf.path,
                                                     tf.title.line, [en.sections[int(tf.section)]])
                for r in tf.rules:
                    source = en.rule(r.number)
                    if source is not None:
                        self._ensure(r.number).tr = text(r.number, r.text, r.examples, r.stamp, tf.path, r.line,
                                                         [source.text, *source.examples])

    def _outdated(self, number: str, updated: dt.date | None) -> list[Outdated]:
        rule = self.rules[number]
        if rule.en is None:
            return [Outdated("assente-in-inglese")]
        out: list[Outdated] = []
        it_cites = [c for c in self.citations(number, "it") if not is_chapter(c)]
        en_cites = [c for c in self.citations(number, "en") if not is_chapter(c)]
        only_it = tuple(c for c in it_cites if c not in en_cites)
        if only_it:
            # The cited rule moved (a stale citation) or the Italian text is outdated (staleness.py).
            only_en = tuple(c for c in en_cites if c not in it_cites)
            titles = quoted_titles("\n".join([rule.it.text, *rule.it.examples]))
            verdicts = {c: verdict(self, c, titles.get(c), en_cites) for c in only_it}
            valid = tuple(c for c in only_it if verdicts[c][0] == VALID)
            stale = tuple(c for c in only_it if c not in valid)
            if valid:
                out.append(Outdated("italiano-superato", valid, only_en))
            if stale:
                out.append(Outdated("citazione-obsoleta", stale, only_en, now=tuple(verdicts[c][1] for c in stale)))
        if updated is not None:
            for older, newer in zip(self.editions, self.editions[1:]):
                if newer.date > updated and _full_text(older, number) != _full_text(newer, number):
                    out.append(Outdated("inglese-modificato", editions=(older.id, newer.id)))
        return out

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
        chapter = t.removesuffix(".")  # "7." as chapters are headed (and the dot ending a sentence)
        if is_chapter(chapter):
            return self.rules.get(chapter)
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
        return list(self._chapters)

    @cached_property
    def _chapters(self) -> tuple[Rule, ...]:
        return tuple(self.rules[n] for n in self.numbers if self.rules[n].kind == "capitolo")

    def sections(self, chapter: str | None = None) -> list[Rule]:
        return [
            self.rules[n]
            for n in self.numbers
            if self.rules[n].kind == "sezione" and (chapter is None or self.rules[n].chapter == chapter)
        ]

    def nearest(self, text: str, limit: int = 5) -> list[Rule]:
        """Existing rules nearest in numeric order to what the user typed (for "did you mean")."""
        t = (text or "").strip()
        place = bisect.bisect_left
        try:
            if is_chapter(t):
                key = sort_key(t)
            else:
                number = RuleNumber.parse_loose(t)
                if number.has_forbidden_letters:  # «704.5o» sits where the alphabet puts it: after 704.5n (riferimenti: nessuno)
                    number = RuleNumber(number.section, number.rule, "".join(map(_letter_before, number.letters)))
                    place = bisect.bisect_right
                key = number.sort_key()
        except (RuleNumberError, ValueError):
            digits = "".join(ch for ch in t if ch in "0123456789")[:3]  # not isdigit(): "²" is a digit to it
            if len(digits) < 3 or digits[0] == "0":
                return []
            key = RuleNumber(int(digits)).sort_key()
        pos = place(self._keys, key)
        lo, hi = max(0, pos - limit // 2), min(len(self.numbers), pos + limit - limit // 2)
        if hi - lo < limit:
            lo = max(0, hi - limit)
        return [self.rules[n] for n in self.numbers[lo:hi]]

    @cached_property
    def translated_sections(self) -> frozenset[str]:
        """Sections of the edition in force that the project's translation covers."""
        return frozenset(tf.section for tf in self.translation if tf.kind == "sezione" and tf.section in self.rules)

    @cached_property
    def coverage(self) -> Coverage:
        """How much of the edition in force each Italian text covers (what the home page states)."""
        rules = [r for n in self.numbers if (r := self.rules[n]).en is not None and not r.is_heading]
        translated = [r for r in rules if r.tr is not None]
        return Coverage(
            rules=len(rules),
            translated=len(translated),
            translated_current=sum(1 for r in translated if r.tr.current),
            community_sections=len(self.italian_sections),
            community_rules=sum(1 for r in rules if r.it is not None),
            community_current=sum(1 for r in rules if r.it is not None and not r.community_outdated),
        )

    def has_italian(self, number: str) -> bool:
        rule = self.rules.get(number)
        return bool(rule and rule.italian)

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
        """A hash of the corpus files' names and contents (not of where they are)."""
        return build_cache.digest(*(f"{p.name}:{build_cache.file_digest(p)}" for p in self.files))[:16]

    @property
    def version_label(self) -> str:
        translated = sum(1 for tf in self.translation if tf.kind == "sezione")
        return (f"en {self.in_force.id}, it {len(self.italian_sections)} sezioni, "
                f"traduzione {translated} sezioni, {self.content_hash}")


def _full_text(edition: Edition, number: str) -> tuple[str, tuple[str, ...]] | None:
    r = edition.rule(number)
    return (r.text, tuple(r.examples)) if r else None
