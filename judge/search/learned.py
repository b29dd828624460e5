"""What the search learns from questions: the rules that answered questions like this one.

The memory holds three kinds of question, each with the rules that answer it:
- the tuning half of ``domande.json`` (questions players ask about situations, written for this purpose
  and kept out of the evaluation sets; the held-out half is never read here: it measures what the
  memory is worth on questions it has not seen);
- ``domande_regole.tsv``: questions written rule by rule, for every rule players ask about, by sessions
  that never saw the search or the questions it is measured on. A neighbour of this kind counts
  ``RULE_QUESTION_LIKENESS`` of its likeness: it was written from one rule's text, not from a situation;
- ``domande_carte.tsv``: questions naming the cards players ask about most, each with its rules, written
  the same way from the cards' rulings (``CARD_QUESTION_LIKENESS``).
A new question is compared with the questions in it (tf-idf cosine over Italian stems, the analyzer's:
``stems``), and the rules of the nearest ones are the rules it probably asks for (``rules_for``), which
the engine adds to the rules its words find (question.py, query.py). It is read two ways:
- a full question (frames.is_full_question) meets every kind; each rule weighs the likenesses of the
  ``NEIGHBOURS`` near questions that name it, added up to 1 at most (a rule that several near questions
  name is likelier than one named once);
- a few words meet the situations only, as before the rules' questions joined: each rule weighs the
  likeness of the nearest of ``WORD_NEIGHBOURS`` that names it. A few words are not a question: on the
  tuning halves the rules' questions cost short queries, keywords and variants what they gave questions.
A full question is compared by meaning too, when the process can run the sentence model (meaning.py):
a learned question close in meaning adds to its likeness in words (``Meant``, ``W_MEANING``).
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from judge.search import meaning
from judge.search.analysis import stem, words
from judge.search.meaning import Encoder

log = logging.getLogger(__name__)

QUESTIONS_FILE = Path(__file__).with_name("domande.json")
RULE_QUESTIONS_FILE = Path(__file__).with_name("domande_regole.tsv")
CARD_QUESTIONS_FILE = Path(__file__).with_name("domande_carte.tsv")
LEARNED_HALF = "tuning"
MIN_SIMILARITY = 0.2  # below this a question is not like the one asked
# Chosen on the tuning halves (docs/ricerca.md, 29 November 2026, third session), with question.W_LEARNED.
NEIGHBOURS = 8  # a full question: near questions whose rules count
RULE_QUESTION_LIKENESS = 0.7
CARD_QUESTION_LIKENESS = 1.0  # a card named in both is as telling as a situation
WORD_NEIGHBOURS = 5  # a few words (the memory's reading before the rules' questions)
# A full question's meaning (meaning.py), chosen on the tuning halves (docs/ricerca.md, 29 November 2026,
# fifth session): e5's cosines between questions sit mostly above 0.75; only what is above the floor counts.
MEANING_FLOOR = 0.8
W_MEANING = 0.5


def stems(text: str) -> set[str]:
    """A question's Italian terms, as a set (the analyzer's, word by word through ``stem``'s cache)."""
    return {t for t in (stem(w, "it") for w in words(text)) if t is not None}


SITUATION, RULE, CARD = "situazione", "regola", "carta"  # the kinds of question the memory holds
# What a question's likeness to a new one counts for, by its kind.
LIKENESS = {SITUATION: 1.0, RULE: RULE_QUESTION_LIKENESS, CARD: CARD_QUESTION_LIKENESS}


@dataclass(frozen=True)
class Asked:
    text: str
    rules: tuple[str, ...]
    group: str = ""
    kind: str = SITUATION

    @property
    def likeness(self) -> float:
        return LIKENESS[self.kind]


def read_questions(path: Path | None = None, half: str = LEARNED_HALF) -> list[Asked]:
    data = json.loads(Path(path or QUESTIONS_FILE).read_text(encoding="utf-8"))
    return [Asked(q["q"], tuple(q["rules"]), q.get("group", "")) for q in data["questions"] if q.get("half") == half]


