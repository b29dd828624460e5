"""The rules a card's official rulings speak of, as candidates when a question names the card.

A question about a card is most often a question its rulings answer: Tarmogoyf's rulings speak of
characteristic-defining abilities (604.3) and of card types (205.2a). Each
ruling of ``carte/rulings.jsonl.gz`` (English) is searched, once, in the English rules; the rule it
finds first is one the card relies on. ``sentenze_regole.tsv`` keeps them (card \\t rules), written by
``python -m judge.search.card_rulings_write``; named_cards.py brings them beside the card's keywords and
text (``named_cards.RULING``). The file's numbers are pinned like every number the project writes
(judge/corpus/references.py): a new edition moves them or flags them, and the file is written again.

Chosen on the tuning halves (docs/ricerca.md, 29 November 2026, fourth session): the first rule of
each ruling, not the first three (as good, three times the rules).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from judge.search.tables import rows

RULINGS_RULES_FILE = Path(__file__).with_name("sentenze_regole.tsv")
HEADER = ("# The rules each card's official rulings speak of: each ruling (carte/rulings.jsonl.gz) searched\n"
          "# in the English rules, its first rule. Written by `python -m judge.search.card_rulings_write`;\n"
          "# not edited by hand.\ncarta\tregole\n")
_paused = False  # while the file is written, its own rules must not steer the searches that write it


def parse(text: str) -> dict[str, tuple[str, ...]]:
    # Rule numbers interned: 9,940 cards name 25,000 of them, 1,443 distinct (1.3 MB less).
    return {card: tuple(sys.intern(n) for n in rules.split())
            for _, (card, rules) in rows(text, "carta", 2, RULINGS_RULES_FILE.name)}


@lru_cache(maxsize=1)
def _load(path: Path) -> dict[str, tuple[str, ...]]:
    try:
        return parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def ruling_rules(english_name: str) -> tuple[str, ...]:
    """The rules the rulings of the card named so (English, as the table spells it) speak of."""
    return () if _paused else _load(RULINGS_RULES_FILE).get(english_name, ())


def forget() -> None:
    """Read the file again at the next question (it was just written)."""
    _load.cache_clear()


@contextmanager
def paused() -> Iterator[None]:
    """No card brings its rulings' rules meanwhile (while the file is written)."""
    global _paused
    _paused = True
    try:
        yield
    finally:
        _paused = False
