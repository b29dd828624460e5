"""Typo correction: the compact delete index answers exactly as the plain SymSpell dictionary
(a dict from every delete to its words) it replaces, and finds real typos of corpus words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.search.spelling import Speller, _deletes, max_distance, osa_distance


def reference_correct(vocabulary: dict[str, int], preferred: set[str], word: str) -> list[str]:
    """SymSpell read literally: every delete of every word in a dict, then the true distance."""
    index: dict[str, list[str]] = {}
    for w in vocabulary:
        if len(w) >= 3:
            for d in _deletes(w, 2):
                index.setdefault(d, []).append(w)
    limit = max_distance(word)
    if not limit or word in vocabulary:
        return []
    found = {}
    for d in _deletes(word, limit):
        for cand in index.get(d, ()):
            dist = osa_distance(word, cand, limit + 1)
            if dist <= limit:
                found[cand] = dist
    if not found:
        return []
    best = min(found.values())
    rank = lambda w: (w not in preferred, -vocabulary.get(w, 0), w)  # noqa: E731
    return sorted((w for w, d in found.items() if d == best), key=rank)[:2]


words = st.text(alphabet="abcdeilmnoprst", min_size=1, max_size=10)


def typo(draw, w: str) -> str:
    i = draw(st.integers(0, len(w)))
    kind = draw(st.sampled_from(["insert", "delete", "swap", "replace"]))
    ch = draw(st.sampled_from("aeimnorst"))
    if kind == "insert" or len(w) < 2:
        return w[:i] + ch + w[i:]
    i = min(i, len(w) - 2)
    if kind == "delete":
        return w[:i] + w[i + 1:]
    if kind == "swap":
        return w[:i] + w[i + 1] + w[i] + w[i + 2:]
    return w[:i] + ch + w[i + 1:]


@st.composite
def cases(draw):
    vocab = draw(st.dictionaries(words, st.integers(1, 50), min_size=1, max_size=40))
    preferred = set(draw(st.lists(st.sampled_from(sorted(vocab)), max_size=5)))
    queries = draw(st.lists(words, max_size=5))
    for w in draw(st.lists(st.sampled_from(sorted(vocab)), max_size=5)):
        queries.append(typo(draw, typo(draw, w)) if draw(st.booleans()) else typo(draw, w))
    return vocab, preferred, queries


@settings(max_examples=150, deadline=None)
@given(cases())
def test_corrections_are_those_of_the_plain_symspell_dictionary(case):
    vocab, preferred, queries = case
    speller = Speller(vocab, preferred=preferred)
    for q in queries:
        assert speller.correct(q) == reference_correct(vocab, preferred, q), q


def test_corrects_typos_of_corpus_words(engine):
    """On the real vocabulary: a swapped pair and a missing letter are corrected to the word."""
    speller = engine.speller
    assert speller.correct("travolgre")[:1] == ["travolgere"]
    assert speller.correct("cimietro")[:1] == ["cimitero"]
    assert "grimorio" in speller.complete("grimor")
