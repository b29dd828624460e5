"""Linker benchmark: precision and recall of the citation parser on the snippet set, by half.

Run: .venv/bin/python bench/linker_bench.py [--errori]

tests/data/citazioni.json holds rulings, appeals, forum posts, judge articles, chat lines and
emails in Italian and English with the citations a judge expects. It was split once, at random
(seed in the file), into a tuning half ("taratura": the parser was tuned on it) and a held-out
half ("verifica": measured only). Beside the linker, a naive baseline: every dotted number
"NNN.N…" in the text, as a plain regular expression finds them.
"""

from __future__ import annotations

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from judge.corpus import load_corpus  # noqa: E402
from judge.corpus.citations_eval import HELD_OUT, TUNING, linker_finder, load_snippets, score  # noqa: E402

_NAIVE = re.compile(r"\b[1-9]\d{2}\.\d+[a-z]?\b")


def naive(text: str) -> list[str]:
    return _NAIVE.findall(text)


def main() -> None:
    corpus = load_corpus()
    snippets = load_snippets()
    finder = linker_finder(corpus)
    everything = list(snippets.snippets)
    print(f"Frammenti: {len(everything)} (seme della divisione {snippets.seed}); citazioni attese: "
          f"{sum(len(s.cites) for s in everything)}; frammenti senza citazioni: {sum(1 for s in everything if not s.cites)}")
    print(f"{'':28} {'collegatore judge':>44}   {'regex ingenua':>44}")
    for label, part in (("taratura", snippets.half(TUNING)), ("verifica (mai tarata)", snippets.half(HELD_OUT)),
                        ("italiano", [s for s in everything if s.lang == "it"]),
                        ("inglese", [s for s in everything if s.lang == "en"]), ("tutto", everything)):
        ours, base = score(part, finder), score(part, naive)
        print(f"{label:22} n={len(part):3}  {ours.line():>44}   {base.line():>44}")
    started = time.perf_counter()
    rounds = 20
    for _ in range(rounds):
        for s in everything:
            finder(s.text)
    elapsed = time.perf_counter() - started
    print(f"Velocità: {rounds * len(everything) / elapsed:,.0f} frammenti al secondo".replace(",", "."))
    if "--errori" in sys.argv:
        for label, half in (("taratura", TUNING), ("verifica", HELD_OUT)):
            for s, missed, extra in score(snippets.half(half), finder).errors:
                print(f"  [{label}] {s.id}: mancanti {missed}, in più {extra} | {s.text}")


if __name__ == "__main__":
    main()
