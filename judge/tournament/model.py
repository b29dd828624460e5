"""The tournament documents as data: the Magic Tournament Rules (MTR), the Infraction Procedure
Guide (IPG) and Judging at Regular REL (JAR), each edition a list of numbered sections of
paragraphs, in the official English, as published.

A section's number is the document's own ("2.5", "2", "A" for an appendix), or a word where
the document has none ("introduzione"); JAR numbers nothing, so its sections carry the
project's numbers (``Document.numbered`` is False), said on every page that shows them.
Paragraphs are numbered within their section from 1 (``¶3``): the unit the project's
translation is tied to.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

# Paragraph kinds: running text, a heading inside a section ("Definition", "Booster Draft
# Timing"), an item of a list (its mark: "•", "A.", "1."), lines of a table kept as lines.
TEXT, HEADING, ITEM, TABLE = "testo", "titoletto", "voce", "tabella"

# The parts of an IPG infraction, by the heading (or the paragraph's first word) that opens them.
INFRACTION_PARTS = {
    "Definition": "definizione",
    "Examples": "esempi",
    "Philosophy": "filosofia",
    "Additional Remedy": "rimedio",
    "Upgrade": "upgrade",
    "Downgrade": "downgrade",
}


@dataclass(frozen=True)
class Document:
    """What the product knows of a document, whatever the edition."""

    code: str  # "mtr", "ipg", "jar": in URLs, file names, commands
    short: str  # "MTR": how judges cite it
    title: str  # the English title
    title_it: str  # the Italian name the product uses
    numbered: bool = True  # False: the section numbers are the project's (JAR)


DOCUMENTS: dict[str, Document] = {
    d.code: d for d in (
        Document("mtr", "MTR", "Magic: The Gathering Tournament Rules", "Regole dei tornei di Magic"),
        Document("ipg", "IPG", "Magic Infraction Procedure Guide", "Guida alle procedure per le infrazioni"),
        Document("jar", "JAR", "Judging at Regular Rules Enforcement Level",
                 "Arbitrare al livello di applicazione delle regole Regular", numbered=False),
    )
}


@dataclass(slots=True)
class Paragraph:
    number: int  # 1-based, within its section
    text: str  # verbatim (a table's lines joined with "\n")
    kind: str = TEXT
    mark: str = ""  # a list item's mark as printed: "•", "A.", "1."
    line: int = 0  # in the source (text: its line; HTML: its page)


@dataclass(slots=True)
class Section:
    number: str  # "2.5", "2", "A", "introduzione"
    title: str  # as the contents print it
    paragraphs: list[Paragraph] = field(default_factory=list)
    penalty: str | None = None  # an IPG infraction's penalty, as its heading prints it
    line: int = 0

    @property
    def kind(self) -> str:
        if re.fullmatch(r"\d+", self.number):
            return "capitolo"
        if re.fullmatch(r"\d+\.\d+", self.number):
            return "sezione"
        if re.fullmatch(r"[A-Z]", self.number):
            return "appendice"
        return "premessa"

    @property
    def parent(self) -> str | None:
        return self.number.split(".")[0] if self.kind == "sezione" else None

    def paragraph(self, number: int) -> Paragraph | None:
        return self.paragraphs[number - 1] if 0 < number <= len(self.paragraphs) else None

    @property
    def parts(self) -> list[tuple[str, list[Paragraph]]]:
        """An infraction's parts in order ("definizione", "esempi", "filosofia", "rimedio",
        "upgrade", "downgrade"), each with its paragraphs (headings left out); the paragraphs
        before the first part are under ""."""
        out: list[tuple[str, list[Paragraph]]] = [("", [])]
        for p in self.paragraphs:
            part = INFRACTION_PARTS.get(p.text) if p.kind == HEADING else None
            opening = re.match(r"^(Upgrade|Downgrade)\s*:", p.text)
            if part:
                out.append((part, []))
                continue
            if opening:
                out.append((INFRACTION_PARTS[opening[1]], []))
            out[-1][1].append(p)
        return [(name, ps) for name, ps in out if ps or name]


@dataclass
class DocEdition:
    """One edition of one document, as parsed from its file in ``tornei_en/``."""

    doc: str  # "mtr"
    id: str  # "20260227", from the file name
    path: Path
    effective: dt.date | None  # as the document states it ("Effective February 27, 2026")
    title: str  # the title lines at the top, as printed
    sections: list[Section]
    sha256: str = ""
    toc: list[tuple[str, str]] = field(default_factory=list)  # (number, title) as the contents list them
    problems: list[tuple[int, str]] = field(default_factory=list)  # (line, Italian message): what did not parse
    source_words: int = 0  # words of the source's body (furniture and contents aside), for the checks

    def __post_init__(self) -> None:
        self._by_number = {s.number: s for s in self.sections}

    @property
    def document(self) -> Document:
        return DOCUMENTS[self.doc]

    @property
    def date(self) -> dt.date:
        return dt.date(int(self.id[:4]), int(self.id[4:6]), int(self.id[6:]))

    def section(self, number: str) -> Section | None:
        return self._by_number.get(number)

    @property
    def label(self) -> str:
        return f"{self.document.short} {self.date.isoformat()}"

    def infractions(self) -> list[Section]:
        """The sections with a penalty (the IPG's infractions), in order."""
        return [s for s in self.sections if s.penalty is not None]
