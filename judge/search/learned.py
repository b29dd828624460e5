"""What the search learns from questions: the rules that answered questions like this one.

The tuning half of ``domande.json`` (questions players ask, each with the rules that answer it,
written for this purpose and kept out of the evaluation sets) is a memory: a new question is
compared with every question in it (tf-idf cosine over Italian stems, the analyzer's: ``stems``), and the
rules of the nearest ones are the rules the new question probably asks for, weighted by how near
(``rules_for``). The engine adds them to the rules its words find (query.py). The held-out half of
the file is never read here: it measures what the memory is worth on questions it has not seen.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.search.analysis import stem, words

QUESTIONS_FILE = Path(__file__).with_name("domande.json")
LEARNED_HALF = "tuning"
NEIGHBOURS = 5  # questions whose rules count
MIN_SIMILARITY = 0.2  # below this a question is not like the one asked


def stems(text: str) -> set[str]:
    """A question's Italian terms, as a set (the analyzer's, word by word through ``stem``'s cache)."""
    return {t for t in (stem(w, "it") for w in words(text)) if t is not None}


@dataclass(frozen=True)
class Asked:
    text: str
    rules: tuple[str, ...]
    group: str = ""


def read_questions(path: Path | None = None, half: str = LEARNED_HALF) -> list[Asked]:
    data = json.loads(Path(path or QUESTIONS_FILE).read_text(encoding="utf-8"))
    return [Asked(q["q"], tuple(q["rules"]), q.get("group", "")) for q in data["questions"] if q.get("half") == half]


class Memory:
    """Questions asked before, searchable by likeness."""

    def __init__(self, asked: list[Asked], corpus=None):
        self.asked = [a for a in asked if corpus is None or all(n in corpus for n in a.rules)]
        docs = [stems(a.text) for a in self.asked]
        n = len(docs) or 1
        df: dict[str, int] = {}
        for d in docs:
            for t in d:
                df[t] = df.get(t, 0) + 1
        self.idf = {t: math.log(1 + n / k) for t, k in df.items()}
        self.postings: dict[str, list[int]] = {}
        for i, d in enumerate(docs):
            for t in d:
                self.postings.setdefault(t, []).append(i)
        self.norm = [math.sqrt(sum(self.idf[t] ** 2 for t in d)) or 1.0 for d in docs]

    def __len__(self) -> int:
        return len(self.asked)

    def nearest(self, text: str, k: int = NEIGHBOURS) -> list[tuple[float, Asked]]:
        """The ``k`` questions most like ``text`` (cosine of tf-idf over stems), likest first."""
        asked = stems(text)
        acc: dict[int, float] = {}
        for t in asked:
            weight = self.idf.get(t)
            if weight is not None:
                for i in self.postings[t]:
                    acc[i] = acc.get(i, 0.0) + weight * weight
        if not acc:
            return []
        unknown = math.log(1 + len(self.asked))
        qnorm = math.sqrt(sum(self.idf.get(t, unknown) ** 2 for t in asked)) or 1.0
        sims = [(s / (self.norm[i] * qnorm), i) for i, s in acc.items()]
        near = sorted(((-s, i) for s, i in sims if s >= MIN_SIMILARITY))[:k]  # likest first, then file order
        return [(-s, self.asked[i]) for s, i in near]

    def rules_for(self, text: str) -> dict[str, float]:
        """Rule -> weight (0–1): the likeness of the nearest question that rule answered."""
        out: dict[str, float] = {}
        for sim, a in self.nearest(text):
            for n in a.rules:
                out[n] = max(out.get(n, 0.0), sim)
        return out


@lru_cache(maxsize=4)
def _memory(path: str, corpus) -> Memory:
    return Memory(read_questions(Path(path)), corpus)


def get_memory(corpus=None, path: Path | None = None) -> Memory:
    """The memory of the tuning half, built once per corpus."""
    return _memory(str(path or QUESTIONS_FILE), corpus)
