"""Queries in the search's syntax (judge/search/syntax.py), made from the words of the question sets: a
phrase in quotes (some words of a question in their order, stop words and all), alone or with the rest of
the question, an unclosed quote, a phrase with its words swapped (found nowhere: the server searches the
words loosely, and says so), AND/OR/NOT, ``&&``/``||``, ``-word``, ``+word``, «NOT word» alone. The same
queries every run (a fixed seed): bench/offline_cards_agreement.py asks them of the site and of the
offline copy.
"""

from __future__ import annotations

import random

from judge.search.analysis import ALL_STOPS, words

SEED = 20261129
PER_FORM = 30


def _content(ws: list[str]) -> list[str]:
    """A question's words that mean something: not stop words, letters only, three or more."""
    return [w for w in dict.fromkeys(ws) if w not in ALL_STOPS and w.isalpha() and len(w) >= 3]


def _phrase(rng: random.Random, ws: list[str]) -> list[str] | None:
    """Two to four words in a row, the first and the last meaning something."""
    spans = [(i, j) for i in range(len(ws)) for j in range(i + 2, min(len(ws), i + 4) + 1)
             if _content(ws[i:i + 1]) and _content(ws[j - 1:j])]
    if not spans:
        return None
    i, j = rng.choice(spans)
    return ws[i:j]


def _forms(rng: random.Random, ws: list[str]) -> dict[str, str]:
    """Each form of the syntax this question's words can make."""
    content = _content(ws)
    out: dict[str, str] = {}
    phrase = _phrase(rng, ws)
    if phrase:
        quoted = '"' + " ".join(phrase) + '"'
        rest = [w for w in content if w not in phrase][:4]
        out["frase"] = quoted
        out["frase e parole"] = " ".join([*rest[:2], quoted, *rest[2:]])
        out["virgolette non chiuse"] = '"' + " ".join(phrase + rest[:2])
        if len(set(phrase)) > 1:
            out["frase che non c'è"] = '"' + " ".join(reversed(phrase)) + '"'
        if rest:
            out["frase OR parola"] = f"{quoted} OR {rest[0]}"
    if len(content) >= 2:
        a, b = rng.sample(content, 2)
        out["AND"] = f"{a} AND {b}"
        out["OR"] = f"{a} OR {b}"
        out["&& e ||"] = f"{a} {rng.choice(('&&', '||'))} {b}"
        out["NOT da solo"] = f"NOT {a}"
    if len(content) >= 3:
        a, b, c = rng.sample(content, 3)
        out["-parola"] = f"{a} {b} -{c}"
        out["NOT"] = f"{a} {b} NOT {c}"
        out["+parola"] = f"+{a} {b} {c}"
    return out


def syntax_queries(questions: list[str], per_form: int = PER_FORM, seed: int = SEED) -> list[tuple[str, str]]:
    """[(form, query)]: up to ``per_form`` queries of each form, from the questions in a seeded order."""
    rng = random.Random(seed)
    order = list(questions)
    rng.shuffle(order)
    by_form: dict[str, list[str]] = {}
    for q in order:
        for form, query in _forms(rng, words(q)).items():
            got = by_form.setdefault(form, [])
            if len(got) < per_form and query not in got:
                got.append(query)
    return [(form, q) for form, qs in by_form.items() for q in qs]
