"""Citations of the tournament documents in any text: «MTR 2.5», «IPG 2.1», «ipg 3.2», «JAR»,
«MTR sezione 4.3», «MTR Appendix B», «section 5.2 of the Magic Tournament Rules», «sezione 2.5
delle MTR»; and, inside a document's own text (``context``), its bare «section 4.3»,
«sections 2-4», «Appendix F».

A pattern set of its own beside the rules' citation parser (judge/corpus/citations.py, which
leaves these alone): the linker, ``/collega``, the embed script, ``judge collega`` and the pages
ask both and merge the spans (``merge_spans``).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate

from judge.tournament.numbers import normalise_section

_SECTION = r"\d{1,2}(?:\.\d{1,2})?"
_NAMES = {
    "mtr": r"Magic(?::\s*The\s+Gathering)?\s+Tournament\s+Rules|Tournament\s+Rules|MTR",
    "ipg": r"(?:Magic\s+)?Infraction\s+Procedure\s+Guide|IPG",
    "jar": r"Judging\s+at\s+Regular(?:\s+(?:REL|Rules\s+Enforcement\s+Level))?|JAR",
}
_ANY_NAME = "|".join(f"(?P<{doc}>{pattern})" for doc, pattern in _NAMES.items())
_END = r"(?![\w])(?!\.\d)"
# «MTR 2.5», «ipg3.2», «MTR, sezione 4.3», «IPG § 2.1»
_CODE_NUMBER = re.compile(
    rf"(?<![\w/.])(?P<doc>MTR|IPG|JAR)(?:\s*,)?\s*(?:(?:sezione|sez\.|section|§)\s*)?(?P<sec>{_SECTION}){_END}",
    re.IGNORECASE)
# «MTR appendice B», «MTR Appendix B»
_CODE_APPENDIX = re.compile(
    r"(?<![\w/.])(?P<doc>MTR|IPG|JAR)\s*,?\s*(?:appendice|appendix|app\.)\s+(?P<sec>[A-F])(?![\w])", re.IGNORECASE)
# «section 5.2 of the Magic Tournament Rules», «sezione 2.5 delle MTR»
_SECTION_OF = re.compile(
    rf"\b(?:sections?|sezion[ei]|sez\.)\s+(?P<sec>{_SECTION}){_END}\s*,?\s*"
    rf"(?:of\s+the|of|in\s+the|delle|della|dell['’]\s*|del|nelle|nella|nell['’]\s*|nel)\s*(?:{_ANY_NAME})(?![\w])",
    re.IGNORECASE)
# A document named alone: «la JAR», «vedi l'IPG» (capitals only: "jar" is also a word).
_CODE_ALONE = re.compile(r"(?<![\w/.])(?P<doc>MTR|IPG|JAR)(?![\w])(?!\s*,?\s*(?:\d|sez|section|§|app))", re.UNICODE)
# Inside a document: its own «section 4.3», «sections 2-4», «Appendix F».
_OWN_SECTION = re.compile(rf"\b(?:sections?|sezion[ei])\s+(?P<sec>{_SECTION}){_END}", re.IGNORECASE)
_OWN_APPENDIX = re.compile(r"\b(?:Appendix|Appendice)\s+(?P<sec>[A-F])(?![\w])")
# «section 4 of the Comprehensive Rules»: not this document's.
_OF_THE_RULES = re.compile(r"\s*(?:of\s+the|del|dell['’])\s*(?:Magic\s+)?(?:Comprehensive\s+Rules|Regolamento)", re.IGNORECASE)


@dataclass(frozen=True)
class DocCitation:
    start: int
    end: int
    text: str
    doc: str  # "mtr", "ipg", "jar"
    section: str | None  # None: the whole document

    @property
    def label(self) -> str:
        return f"{self.doc.upper()} {self.section}" if self.section else self.doc.upper()


def _named(m: re.Match) -> str:
    return next(doc for doc in _NAMES if m.groupdict().get(doc))


class _Disjoint:
    """Disjoint spans, added in any order: whether one overlaps ``[start, end)`` is a binary search.
    (Every citation was checked against every one found before it: 60 KB of «JAR» cost
    /api/citazioni 29 s of CPU; see judge/corpus/citations.py's ``_Spans`` for the same fix.)"""

    def __init__(self):
        self.starts: list[int] = []
        self.ends: list[int] = []

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_left(self.starts, end) - 1       # the last span starting before ``end``:
        return i >= 0 and self.ends[i] > start      # disjoint and in order, it ends last

    def add(self, start: int, end: int) -> None:
        i = bisect_left(self.starts, start)
        self.starts.insert(i, start)
        self.ends.insert(i, end)


def find_document_citations(text: str, context: str | None = None,
                            exists: Callable[[str, str | None], bool] | None = None,
                            stop: Callable[[int], bool] | None = None) -> list[DocCitation]:
    """The citations of tournament documents in ``text``, in order, without overlaps; ``exists``
    (doc, section) filters out sections that do not exist. ``stop(count)``, asked before each
    candidate with the count found so far: True ends the search there (a public endpoint's budget)."""
    text = text or ""
    found: list[DocCitation] = []
    taken = _Disjoint()

    def add(start: int, end: int, doc: str, raw: str | None) -> None:
        section = normalise_section(raw) if raw else None
        if raw and section is None:
            return
        if taken.overlaps(start, end):
            return
        if exists is not None and not exists(doc, section):
            return
        taken.add(start, end)
        found.append(DocCitation(start, end, text[start:end], doc, section))

    def matches():
        yield from ((m, m["doc"].lower(), m["sec"]) for m in _CODE_NUMBER.finditer(text))
        yield from ((m, m["doc"].lower(), m["sec"]) for m in _CODE_APPENDIX.finditer(text))
        yield from ((m, _named(m), m["sec"]) for m in _SECTION_OF.finditer(text))
        if context:
            yield from ((m, context, m["sec"]) for m in _OWN_SECTION.finditer(text)
                        if not _OF_THE_RULES.match(text, m.end()))
            yield from ((m, context, m["sec"]) for m in _OWN_APPENDIX.finditer(text))
        yield from ((m, m["doc"].lower(), None) for m in _CODE_ALONE.finditer(text))

    for m, doc, section in matches():
        if stop is not None and stop(len(found)):
            break
        add(m.start(), m.end(), doc, section)
    return sorted(found, key=lambda c: c.start)


def merge_spans(first: list, second: list, start=lambda s: s["start"], end=lambda s: s["end"]) -> list:
    """Two lists of spans in one, in text order: where they overlap, ``first`` wins. Linear but
    for the sorting (each of ``second`` is checked by binary search, not against every span)."""
    firsts = sorted((start(k), end(k)) for k in first)
    starts = [a for a, _ in firsts]
    reach = list(accumulate((b for _, b in firsts), max))  # the furthest end among the first i + 1
    taken = _Disjoint()                                     # what is kept of ``second``
    kept = list(first)
    for s in second:
        a, b = start(s), end(s)
        i = bisect_left(starts, b) - 1
        if (i >= 0 and reach[i] > a) or taken.overlaps(a, b):
            continue
        taken.add(a, b)
        kept.append(s)
    return sorted(kept, key=start)
