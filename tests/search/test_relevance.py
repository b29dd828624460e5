"""Relevance over the question set (tests/search/questions.json), written before tuning."""

from collections import Counter

import pytest

from judge.search.evaluate import SubstringBaseline, load_questions, measure


@pytest.fixture(scope="module")
def questions():
    return load_questions()


def ranker(engine):
    def rank(q):
        r = engine.search(q, per_page=10)
        return [r.rule] if r.rule else [h.number for h in r.hits]

    return rank


def test_question_set_is_realistic_and_checked(questions, corpus):
    assert len(questions) >= 60
    cats = Counter(q.cat for q in questions)
    assert {"it", "jargon", "typo", "no-accents", "en"} <= set(cats)
    for q in questions:
        assert q.rules and all(n in corpus for n in q.rules), q.q


def test_recall_at_5(engine, questions):
    m = measure(questions, ranker(engine))
    misses = "\n".join(f"  {q.q!r} want {q.rules} got {got}" for q, got in m.misses)
    assert m.recall5 >= 0.9, f"{m.line()}\nmisses:\n{misses}"


def test_better_than_ctrl_f(engine, questions, corpus):
    ours = measure(questions, ranker(engine))
    base = measure(questions, SubstringBaseline(corpus))
    assert ours.recall5 > base.recall5 and ours.mrr > base.mrr


@pytest.mark.parametrize("cat", ["it", "jargon", "typo", "no-accents", "en"])
def test_every_kind_of_question_works(engine, questions, cat):
    subset = [q for q in questions if q.cat == cat]
    assert measure(subset, ranker(engine)).recall5 >= 0.75
