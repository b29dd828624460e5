"""Corpus benchmark: loading and checking the whole corpus, as a ratio to merely reading its files.

Run: .venv/bin/python bench/corpus_bench.py [--repeat N]
Each measurement is the median of N fresh runs (the corpus cache is bypassed).
"""

from __future__ import annotations

import argparse
import statistics
import time

from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.corpus.checks import check
from judge.corpus import Corpus, corpus_files
from judge.corpus.rules_en import edition_paths, parse_edition
from judge.corpus.rules_it import INDEX_FILE, load_sections, parse_index_file


def read_only() -> int:
    return sum(len(p.read_bytes()) for p in corpus_files(RULES_IT_DIR, RULES_EN_DIR))


def read_and_split() -> int:
    return sum(len(p.read_bytes().decode("utf-8-sig").splitlines()) for p in corpus_files(RULES_IT_DIR, RULES_EN_DIR))


def load() -> Corpus:
    editions = [parse_edition(p) for p in edition_paths(RULES_EN_DIR)]
    nav = parse_index_file(RULES_IT_DIR / INDEX_FILE)
    return Corpus(editions, load_sections(RULES_IT_DIR), nav, corpus_files(RULES_IT_DIR, RULES_EN_DIR))


def timed(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    size = read_only()
    t_read = timed(read_only, args.repeat)
    t_split = timed(read_and_split, args.repeat)
    t_load = timed(load, args.repeat)
    t_check = timed(lambda: check(load()), args.repeat)
    corpus = load()
    print(f"corpus: {len(corpus)} numbers, {len(corpus.files)} files, {size / 1e6:.2f} MB")
    print(f"read files only          {t_read * 1000:8.2f} ms   1.0x")
    print(f"read + decode + lines    {t_split * 1000:8.2f} ms   {t_split / t_read:6.1f}x reading")
    print(f"load (parse + join)      {t_load * 1000:8.2f} ms   {t_load / t_read:6.1f}x reading, {t_load / t_split:5.1f}x decoding")
    print(f"load + check (verifica)  {t_check * 1000:8.2f} ms   {t_check / t_read:6.1f}x reading, {t_check / t_split:5.1f}x decoding")


if __name__ == "__main__":
    main()
