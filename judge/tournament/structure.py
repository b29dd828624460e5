"""From the lines of a document (extract.py) to its sections and paragraphs (model.py).

The table of contents says which sections there are and in which order; the body is walked
looking for each one's heading in turn ("2.5 Conceding or Intentionally Drawing Games or
Matches", "1.1.   DEFINITION OF PENALTIES", "2.1. Game Play Error — Missed Trigger  No Penalty":
the case, the spaces and the dashes may differ from the contents). What comes after an IPG
infraction's title on its heading line is its penalty. Judging at Regular REL has no contents
and no numbers: its headings are its bold lines, under four known titles.

Paragraphs are rebuilt from the lines: a paragraph break, a list item's mark ("•", "A.", "1."),
an entry of a list of changes ("3.7: …") or a date line start a new one; a heading
("Definition", "Booster Draft Timing") stands alone; across a page break a paragraph goes on
unless its last line is short and ends a sentence. Hard line breaks are joined with a space,
except inside a word broken at a hyphen ("heavy-" "handed") and an ordinal's raised suffix
("8" "th"). A block of short lines (a table) keeps its lines.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.tournament.extract import Extraction, Line, html_lines, text_lines
from judge.tournament.model import HEADING, ITEM, TABLE, TEXT, DocEdition, Paragraph, Section

SOURCE_FILE = re.compile(r"^(?P<doc>MTR|IPG|JAR)-(?P<id>\d{8})\.(?P<ext>txt|html)$")
_EFFECTIVE = re.compile(r"\b(?:Effective|Updated)\s+(?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})")
_TOC_NUMBERED = re.compile(r"^(?P<num>\d{1,2}(?:\.\d{1,2})?)\.?\s+(?P<title>\S.*)$")
_TOC_APPENDIX = re.compile(r"^Appendix\s+(?P<num>[A-Z])\s*[—–-]\s*(?P<title>\S.*)$", re.IGNORECASE)
# Sections a document has before its numbered ones, by their English title.
UNNUMBERED = {"introduction": "introduzione", "framework of this document": "struttura"}

_ITEM = re.compile(r"^(?P<mark>•|[A-Z]\.|\d{1,2}\.)\s+(?=\S)")
_CHANGE_ENTRY = re.compile(r"^(?:\d+(?:\.\d+)*|Appendix [A-Z]):\s")
_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_DATE_LINE = re.compile(rf"^(?:{_MONTHS}) \d{{1,2}}, \d{{4}}$")
_WORD = re.compile(r"[A-Za-z0-9]+")
# Headings inside sections that plain text cannot tell from a line of text (it has no bold).
KNOWN_HEADINGS = frozenset({
    "Definition", "Examples", "Philosophy", "Additional Remedy",  # each IPG infraction
    "Warning", "Game Loss", "Match Loss", "Disqualification",  # IPG 1.1
    "Regular", "Competitive", "Professional",  # MTR 1.12
    "Infraction Penalty", "Game Play Errors", "Tournament Errors", "Unsporting Conduct",  # IPG Appendix A
})
# JAR's headings, in order (its sub-headings are the bold lines under "Common Issues").
JAR_HEADINGS = ("Common Issues", "General Unwanted Behaviors", "Serious Problems", "Resources")
JAR_INTRODUCTION = "Introduction"  # the project's title for the text before the first heading
# Lines shorter than this share of the document's usual width are short (a paragraph's last line).
SHORT = 0.8
TABLE_LINE = 0.6


def words(text: str) -> list[str]:
    return _WORD.findall(text)


def norm(text: str) -> str:
    """A heading as compared: case, spaces, dashes and a number's final dot aside."""
    t = re.sub(r"\s*([—–])\s*", "—", text.casefold())
    t = re.sub(r"^(\d+(?:\.\d+)?)\.(?=\s)", r"\1", t.strip())
    return re.sub(r"\s+", " ", t)


@dataclass
class _Heading:
    number: str
    title: str
    key: str  # norm() of the heading line's start
    subheadings: list[str] = field(default_factory=list)  # an appendix's own entries in the contents


