"""Relevance over the question set (tests/search/questions.json), split once at random into a tuning
half and a held-out half (seed and method in the file). Weights, glossary and analysis are tuned on
the tuning half only; the goal is measured on the held-out half, and its misses are never printed
here (looking at them is tuning on them)."""

from collections import Counter

import pytest

from judge.search.evaluate import (BLIND_LOADERS, HALVES, SubstringBaseline, engine_ranker, kinds, load_blind,
                                   load_blind2, load_blind3, load_blind4, load_blind5, load_blind6, load_blind7,
                                   load_blind8, load_blind9, load_blind10, load_fresh, load_learning, load_questions, load_tune3, measure,
                                   split_info)

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
# on: (set, kind, (recall@5, MRR) floors when the memory reads a full question by meaning, the same by words
# only, where the model does not run: judge/search/meaning.py), each just below what was measured on
# 29 November 2026, seventh session (docs/ricerca.md; the figures in the comments, meaning then words).
# The goal (full questions 0.90 / 0.80, card-named 0.90) is not reached on every blind set: these
# floors catch regressions, they do not say the goal is met.
KIND_FLOORS = [
    ("heldout", "domanda", (0.95, 0.85), (0.95, 0.82)),  # 0.969 / 0.880; 0.984 / 0.848
    ("heldout", "breve", (0.95, 0.90), (0.95, 0.90)),  # 0.970 / 0.928
    ("heldout", "gergo", (0.97, 0.88), (0.97, 0.88)),  # 1.000 / 0.917
    ("heldout", "parola chiave", (0.88, 0.87), (0.88, 0.87)),  # 0.920 / 0.905
    ("heldout", "varianti", (0.88, 0.85), (0.88, 0.82)),  # 0.941 / 0.879; 0.941 / 0.850
    ("fresh", "domanda", (0.93, 0.85), (0.90, 0.82)),  # 0.963 / 0.886; 0.926 / 0.849
    ("blind", "domanda", (0.91, 0.72), (0.88, 0.71)),  # 0.943 / 0.751; 0.914 / 0.743
    ("blind", "carta", (0.90, 0.67), (0.88, 0.64)),  # 0.930 / 0.698; 0.907 / 0.677
    ("learning", "domanda", (0.83, 0.64), (0.81, 0.62)),  # 0.854 / 0.673; 0.832 / 0.650
    ("learning", "carta", (0.75, 0.52), (0.67, 0.52)),  # 0.778 / 0.556; 0.698 / 0.556
    # Written by sessions that never saw the search. blind2 was looked into after its one measure, and
    # is one of the sets the memory's weights (and the meaning's) are chosen on: no longer blind.
    ("blind2", "domanda", (0.93, 0.77), (0.91, 0.77)),  # 0.960 / 0.801; 0.940 / 0.798
    ("blind2", "carta", (0.92, 0.76), (0.90, 0.76)),  # 0.950 / 0.796; 0.933 / 0.792
    ("blind3", "domanda", (0.92, 0.77), (0.88, 0.73)),  # 0.950 / 0.801; 0.910 / 0.762
    ("blind3", "carta", (0.91, 0.72), (0.89, 0.73)),  # 0.940 / 0.754; 0.920 / 0.764
    ("blind4", "domanda", (0.87, 0.81), (0.87, 0.77)),  # 0.900 / 0.847; 0.900 / 0.802
    ("blind4", "carta", (0.87, 0.83), (0.85, 0.74)),  # 0.900 / 0.862; 0.880 / 0.777
    ("blind5", "domanda", (0.87, 0.75), (0.86, 0.75)),  # 0.900 / 0.787; 0.890 / 0.785: never looked into
    ("blind5", "carta", (0.79, 0.67), (0.79, 0.67)),  # 0.820 / 0.706; 0.820 / 0.704
    ("blind6", "domanda", (0.91, 0.73), (0.90, 0.72)),  # 0.940 / 0.768; 0.930 / 0.751: never looked into
    ("blind6", "carta", (0.89, 0.64), (0.87, 0.60)),  # 0.920 / 0.676; 0.900 / 0.637
    ("blind7", "domanda", (0.89, 0.72), (0.87, 0.72)),  # 0.919 / 0.750; 0.899 / 0.758: measured once on each engine
    ("blind7", "carta", (0.89, 0.65), (0.82, 0.65)),  # 0.918 / 0.681; 0.857 / 0.682
    ("blind8", "domanda", (0.88, 0.72), (0.85, 0.65)),  # 0.908 / 0.752; 0.878 / 0.686
    ("blind8", "carta", (0.89, 0.69), (0.91, 0.67)),  # 0.918 / 0.720; 0.939 / 0.704
    ("blind9", "domanda", (0.87, 0.72), (0.88, 0.70)),  # 0.902 / 0.754; 0.913 / 0.733
    ("blind9", "carta", (0.84, 0.67), (0.84, 0.65)),  # 0.875 / 0.708; 0.875 / 0.684
    ("blind10", "domanda", (0.85, 0.67), (0.83, 0.64)),  # 0.883 / 0.707; 0.862 / 0.672 (seventh session)
    ("blind10", "carta", (0.80, 0.59), (0.76, 0.53)),  # 0.837 / 0.628; 0.796 / 0.561
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
            "blind8": load_blind8, "blind9": load_blind9, "blind10": load_blind10,
            "learning": lambda: load_learning(half="heldout")}[name]()


@pytest.mark.parametrize("name, kind, by_meaning, by_words", KIND_FLOORS)
def test_every_kind_of_query_keeps_its_floor_on_questions_never_tuned_on(engine, name, kind, by_meaning, by_words):
    subset = [q for q in never_tuned_on(name) if kind in kinds(q)]
    assert len(subset) >= 15
    recall5, mrr = by_meaning if engine.memory.meant is not None else by_words
    m = measure(subset, engine_ranker(engine))
    assert m.recall5 >= recall5 and m.mrr >= mrr, f"{name} {kind}: {m.line()}"


def test_the_third_tuning_set_was_written_apart_from_every_measured_one(corpus):
    """questions_tune3.json chooses weights (never reported as held-out): its rules exist, and none of its questions
    is one of a set the search is measured on."""
    tune3 = load_tune3()
    assert len(tune3) >= 90 and sum(1 for q in tune3 if q.card) >= 60
    assert all(q.rules and all(n in corpus for n in q.rules) for q in tune3)
    others = {q.q.casefold() for q in load_questions() + load_fresh() + load_learning()
              + [q for load in BLIND_LOADERS for q in load()]}
    assert not {q.q.casefold() for q in tune3} & others


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
