"""Relevance over the question set (tests/search/questions.json), split once at random into a tuning
half and a held-out half (seed and method in the file). Weights, glossary and analysis are tuned on
the tuning half only; the goal is measured on the held-out half, and its misses are never printed
here (looking at them is tuning on them)."""

from collections import Counter

import pytest

from judge.search.evaluate import (BLIND_LOADERS, HALVES, SubstringBaseline, engine_ranker, kinds, load_blind,
                                   load_blind2, load_blind3, load_blind4, load_blind5, load_blind6, load_blind7,
                                   load_blind8, load_blind9, load_fresh, load_learning, load_questions, measure, split_info)

# The goal on the held-out half (reached with the English analytic index: recall@5 0.959,
# MRR 0.855; 0.949 / 0.840 with the Italian index alone, 0.898 / 0.778 before it; 0.964 / 0.856 with
# headwords and name-only rules, issue 27).
GOAL_RECALL5 = 0.95
GOAL_MRR = 0.85
# The blind set (tests/search/questions_fresh.json): 0.908 / 0.808 reading full questions (issue 36),
# 0.892 / 0.746 with headwords (0.883 / 0.693 with both indexes, 0.717 / 0.500 before them): a floor
# just below, which catches regressions.
FRESH_FLOOR_RECALL5 = 0.89
FRESH_FLOOR_MRR = 0.78

# Issue 36, by kind of query (judge/search/evaluate.py: kinds), on questions the search was never tuned
# on: (set, kind, recall@5 floor, MRR floor), each just below what was measured when the memory began to
# read a full question by meaning (docs/ricerca.md, 29 November 2026, fifth session; before it, by words
# only, in the comments where they differ). The goal (full questions 0.90 / 0.80, card-named 0.90)
# is not reached on every blind set: these floors catch regressions, they do not say the goal is met.
KIND_FLOORS = [
    ("heldout", "domanda", 0.96, 0.85),  # 0.984 / 0.879 (0.984 / 0.858)
    ("heldout", "breve", 0.95, 0.90),  # 0.970 / 0.928
    ("heldout", "gergo", 0.97, 0.88),  # 1.000 / 0.917
    ("heldout", "parola chiave", 0.88, 0.87),  # 0.920 / 0.905
    ("heldout", "varianti", 0.88, 0.85),  # 0.941 / 0.879 (0.941 / 0.850)
    ("fresh", "domanda", 0.93, 0.85),  # 0.963 / 0.877 (0.926 / 0.857)
    ("blind", "domanda", 0.90, 0.70),  # 0.929 / 0.736 (0.900 / 0.709)
    ("blind", "carta", 0.88, 0.64),  # 0.907 / 0.675 (0.884 / 0.646)
    ("learning", "domanda", 0.81, 0.64),  # 0.843 / 0.673 (0.830 / 0.645)
    ("learning", "carta", 0.68, 0.52),  # 0.714 / 0.549 (0.667 / 0.520)
    # Written by sessions that never saw the search. blind2 was looked into after its one measure, and
    # was one of the three sets the memory's weights (and the meaning's) were chosen on: no longer blind.
    ("blind2", "domanda", 0.86, 0.71),  # 0.890 / 0.744 (0.840 / 0.745)
    ("blind2", "carta", 0.82, 0.69),  # 0.850 / 0.719 (0.800 / 0.716)
    ("blind3", "domanda", 0.87, 0.73),  # 0.900 / 0.762 (0.860 / 0.720)
    ("blind3", "carta", 0.81, 0.68),  # 0.840 / 0.712 (0.820 / 0.699)
    ("blind4", "domanda", 0.85, 0.77),  # 0.880 / 0.802 (0.890 / 0.756)
    ("blind4", "carta", 0.83, 0.75),  # 0.860 / 0.782 (0.860 / 0.716)
    ("blind5", "domanda", 0.83, 0.71),  # 0.860 / 0.744 (0.830 / 0.754): never looked into
    ("blind5", "carta", 0.73, 0.61),  # 0.760 / 0.648 (0.740 / 0.667)
    ("blind6", "domanda", 0.84, 0.69),  # 0.870 / 0.721 (0.840 / 0.717): never looked into
    ("blind6", "carta", 0.75, 0.58),  # 0.780 / 0.613 (0.720 / 0.594)
    ("blind7", "domanda", 0.84, 0.69),  # 0.869 / 0.722 (0.838 / 0.693): measured once on each engine
    ("blind7", "carta", 0.78, 0.59),  # 0.816 / 0.620 (0.755 / 0.574)
    ("blind8", "domanda", 0.82, 0.67),  # 0.857 / 0.706 (0.776 / 0.637): measured once on each engine;
    ("blind8", "carta", 0.82, 0.66),  # 0.857 / 0.706 (0.755 / 0.638); 0.857 / 0.695 with more names read (sixth session)
    ("blind9", "domanda", 0.85, 0.70),  # 0.880 / 0.730 (0.870 / 0.713): measured once on each engine (sixth session)
    ("blind9", "carta", 0.78, 0.64),  # 0.812 / 0.667 (0.792 / 0.645)
]