def contents(toc: list[str]) -> list[_Heading]:
    """The sections the table of contents lists, in order; an unnumbered entry after an appendix
    is a heading inside it ("Booster Draft Timing")."""
    out: list[_Heading] = []
    for entry in toc:
        if (m := _TOC_APPENDIX.match(entry)):
            out.append(_Heading(m["num"].upper(), m["title"], norm(f"appendix {m['num']}—{m['title']}")))
        elif (m := _TOC_NUMBERED.match(entry)):
            out.append(_Heading(m["num"], m["title"], norm(f"{m['num']} {m['title']}")))
        elif out and out[-1].number.isalpha() and len(out[-1].number) == 1:
            out[-1].subheadings.append(entry)
        else:
            out.append(_Heading(UNNUMBERED.get(entry.casefold(), _slug(entry)), entry, norm(entry)))
    return out


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")


def _heading_rest(line: str, heading: _Heading) -> str | None:
    """What the line has after the heading (an IPG penalty, or ""), or None if it is not the heading."""
    key = norm(line)
    if not key.startswith(heading.key):
        return None
    rest = key[len(heading.key):]
    if rest and not rest.startswith(" "):
        return None  # "1.1 Tournament Types" is not "1.1 Tournament"
    rest = rest.strip()
    return line.strip()[-len(rest):].strip() if rest else ""


# -- paragraphs ---------------------------------------------------------------------------------

def usual_width(lines: list[Line]) -> int:
    """The length of a full line of the document (most lines of a paragraph are full)."""
    lengths = sorted(len(line.text) for line in lines)
    return lengths[int(len(lengths) * 0.9)] if lengths else 80


def _join(a: str, b: str) -> str:
    if re.search(r"[A-Za-z0-9]-$", a) and b[:1].islower():
        return a + b  # a word broken at its hyphen: "heavy-" "handed"
    if re.search(r"\d$", a) and re.match(r"(?:st|nd|rd|th)\b", b):
        return a + b  # a raised ordinal suffix on the next line: "8" "th"
    return f"{a} {b}"


def _goes_on(previous: Line, line: Line, width: int) -> bool:
    """Whether a paragraph goes on across a page break: a page's last line is short only where
    its paragraph ends."""
    return line.text[:1].islower() or len(previous.text) >= SHORT * width


def _starts_paragraph(previous: Line | None, line: Line, width: int, headings: frozenset[str]) -> bool:
    if previous is None or line.gap:
        return True
    if _ITEM.match(line.text) or _CHANGE_ENTRY.match(line.text) or _DATE_LINE.match(line.text):
        return True
    if line.text in headings or previous.text in headings or _DATE_LINE.match(previous.text) \
            or (previous.bold and not line.bold):
        return True
    return line.page and not _goes_on(previous, line, width)


def paragraphs(lines: list[Line], width: int, headings: frozenset[str] = KNOWN_HEADINGS) -> list[Paragraph]:
    groups: list[list[Line]] = []
    previous = None
    for line in lines:
        if _starts_paragraph(previous, line, width, headings):
            groups.append([line])
        else:
            groups[-1].append(line)
        previous = line
    out: list[Paragraph] = []
    for group in groups:
        first = group[0].text
        mark = ""
        if (m := _ITEM.match(first)):
            mark, first = m["mark"], first[m.end():]
        texts = [first, *(line.text for line in group[1:])]
        if len(group) == 1 and not mark and (first in headings or group[0].bold or _DATE_LINE.match(first)):
            kind, text = HEADING, first
        elif mark:
            kind, text = ITEM, _joined(texts)
        elif len(group) > 1 and all(len(t) < TABLE_LINE * width for t in texts):
            kind, text = TABLE, "\n".join(texts)
        else:
            kind, text = TEXT, _joined(texts)
        out.append(Paragraph(len(out) + 1, text, kind, mark, group[0].number))
    return out


def _joined(texts: list[str]) -> str:
    text = texts[0]
    for t in texts[1:]:
        text = _join(text, t)
    return text


# -- documents ------------------------------------------------------------------------------------

