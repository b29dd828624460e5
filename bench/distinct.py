"""Distinct requests, as real traffic sends them: no two searches alike, every rule page a different rule.

Search queries are made from the corpus itself (seeded, so every run sends the same ones): the
question set, every glossary term in both languages, and 2- to 4-word windows of the rules' own
Italian and English sentences, some with a typo or without accents, as people type them. Each
query appears once, so neither the result cache nor the page cache can answer; the engine's
per-term caches warm up as they would under real traffic (words repeat across questions).
"""

from __future__ import annotations

import random
import urllib.parse

from judge.corpus import Corpus
from judge.search.analysis import fold
from judge.search.evaluate import load_questions

SEED = 14


def _typo(rng: random.Random, word: str) -> str:
    if len(word) < 5:
        return word
    i = rng.randrange(1, len(word) - 1)
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]  # swap two letters


def search_queries(corpus: Corpus, n: int = 20000, seed: int = SEED) -> list[str]:
    """``n`` distinct queries (fewer if the corpus cannot make that many)."""
    rng = random.Random(seed)
    out: dict[str, None] = {}
    for q in load_questions():
        out.setdefault(q.q, None)
    for e in corpus.glossary.values():
        for term in (e.term, e.it_term):
            if term:
                out.setdefault(term.lower(), None)
    texts = [t.text for n in corpus.numbers for t in (corpus.rules[n].italian, corpus.rules[n].en) if t is not None]
    attempts = 0
    while len(out) < n and attempts < n * 5:
        attempts += 1
        ws = rng.choice(texts).split()
        if len(ws) < 2:
            continue
        k = rng.randint(2, min(4, len(ws)))
        start = rng.randrange(0, len(ws) - k + 1)
        words = [w.strip(".,;:()“”\"'«»") for w in ws[start:start + k]]
        q = " ".join(w for w in words if w)
        if not q.strip():
            continue
        roll = rng.random()
        if roll < 0.1:
            q = fold(q)
        elif roll < 0.2:
            parts = q.split()
            j = rng.randrange(len(parts))
            parts[j] = _typo(rng, parts[j])
            q = " ".join(parts)
        if q:
            out.setdefault(q.lower(), None)
    queries = list(out)
    rng.shuffle(queries)
    return queries[:n]


def search_paths(corpus: Corpus, route: str, n: int = 20000) -> list[str]:
    return [f"{route}?" + urllib.parse.urlencode({"q": q}) for q in search_queries(corpus, n)]


def rule_paths(corpus: Corpus, seed: int = SEED) -> list[str]:
    """Every rule and subrule page of the edition in force (sections and chapters apart), shuffled."""
    paths = [f"/regole/{n}" for n in corpus.numbers if corpus.rules[n].kind in ("regola", "sottoregola")]
    random.Random(seed).shuffle(paths)
    return paths
