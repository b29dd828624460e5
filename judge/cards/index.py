"""The names index of the card table: every English, Italian and older Italian name, found by
whole name, by the start of a name (as one types) and word by word with typos corrected.

Names are compared as keys (judge.cards.names: the search's folding and word splitting).
Words are corrected with the search's own symmetric-delete speller
(judge.search.spelling.Speller) over the 28,000 words of card names; the typed words must all
be found in a name (a word typed last may be the start of one), each within the speller's
distance. A name that has only some of the words typed is offered last, as a near name.

Kept compact, because it lives in the server: the keys are one string with an offset each,
the word → names lists one numpy array with an offset per word (about 8 MB in all, most of
it the speller's).
"""

from __future__ import annotations

import bisect
import hashlib
from array import array
from collections import Counter
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from judge.cards.names import name_key
from judge.search.spelling import Speller

MAX_QUERY_WORDS = 12          # no card name has more words
MAX_COMPLETIONS = 40          # vocabulary words completing the word typed last
MAX_PREFIXED = 60             # names starting with what was typed
SHORT_WORD = 3                # a word this long is corrected only beside other words

# Costs, in half edits: a word as typed 0, a word typed halfway (completed) 1, one edit 2.
_COMPLETION = 1
_EDIT = 2

# Tiers of a hit, best first.
EXACT, PREFIX, WORDS, SOME_WORDS = 0, 1, 2, 3



