"""Query evaluation over the Whoosh index, in memory.

The index is small (a few thousand documents), and our queries are wide (every
unit expands to terms and phrases in two languages and several fields). Whoosh's
matcher trees spend most of their time in per-document bookkeeping; here each
leaf is evaluated once into ``{docnum: score}`` with BM25F (Whoosh's formula and
parameters), cached per leaf, and combined with dictionary arithmetic. Postings
and positions are read from the Whoosh reader on first use.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass

B = 0.75
K1 = 1.2
MAX_CACHED_ENTRIES = 400_000  # scored documents kept across queries (~40 MB)


@dataclass(frozen=True)
class T:
    """A term in a field."""

    field: str
    text: str
    boost: float = 1.0


@dataclass(frozen=True)
class P:
    """A phrase: terms at consecutive positions (stop words already removed by the analyzer)."""

    field: str
    words: tuple[str, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class A:
    """All of the children must match; scores add up."""

    children: tuple
    boost: float = 1.0


@dataclass(frozen=True)
class O:
    """Any child may match; scores add up."""

    children: tuple
    boost: float = 1.0


Node = T | P | A | O


def leaves(node: Node):
    """The (field, term) pairs of a query tree."""
    if isinstance(node, T):
        yield node.field, node.text
    elif isinstance(node, P):
        for w in node.words:
            yield node.field, w
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
        self.lengths = {f: [reader.doc_field_length(d, f, 0) or 0 for d in range(self.n)] for f in self.fields}
        self.avg = {f: (sum(v) / self.n if self.n else 1.0) or 1.0 for f, v in self.lengths.items()}
        self._postings: dict[tuple[str, str], dict[int, tuple[float, tuple[int, ...]]]] = {}
        self._scores: dict[Node, dict[int, float]] = {}
        self._cached_entries = 0
        self._lock = threading.Lock()
        self.numbers_of = [f.get("number", "") for f in self.stored]
        self.by_number: dict[str, list[int]] = {}
        for d, f in enumerate(self.stored):
            self.by_number.setdefault(f.get("number", ""), []).append(d)

    def close(self) -> None:
        self._searcher.close()

    # -- postings -----------------------------------------------------------------------------------
    def postings(self, field: str, text: str) -> dict[int, tuple[float, tuple[int, ...]]]:
        key = (field, text)
        got = self._postings.get(key)
        if got is not None:
            return got
        with self._lock:
            got = self._postings.get(key)
            if got is not None:
                return got
            out: dict[int, tuple[float, tuple[int, ...]]] = {}
            if (field, text) in self.reader:
                fmt = self.schema[field].format
                positions_ok = fmt.supports("positions")
                m = self.reader.postings(field, text)
                while m.is_active():
                    pos = tuple(m.value_as("positions")) if positions_ok else ()
                    out[m.id()] = (m.weight(), pos)
                    m.next()
            self._postings[key] = out
            return out

    def idf(self, df: int) -> float:
        return math.log(self.n / (df + 1)) + 1

    def _bm25(self, field: str, doc: int, tf: float, idf: float) -> float:
        fl = self.lengths[field][doc]
        return idf * ((tf * (K1 + 1)) / (tf + K1 * ((1 - B) + B * fl / self.avg[field])))

    # -- evaluation ---------------------------------------------------------------------------------
    def scores(self, node: Node) -> dict[int, float]:
        """docnum -> score for the documents matching ``node`` (cached; do not modify)."""
        got = self._scores.get(node)
        if got is not None:
            return got
        if isinstance(node, T) and node.field not in self.lengths:
            # Unscored fields (rule number, language...): a match is worth its boost.
            out = dict.fromkeys(self.postings(node.field, node.text), node.boost)
        elif isinstance(node, T):
            post = self.postings(node.field, node.text)
            idf = self.idf(len(post))
            out = {d: node.boost * self._bm25(node.field, d, tf, idf) for d, (tf, _) in post.items()}
        elif isinstance(node, P):
            out = self._phrase(node)
        elif isinstance(node, A):
            parts = [self.scores(c) for c in node.children]
            if not parts or any(not p for p in parts):
                out = {}
            else:
                parts.sort(key=len)
                common = set(parts[0])
                for p in parts[1:]:
                    common &= p.keys()
                out = {d: node.boost * sum(p[d] for p in parts) for d in common}
        else:
            out = {}
            for c in node.children:
                for d, s in self.scores(c).items():
                    out[d] = out.get(d, 0.0) + s
            if node.boost != 1.0:
                out = {d: s * node.boost for d, s in out.items()}
        self._cached_entries += len(out) + 1
        if self._cached_entries > MAX_CACHED_ENTRIES:  # bounded memory: start again
            self._scores.clear()
            self._cached_entries = len(out) + 1
        self._scores[node] = out
        return out

    def _phrase(self, node: P) -> dict[int, float]:
        words = node.words
        posts = [self.postings(node.field, w) for w in words]
        if not posts or any(not p for p in posts):
            return {}
        common = set(posts[0])
        for p in posts[1:]:
            common &= p.keys()
        out: dict[int, float] = {}
        idfs = [self.idf(len(p)) for p in posts]
        for d in common:
            starts = set(posts[0][d][1])
            for i in range(1, len(words)):
                nxt = set(posts[i][d][1])
                starts = {s for s in starts if s + i in nxt}
                if not starts:
                    break
            if starts:
                tf = len(starts)
                out[d] = node.boost * sum(self._bm25(node.field, d, tf, idf) for idf in idfs)
        return out
