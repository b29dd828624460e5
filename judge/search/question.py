"""What the search reads in a query beyond its words (issue 36): the cards it names, the frame of a
full question, and the questions asked before that it is like. Each brings rules as candidates beside
the rules the words find (query.py adds them to the words' scores, as a share of the best):

- the cards' rules (judge/search/named_cards.py), ``W_CARD``;
- the rules answering the question's frame (judge/search/frames.py), ``W_FRAME``; the frame's own
  words («controlla», «ordine») weigh ``W_FRAME_WORD`` of a subject's word in the search;
- the rules of the questions most like it (judge/search/learned.py), ``W_LEARNED`` for a full question,
  ``W_LEARNED_WORDS`` for a few words.

The weights were chosen on the tuning halves only (docs/ricerca.md, 29 November 2026).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from judge.cards.mentions import GameWords
from judge.cards.table import CardTable
from judge.search.frames import Reading, is_full_question, read
from judge.search.learned import Memory
from judge.search.named_cards import NamedCards, named_cards

# Each weight: what a rule of that source weighing 1 adds, the best rule of the words being 1.
W_CARD = 0.8  # 1.0 until a third tuning set (docs/ricerca.md, seventh session)
W_FRAME = 0.8
W_FRAME_WORD = 0.5
W_LEARNED = 0.8  # a full question (0.3 before the rules' questions joined the memory, 0.6 before the third tuning set)
W_LEARNED_WORDS = 0.3  # a few words (learned.py: the memory's two readings)


@dataclass
class Question:
    text: str  # what the words are searched in: the query without the cards' names
    cards: NamedCards
    reading: Reading

    @property
    def frame_words(self) -> set[str]:
        return self.reading.frame_words


def read_question(text: str, corpus, words: GameWords | Callable[[str], bool], table: CardTable | None) -> Question:
    """The cards ``text`` names (none without a card table) and the frame of what is left."""
    cards = named_cards(text, corpus, words, table) if table is not None else NamedCards(text)
    return Question(cards.text, cards, read(cards.text, about=cards.about))


def candidate_rules(question: Question, text: str, memory: Memory) -> dict[str, float]:
    """Rule -> what it adds to its score, from the three sources (``text``: the query as typed, card
    names and all, as the questions the search learned from were written)."""
    out: dict[str, float] = {}
    full = is_full_question(text)
    w_learned = W_LEARNED if full else W_LEARNED_WORDS
    for weight, found in ((w_learned, memory.rules_for(text, full) if w_learned else {}),
                          (W_CARD, question.cards.rules), (W_FRAME, question.reading.rules)):
        if not weight:
            continue
        for n, w in found.items():
            out[n] = out.get(n, 0.0) + weight * w
    return out
