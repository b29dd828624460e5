"""Long pages in parts, so that none is heavy on a phone (no page over 150 KB of HTML).

A whole section (702 is 600 KB), the changes between two far editions, the glossary and the
analytic indexes are cut: the lists alphabetical by letter (``?lettera=B``), the others into
consecutive parts of bounded size (``?parte=2``). Every page keeps the navigation to the other
parts, so the rest is one tap away, and its own search box still searches everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import request

from judge.web.errors import error_response

# Parts are cut by estimated bytes of HTML: each item's texts plus the markup every item carries.
# A section's list: number, columns, a label per block for phones, measured at about 800 bytes a
# rule; a part stays near 110 KB. A list of changes: number, kind, the word-by-word difference,
# about 600 bytes a change; a part stays near 120 KB. Both well under the 150 KB ceiling.
MARKUP_PER_RULE = 800
SECTION_PART_BYTES = 110_000
MARKUP_PER_CHANGE = 600
CHANGES_PART_BYTES = 100_000
OTHER = "altro"  # the letter parameter for headwords that start with no letter ("+1/+1")


@dataclass(frozen=True)
class Part:
    number: int  # 1-based
    start: int  # items[start:end]
    end: int
    first: str  # labels of its first and last item ("702.1", "702.20")
    last: str


def cut(weights: list[int], labels: list[str], budget: int) -> list[Part]:
    """Consecutive parts of at most ``budget`` weight each (an item heavier than that alone)."""
    parts: list[Part] = []
    start, total = 0, 0
    for i, w in enumerate(weights):
        if i > start and total + w > budget:
            parts.append(Part(len(parts) + 1, start, i, labels[start], labels[i - 1]))
            start, total = i, 0
        total += w
    if weights:
        parts.append(Part(len(parts) + 1, start, len(weights), labels[start], labels[-1]))
    return parts


def chosen(parts: list[Part], what: str):
    """(the part ``?parte=`` asks for (the first without one), None) or (None, an Italian 404)."""
    raw = (request.args.get("parte") or "").strip()
    if not raw:
        return (parts[0] if parts else None), None
    if not raw.isdigit() or not 1 <= int(raw) <= len(parts):
        return None, error_response(404, f"La parte «{raw[:12]}» non esiste: {what} ha {len(parts)} parti (da 1 a {len(parts)}).")
    return parts[int(raw) - 1], None


def letter_slug(letter: str) -> str:
    return OTHER if letter == "#" else letter


def chosen_letter(letters: list[str], what: str):
    """(the letter ``?lettera=`` asks for (A, or the first there is, without one), None) or
    (None, an Italian 404 naming the letters there are)."""
    raw = (request.args.get("lettera") or "").strip()
    if not raw:
        return ("A" if "A" in letters else (letters[0] if letters else None)), None
    wanted = "#" if raw.lower() == OTHER else raw.upper()
    if wanted not in letters:
        shown = ", ".join(letter_slug(x) for x in letters)
        return None, error_response(404, f"La lettera «{raw[:12]}» non c'è: {what} ha le lettere {shown}.")
    return wanted, None
