"""Rule numbers: the spine of the corpus.

A rule number is a chapter (``7``), a section (``703``), a rule (``703.4``) or a
subrule (``703.4d``). Sub-letters skip ``l`` and ``o`` (see the introduction of
the Comprehensive Rules); after ``z`` they continue ``aa``, ``ab``... so
ordering compares the length of the letters before the letters themselves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import total_ordering

# Letters a subrule may use, in order (no "l", no "o").
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"

_CANONICAL = re.compile(r"^(?P<section>[1-9]\d{2})(?:\.(?P<rule>\d+)(?P<letters>[a-z]{1,2})?)?$")
_CHAPTER = re.compile(r"^[1-9]$")
# Forgiving input: "704.5A", "704.5a.", "CR 704.5a", " 7045a ", "r704.5a".
_LOOSE = re.compile(
    r"^\s*(?:(?:cr|r|regola|rule|regole|rules)\s*)?"
    r"(?P<section>[1-9]\d{2})"
    r"(?:[.,]?(?P<rule>\d{1,3})(?P<letters>[a-z]{1,2})?)?\.?\s*$",  # "704,5a": the Italian decimal comma
    re.IGNORECASE,
)


class RuleNumberError(ValueError):
    """A string that is not a rule number. The message is Italian, for users."""


def letters_index(letters: str) -> int:
    """Position of a sub-letter sequence: a=1 ... z=24, aa=25 ...

    Raises ValueError for letters the rules never use (l, o)."""
    base = len(SUBRULE_LETTERS)
    value = 0
    for ch in letters:
        pos = SUBRULE_LETTERS.find(ch)
        if pos < 0:
            raise ValueError(ch)
        value = value * base + pos + 1
    return value


def letters_at(index: int) -> str:
    """Inverse of :func:`letters_index`."""
    base = len(SUBRULE_LETTERS)
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, base)
        out = SUBRULE_LETTERS[rem] + out
    return out


@total_ordering
@dataclass(frozen=True)
class RuleNumber:
    """A parsed rule number. ``rule`` is None for a section, ``letters`` empty for a rule."""

    section: int
    rule: int | None = None
    letters: str = ""

    @classmethod
    def parse(cls, text: str) -> "RuleNumber":
        """Parse a canonical number (``703``, ``703.4``, ``703.4d``), also with a trailing dot."""
        s = text.strip()
        if s.endswith("."):
            s = s[:-1]
        m = _CANONICAL.match(s)
        if not m:
            raise RuleNumberError(f"«{text}» non è un numero di regola valido (esempi: 703, 703.4, 703.4d)")
        rule = int(m["rule"]) if m["rule"] is not None else None
        return cls(int(m["section"]), rule, m["letters"] or "")

    @classmethod
    def parse_loose(cls, text: str) -> "RuleNumber":
        """Parse what a user types: any case, "CR"/"regola" prefix, missing dot (``7045a``), a comma
        for the dot (``704,5a``)."""
        m = _LOOSE.match(text or "")
        if not m:
            raise RuleNumberError(
                f"«{text.strip()[:40]}» non è un numero di regola valido (esempi: 703, 703.4, 703.4d)"
            )
        rule = int(m["rule"]) if m["rule"] is not None else None
        return cls(int(m["section"]), rule, (m["letters"] or "").lower())

    @property
    def chapter(self) -> int:
        return self.section // 100

    @property
    def depth(self) -> int:
        """0 for a section, 1 for a rule, 2 for a subrule."""
        if self.rule is None:
            return 0
        return 2 if self.letters else 1

    @property
    def parent(self) -> "RuleNumber | None":
        if self.letters:
            return RuleNumber(self.section, self.rule)
        if self.rule is not None:
            return RuleNumber(self.section)
        return None

    @property
    def has_forbidden_letters(self) -> bool:
        return any(ch not in SUBRULE_LETTERS for ch in self.letters)

    def sort_key(self) -> tuple[int, int, int, int, int]:
        if self.letters:
            try:
                idx = letters_index(self.letters)
            except ValueError:
                # Forbidden letters still need a stable place: after the valid ones.
                idx = 10_000 + sum(ord(c) for c in self.letters)
        else:
            idx = 0
        return (self.chapter, self.section, -1 if self.rule is None else self.rule, len(self.letters), idx)

    def __lt__(self, other: "RuleNumber") -> bool:
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        if self.rule is None:
            return str(self.section)
        return f"{self.section}.{self.rule}{self.letters}"


def canonical(text: str) -> str:
    """Canonical string of a canonical-looking number; raises RuleNumberError."""
    return str(RuleNumber.parse(text))


def sort_key(number: str) -> tuple[int, int, int, int, int]:
    """Numeric-then-alphabetical order for a canonical number string; a chapter precedes its sections."""
    if _CHAPTER.match(number):
        return (int(number), -1, -1, 0, 0)
    return RuleNumber.parse(number).sort_key()


def is_chapter(text: str) -> bool:
    return bool(_CHAPTER.match(text.strip()))