@pytest.fixture(scope="module")
def questions():
    return load_questions()


def test_question_set_is_large_varied_checked_and_split_once(questions, corpus):
    assert len(questions) >= 250
    cats = Counter(q.cat for q in questions)
    assert {"it", "jargon", "typo", "no-accents", "en", "notation"} <= set(cats)
    assert cats["notation"] >= 20 and cats["typo"] + cats["no-accents"] >= 30
    for q in questions:
        assert q.rules and all(n in corpus for n in q.rules), q.q
    # Questions about every chapter, variants (8 and 9) included.
    assert {corpus.get(q.rules[0]).chapter for q in questions} == set("123456789")
    assert len({q.id for q in questions}) == len(questions)
    assert len({q.q for q in questions}) == len(questions)
    # One split, recorded: every question in a half, halves within one question of each other.
    halves = Counter(q.half for q in questions)
    assert set(halves) == set(HALVES) and abs(halves["tuning"] - halves["heldout"]) <= 1
    info = split_info()
    assert isinstance(info.get("seed"), int) and info.get("method")


def test_heldout_relevance_reaches_the_goal(engine, questions):
    """The issue's goal, measured on the held-out half: fails under it."""
    m = measure([q for q in questions if q.half == "heldout"], engine_ranker(engine))
    assert m.recall5 >= GOAL_RECALL5 and m.mrr >= GOAL_MRR, f"held-out: {m.line()}"


def test_fresh_set_is_blind_varied_and_checked(corpus):
    fresh = load_fresh()
    assert len(fresh) >= 100
    assert {corpus.get(q.rules[0]).chapter for q in fresh} == set("123456789")
    assert {"it", "jargon", "typo", "no-accents", "en", "notation"} <= {q.cat for q in fresh}
    for q in fresh:
        assert q.rules and all(n in corpus for n in q.rules), q.q
    assert len({q.q for q in fresh}) == len(fresh) and len({q.id for q in fresh}) == len(fresh)
    # Written apart from the split set: no question of one is a question of the other.
    assert not {q.q.casefold() for q in fresh} & {q.q.casefold() for q in load_questions()}


def test_fresh_relevance_does_not_regress(engine):
    m = measure(load_fresh(), engine_ranker(engine))
    assert m.recall5 >= FRESH_FLOOR_RECALL5 and m.mrr >= FRESH_FLOOR_MRR, f"fresh: {m.line()}"


def test_better_than_ctrl_f_on_both_halves(engine, questions, corpus):
    base = SubstringBaseline(corpus)
    for half in HALVES:
        qs = [q for q in questions if q.half == half]
        ours, ctrl_f = measure(qs, engine_ranker(engine)), measure(qs, base)
        assert ours.recall5 > ctrl_f.recall5 + 0.3 and ours.mrr > ctrl_f.mrr + 0.3, half


@pytest.mark.parametrize("cat", ["it", "jargon", "typo", "no-accents", "en", "notation"])
def test_every_kind_of_question_works(engine, questions, cat):
    subset = [q for q in questions if q.cat == cat]
    assert measure(subset, engine_ranker(engine)).recall5 >= 0.6


def never_tuned_on(name: str):
    return {"heldout": lambda: load_questions(half="heldout"), "fresh": load_fresh, "blind": load_blind,
            "blind2": load_blind2, "blind3": load_blind3, "blind4": load_blind4, "blind5": load_blind5, "blind6": load_blind6,
            "blind7": load_blind7,
            "blind8": load_blind8, "blind9": load_blind9,
            "learning": lambda: load_learning(half="heldout")}[name]()


@pytest.mark.parametrize("name, kind, recall5, mrr", KIND_FLOORS)
def test_every_kind_of_query_keeps_its_floor_on_questions_never_tuned_on(engine, name, kind, recall5, mrr):
    subset = [q for q in never_tuned_on(name) if kind in kinds(q)]
    assert len(subset) >= 15
    m = measure(subset, engine_ranker(engine))
    assert m.recall5 >= recall5 and m.mrr >= mrr, f"{name} {kind}: {m.line()}"


@pytest.mark.parametrize("load", BLIND_LOADERS)
def test_blind_full_questions_were_written_apart(corpus, load):
    blind = load()
    assert len(blind) >= 60 and sum(1 for q in blind if q.card) >= 30
    assert all("domanda" in kinds(q) for q in blind)
    for q in blind:
        assert q.rules and all(n in corpus for n in q.rules), q.q
    others = {q.q.casefold() for q in load_questions() + load_fresh() + load_learning()
              + [q for other in BLIND_LOADERS if other is not load for q in other()]}
    assert not {q.q.casefold() for q in blind} & others
