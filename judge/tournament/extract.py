"""Lines of text out of a PDF extraction, without the page furniture.

The tournament documents come as text extracted from their PDF, in two shapes: plain text
(``pdftotext``: hard line breaks, a page number on a line of its own between pages, blank lines
between paragraphs) and HTML (``pdftohtml``: every run of text an absolutely positioned ``<p>``,
small capitals split into separate runs, paragraphs told apart only by vertical space). Both are
turned into the same thing: ``Line``s of text in reading order, each saying whether a paragraph
break or a page break comes before it. Page numbers, the table of contents (dot leaders) and the
trademark notices at the end are dropped here; the text itself is kept as printed, except that
runs of spaces become one space (they are layout, not text).
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass

# A page number alone on its line; a table-of-contents entry (dot leaders, then the page).
PAGE_NUMBER = re.compile(r"^\s*\d{1,3}\s*$")
DOT_LEADERS = re.compile(r"\.{5,}\s*\d*\s*$")
# The legal notices at the very end of each document: not part of any section.
TRADEMARKS = re.compile(r"^\s*All trademarks are property of Wizards of the Coast")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Line:
    """One printed line: its text (spaces collapsed), and what comes between it and the line
    before: a paragraph break (``gap``) and/or a page break (``page``)."""

    text: str
    gap: bool = False
    page: bool = False
    bold: bool = False  # HTML only: the whole line is bold (headings); plain text cannot tell
    number: int = 0  # the line in the source file (text) or the page (HTML), for messages


def clean(text: str) -> str:
    return _SPACES.sub(" ", text.replace("\u00a0", " ")).strip()


def is_furniture(text: str) -> bool:
    """A page number or a table-of-contents entry (the contents are read apart, see ``toc_entries``)."""
    return bool(PAGE_NUMBER.match(text) or DOT_LEADERS.search(text) or clean(text) in ("CONTENTS", "Contents"))


def toc_entry(text: str) -> str | None:
    """A table-of-contents entry without its dot leaders and page number (None: not an entry)."""
    if not DOT_LEADERS.search(text):
        return None
    return clean(DOT_LEADERS.sub("", text)) or None


@dataclass(frozen=True)
class Extraction:
    """A document's lines (furniture dropped) and its table of contents' entries, in order."""

    lines: list[Line]
    toc: list[str]


# -- plain text ------------------------------------------------------------------------------------

def text_lines(text: str) -> Extraction:
    """The lines of a ``pdftotext`` extraction. A blank line is a paragraph break; so is a line
    indented by two spaces or more (the extraction folds a blank line into the indentation of
    the next one); a page number is a page break (blank lines around it are the page's margins,
    not paragraph breaks: whether a paragraph goes on across the page is decided later)."""
    out: list[Line] = []
    toc: list[str] = []
    gap = page = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if TRADEMARKS.match(raw):
            break
        if not raw.strip():
            gap = True
            continue
        if PAGE_NUMBER.match(raw):
            page, gap = True, False
            continue
        if is_furniture(raw):
            if (entry := toc_entry(raw)):
                toc.append(entry)
            continue
        if page:
            gap = False  # the margin of the new page
            page = bool(out)
        indented = raw.startswith("  ") and not page
        out.append(Line(clean(raw), gap or indented, page, number=number))
        gap = page = False
    return Extraction(out, toc)


# -- HTML (pdftohtml) ------------------------------------------------------------------------------

_PAGE = re.compile(r'<div id="page(\d+)-div"(.*?)</div>', re.DOTALL)
_RUN = re.compile(r'<p style="position:absolute;top:(\d+)px;left:(\d+)px;[^"]*"\s+class="(\w+)">(.*?)</p>', re.DOTALL)
_FONT = re.compile(r"\.(ft\w+)\{font-size:(\d+)px")
_TAG = re.compile(r"<[^>]+>")
# Runs whose tops differ by this much are on the same line (small capitals sit 4-5 px lower).
SAME_LINE_PX = 6
# A vertical step this much larger than the page's usual line spacing is a paragraph break.
GAP_RATIO = 1.4


@dataclass(slots=True)
class _Run:
    top: int
    left: int
    text: str
    bold: bool
    size: int


def _runs(page_html: str, sizes: dict[str, int]) -> list[_Run]:
    runs = []
    for top, left, cls, body in _RUN.findall(page_html):
        # A <br/> inside a run starts a new paragraph on the next line (the converter's way of
        # writing two lines with a paragraph's spacing in one run).
        parts = re.split(r"<br\s*/?>", body)
        size = sizes.get(cls, 16)
        for k, part in enumerate(parts):
            text = html_lib.unescape(_TAG.sub("", part))
            if k and not text.strip():
                continue
            bold = "<b>" in part and bool(text.strip())
            runs.append(_Run(int(top) + k * 2 * size, int(left), ("\n" if k else "") + text, bold, size))
    return runs


def html_lines(html: str) -> Extraction:
    """The lines of a ``pdftohtml`` extraction: runs grouped into lines by their top, ordered
    by their left; a paragraph break where the vertical step is well above the page's usual
    line spacing, or where a run starts with a <br/>."""
    sizes = {cls: int(px) for cls, px in _FONT.findall(html)}
    pages = []
    toc: list[str] = []
    for page_number, body in _PAGE.findall(html):
        rows = _rows(_runs(body, sizes))
        lines = []
        for row in rows:
            row.sort(key=lambda r: r.left)
            text = _join_runs(row)
            if not clean(text) or is_furniture(text):
                if (entry := toc_entry(text)):
                    toc.append(entry)
                continue
            lines.append((min(r.top for r in row), clean(text), row[0].text.startswith("\n"),
                          all(r.bold for r in row if r.text.strip())))
        pages.append((int(page_number), lines))
    # The document's line spacing: the tighter vertical steps (a table's rows may all be spaced
    # wider, so a page alone cannot tell).
    steps = sorted(b[0] - a[0] for _, lines in pages for a, b in zip(lines, lines[1:]) if b[0] > a[0])
    usual = steps[len(steps) // 4] if steps else 20
    out: list[Line] = []
    for page_number, lines in pages:
        previous_top = None
        for i, (top, text, starts_paragraph, bold) in enumerate(lines):
            if TRADEMARKS.match(text):
                return Extraction(out, toc)
            # A step up the page is the top of the next column: a new paragraph.
            gap = starts_paragraph or (previous_top is not None and (top - previous_top > GAP_RATIO * usual
                                                                      or top < previous_top - SAME_LINE_PX))
            out.append(Line(text, gap and i > 0, i == 0 and bool(out), bold, page_number))
            previous_top = top
    return Extraction(out, toc)


# Bullets this far apart on one row are two columns of a list (the MTR's lists of sets and cards).
COLUMN_PX = 200


def _group(runs: list[_Run]) -> list[list[_Run]]:
    rows: list[list[_Run]] = []
    for run in sorted(runs, key=lambda r: (r.top, r.left)):
        if rows and abs(run.top - rows[-1][-1].top) <= SAME_LINE_PX and not run.text.startswith("\n"):
            rows[-1].append(run)
        else:
            rows.append([run])
    return rows


def _rows(runs: list[_Run]) -> list[list[_Run]]:
    """The runs of a page grouped into rows, top to bottom; a two-column list (the MTR's lists of
    sets and cards) read column by column: from the first bullet of the right column to the last
    run there, the left column's rows come first."""
    bullets = sorted({r.left for r in runs if r.text.strip() == "•"})
    if not bullets or bullets[-1] - bullets[0] < COLUMN_PX:
        return _group(runs)
    split = bullets[-1] - 5
    right = [r for r in runs if r.left >= split and r.text.strip()]
    top = min(r.top for r in right if r.text.strip() == "•") - SAME_LINE_PX
    bottom = max(r.top for r in right) + SAME_LINE_PX
    inside = [r for r in runs if top <= r.top <= bottom]
    before = [r for r in runs if r.top < top]
    after = [r for r in runs if r.top > bottom]
    left = _group([r for r in inside if r.left < split])
    # The left column may go on, after a paragraph break, with text that follows the whole list.
    steps = sorted(b[0].top - a[0].top for a, b in zip(left, left[1:]))
    usual = steps[len(steps) // 2] if steps else 0
    cut = next((i + 1 for i, (a, b) in enumerate(zip(left, left[1:])) if b[0].top - a[0].top > GAP_RATIO * usual),
               len(left))
    return _group(before) + left[:cut] + _group([r for r in inside if r.left >= split]) + left[cut:] + _group(after)


def _join_runs(row: list[_Run]) -> str:
    text = ""
    for a, b in zip([None, *row], row):
        piece = b.text.lstrip("\n")
        if a is not None and text and not text.endswith(" ") and not piece.startswith(" "):
            # Runs far apart on a line are columns of a table: keep a space between them.
            width = len(a.text) * a.size * 0.5
            if b.left - (a.left + width) > a.size * 1.5:
                text += " "
        text += piece
    return text
