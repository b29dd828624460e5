"""Dates written in a text, in the ways Italian and English texts write them: «3 dicembre 2025»,
«3 December 2025», «December 3, 2025», «3/12/2025», «2025-12-03». What edition of the rules a
ruling or a post was written under can be read from its date (``edition_at``): /collega suggests it,
and the project's own references name editions by date (judge/corpus/references.py)."""

from __future__ import annotations

import datetime as dt
import re

MONTHS_IT = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto",
             "settembre", "ottobre", "novembre", "dicembre")
MONTHS_EN = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
             "october", "november", "december")
DATE_IT = re.compile(rf"\b(\d{{1,2}})\s+({'|'.join(MONTHS_IT)})\s+(20\d\d)\b", re.IGNORECASE)
DATE_EN_DMY = re.compile(rf"\b(\d{{1,2}})\s+({'|'.join(MONTHS_EN)})\s+(20\d\d)\b", re.IGNORECASE)
DATE_EN_MDY = re.compile(rf"\b({'|'.join(MONTHS_EN)})\s+(\d{{1,2}}),\s+(20\d\d)\b", re.IGNORECASE)
_DATE_NUMERIC = re.compile(r"(?<![\d/.-])(\d{1,2})/(\d{1,2})/(20\d\d)(?![\d/])")  # day first, as in Italy
_DATE_ISO = re.compile(r"(?<![\d-])(20\d\d)-(\d\d)-(\d\d)(?![\d-])")


def _date(y: str, m: int, d: str) -> dt.date | None:
    try:
        return dt.date(int(y), m, int(d))
    except ValueError:  # «31 febbraio»
        return None


def dates_in(text: str) -> list[tuple[dt.date, str]]:
    """Every date ``text`` writes, with the words that write it, in order of appearance."""
    found: list[tuple[int, dt.date | None, str]] = []
    for m in DATE_IT.finditer(text):
        found.append((m.start(), _date(m[3], MONTHS_IT.index(m[2].lower()) + 1, m[1]), m[0]))
    for m in DATE_EN_DMY.finditer(text):
        found.append((m.start(), _date(m[3], MONTHS_EN.index(m[2].lower()) + 1, m[1]), m[0]))
    for m in DATE_EN_MDY.finditer(text):
        found.append((m.start(), _date(m[3], MONTHS_EN.index(m[1].lower()) + 1, m[2]), m[0]))
    for m in _DATE_NUMERIC.finditer(text):
        found.append((m.start(), _date(m[3], int(m[2]), m[1]) if 1 <= int(m[2]) <= 12 else None, m[0]))
    for m in _DATE_ISO.finditer(text):
        found.append((m.start(), _date(m[1], int(m[2]), m[3]) if 1 <= int(m[2]) <= 12 else None, m[0]))
    return [(d, words) for _, d, words in sorted(found, key=lambda x: x[0]) if d is not None]


def edition_at(editions, day: dt.date):
    """The edition in force on ``day`` (the latest published on or before it), or None when
    ``day`` is before every edition known. ``editions``: oldest first, each with a ``date``."""
    current = None
    for e in editions:
        if e.date <= day:
            current = e
    return current
