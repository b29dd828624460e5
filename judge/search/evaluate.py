"""Relevance measurement: the question set, metrics, and the Ctrl-F baseline (shared by tests and bench)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge import ROOT
from judge.corpus import Corpus
from judge.search.analysis import words
from judge.search.frames import is_full_question

QUESTIONS_FILE = ROOT / "tests" / "search" / "questions.json"
# A second set, written blind and never used for a decision: measured, never looked into.
FRESH_FILE = ROOT / "tests" / "search" / "questions_fresh.json"
# Full questions written blind after the tuning of issue 36 was frozen: measured, never looked into.
BLIND_FILE = ROOT / "tests" / "search" / "questions_blind.json"
# 100 full questions written by a session that never saw the search (29 November 2026), measured once;
# then looked into (docs/ricerca.md): no longer blind for what came after.
BLIND2_FILE = ROOT / "tests" / "search" / "questions_blind2.json"
# 100 more, written the same way while the engine was frozen after it; measured once, never looked into.
BLIND3_FILE = ROOT / "tests" / "search" / "questions_blind3.json"
# 100 more, written the same way while the rules' questions were written (learned.py); measured once on the
# product before and after them, never looked into.
BLIND4_FILE = ROOT / "tests" / "search" / "questions_blind4.json"
# 100 more, written the same way while the cards' questions were written; measured once on the product
# before the rules' questions, with them and with the cards' questions, never looked into.
BLIND5_FILE = ROOT / "tests" / "search" / "questions_blind5.json"
# 100 more, written while the second round of cards' questions was; measured once on four engines.
BLIND6_FILE = ROOT / "tests" / "search" / "questions_blind6.json"
# 100 more, written while the rulings' rules were built (one removed: it copied a question of blind5);
# measured once on each engine.
BLIND7_FILE = ROOT / "tests" / "search" / "questions_blind7.json"
# 100 more, written while the e5 memory was tried (two removed before any measure: four fifths of their stems
# were those of a measured question); measured once on each engine.
BLIND8_FILE = ROOT / "tests" / "search" / "questions_blind8.json"
# 100 more, written while the cards' names in questions were read better (eight removed before any measure:
# four fifths of their stems were those of a measured or a learned question); measured once on each engine.
BLIND9_FILE = ROOT / "tests" / "search" / "questions_blind9.json"
# 100 more, written while a named card's kind was read into the question's frame (six removed before any
# measure: four fifths of their stems were those of a measured or a learned question); measured once on
# each engine.
BLIND10_FILE = ROOT / "tests" / "search" / "questions_blind10.json"
# A third tuning set (issue 36), written like the blind sets, 70 of its 100 questions naming a card (four removed:
# near copies of measured or learned questions): weights are chosen on it with the other tuning halves, so its
# figures are never reported as held-out. Its half is "messa-a-punto-3".
TUNE3_FILE = ROOT / "tests" / "search" / "questions_tune3.json"
# The questions the search learns from (issue 36): its tuning half feeds the engine (learned.py) and
# chooses its weights; its held-out half is measured like the others. Its halves are "impara" and
# "impara-verifica" in reports, apart from the halves of QUESTIONS_FILE.
LEARN_FILE = ROOT / "judge" / "search" / "domande.json"


HALVES = ("tuning", "heldout")


@dataclass(frozen=True)
class Question:
    q: str
    rules: tuple[str, ...]
    cat: str
    id: str = ""
    origin: str = ""  # v1 (tuned on before the split), issue, v2 (written for the split)
    half: str = ""  # "tuning" or "heldout": fixed once in the file, never recomputed
    card: str = ""  # the card the question names, as typed («Rest in Peace»), if any
    group: str = ""  # questions that are phrasings of one situation share it (split together)


# Kinds of query, as the figures are reported (docs/ricerca.md). Decided from the question alone
# (its words, its category and the rules that answer it), never from the engine: a question may be
# of several kinds («con Tarmogoyf quanto fa?» is a card-named full question).
SHORT, QUESTION, JARGON, KEYWORD, VARIANTS, CARD, ENGLISH, NOTATION = (
    "breve", "domanda", "gergo", "parola chiave", "varianti", "carta", "inglese", "notazione")
KINDS = (SHORT, QUESTION, JARGON, KEYWORD, VARIANTS, CARD, ENGLISH, NOTATION)


def kinds(q: Question) -> tuple[str, ...]:
    """The kinds of ``q``: short (three words at most), a full question (seven words or more, or five
    with a question mark), jargon, a keyword's name (four words at most, answered in 701–702),
    multiplayer and variants (answered first in chapters 8–9), card-named, English, notation."""
    n = len(words(q.q))
    out = []
    full = is_full_question(q.q)
    if n <= 3 and not full:
        out.append(SHORT)
    if full:
        out.append(QUESTION)
    if q.cat == "jargon":
        out.append(JARGON)
    if n <= 4 and q.cat not in ("en", "jargon", "notation") and any(r.split(".")[0] in ("701", "702") for r in q.rules):
        out.append(KEYWORD)
    if q.rules and q.rules[0][:1] in ("8", "9"):
        out.append(VARIANTS)
    if q.card:
        out.append(CARD)
    if q.cat == "en":
        out.append(ENGLISH)
    if q.cat == "notation":
        out.append(NOTATION)
    return tuple(out)


def load_questions(path: Path | None = None, half: str | None = None) -> list[Question]:
    """The question set, or one half of it (``half``: "tuning" or "heldout")."""
    out = _read(Path(path or QUESTIONS_FILE))
    if half is not None:
        if half not in HALVES:
            raise ValueError(f"half must be one of {HALVES}")
        out = [q for q in out if q.half == half]
    return out


def load_fresh(path: Path | None = None) -> list[Question]:
    """The blind set (tests/search/questions_fresh.json); its questions are in the half "fresh"."""
    return _read(Path(path or FRESH_FILE), default="fresh")


def load_blind(path: Path | None = None) -> list[Question]:
    """The blind full questions of issue 36 (tests/search/questions_blind.json), in the half "cieca"."""
    return _read(Path(path or BLIND_FILE), default="cieca")


def _blind_set(file: Path, n: int) -> Callable[..., list[Question]]:
    def load(path: Path | None = None) -> list[Question]:
        return _read(Path(path or file), default=f"cieca-{n}")

    load.__name__ = f"load_blind{n}"
    load.__doc__ = f"Blind set {n} of issue 36 (tests/search/{file.name}), in the half \"cieca-{n}\"."
    return load


# Each written by a session that never saw the search (the comments at their files above).
load_blind2 = _blind_set(BLIND2_FILE, 2)
load_blind3 = _blind_set(BLIND3_FILE, 3)
load_blind4 = _blind_set(BLIND4_FILE, 4)
load_blind5 = _blind_set(BLIND5_FILE, 5)
load_blind6 = _blind_set(BLIND6_FILE, 6)
load_blind7 = _blind_set(BLIND7_FILE, 7)
load_blind8 = _blind_set(BLIND8_FILE, 8)
load_blind9 = _blind_set(BLIND9_FILE, 9)
load_blind10 = _blind_set(BLIND10_FILE, 10)
BLIND_LOADERS = (load_blind, load_blind2, load_blind3, load_blind4, load_blind5, load_blind6, load_blind7,
                 load_blind8, load_blind9, load_blind10)


def load_tune3(path: Path | None = None) -> list[Question]:
    """The third tuning set (tests/search/questions_tune3.json), in the half "messa-a-punto-3"."""
    return _read(Path(path or TUNE3_FILE), default="messa-a-punto-3")


def load_measured() -> list[Question]:
    """Every question the search is measured on (both halves of each set, every blind set, the third tuning set)."""
    return (load_questions() + load_fresh() + [q for load in BLIND_LOADERS for q in load()] + load_learning()
            + load_tune3())


def load_learning(path: Path | None = None, half: str | None = None) -> list[Question]:
    """The questions the search learns from (judge/search/domande.json), or one half of them; their
    halves are renamed "impara" (tuning) and "impara-verifica" (held-out) so that a report of every
    set keeps them apart."""
    out = [Question(q.q, q.rules, q.cat, q.id, "domande", LEARN_HALVES[q.half], q.card, q.group)
           for q in _read(Path(path or LEARN_FILE))]
    if half is not None:
        if half not in HALVES:
            raise ValueError(f"half must be one of {HALVES}")
        out = [q for q in out if q.half == LEARN_HALVES[half]]
    return out


LEARN_HALVES = {"tuning": "impara", "heldout": "impara-verifica"}


def _read(path: Path, default: str = "") -> list[Question]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        Question(x["q"], tuple(x["rules"]), x["cat"], x.get("id", ""), x.get("origin", default), x.get("half", default),
                 x.get("card", ""), x.get("group", ""))
        for x in data["questions"]
    ]


def split_info(path: Path | None = None) -> dict:
    """How the set was split (seed and method), as recorded in the file."""
    return json.loads(Path(path or QUESTIONS_FILE).read_text(encoding="utf-8")).get("split", {})


@dataclass
class Metrics:
    n: int
    recall1: float
    recall5: float
    mrr: float
    misses: list[tuple[Question, list[str]]]

    def line(self) -> str:
        return f"recall@1 {self.recall1:.3f}  recall@5 {self.recall5:.3f}  MRR {self.mrr:.3f}"


def measure(questions: list[Question], ranker: Callable[[str], list[str]], depth: int = 10) -> Metrics:
    """recall@1, recall@5 and MRR (over the first ``depth`` results) of ``ranker`` (query -> rule numbers)."""
    r1 = r5 = rr = 0.0
    misses = []
    for question in questions:
        ranked = ranker(question.q)[:depth]
        rank = next((i + 1 for i, n in enumerate(ranked) if n in question.rules), None)
        if rank == 1:
            r1 += 1
        if rank is not None and rank <= 5:
            r5 += 1
        else:
            misses.append((question, ranked[:5]))
        if rank is not None:
            rr += 1 / rank
    n = len(questions) or 1
    return Metrics(len(questions), r1 / n, r5 / n, rr / n, misses)


class SubstringBaseline:
    """What a reader gets with Ctrl-F: rules whose text contains the query (case-insensitive), in
    document order, Italian and English texts alike."""

    def __init__(self, corpus: Corpus):
        self.texts: list[tuple[str, str]] = []
        for n in corpus.numbers:
            rule = corpus.rules[n]
            for t in (rule.it, rule.en):
                if t is not None:
                    self.texts.append((n, "\n".join([t.text, *t.examples]).casefold()))

    def __call__(self, query: str) -> list[str]:
        needle = query.strip().casefold()
        if not needle:
            return []
        out: dict[str, None] = {}
        for n, text in self.texts:
            if needle in text:
                out.setdefault(n, None)
        return list(out)


def engine_ranker(engine, per_page: int = 10) -> Callable[[str], list[str]]:
    """query -> rule numbers, as the search page ranks them (a rule reference is its own first result)."""

    def rank(q: str) -> list[str]:
        r = engine.search(q, per_page=per_page)
        return [r.rule] if r.rule else [h.number for h in r.hits]

    return rank


def report(questions: list[Question], ranker: Callable[[str], list[str]], show_misses: str | None = "tuning") -> str:
    """Both halves, every time: overall, by category and by origin. Misses are listed for the tuning
    half only (``show_misses``): the held-out half is measured, never looked into while tuning."""
    lines = [f"{'':26} {'n':>4} {'recall@1':>9} {'recall@5':>9} {'MRR':>7}"]
    results: dict[str, Metrics] = {}
    for half in dict.fromkeys(q.half for q in questions):
        qs = [q for q in questions if q.half == half]
        m = results[half] = measure(qs, ranker)
        lines.append(f"{half:26} {m.n:4} {m.recall1:9.3f} {m.recall5:9.3f} {m.mrr:7.3f}")
        groups: dict[str, list[Question]] = {}
        for q in qs:
            groups.setdefault(f"  cat {q.cat}", []).append(q)
            groups.setdefault(f"  origin {q.origin}", []).append(q)
            for k in kinds(q):
                groups.setdefault(f"  kind {k}", []).append(q)
        for name in sorted(groups):
            g = measure(groups[name], ranker)
            lines.append(f"{name:26} {g.n:4} {g.recall1:9.3f} {g.recall5:9.3f} {g.mrr:7.3f}")
    if show_misses in results and results[show_misses].misses:
        lines.append(f"outside the top 5 ({show_misses}):")
        for q, got in results[show_misses].misses:
            lines.append(f"  {q.id} {q.q!r} want {', '.join(q.rules[:4])}; got {', '.join(got)}")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m judge.search.evaluate [CARTELLA]
    import argparse
    import tempfile

    from judge.corpus import load_corpus
    from judge.search.engines import get_engine

    ap = argparse.ArgumentParser(
        prog="python -m judge.search.evaluate",
        description="Rilevanza della ricerca sulle due metà delle domande (messa a punto e verifica).",
    )
    ap.add_argument("instance", nargs="?", help="cartella dell'istanza con l'indice (predefinita: una temporanea)")
    args = ap.parse_args()
    instance = args.instance or tempfile.mkdtemp(prefix="judge-eval-")
    print(report(load_measured(), engine_ranker(get_engine(instance, load_corpus()))))
