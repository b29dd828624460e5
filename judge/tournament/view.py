"""A section of a tournament document as the product shows it: the official English paragraph by
paragraph, the project's Italian beside each one where there is one (and whether it still
translates the English in force), with the same labels as the rules' pages.

The CLI, the pages and the JSON API all read ``section_view``.
"""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.model import LAYER_NAMES, italian_date
from judge.corpus.translation import english_hash
from judge.tournament.loading import TORNEI_IT_DIR, TournamentDocs, load_documents
from judge.tournament.model import DOCUMENTS, DocEdition, Document, Paragraph, Section
from judge.tournament.terminology import TournamentTerminology, load_tournament_terminology
from judge.tournament.translation import TITLE_ID, SectionTranslation, translation_paths, parse_file


@dataclass(slots=True)
class Italian:
    text: str
    current: bool  # translates the English in force
    edition: str  # the English edition it translates


@dataclass(slots=True)
class ParagraphView:
    paragraph: Paragraph
    it: Italian | None = None

    @property
    def number(self) -> int:
        return self.paragraph.number


@dataclass
class SectionView:
    document: Document
    edition: DocEdition
    section: Section
    title_it: Italian | None
    paragraphs: list[ParagraphView]
    penalty_gloss: str | None = None  # the Italian gloss of an IPG infraction's penalty

    @property
    def en_label(self) -> str:
        return f"{LAYER_NAMES['ufficiale']} · {italian_date(self.edition.date)}"

    @property
    def it_label(self) -> str | None:
        editions = {p.it.edition for p in self.paragraphs if p.it} | ({self.title_it.edition} if self.title_it else set())
        if not editions:
            return None
        newest = max(editions)  # the English edition translated: the date the label gives
        when = dt.date(int(newest[:4]), int(newest[4:6]), int(newest[6:]))
        return f"{LAYER_NAMES['traduzione']} · {italian_date(when)}"

    @property
    def translated(self) -> int:
        return sum(1 for p in self.paragraphs if p.it)

    @property
    def stale(self) -> int:
        return sum(1 for p in self.paragraphs if p.it and not p.it.current)

    @property
    def citation(self) -> str:
        return f"{self.document.short} {self.section.number}"


@dataclass
class Translations:
    """The translation files, by (document, section)."""

    files: dict[tuple[str, str], SectionTranslation] = field(default_factory=dict)

    def get(self, doc: str, section: str) -> SectionTranslation | None:
        return self.files.get((doc, section))


_lock = threading.Lock()
_cache: dict[tuple, Translations] = {}


def load_translations(folder: Path | None = None) -> Translations:
    """The files in ``folder`` (default tornei_it/), read again when one changes; a file that does
    not parse is left out here (``judge verifica`` reports it)."""
    folder = Path(folder or TORNEI_IT_DIR)
    paths = translation_paths(folder)
    key = (str(folder), tuple((p.name, p.parent.name, p.stat().st_mtime_ns, p.stat().st_size) for p in paths))
    with _lock:
        got = _cache.get(key)
        if got is None:
            files = {}
            for p in paths:
                try:
                    st = parse_file(p)
                except ValueError:
                    continue
                files[(st.doc, st.section)] = st
            _cache.clear()
            got = _cache[key] = Translations(files)
        return got


def _italian(unit, english: str) -> Italian | None:
    if unit is None or not unit.italian or unit.stamp is None:
        return None
    return Italian(unit.italian, unit.stamp.hash == english_hash(english), unit.stamp.edition)


def section_view(doc: str, number: str, docs: TournamentDocs | None = None, translations: Translations | None = None,
                 terms: TournamentTerminology | None = None, edition: DocEdition | None = None) -> SectionView | None:
    """The section ``number`` of ``doc`` in force (or of ``edition``), with its Italian; None if absent."""
    docs = docs or load_documents()
    edition = edition or docs.in_force(doc)
    section = edition.section(number) if edition else None
    if section is None:
        return None
    st = (translations or load_translations()).get(doc, number)
    by_hash = {}
    if st is not None:
        by_hash = {u.stamp.hash: u for u in st.units if u.stamp and u.italian and u.number != TITLE_ID}
    placed = {english_hash(p.text) for p in section.paragraphs} & set(by_hash)
    paragraphs = []
    for p in section.paragraphs:
        # The translation of this English, wherever it sits in the file; else the one at its number
        # (outdated), unless that one translates another paragraph that is still there.
        unit = by_hash.get(english_hash(p.text))
        if unit is None and st is not None and (old := st.unit(p.number)) and old.stamp and old.stamp.hash not in placed:
            unit = old
        paragraphs.append(ParagraphView(p, _italian(unit, p.text)))
    title = _italian(st.title if st else None, section.title)
    gloss = None
    if section.penalty:
        terms = terms or load_tournament_terminology()
        gloss = terms.gloss(section.penalty)
    return SectionView(DOCUMENTS[doc], edition, section, title, paragraphs, gloss)
