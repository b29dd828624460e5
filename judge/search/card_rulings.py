"""The rules a card's official rulings speak of, as candidates when a question names the card.

A question about a card is most often a question its rulings answer: Tarmogoyf's rulings speak of
characteristic-defining abilities (604.3) and of card types (205.2a). Each
ruling of ``carte/rulings.jsonl.gz`` (English) is searched, once, in the English rules; the rule it
finds first is one the card relies on. ``sentenze_regole.tsv`` keeps them (card \\t rules), written by
``python -m judge.search.card_rulings``; named_cards.py brings them beside the card's keywords and
text (``named_cards.RULING``). The file's numbers are pinned like every number the project writes
(judge/corpus/references.py): a new edition moves them or flags them, and the file is written again.

Chosen on the tuning halves (docs/ricerca.md, 29 November 2026, fourth session): the first rule of
each ruling, not the first three (as good, three times the rules).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from judge.search.tables import rows

RULINGS_RULES_FILE = Path(__file__).with_name("sentenze_regole.tsv")
HEADER = ("# The rules each card's official rulings speak of: each ruling (carte/rulings.jsonl.gz) searched in\n"
          "# the English rules, its first rule. Written by `python -m judge.search.card_rulings`; not edited by hand.\n"
          "carta\tregole\n")
_paused = False  # while the file is written, its own rules must not steer the searches that write it


def parse(text: str) -> dict[str, tuple[str, ...]]:
    return {card: tuple(rules.split()) for _, (card, rules) in rows(text, "carta", 2, RULINGS_RULES_FILE.name)}


@lru_cache(maxsize=1)
def _load(path: Path) -> dict[str, tuple[str, ...]]:
    try:
        return parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def ruling_rules(english_name: str) -> tuple[str, ...]:
    """The rules the rulings of the card named so (English, as the table spells it) speak of."""
    return () if _paused else _load(RULINGS_RULES_FILE).get(english_name, ())


@contextmanager
def _writing() -> Iterator[None]:
    global _paused
    _paused = True
    try:
        yield
    finally:
        _paused = False


def first_rules(engine, texts) -> tuple[str, ...]:
    """The first rule the English search finds for each text, each rule once, in order."""
    out: list[str] = []
    for text in texts:
        hits = engine.search(text, lang="en", per_page=1).hits
        if hits and hits[0].number not in out:
            out.append(hits[0].number)
    return tuple(out)


def build(engine, table, names=None) -> dict[str, tuple[str, ...]]:
    """Card -> the rules its rulings speak of (for ``names``, default every card with rulings)."""
    with _writing():
        found = {name: first_rules(engine, (r.text for r in table.rulings(name)))
                 for name in (names if names is not None else table.names_with_rulings())}
    return {name: rules for name, rules in found.items() if rules}


def write(found: dict[str, tuple[str, ...]], path: Path = RULINGS_RULES_FILE) -> None:
    lines = [f"{name}\t{' '.join(rules)}\n" for name, rules in sorted(found.items())]
    path.write_text(HEADER + "".join(lines), encoding="utf-8")
    _load.cache_clear()


def main(argv: list[str]) -> int:
    """python -m judge.search.card_rulings [ISTANZA]: writes sentenze_regole.tsv for the edition in force
    (the instance folder holds the search index: JUDGE_INSTANCE or instance/, as `judge cerca`)."""
    from judge.cards.table import load_table
    from judge.corpus import load_corpus
    from judge.search.engines import get_engine

    corpus = load_corpus()
    engine = get_engine(argv[0] if argv else os.environ.get("JUDGE_INSTANCE", "instance"), corpus)
    found = build(engine, load_table())
    write(found)
    print(f"{RULINGS_RULES_FILE.name}: {len(found)} carte, {sum(map(len, found.values()))} regole "
          f"(edizione {corpus.in_force.id})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
