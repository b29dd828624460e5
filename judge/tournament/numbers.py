"""Section numbers of the tournament documents and citations of them as people write them.

``MTR 2.5``, ``mtr 2-5``, ``IPG 3.2``, ``ipg2.1``, ``JAR``, ``MTR appendice B``: one parser for
the pages' forgiving URLs, the CLI and the citation linker.
"""

from __future__ import annotations

import re

from judge.tournament.model import DOCUMENTS

# The words that name a section without a number.
SECTION_WORDS = {"introduzione": "introduzione", "introduction": "introduzione", "intro": "introduzione",
                 "struttura": "struttura", "framework": "struttura"}
_APPENDIX = re.compile(r"^(?:app(?:endice|endix)?\.?\s*)?(?P<letter>[a-f])$", re.IGNORECASE)
_NUMBER = re.compile(r"^(?P<a>\d{1,2})(?:\s*[.\-_/,]\s*(?P<b>\d{1,2}))?\.?$")


def normalise_section(text: str) -> str | None:
    """The canonical section number of what a user typed ("2-5" → "2.5", "appendice b" → "B",
    "intro" → "introduzione"), or None if it is not a section number."""
    t = (text or "").strip().strip("§").strip()
    if not t:
        return None
    low = t.casefold()
    if low in SECTION_WORDS:
        return SECTION_WORDS[low]
    if (m := _APPENDIX.match(t)):
        return m["letter"].upper()
    if (m := _NUMBER.match(t)):
        a = str(int(m["a"]))
        return f"{a}.{int(m['b'])}" if m["b"] is not None else a
    return None


def section_key(number: str) -> tuple:
    """Document order: the unnumbered opening sections, chapters and their sections, appendices."""
    if number in ("introduzione", "struttura"):
        return (0, ("introduzione", "struttura").index(number), 0)
    if re.fullmatch(r"[A-Z]", number):
        return (2, ord(number), 0)
    parts = number.split(".")
    if all(p.isdigit() for p in parts):
        return (1, int(parts[0]), int(parts[1]) if len(parts) > 1 else -1)
    return (3, 0, 0)


_DOC_CODES = "|".join(d.short for d in DOCUMENTS.values())
# "MTR 2.5", "IPG 3.2", "ipg2.1", "MTR sezione 2.5", "MTR appendice B", "JAR" (a whole document).
_REFERENCE = re.compile(
    rf"^(?P<doc>{_DOC_CODES})\s*(?:(?:sez(?:ione)?|section|§)\.?\s*)?(?P<rest>.*)$", re.IGNORECASE)


def parse_reference(text: str) -> tuple[str, str | None] | None:
    """(document code, section or None for the whole document) from "MTR 2.5", "ipg 3.2", "JAR";
    None if it names no document or a malformed section."""
    m = _REFERENCE.match((text or "").strip())
    if not m:
        return None
    doc = m["doc"].lower()
    rest = m["rest"].strip()
    if not rest:
        return doc, None
    section = normalise_section(rest)
    return (doc, section) if section else None
