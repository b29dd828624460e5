"""Query evaluation over the Whoosh index, in memory, with numpy.

The index is small (a few thousand documents) and our queries are wide: every unit expands to
terms and phrases in two languages and several fields. Whoosh's matcher trees spend most of
their time in per-document Python bookkeeping; here each leaf (a term or a phrase in a field) is
scored once with BM25F (Whoosh's formula and parameters) into a sparse vector (document ids,
scores) kept across queries, and a query tree is combined as dense vectors over all documents:
a sum for OR, a masked sum for AND. A document matches a node when its score there is above 0
(every score is a positive BM25 value times a positive boost).

Postings are read from the Whoosh reader on first use; positions only for phrases.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, fields

import numpy as np

B = 0.75
K1 = 1.2
# Postings, positions and leaf scores kept across queries, counted in entries (a document in an array,
# a position in a tuple): under 20 MB. Measured with distinct traffic through bench/http_bench.py, the
# server peaks at 192 MB with 500,000 (199 MB with a million, for about 10% more search throughput).
MAX_CACHED_ENTRIES = 500_000


class _Node:
    def __post_init__(self):
        object.__setattr__(self, "_hash", hash((type(self).__name__, *(getattr(self, f.name) for f in fields(self)))))

    def __hash__(self):
        return self._hash


@dataclass(frozen=True)
class T(_Node):
    """A term in a field."""

    field: str
    text: str
    boost: float = 1.0


@dataclass(frozen=True)
class P(_Node):
    """A phrase: terms at consecutive positions (stop words already removed by the analyzer)."""

    field: str
    words: tuple[str, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class A(_Node):
    """All of the children must match; scores add up."""

    children: tuple
    boost: float = 1.0


@dataclass(frozen=True)
class O(_Node):
    """Any child may match; scores add up."""

    children: tuple
    boost: float = 1.0


@dataclass(frozen=True)
class F(_Node):
    """A term (one word) or a phrase (several) in several fields, each with its weight: the weighted
    sum of the fields' scores, evaluated once as a single leaf."""

    fields: tuple[tuple[str, float], ...]
    words: tuple[str, ...]
    boost: float = 1.0


Node = T | P | F | A | O

for _node in (T, P, F, A, O):
    # Nodes are dictionary keys (caches, the per-search memo) and nest: hash each once, not at
    # every lookup (a frozen dataclass rehashes its whole subtree every time).
    _node.__hash__ = _Node.__hash__

_EMPTY = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32))


def leaves(node: Node):
    """The (field, term) pairs of a query tree."""
    if isinstance(node, T):
        yield node.field, node.text
    elif isinstance(node, P):
        for w in node.words:
            yield node.field, w
    elif isinstance(node, F):
        for f, _ in node.fields:
            for w in node.words:
                yield f, w
    else:
        for c in node.children:
            yield from leaves(c)


