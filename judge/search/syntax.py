"""What the user typed, read: cleaning, rule references, and our small query syntax.

The syntax never fails: ``"phrases"``, ``AND``/``OR``/``NOT`` (upper case, as the user writes them),
``-word`` (exclude) and ``+word`` (require). A sign before a number or a symbol is Magic notation
("-1/-1", "+2", "{T}"), never an operator; an unbalanced quote closes at the end; anything else
(field syntax such as ``text:(``) is plain words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.search.analysis import is_notation, words

MAX_QUERY_CHARS = 300
MAX_WORDS = 24

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\ufeff]")
_TOKEN = re.compile(r'"[^"]*"?|[^\s"]+')
_OPERATORS = {"AND": "AND", "OR": "OR", "NOT": "NOT", "&&": "AND", "||": "OR"}
# Phone keyboards and word processors turn "-" into a minus sign or a dash: before a number it is a minus.
_DASH_BEFORE_NUMBER = re.compile(r"[\u2212\u2012\u2013\u2014](?=[\dxX*])")
# "704,5a" (the Italian decimal comma) and "704.5 a" (a space before the letter) name rule 704.5a.
_DECIMAL_COMMA = re.compile(r"(?<![\d.,])([1-9]\d{2}),(\d{1,3}[a-zA-Z]{0,2})(?![\w,])")
_SPACED_LETTER = re.compile(r"^(\D*?[1-9]\d{2}\.\d{1,3})\s+([a-zA-Z]{1,2})\.?$")


def clean(query: str | None) -> tuple[str, list[str]]:
    notes: list[str] = []
    q = _CONTROL.sub(" ", query or "")
    q = _DASH_BEFORE_NUMBER.sub("-", q)
    q = re.sub(r"\s+", " ", q).strip()
    if len(q) > MAX_QUERY_CHARS:
        q = q[:MAX_QUERY_CHARS].rsplit(" ", 1)[0] or q[:MAX_QUERY_CHARS]
        notes.append(f"Ricerca troppo lunga: considerati i primi {MAX_QUERY_CHARS} caratteri.")
    return q, notes


def with_rule_dots(q: str) -> str:
    """Rule references as the citation parser reads them: "704,5a" -> "704.5a"; a query that is only
    "704.5 a" (or "regola 704.5 a") -> "704.5a"."""
    q = _DECIMAL_COMMA.sub(r"\1.\2", q)
    m = _SPACED_LETTER.match(q)
    return f"{m[1]}{m[2]}" if m else q


@dataclass
class Item:
    words: list[str]  # folded words
    phrase: bool = False
    mode: str = "should"  # should / must / not


def _sign(tok: str) -> tuple[str, str]:
    """(mode, rest) of a token with a leading "+"/"-": an operator only before a word ("-parola",
    "+parola"); before a number or a symbol ("-1/-1", "+2", "-{T}") the sign is part of the text."""
    if len(tok) > 1 and tok[0] in "+-" and tok[1].isalpha() and not is_notation(tok):
        return ("must" if tok[0] == "+" else "not"), tok[1:]
    return "should", tok


def parse(q: str) -> list[list[Item]]:
    """Clauses (joined by OR) of items. Never raises."""
    clauses: list[list[Item]] = [[]]
    pending_not = False
    pending_and = False
    for m in _TOKEN.finditer(q):
        tok = m.group(0)
        op = _OPERATORS.get(tok)
        if op == "OR":
            if clauses[-1]:
                clauses.append([])
            pending_not = pending_and = False
            continue
        if op == "AND":
            if clauses[-1] and clauses[-1][-1].mode == "should":
                clauses[-1][-1].mode = "must"
            pending_and = bool(clauses[-1])
            continue
        if op == "NOT":
            pending_not = True
            continue
        if tok.startswith('"'):  # a phrase; an unbalanced quote closes at the end
            ws = words(tok.strip('"'))
            item = Item(ws, phrase=len(ws) > 1)
            mode = "should"
        else:
            mode, tok = _sign(tok)
            item = Item(words(tok))
        if not item.words:
            continue
        if pending_not:
            mode = "not"
        elif pending_and and mode == "should":
            mode = "must"
        item.mode = mode
        pending_not = pending_and = False
        clauses[-1].append(item)
    return [c for c in clauses if c]


def relaxed(clauses: list[list[Item]]) -> list[list[Item]]:
    """The same words without phrases and requirements (exclusions stay): what is searched when the
    strict reading of the user's syntax finds nothing."""
    return [[Item(list(it.words), False, "not" if it.mode == "not" else "should") for it in c] for c in clauses]


def truncate(clauses: list[list[Item]], limit: int) -> list[list[Item]]:
    out: list[list[Item]] = []
    left = limit
    for c in clauses:
        kept: list[Item] = []
        for it in c:
            if left <= 0:
                break
            ws = it.words[:left]
            left -= len(ws)
            kept.append(Item(ws, it.phrase and len(ws) > 1, it.mode))
        if kept:
            out.append(kept)
    return out