def _effective(lines: list[Line]) -> dt.date | None:
    for line in lines:
        if (m := _EFFECTIVE.search(line.text)):
            try:
                return dt.datetime.strptime(m["date"], "%B %d, %Y").date()
            except ValueError:
                return None
    return None


def _numbered(ex: Extraction) -> tuple[list[Line], list[tuple[_Heading, str, list[Line], int]], list[tuple[int, str]]]:
    """(title lines, [(heading, rest of its line, its lines, its source line)], problems)."""
    expected = contents(ex.toc)
    title: list[Line] = []
    found: list[tuple[_Heading, str, list[Line], int]] = []
    problems: list[tuple[int, str]] = []
    i = 0
    for line in ex.lines:
        match = None
        for k in range(i, min(i + 3, len(expected))):  # a heading missing from the body is skipped
            rest = _heading_rest(line.text, expected[k])
            if rest is not None:
                match = (k, rest)
                break
        if match is not None:
            k, rest = match
            for missing in expected[i:k]:
                problems.append((line.number, f"intestazione non trovata nel testo: «{missing.number} {missing.title}»"))
            found.append((expected[k], rest, [], line.number))
            i = k + 1
        elif found:
            found[-1][2].append(line)
        else:
            title.append(line)
    for missing in expected[i:]:
        problems.append((0, f"intestazione non trovata nel testo: «{missing.number} {missing.title}»"))
    return title, found, problems


def _jar(ex: Extraction) -> tuple[list[Line], list[tuple[_Heading, str, list[Line], int]], list[tuple[int, str]]]:
    """JAR's sections: the text before its first heading, its four headings, and under "Common
    Issues" one section per bold heading (a heading may take two bold lines)."""
    title = ex.lines[:2]
    found: list[tuple[_Heading, str, list[Line], int]] = [(_Heading("1", JAR_INTRODUCTION, ""), "", [], 0)]
    chapter = 1
    lines = ex.lines[2:]
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.text in JAR_HEADINGS:
            chapter += 1
            found.append((_Heading(str(chapter), line.text, norm(line.text)), "", [], line.number))
        elif line.bold and found[-1][0].title == JAR_HEADINGS[0] or (line.bold and "." in found[-1][0].number):
            text = line.text
            while i + 1 < len(lines) and lines[i + 1].bold and not lines[i + 1].gap:
                i += 1
                text += " " + lines[i].text
            sub = sum(1 for h, *_ in found if h.number.startswith(f"{chapter}.")) + 1
            found.append((_Heading(f"{chapter}.{sub}", text, norm(text)), "", [], line.number))
        else:
            found[-1][2].append(line)
        i += 1
    problems = [(0, f"intestazione non trovata nel testo: «{h}»") for h in JAR_HEADINGS
                if h not in {f[0].title for f in found}]
    return title, found, problems


def parse_source(path: Path) -> DocEdition:
    """One edition of a document from its file (``MTR-20260227.txt``, ``JAR-20240923.html``)."""
    path = Path(path)
    m = SOURCE_FILE.match(path.name)
    if not m:
        raise ValueError(f"{path.name}: nome non valido, atteso MTR|IPG|JAR-AAAAMMGG.txt|html")
    raw = path.read_bytes()
    text = raw.decode("utf-8-sig")
    ex = text_lines(text) if m["ext"] == "txt" else html_lines(text)
    doc = m["doc"].lower()
    title, found, problems = _jar(ex) if doc == "jar" else _numbered(ex)
    width = usual_width(ex.lines)
    toc = [(h.number, h.title) for h in contents(ex.toc)]
    sections = []
    for heading, rest, lines, line in found:
        headings = KNOWN_HEADINGS | frozenset(heading.subheadings)
        section = Section(heading.number, heading.title, paragraphs(lines, width, headings), line=line)
        if rest:
            section.penalty = rest
        sections.append(section)
    edition = DocEdition(
        doc, m["id"], path, _effective(title), " ".join(line.text for line in title if not _EFFECTIVE.search(line.text)),
        sections, hashlib.sha256(raw).hexdigest(), toc, problems,
        source_words=sum(len(words(line.text)) for line in ex.lines),
    )
    return edition