def _stable_hash(key: str) -> int:
    """64 bits of the key's BLAKE2b: the same in every process (unlike ``hash``)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little", signed=True)

@dataclass(frozen=True)
class Hit:
    row: int
    position: int        # which of the row's names: 0 English, 1 Italian, 2… older Italian
    key: str
    tier: int
    cost: int = 0        # in half edits (see above)
    missing: int = 0     # words typed that the name lacks (SOME_WORDS only)

    @property
    def lang(self) -> str:
        return "en" if self.position == 0 else "it"

    @property
    def edits(self) -> int:
        return self.cost // _EDIT

    def rank(self) -> tuple:
        extra = len(self.key.split())
        return (self.tier, self.missing, self.cost, extra, len(self.key), self.key, self.position)


class _Keys:
    """The sorted keys as one string and their offsets: a sequence for ``bisect``."""

    def __init__(self, keys: list[str]):
        self._blob = "".join(keys)
        self._off = array("i", [0])
        for k in keys:
            self._off.append(self._off[-1] + len(k))

    def __len__(self) -> int:
        return len(self._off) - 1

    def __getitem__(self, i: int) -> str:
        return self._blob[self._off[i]:self._off[i + 1]]


class NameIndex:
    def __init__(self, names: Iterable[tuple[str, ...]]):
        """``names``: for each row in order, its names, English first. Built with arrays rather
        than lists of tuples: what the build leaves behind in the allocator stays in the
        server's memory for good."""
        keys: list[str] = []
        rows, positions = array("i"), array("b")
        for row, row_names in enumerate(names):
            seen: set[str] = set()
            for pos, name in enumerate(row_names):
                key = name_key(name)
                if key and key not in seen:          # an Italian name equal to the English: once
                    seen.add(key)
                    keys.append(key)
                    rows.append(row)
                    positions.append(min(pos, 127))
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self.keys = _Keys([keys[i] for i in order])
        # The keys' hashes, sorted: which of many word runs of a text may be names, in one look
        # (``may_be_names``).  A stable hash, not Python's: the index is built in one process and
        # read from the build cache by others, whose string hashes are salted differently.
        self._hashes = np.unique(np.fromiter((_stable_hash(k) for k in keys), dtype=np.int64, count=len(keys)))
        self.rows = array("i", (rows[i] for i in order))
        self.positions = array("b", (positions[i] for i in order))
        del keys, rows, positions, order
        vocabulary: Counter[str] = Counter()
        for e in range(len(self.keys)):
            vocabulary.update(set(self.keys[e].split()))
        self.speller = Speller(vocabulary, index_distance=1)
        del vocabulary
        words = self.speller.sorted_words
        word_ids, entries = array("i"), array("i")
        for e in range(len(self.keys)):
            for w in set(self.keys[e].split()):
                word_ids.append(bisect.bisect_left(words, w))
                entries.append(e)
        wid = np.frombuffer(word_ids, dtype=np.int32)
        order = np.argsort(wid, kind="stable")
        self._postings = np.frombuffer(entries, dtype=np.int32)[order].copy()
        self._starts = np.searchsorted(wid[order], np.arange(len(words) + 1, dtype=np.int32),
                                       "left").astype(np.int32)

    def __len__(self) -> int:
        return len(self.keys)

    def _hit(self, e: int, tier: int, cost: int = 0, missing: int = 0) -> Hit:
        return Hit(self.rows[e], self.positions[e], self.keys[e], tier, cost, missing)

    # --- whole names ----------------------------------------------------------------------
    def exact(self, key: str) -> list[Hit]:
        lo = bisect.bisect_left(self.keys, key)
        out = []
        while lo < len(self.keys) and self.keys[lo] == key:
            out.append(self._hit(lo, EXACT))
            lo += 1
        return out

    def prefixed(self, key: str, limit: int = MAX_PREFIXED) -> list[Hit]:
        """Names that start with ``key`` and are longer (as one types: «tarmo» → Tarmogoyf)."""
        lo = bisect.bisect_right(self.keys, key)
        out = []
        while lo < len(self.keys) and len(out) < limit:
            k = self.keys[lo]
            if not k.startswith(key):
                break
            out.append(self._hit(lo, PREFIX, cost=_COMPLETION))
            lo += 1
        return out

    def may_be_names(self, keys: list[str]) -> np.ndarray:
        """For each key, whether it may be a whole name (True for every name; a hash collision can
        add a False positive, which ``exact`` then rules out)."""
        if not keys:
            return np.zeros(0, dtype=bool)
        h = np.fromiter((_stable_hash(k) for k in keys), dtype=np.int64, count=len(keys))
        i = np.minimum(np.searchsorted(self._hashes, h), len(self._hashes) - 1)
        return self._hashes[i] == h

    # --- word by word -----------------------------------------------------------------------
    def _word_entries(self, word: str) -> np.ndarray:
        words = self.speller.sorted_words
        i = bisect.bisect_left(words, word)
        if i == len(words) or words[i] != word:
            return np.empty(0, dtype=np.int32)
        return self._postings[self._starts[i]:self._starts[i + 1]]

    def _candidates(self, word: str, last: bool, among: int = 1) -> dict[str, int]:
        """Vocabulary words the typed ``word`` may stand for, with their cost. A short word (three
        letters) is not corrected on its own, too many words are one edit from it; beside other
        words it may be («Slo Ring»: the name must have the other words too)."""
        short = SHORT_WORD if among > 1 and len(word) == SHORT_WORD else None
        found = {w: d * _EDIT for w, d in self.speller.near(word, 1 if short else None).items()}
        if last and len(word) >= 2:
            words = self.speller.sorted_words
            i = bisect.bisect_right(words, word)
            n = 0
            while i < len(words) and n < MAX_COMPLETIONS and words[i].startswith(word):
                found.setdefault(words[i], _COMPLETION)
                i += 1
                n += 1
        return found

    def _per_word(self, word: str, last: bool, among: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """(entries, lowest cost of each) of the names having a word ``word`` may stand for."""
        parts, costs = [], []
        for w, cost in self._candidates(word, last, among).items():
            e = self._word_entries(w)
            if len(e):
                parts.append(e)
                costs.append(np.full(len(e), cost, dtype=np.int32))
        if not parts:
            return np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int32)
        entries, cost = np.concatenate(parts), np.concatenate(costs)
        order = np.lexsort((cost, entries))
        entries, cost = entries[order], cost[order]
        first = np.ones(len(entries), dtype=bool)
        first[1:] = entries[1:] != entries[:-1]
        return entries[first], cost[first]

    def by_words(self, key: str, limit: int) -> list[Hit]:
        """Names having every word typed (corrected, or completed for the last one); if there are
        fewer than ``limit``, then names having the most of them."""
        words = key.split()[:MAX_QUERY_WORDS]
        if not words:
            return []
        per_word = [self._per_word(w, i == len(words) - 1, len(words)) for i, w in enumerate(words)]
        common = per_word[0][0]
        for entries, _ in per_word[1:]:
            common = np.intersect1d(common, entries, assume_unique=True)
        total = np.zeros(len(common), dtype=np.int32)
        for entries, cost in per_word:
            total += cost[np.searchsorted(entries, common)]
        best = np.argsort(total, kind="stable")[: limit * 4]
        out = [self._hit(int(common[i]), WORDS, int(total[i])) for i in best]
        if len(out) < limit and len(words) > 1:
            out += self._some_words(per_word, set(common.tolist()), len(words), limit - len(out))
        return out

    def _some_words(self, per_word, excluded: set[int], n_words: int, limit: int) -> list[Hit]:
        present = [e for e, _ in per_word if len(e)]
        if not present:
            return []
        entries, counts = np.unique(np.concatenate(present), return_counts=True)
        order = np.argsort(-counts, kind="stable")
        out = []
        for i in order[: limit * 8 + len(excluded)]:
            e = int(entries[i])
            if e not in excluded:
                out.append(self._hit(e, SOME_WORDS, missing=n_words - int(counts[i])))
        return out

    def search(self, key: str, limit: int = 10) -> list[Hit]:
        """The best hits for a typed key, one per row (its best name), best first."""
        if not key:
            return []
        hits = self.exact(key) + self.prefixed(key) + self.by_words(key, limit)
        best: dict[int, Hit] = {}
        for h in hits:
            old = best.get(h.row)
            if old is None or h.rank() < old.rank():
                best[h.row] = h
        return sorted(best.values(), key=Hit.rank)[:limit]
