"""Documents and rules: which documents belong to which rule, filters, and ranking rules, not documents.

A rule has one document per language (judge/search/index.py). Scores are computed per document
(judge/search/scoring.py); a rule ranks by its best document, Italian documents counting
``ITALIAN_BOOST`` times more (Italian text first where it exists), ties in rule order.
"""

from __future__ import annotations

import numpy as np

from judge.corpus.model import is_name_only
from judge.search.analysis import words

ITALIAN_BOOST = 1.5
MAX_FILTER_BYTES = 1024 * 1024  # masks of the filter combinations asked for (language x chapter x section)


class Layout:
    def __init__(self, stored: list[dict]):
        n = len(stored)
        order = np.array([f.get("order", 0) for f in stored], dtype=np.int64)
        # Rules in rule order; each document points to its rule.
        rule_orders, self.rule_of = np.unique(order, return_inverse=True)
        self.rules = len(rule_orders)
        self.lang = np.array([f.get("lang", "") for f in stored])
        self.chapter = np.array([f.get("chapter", "") for f in stored])
        self.section = np.array([f.get("section", "") for f in stored])
        self.language_boost = np.where(self.lang == "it", np.float32(ITALIAN_BOOST), np.float32(1.0)).astype(np.float32)
        # Per rule, its Italian and English document (n: none; index n is a "no score" slot).
        self.doc_it = np.full(self.rules, n, dtype=np.int64)
        self.doc_en = np.full(self.rules, n, dtype=np.int64)
        for d in range(n):
            (self.doc_it if self.lang[d] == "it" else self.doc_en)[self.rule_of[d]] = d
        self._filters: dict[tuple, np.ndarray] = {}
        self.n = n
        # Rules whose text is only a name, such as 702.19 «Travolgere»: they rank below the rules that
        # answer (query.py, W_HEADING_ONLY). Sections and chapters keep their score: a topic's section
        # is a fair answer to a question about the topic.
        self.heading_only = np.array([f.get("kind") not in ("capitolo", "sezione") and is_name_only(f.get("text", ""))
                                      for f in stored], dtype=bool)
        # Name-only documents by their name as words ("travolgere"): typing the name asks for that rule.
        self.named: dict[str, list[int]] = {}
        for d in np.flatnonzero(self.heading_only):
            self.named.setdefault(" ".join(words(stored[d].get("text", ""))), []).append(int(d))
        # Per rule number, its documents (an Italian and an English one, at most).
        self.docs_of: dict[str, list[int]] = {}
        for d, f in enumerate(stored):
            self.docs_of.setdefault(f.get("number", ""), []).append(d)

    def filter(self, lang: str, chapter: str | None, section: str | None) -> np.ndarray:
        """Documents allowed by the search filters (language, chapter, section)."""
        key = (lang, chapter, section)
        mask = self._filters.get(key)
        if mask is None:
            mask = np.ones(self.n, dtype=bool)
            if lang in ("it", "en"):
                mask &= self.lang == lang
            if chapter:
                mask &= self.chapter == chapter
            if section:
                mask &= self.section == section
            if len(self._filters) * self.n < MAX_FILTER_BYTES:  # a mask is a byte per document
                self._filters[key] = mask
        return mask

    def rank(self, score: np.ndarray, admitted: np.ndarray, count: int) -> tuple[list[tuple[int, float]], float, int]:
        """The first ``count`` rules by their best admitted document: [(rule, score)], the top score,
        and how many rules were admitted."""
        padded = np.full(self.n + 1, -1.0, dtype=np.float32)  # index n: "no such document"
        np.copyto(padded[: self.n], score, where=admitted)
        best = np.maximum(padded[self.doc_it], padded[self.doc_en])
        hit = best >= 0  # an admitted document scores 0 or more
        total = int(np.count_nonzero(hit))
        if not total:
            return [], 0.0, 0
        candidates = np.flatnonzero(hit)
        scores = best[candidates]
        if len(candidates) > count:
            # Every rule scoring at least the count-th best score (ties included), then an exact sort.
            threshold = np.partition(scores, len(scores) - count)[len(scores) - count]
            keep = scores >= threshold
            candidates, scores = candidates[keep], scores[keep]
        ordering = np.lexsort((candidates, -scores))[:count]
        ranked = [(int(candidates[i]), float(scores[i])) for i in ordering]
        return ranked, ranked[0][1], total

    def shown(self, rule: int, lang: str) -> int:
        """The document a rule is shown with: English when asked for, otherwise Italian where it exists."""
        if lang == "en" or self.doc_it[rule] == self.n:
            return int(self.doc_en[rule])
        return int(self.doc_it[rule])
