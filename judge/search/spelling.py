"""Typo tolerance: corrections and completions of words that are not in the corpus.

A symmetric-delete dictionary (SymSpell) over the folded words of the corpus and
the glossary: a word and its candidates share a string obtained by deleting up
to two characters from each, which finds insertions, deletions, substitutions
and transpositions; candidates are then checked with the true
(Damerau-Levenshtein, optimal string alignment) distance.

The deletes of 7,000 words are about 370,000 strings: as a dict of lists they took
40 MB of the server's memory. They are kept as two numpy arrays instead, the
deletes' hashes (sorted; a CRC-32 with the length, the same in every process)
and the word each comes from, 4 MB. A hash collision can only add a candidate, and
every candidate is checked with the true distance.
"""

from __future__ import annotations

import bisect
import zlib
from array import array
from itertools import combinations

import numpy as np


def _deletes(word: str, distance: int) -> set[str]:
    out = {word}
    n = len(word)
    for d in range(1, min(distance, n - 1) + 1):
        for idx in combinations(range(n), d):
            out.add("".join(ch for i, ch in enumerate(word) if i not in idx))
    return out


def _key(delete: str) -> int:
    """A delete's hash, the same in every process (the speller is kept in the build cache, and
    Python's own string hash changes from one process to the next): CRC-32 and the length."""
    return zlib.crc32(delete.encode("utf-8")) | (len(delete) << 32)


def osa_distance(a: str, b: str, limit: int = 3) -> int:
    """Optimal string alignment distance (adjacent transpositions count 1), capped at ``limit``."""
    if abs(len(a) - len(b)) >= limit:
        return limit
    prev2: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) >= limit:
            return limit
        prev2, prev = prev, cur
    return min(prev[-1], limit)


# Italian endings put on English words: judges' verbs ("counterare", "scryato": counter, scry) and
# the -zione/-(c)tion cognates of names the translation keeps in English ("attrazione": Attraction).
_VERB_ENDINGS = ("ando", "are", "ato", "ata", "ati", "ate")
_COGNATES = (("zioni", "tions"), ("zioni", "ctions"), ("zione", "tion"), ("zione", "ction"))


def english_forms(word: str) -> list[str]:
    """The English words an Italianised word may stand for, most likely first (unchecked)."""
    out = [word[: -len(it)] + en for it, en in _COGNATES if word.endswith(it)]
    for ending in _VERB_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            root = word[: -len(ending)]
            out += [root, root[:-1]] if len(root) > 3 and root[-1] == root[-2] else [root]  # "blinkkare"
    return out


def max_distance(word: str) -> int:
    n = len(word)
    if n < 4:
        return 0
    return 1 if n <= 6 else 2


class Speller:
    """Corrections towards a weighted vocabulary (word -> frequency; preferred words get a bonus).

    ``index_distance`` is how many deletions of each vocabulary word are indexed. With 2 (the
    search's), every word within distance 2 of a typed word is found; with 1 (card names: 28,000
    words, built in a fraction of the time and memory) a word is found one edit away, or two
    edits away when at most one of them is a missing, changed or swapped letter (the other an
    extra letter typed)."""

    def __init__(self, vocabulary: dict[str, int], preferred: set[str] | None = None,
                 index_distance: int = 2):
        self.freq = dict(vocabulary)
        self.preferred = preferred or set()
        self.sorted_words = sorted(self.freq)
        # A word longer than this by more than the allowed distance cannot be a typo of any known
        # word: it is not corrected (its deletes alone would cost O(n²) strings of length n).
        self.longest = max(map(len, self.freq), default=0)
        keys, ids = array("q"), array("i")
        for i, w in enumerate(self.sorted_words):
            if len(w) < 3:
                continue
            for d in _deletes(w, index_distance):
                keys.append(_key(d))
                ids.append(i)
        order = np.argsort(np.frombuffer(keys, dtype=np.int64), kind="stable")
        self._keys = np.frombuffer(keys, dtype=np.int64)[order]
        self._ids = np.frombuffer(ids, dtype=np.int32)[order]

    def _candidates(self, deletes: set[str]) -> list[str]:
        """The vocabulary words sharing a delete with the given ones (each word once)."""
        hashes = np.fromiter((_key(d) for d in deletes), dtype=np.int64, count=len(deletes))
        lo = np.searchsorted(self._keys, hashes, "left")
        hi = np.searchsorted(self._keys, hashes, "right")
        found = {int(i) for a, b in zip(lo.tolist(), hi.tolist()) if b > a for i in self._ids[a:b]}
        return [self.sorted_words[i] for i in sorted(found)]

    def __contains__(self, word: str) -> bool:
        return word in self.freq

    def _rank(self, word: str) -> tuple:
        return (word not in self.preferred, -self.freq.get(word, 0), word)

    def near(self, word: str, limit: int | None = None) -> dict[str, int]:
        """Every vocabulary word within ``limit`` (default ``max_distance(word)``) of ``word`` (itself
        included, at 0, when it is a vocabulary word), with its distance."""
        limit = max_distance(word) if limit is None else limit
        found: dict[str, int] = {word: 0} if word in self.freq else {}
        if not limit or len(word) > self.longest + limit:  # too long to be a typo of any known word
            return found
        for cand in self._candidates(_deletes(word, limit)):
            dist = osa_distance(word, cand, limit + 1)
            if dist <= limit:
                found[cand] = dist
        return found

    def correct(self, word: str) -> list[str]:
        """Best corrections of ``word`` (nearest first, then preferred and frequent), or []."""
        if word in self.freq:
            return []
        found = self.near(word)
        if not found:
            return []
        best = min(found.values())
        return sorted((w for w, d in found.items() if d == best), key=self._rank)[:2]

    def complete(self, prefix: str, limit: int = 2) -> list[str]:
        """Frequent vocabulary words that start with ``prefix`` (for words typed halfway)."""
        if len(prefix) < 4:
            return []
        i = bisect.bisect_left(self.sorted_words, prefix)
        out = []
        while i < len(self.sorted_words) and self.sorted_words[i].startswith(prefix):
            out.append(self.sorted_words[i])
            i += 1
            if len(out) > 200:
                break
        out = [w for w in out if w != prefix]
        return sorted(out, key=self._rank)[:limit]
