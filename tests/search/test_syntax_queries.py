"""bench/syntax_queries.py: the queries in the search's syntax that bench/offline_cards_agreement.py asks of the
site and of the offline copy are the same every run, and each is the syntax its form names."""

from __future__ import annotations

import json
from pathlib import Path

from bench.syntax_queries import syntax_queries
from judge.search.syntax import parse

ROOT = Path(__file__).resolve().parents[2]


def _questions() -> list[str]:
    return [q["q"] for q in json.loads((ROOT / "tests/search/questions_blind.json").read_text(encoding="utf-8"))["questions"]]


def _modes(query: str) -> list[list[tuple[bool, str]]]:
    return [[(it.phrase, it.mode) for it in clause] for clause in parse(query)]


def test_the_same_queries_every_run_made_of_the_questions_words():
    questions = _questions()
    made = syntax_queries(questions, per_form=5)
    assert made == syntax_queries(list(questions), per_form=5)
    assert made != syntax_queries(questions, per_form=5, seed=1)
    forms = {f for f, _ in made}
    assert {"frase", "AND", "OR", "-parola", "+parola", "NOT", "NOT da solo", "virgolette non chiuse"} <= forms
    assert all(sum(1 for f, _ in made if f == form) <= 5 for form in forms)


def test_each_query_is_the_syntax_its_form_names():
    for form, q in syntax_queries(_questions(), per_form=10):
        modes = _modes(q)
        flat = [m for clause in modes for m in clause]
        if form in ("frase", "frase che non c'è"):
            assert modes == [[(True, "should")]], q
        elif form == "frase e parole":
            assert (True, "should") in flat and len(flat) > 1, q
        elif form == "virgolette non chiuse":
            assert q.count('"') == 1 and q.startswith('"') and flat == [(True, "should")], q
        elif form == "frase OR parola":
            assert modes == [[(True, "should")], [(False, "should")]], q
        elif form == "AND":
            assert modes == [[(False, "must"), (False, "must")]], q
        elif form in ("OR", "&& e ||"):
            assert len(modes) == 2 or modes == [[(False, "must"), (False, "must")]], q
        elif form in ("-parola", "NOT"):
            assert flat == [(False, "should"), (False, "should"), (False, "not")], q
        elif form == "+parola":
            assert flat == [(False, "must"), (False, "should"), (False, "should")], q
        elif form == "NOT da solo":
            assert modes == [[(False, "not")]], q
        else:
            raise AssertionError(f"forma sconosciuta: {form}")