class Scorer:
    """BM25F scores of query trees over one open Whoosh index."""

    def __init__(self, ix):
        self.ix = ix
        self.schema = ix.schema  # read once: ix.schema re-reads the table of contents
        self._searcher = ix.searcher()
        reader = self._searcher.reader()
        self.reader = reader
        self.n = reader.doc_count_all()
        self.stored = [reader.stored_fields(d) for d in range(self.n)]
        self.fields = [name for name, f in self.schema.items() if f.scorable]
        # BM25's length normalisation per field and document: K1 * ((1 - B) + B * length / average).
        self.norm: dict[str, np.ndarray] = {}
        for f in self.fields:
            lengths = np.array([reader.doc_field_length(d, f, 0) or 0 for d in range(self.n)], dtype=np.float32)
            avg = float(lengths.mean()) if self.n and lengths.mean() else 1.0
            self.norm[f] = (K1 * ((1 - B) + B * lengths / avg)).astype(np.float32)
        self._postings: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
        self._positions: dict[tuple[str, str], dict[int, tuple[int, ...]]] = {}
        self._leaves: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._cached_entries = 0
        self._lock = threading.Lock()  # guards the caches' bookkeeping
        self._read_lock = threading.Lock()  # Whoosh readers share file handles: one reader at a time
        self.numbers_of = [f.get("number", "") for f in self.stored]
        self.by_number: dict[str, list[int]] = {}
        for d, f in enumerate(self.stored):
            self.by_number.setdefault(f.get("number", ""), []).append(d)

    def close(self) -> None:
        self._searcher.close()

    def _remember(self, cache: dict, key, value, size: int):
        with self._lock:
            self._cached_entries += size + 1
            if self._cached_entries > MAX_CACHED_ENTRIES:  # bounded memory: start again
                self._postings.clear()
                self._positions.clear()
                self._leaves.clear()
                self._cached_entries = size + 1
            cache[key] = value
        return value

    # -- postings -----------------------------------------------------------------------------------
    def postings(self, field: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        """(document ids, term frequencies) of a term in a field."""
        key = (field, text)
        got = self._postings.get(key)
        if got is not None:
            return got
        ids, weights = [], []
        with self._read_lock:
            if (field, text) in self.reader:
                m = self.reader.postings(field, text)
                while m.is_active():
                    ids.append(m.id())
                    weights.append(m.weight())
                    m.next()
        value = (np.array(ids, dtype=np.int32), np.array(weights, dtype=np.float32)) if ids else _EMPTY
        return self._remember(self._postings, key, value, len(ids))

    def positions(self, field: str, text: str) -> dict[int, tuple[int, ...]]:
        """Document id -> positions of a term in a field (for phrases)."""
        key = (field, text)
        got = self._positions.get(key)
        if got is not None:
            return got
        out: dict[int, tuple[int, ...]] = {}
        with self._read_lock:
            if (field, text) in self.reader and self.schema[field].format.supports("positions"):
                m = self.reader.postings(field, text)
                while m.is_active():
                    out[m.id()] = tuple(m.value_as("positions"))
                    m.next()
        return self._remember(self._positions, key, out, sum(len(v) for v in out.values()) * 4)

    def idf(self, df: int) -> float:
        return math.log(self.n / (df + 1)) + 1

    # -- leaves -------------------------------------------------------------------------------------
    def _term(self, field: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Unboosted BM25 scores of a term: (document ids, scores)."""
        key = ("T", field, text)
        got = self._leaves.get(key)
        if got is not None:
            return got
        docs, tf = self.postings(field, text)
        if field not in self.norm:
            # Unscored fields (rule number, language...): a match is worth 1.
            value = (docs, np.ones(len(docs), dtype=np.float32))
        else:
            idf = self.idf(len(docs))
            value = (docs, (idf * tf * (K1 + 1) / (tf + self.norm[field][docs])).astype(np.float32))
        return self._remember(self._leaves, key, value, len(docs))

    def _phrase(self, field: str, words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Unboosted scores of a phrase: BM25 of the phrase's count, summed over its words' idf."""
        key = ("P", field, words)
        got = self._leaves.get(key)
        if got is not None:
            return got
        posts = [self.postings(field, w) for w in words]
        value = _EMPTY
        if posts and all(len(d) for d, _ in posts):
            common = posts[0][0]
            for d, _ in posts[1:]:
                common = np.intersect1d(common, d, assume_unique=True)
            if len(common):
                where = [self.positions(field, w) for w in words]
                docs, counts = [], []
                for d in common.tolist():
                    starts = set(where[0][d])
                    for i in range(1, len(words)):
                        following = where[i][d]
                        starts = {s for s in starts if s + i in following}
                        if not starts:
                            break
                    if starts:
                        docs.append(d)
                        counts.append(len(starts))
                if docs:
                    ids = np.array(docs, dtype=np.int32)
                    tf = np.array(counts, dtype=np.float32)
                    idf = sum(self.idf(len(d)) for d, _ in posts)
                    norm = self.norm[field][ids] if field in self.norm else np.float32(K1)
                    value = (ids, (idf * tf * (K1 + 1) / (tf + norm)).astype(np.float32))
        return self._remember(self._leaves, key, value, len(value[0]))

    def _fields(self, fields: tuple[tuple[str, float], ...], words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Unboosted weighted sum over fields of a term's (or a phrase's) scores."""
        key = ("F", fields, words)
        got = self._leaves.get(key)
        if got is not None:
            return got
        acc = np.zeros(self.n, dtype=np.float32)
        for field, weight in fields:
            docs, vals = self._term(field, words[0]) if len(words) == 1 else self._phrase(field, words)
            acc[docs] += vals * np.float32(weight)
        ids = np.flatnonzero(acc).astype(np.int32)
        return self._remember(self._leaves, key, (ids, acc[ids]), len(ids))

    # -- evaluation ---------------------------------------------------------------------------------
    def scores(self, node: Node, memo: dict | None = None) -> np.ndarray:
        """Dense scores of ``node`` over every document (0: no match). ``memo`` shares the results of
        nodes met again within one search; the arrays are shared: do not modify them."""
        if memo is not None:
            got = memo.get(node)
            if got is not None:
                return got
        if isinstance(node, (T, P, F)):
            if isinstance(node, F):
                docs, vals = self._fields(node.fields, node.words)
            elif isinstance(node, T):
                docs, vals = self._term(node.field, node.text)
            else:
                docs, vals = self._phrase(node.field, node.words)
            out = np.zeros(self.n, dtype=np.float32)
            out[docs] = vals * np.float32(node.boost)
        elif isinstance(node, A):
            parts = [self.scores(c, memo) for c in node.children]
            out = np.zeros(self.n, dtype=np.float32)
            if parts:
                mask = np.logical_and.reduce([p > 0 for p in parts])
                if mask.any():
                    out = np.add.reduce(parts) * mask * np.float32(node.boost)
        else:
            parts = [self.scores(c, memo) for c in node.children]
            out = np.add.reduce(parts) if len(parts) > 1 else (parts[0].copy() if parts else np.zeros(self.n, np.float32))
            if node.boost != 1.0:
                out = out * np.float32(node.boost)
        if memo is not None:
            memo[node] = out
        return out
