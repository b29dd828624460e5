"""The citation parser's cost (issue 38): its time is linear in the text, and a caller can stop
it. Every candidate used to be checked against every citation found before it (a 60 KB text of
citations: seconds of CPU on the public /api/citazioni); the checks are binary searches now, and
these tests hold them to the brute-force answer they replace."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from judge.corpus import citations
from judge.corpus.citations import find_citations
from judge.corpus.pinned import known

TOKENS = ["704.5a", "704.5a/b", "704.5a e b", "601.2a–d", " e ", "regola ", "regole ", "capitolo ", "1", "4",
          ", ", "(712)", "(999)", "http://x.it/704.5a ", "www.esempio.it/702.19 ", "sezione 9", "la ", "nella ",
          " ", "b", "c", "999.9", "100.1a", "Firefox 115.3", "–d", ".", "\n", "CR", "CR 702.19b", "/", "delle MTR"]


def brute_overlaps(self, start: int, end: int) -> bool:
    return any(s < end and start < e for s, e in self.spans)


def _both(text: str, **kw):
    fast = find_citations(text, **kw)
    real = citations._Spans.overlaps
    citations._Spans.overlaps = brute_overlaps
    try:
        slow = find_citations(text, **kw)
    finally:
        citations._Spans.overlaps = real
    return fast, slow


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_the_binary_searches_answer_as_the_brute_force_did(tokens):
    text = "".join(tokens)
    fast, slow = _both(text)
    assert fast == slow


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40))
def test_with_the_corpus_known_numbers_too(corpus, tokens):
    text = "".join(tokens)
    fast, slow = _both(text, known=known(corpus))
    assert fast == slow


def test_spans_overlap_only_where_they_do():
    spans = citations._Spans([(0, 3), (5, 8), (8, 9), (20, 30)])
    for start in range(0, 35):
        for end in range(start + 1, 36):
            assert spans.overlaps(start, end) == brute_overlaps(spans, start, end), (start, end)


@given(st.lists(st.sampled_from(TOKENS), max_size=60), st.integers(min_value=0, max_value=12))
def test_a_stop_keeps_what_was_found_in_order_and_asks_before_every_candidate(tokens, limit):
    text = "".join(tokens)
    whole = find_citations(text)
    asked: list[int] = []

    def stop(count: int) -> bool:
        asked.append(count)
        return count >= limit

    part = find_citations(text, stop=stop)
    assert len(part) <= max(limit, 0) + 24     # at most the letters that continue a rule past the limit
    assert all(c in whole for c in part)
    assert [c.start for c in part] == sorted(c.start for c in part)
    if len(whole) <= limit:
        assert part == whole


def test_a_stop_ends_a_list_that_never_ends():
    text = "capitolo " + ", ".join("1" for _ in range(20_000))
    calls = []
    found = find_citations(text, stop=lambda n: calls.append(n) or n >= 100)
    assert len(found) == 100 and len(calls) < 200


# -- the tournament documents' citations (judge/tournament/citations.py): the same fix ------------

DOC_TOKENS = ["MTR 2.5", "IPG 2.1", "ipg3.2", "JAR", "MTR, sezione 4.3", "MTR Appendix B", " ", ", ", "e ",
              "section 5.2 of the Magic Tournament Rules", "sezione 2.5 delle MTR", "sections 2", "Appendix F",
              "section 4 of the Comprehensive Rules", "704.5a", "la JAR", "\n", "4.3", "IPG § 2.1"]


def test_tournament_citations_answer_as_the_brute_force_did():
    from hypothesis import given as given_

    from judge.tournament import citations as doc_citations

    def brute(self, start: int, end: int) -> bool:
        return any(a < end and start < b for a, b in zip(self.starts, self.ends))

    @settings(max_examples=300, deadline=None)
    @given_(st.lists(st.sampled_from(DOC_TOKENS), max_size=30), st.sampled_from([None, "mtr", "ipg"]))
    def check(tokens, context):
        text = "".join(tokens)
        fast = doc_citations.find_document_citations(text, context)
        real = doc_citations._Disjoint.overlaps
        doc_citations._Disjoint.overlaps = brute
        try:
            slow = doc_citations.find_document_citations(text, context)
        finally:
            doc_citations._Disjoint.overlaps = real
        assert fast == slow

    check()


def _old_merge(first, second):
    kept = list(first)
    for s in second:
        if not any(k["start"] < s["end"] and s["start"] < k["end"] for k in kept):
            kept.append(s)
    return sorted(kept, key=lambda s: s["start"])


_span = st.tuples(st.integers(0, 60), st.integers(1, 8)).map(lambda p: {"start": p[0], "end": p[0] + p[1]})


@settings(max_examples=400, deadline=None)
@given(st.lists(_span, max_size=12), st.lists(_span, max_size=12))
def test_merging_spans_keeps_what_the_old_merge_kept(first, second):
    from judge.tournament.citations import merge_spans

    assert merge_spans(first, second) == _old_merge(first, second)


def test_a_stop_ends_the_tournament_citations_too():
    from judge.tournament.citations import find_document_citations

    found = find_document_citations("JAR " * 20_000, stop=lambda n: n >= 50)
    assert len(found) == 50
