"""Writes ``sentenze_regole.tsv`` (judge/search/card_rulings.py): each ruling of every card searched once in
the English rules of the edition in force, its first rule kept. Apart from the reader, because it needs
the search engine, which reads the file through the cards a question names.

    python -m judge.search.card_rulings_write [ISTANZA]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from judge.search.card_rulings import HEADER, RULINGS_RULES_FILE, forget, paused


def first_rules(engine, texts) -> tuple[str, ...]:
    """The first rule the English search finds for each text, each rule once, in order."""
    out: list[str] = []
    for text in texts:
        hits = engine.search(text, lang="en", per_page=1).hits
        if hits and hits[0].number not in out:
            out.append(hits[0].number)
    return tuple(out)


def by_words(engine):
    """A second engine on ``engine``'s index whose memory of questions is read by words only (learned.py):
    what a ruling finds then does not depend on whether the machine can run the sentence model
    (meaning.py), and the 30,000 rulings take minutes, not the hours the model would."""
    from judge.search.learned import get_memory
    from judge.search.query import Engine

    words = Engine(engine.path, engine.corpus)
    words.memory = get_memory(engine.corpus, by_meaning=False)
    return words


def build(engine, table, names=None) -> dict[str, tuple[str, ...]]:
    """Card -> the rules its rulings speak of (for ``names``, default every card with rulings), as the
    search finds them with its memory read by words (``by_words``)."""
    engine = by_words(engine)
    with paused():
        found = {name: first_rules(engine, (r.text for r in table.rulings(name)))
                 for name in (names if names is not None else table.names_with_rulings())}
    return {name: rules for name, rules in found.items() if rules}


def write(found: dict[str, tuple[str, ...]], path: Path = RULINGS_RULES_FILE) -> None:
    lines = [f"{name}\t{' '.join(rules)}\n" for name, rules in sorted(found.items())]
    path.write_text(HEADER + "".join(lines), encoding="utf-8")
    forget()


def main(argv: list[str]) -> int:
    """python -m judge.search.card_rulings_write [ISTANZA]: writes sentenze_regole.tsv for the edition in force
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