def _rows(path: Path, header: str) -> list[list[str]]:
    """A TSV file's data lines, split (no ``#`` comment, no blank line, no header line)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.split("\t") for line in lines if line.strip() and not line.startswith(("#", header + "\t"))]


def read_rule_questions(path: Path | None = None) -> list[Asked]:
    """The questions written rule by rule (``domande_regole.tsv``: rule TAB question)."""
    return [Asked(text, (number,), "regola " + number, RULE)
            for number, text in _rows(Path(path or RULE_QUESTIONS_FILE), "regola")]


def read_card_questions(path: Path | None = None) -> list[Asked]:
    """The questions written card by card (``domande_carte.tsv``: rules, comma separated, TAB card TAB
    question)."""
    return [Asked(text, tuple(numbers.split(",")), "carta " + card, CARD)
            for numbers, card, text in _rows(Path(path or CARD_QUESTIONS_FILE), "regole")]


class Likeness:
    """Questions searchable by likeness: tf-idf cosine over stems. Arrays, read-only once built (safe under
    the server's threads): a question meets thousands of others through its common stems, summed in
    numpy rather than in a loop."""

    def __init__(self, asked: list[Asked]):
        self.asked = asked
        docs = [stems(a.text) for a in asked]
        n = len(docs) or 1
        df: dict[str, int] = {}
        for d in docs:
            for t in d:
                df[t] = df.get(t, 0) + 1
        self.idf = {t: math.log(1 + n / k) for t, k in df.items()}
        postings: dict[str, list[int]] = {}
        for i, d in enumerate(docs):
            for t in d:
                postings.setdefault(t, []).append(i)
        self.postings = {t: np.array(ix, dtype=np.int32) for t, ix in postings.items()}
        self.weights = {t: np.full(len(ix), self.idf[t] ** 2) for t, ix in postings.items()}  # ready to add
        self.norm = np.array([math.sqrt(sum(self.idf[t] ** 2 for t in d)) or 1.0 for d in docs])
        self.least = MIN_SIMILARITY * self.norm  # the dot product a question needs to be near enough
        self.likeness = np.array([a.likeness for a in asked])

    def similar(self, text: str) -> tuple[np.ndarray, np.ndarray]:
        """The questions like ``text`` (cosine at least ``MIN_SIMILARITY``), as their positions and their
        cosines times the question's ``likeness``."""
        asked = stems(text)
        known = sorted(t for t in asked if t in self.idf)
        if not known:
            return np.zeros(0, dtype=np.int64), np.zeros(0)
        unknown = math.log(1 + len(self.asked))
        qnorm = math.sqrt(sum(self.idf.get(t, unknown) ** 2 for t in asked)) or 1.0
        if len(known) == 1:
            index = self.postings[known[0]]
            acc = np.full(len(index), self.idf[known[0]] ** 2)
        else:
            acc = np.bincount(np.concatenate([self.postings[t] for t in known]),
                              np.concatenate([self.weights[t] for t in known]), minlength=len(self.asked))
            index = np.flatnonzero(acc >= self.least * qnorm)
            acc = acc[index]
        sims = acc / (self.norm[index] * qnorm)
        met = sims >= MIN_SIMILARITY
        return index[met], sims[met] * self.likeness[index[met]]

    def top(self, index: np.ndarray, sims: np.ndarray, k: int) -> list[tuple[float, Asked]]:
        """The ``k`` likeliest, likest first, then in file order."""
        if len(sims) > k:  # only the k likeliest (ties with the k-th kept) need sorting
            kept = sims >= np.partition(sims, len(sims) - k)[len(sims) - k]
            index, sims = index[kept], sims[kept]
        order = np.lexsort((index, -sims))[:k]
        return [(float(sims[i]), self.asked[index[i]]) for i in order]

    def nearest(self, text: str, k: int) -> list[tuple[float, Asked]]:
        """The ``k`` questions most like ``text`` (cosine at least ``MIN_SIMILARITY``, times the question's
        ``likeness``), likest first, then in file order."""
        return self.top(*self.similar(text), k)


class Meant:
    """The learned questions' vectors (meaning.py), row by row as the memory holds them, and the encoder
    of a new question. A question close in meaning adds ``W_MEANING`` of its closeness (the cosine above
    ``MEANING_FLOOR``, stretched to 0–1, times its likeness) to its likeness in words."""

    def __init__(self, asked: list[Asked], vectors: dict[str, np.ndarray], encoder: Callable[[], Encoder | None]):
        dim = len(next(iter(vectors.values())))
        self.matrix = np.stack([vectors.get(a.text, np.zeros(dim, np.float32)) for a in asked])
        self.encoder = encoder  # called at each full question: loads the model the first time (a server at start-up)

    def closeness(self, text: str, likeness: np.ndarray) -> np.ndarray | None:
        """Each learned question's closeness in meaning to ``text`` (None: no model in this process)."""
        encoder = self.encoder()
        if encoder is None:
            return None
        try:
            cos = self.matrix @ encoder.vector(text)
        except (ValueError, RuntimeError, OSError) as exc:  # the words still answer
            log.warning("meaning not read for %r: %s", text[:80], exc)
            return None
        # At most 1: the vectors are kept to float16, so a text's cosine with itself may pass 1 by a hair.
        return np.clip((cos - MEANING_FLOOR) / (1 - MEANING_FLOOR), 0, 1) * likeness * W_MEANING


class Memory:
    """Questions asked before, each with its rules, read as a full question or as a few words; a full
    question also by meaning, when ``vectors`` and an ``encoder`` are given (meaning.py)."""

    def __init__(self, asked: list[Asked], corpus=None, vectors: dict[str, np.ndarray] | None = None,
                 encoder: Callable[[], Encoder | None] | None = None):
        self.asked = [a for a in asked if corpus is None or all(n in corpus for n in a.rules)]
        self.questions = Likeness(self.asked)
        self.situations = Likeness([a for a in self.asked if a.kind == SITUATION])
        self.meant = Meant(self.asked, vectors, encoder) if vectors and encoder is not None else None

    def __len__(self) -> int:
        return len(self.asked)

    def nearest(self, text: str, full: bool = True) -> list[tuple[float, Asked]]:
        """The questions most like ``text``, as a full question reads them or as a few words do."""
        if not full:
            return self.situations.nearest(text, WORD_NEIGHBOURS)
        index, sims = self.questions.similar(text)
        close = self.meant.closeness(text, self.questions.likeness) if self.meant else None
        if close is None:
            return self.questions.top(index, sims, NEIGHBOURS)
        close[index] += sims
        index = np.flatnonzero(close > 0)
        return self.questions.top(index, close[index], NEIGHBOURS)

    def rules_for(self, text: str, full: bool = True) -> dict[str, float]:
        """Rule -> weight (0–1): for a full question the likenesses of the near questions that name the rule,
        added up; for a few words the likeness of the nearest situation that names it."""
        out: dict[str, float] = {}
        for sim, a in self.nearest(text, full):
            for n in a.rules:
                out[n] = out.get(n, 0.0) + sim if full else max(out.get(n, 0.0), sim)
        return {n: min(1.0, w) for n, w in out.items()}


@lru_cache(maxsize=8)  # per corpus, by words and by meaning
def _memory(path: str, rule_path: str, card_path: str, corpus, by_meaning: bool) -> Memory:
    asked = read_questions(Path(path)) + read_rule_questions(Path(rule_path)) + read_card_questions(Path(card_path))
    if not by_meaning or not meaning.status().active:  # no model here: its vectors would be dead weight
        return Memory(asked, corpus)
    return Memory(asked, corpus, meaning.read_vectors(), meaning.encoder)


def get_memory(corpus=None, path: Path | None = None, rule_path: Path | None = None,
               card_path: Path | None = None, by_meaning: bool = True) -> Memory:
    """The memory (the tuning half, the rules' and the cards' questions), built once per corpus; read by
    meaning too unless ``by_meaning`` is false (what the offline copy can do: words only)."""
    return _memory(str(path or QUESTIONS_FILE), str(rule_path or RULE_QUESTIONS_FILE),
                   str(card_path or CARD_QUESTIONS_FILE), corpus, by_meaning)
