"""The rules a card's text invokes: «instead» → 614.1a, «skip» → 614.10, «can't» → 614.17, a power
equal to something → 604.3 and 613.4a, «enters with» → 614.1c… (``testo_regole.tsv``, data).

Beside the rules of its characteristics and keywords (judge/cards/rules.py), these are the rules
a question about the card most often relies on; the search brings them when a question names the
card (judge/search/named_cards.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.cards.table import CardFace
from judge.search.tables import rows

TEXT_RULES_FILE = Path(__file__).with_name("testo_regole.tsv")


@dataclass(frozen=True)
class TextRule:
    pattern: re.Pattern
    rules: tuple[str, ...]
    what: str  # in Italian, for whoever reads why a rule was brought


def parse_text_rules(text: str) -> list[TextRule]:
    out: list[TextRule] = []
    for _, (pattern, rules, what) in rows(text, "testo", 3, TEXT_RULES_FILE.name):
        try:
            compiled = re.compile(pattern.replace("~", "\x00"))
        except re.error as e:
            raise ValueError(f"{TEXT_RULES_FILE.name}: espressione non valida {pattern!r}: {e}") from e
        out.append(TextRule(compiled, tuple(rules.split()), what))
    return out


@lru_cache(maxsize=1)
def load_text_rules() -> tuple[TextRule, ...]:
    return tuple(parse_text_rules(TEXT_RULES_FILE.read_text(encoding="utf-8")))


def invoked(face: CardFace, table: tuple[TextRule, ...] | None = None) -> list[tuple[str, str]]:
    """(rule, what) for each rule the face's text invokes, in the table's order, each rule once.
    The card's own name in its text reads as «~» (``\\x00`` inside: no word matches it)."""
    text = (face.text or "").lower()
    if not text:
        return []
    for name in {face.name, *face.name.split(" // ")}:
        text = text.replace(name.lower(), "\x00")
    out: dict[str, str] = {}
    for tr in table if table is not None else load_text_rules():
        if tr.pattern.search(text):
            for n in tr.rules:
                out.setdefault(n, tr.what)
    return list(out.items())
