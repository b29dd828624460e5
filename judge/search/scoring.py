"""Query evaluation over the Whoosh index, in memory, with numpy.

The index is small (a few thousand documents) and our queries are wide: every unit expands to
terms and phrases in two languages and several fields. Whoosh's matcher trees spend most of
their time in per-document Python bookkeeping; here each leaf (a term or a phrase in a field) is
scored once with BM25F (Whoosh's formula and parameters) into a sparse vector (document ids,
scores) kept across queries, and a query tree is combined as dense vectors over all documents:
a sum for OR, a masked sum for AND. A document matches a node when its score there is above 0
(every score is a positive BM25 value times a positive boost).

Postings (with positions, for phrases), stored fields and length norms come from the arrays saved
beside the index when it was built (arrays.py: a few megabytes, loaded as the index opens); an
index without them is read from Whoosh, term by term on first use or all at once by ``preload``.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

import numpy as np

from judge.search.arrays import (B, K1, POSITION_BITS, FlatPostings, IndexArrays, Postings, postings_from_reader,
                                 read_lists, stored_and_norms)

__all__ = ["A", "B", "F", "K1", "Node", "O", "P", "Scorer", "T", "leaves"]
# Leaf scores kept across queries, in bytes: the arrays and what each entry costs around them (an
# empty result is one shared constant, but its key and slot are counted: 80,000 of them are MBs).
MAX_CACHED_BYTES = 4 * 1024 * 1024
LEAF_OVERHEAD = 400


class _Node:
    def __post_init__(self):
        # __dict__ holds exactly the fields here, in order (dataclasses.fields() costs more than the hash).
        object.__setattr__(self, "_hash", hash((type(self).__name__, *self.__dict__.values())))

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

    def __init__(self, ix, arrays: IndexArrays | None = None):
        """``arrays``: the index in memory, as saved beside it (arrays.py); without them, terms are
        read from Whoosh as they are met (or all at once by ``preload``)."""
        self.ix = ix
        self.schema = ix.schema  # read once: ix.schema re-reads the table of contents
        self._searcher = ix.searcher()
        reader = self._searcher.reader()
        self.reader = reader
        self._positional = {name for name, f in self.schema.items() if f.format and f.format.supports("positions")}
        if arrays is not None:
            self.n, self.stored, self.norm = arrays.n, arrays.stored, arrays.norm
        else:
            self.stored, self.norm = stored_and_norms(reader, self.schema)
            self.n = len(self.stored)
        self.fields = [name for name, f in self.schema.items() if f.scorable]
        # Every term read is kept for the engine's life: the whole index is a few MB as arrays
        # (258,000 postings, 298,000 positions), where the old per-document tuples needed an eviction
        # that made distinct traffic re-read Whoosh over and over.
        self._terms: dict[tuple[str, str], Postings] = {}
        self._flat: FlatPostings | None = arrays.postings if arrays is not None else None
        self._leaves: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
        self._cached_bytes = 0
        self._lock = threading.Lock()  # guards the leaf cache's bookkeeping
        self._read_lock = threading.Lock()  # Whoosh readers share file handles: one reader at a time
        self.numbers_of = [f.get("number", "") for f in self.stored]
        self.by_number: dict[str, list[int]] = {}
        for d, f in enumerate(self.stored):
            self.by_number.setdefault(f.get("number", ""), []).append(d)

    def close(self) -> None:
        self._searcher.close()

    def _remember(self, key, value):
        """Keep a leaf's scores: leaves are combinations (fields x words x weights), unbounded in number,
        so the cache is bounded in bytes (when full it starts again: cheaper than ordering every hit)."""
        if not len(value[0]):
            value = _EMPTY
        size = value[0].nbytes + value[1].nbytes + LEAF_OVERHEAD
        with self._lock:
            self._cached_bytes += size
            if self._cached_bytes > MAX_CACHED_BYTES:
                self._leaves.clear()
                self._cached_bytes = size
            self._leaves[key] = value
        return value

    # -- postings -----------------------------------------------------------------------------------
    def terms(self, field: str):
        """The terms of a field (from the arrays in memory when there are, else from Whoosh)."""
        if self._flat is not None:
            return self._flat.terms(field)
        with self._read_lock:               # the reader's file handles are shared: one at a time
            return [t.decode("utf-8") if isinstance(t, bytes) else t for t in self.reader.field_terms(field)]

    def _read(self, field: str, text: str) -> Postings:
        ids, tf, keys = read_lists(self.reader, self._positional, field, text)
        return Postings(np.array(ids, np.int32), np.array(tf, np.float32),
                        None if keys is None else np.array(keys, np.int64))

    def postings(self, field: str, text: str) -> Postings:
        """A term's postings in a field: from the arrays in memory, or read from Whoosh on first use and kept."""
        if self._flat is not None:
            return self._flat.get(field, text)
        got = self._terms.get((field, text))
        if got is not None:
            return got
        with self._read_lock:
            got = self._terms.get((field, text))
            if got is None:
                got = self._terms[(field, text)] = self._read(field, text)
        return got

    def preload(self) -> None:
        """Read every term from Whoosh now, so that no search waits on it (a no-op when the arrays
        saved with the index were loaded)."""
        with self._read_lock:
            if self._flat is None:
                self._flat = postings_from_reader(self.reader, self.schema)
                self._terms = {}

    def idf(self, df: int) -> float:
        return math.log(self.n / (df + 1)) + 1

    # -- leaves -------------------------------------------------------------------------------------
    def _term(self, field: str, text: str) -> tuple[np.ndarray, np.ndarray]:
        """Unboosted BM25 scores of a term: (document ids, scores)."""
        key = ("T", field, text)
        got = self._leaves.get(key)
        if got is not None:
            return got
        docs, tf = self.postings(field, text)[:2]
        if field not in self.norm:
            # Unscored fields (rule number, language...): a match is worth 1.
            value = (docs, np.ones(len(docs), dtype=np.float32))
        else:
            idf = self.idf(len(docs))
            value = (docs, (idf * tf * (K1 + 1) / (tf + self.norm[field][docs])).astype(np.float32))
        return self._remember(key, value)

    def _phrase(self, field: str, words: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Unboosted scores of a phrase: BM25 of the phrase's count, summed over its words' idf."""
        key = ("P", field, words)
        got = self._leaves.get(key)
        if got is not None:
            return got
        posts = [self.postings(field, w) for w in words]
        value = _EMPTY
        if posts and all(len(p.docs) for p in posts) and all(p.keys is not None for p in posts):
            # Keys are (document, position) in one integer: the phrase starts where word i sits at
            # start + i for every i.
            starts = posts[0].keys
            for i, p in enumerate(posts[1:], 1):
                starts = starts[np.isin(starts + i, p.keys, assume_unique=True)]
                if not len(starts):
                    break
            if len(starts):
                ids, counts = np.unique(starts >> POSITION_BITS, return_counts=True)
                ids = ids.astype(np.int32)
                tf = counts.astype(np.float32)
                idf = sum(self.idf(len(p.docs)) for p in posts)
                norm = self.norm[field][ids] if field in self.norm else np.float32(K1)
                value = (ids, (idf * tf * (K1 + 1) / (tf + norm)).astype(np.float32))
        return self._remember(key, value)

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
        return self._remember(key, (ids, acc[ids]))

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
