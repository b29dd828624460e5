"""What the rules' own texts say, for telling a card's name from words of the game
(judge/cards/mentions.py):

- the phrases they contain, word by word up to the Italian stem: «forza di volontà» is in no rule,
  so typed in a question it is Force of Will's Italian name, while «serra angel» is in an example
  and «prendere l'iniziativa» is how the rules say «prende l'iniziativa»: both are read as words
  unless typed as a name («Serra Angel»);
- the words they write only as names: «Grapeshot», «Fog», «Shahrazad» appear in the rules' examples,
  always with a capital in mid-sentence, never as a word of the game. Typed with a capital in a
  question they name the card. Words of the type line (205.3–205.4: «Island», «Goblin»), the
  names of keywords and keyword actions (701–702) and the titles of sections («Brawl», «Commander»)
  are words of the game, capitals and all.

Built once per corpus from the texts in force, English and both Italian layers, examples included.
"""

from __future__ import annotations

import re
import threading

import numpy as np

from judge.cards.names import name_words
from judge.search.analysis import ALL_STOPS, fold, stem

# Words of the type line and keywords' names (and sections' titles, numbers without a dot): written
# with a capital, yet words of the game.
GAME_NAMES = ("205.3", "205.4", "701.", "702.")
_WORD = re.compile(r"[^\W\d_]+")
_SENTENCE_START = ".:;!?(—“\"«"


class RuleWords:
    """The words and phrases of the rules' texts, as names compare them (judge.cards.names)."""

    def __init__(self, texts: list[tuple[str, str]]):
        """``texts``: (rule number, text) for every text of every rule, both languages."""
        ids: dict[str, int] = {}  # a word's form (judge.cards.names, then its Italian stem) -> its id
        self._forms: dict[str, str] = {}
        seq: list[int] = []
        capital: set[str] = set()
        lower: set[str] = set()
        game: set[str] = set()
        for number, text in texts:
            for w in name_words(text):
                seq.append(ids.setdefault(self._form(w), len(ids)))
            seq.append(-1)  # texts do not run into each other
            for m in _WORD.finditer(text):
                w = fold(m.group(0))
                if number.startswith(GAME_NAMES) or "." not in number:
                    game.add(w)
                if not m.group(0)[0].isupper():
                    lower.add(w)
                elif text[:m.start()].rstrip()[-1:] not in ("", *_SENTENCE_START):
                    capital.add(w)
        self._ids = ids
        self._forms.clear()  # the rules' own words are looked up no more; a phrase's, a few each
        self._seq = np.array(seq, dtype=np.int32)
        # Each word's places, grouped by word: word i's are positions[starts[i]:starts[i + 1]].
        self._positions = np.argsort(self._seq, kind="stable").astype(np.int32)[np.count_nonzero(self._seq < 0):]
        self._starts = np.concatenate(([0], np.cumsum(np.bincount(self._seq[self._seq >= 0], minlength=len(ids)))))
        self.proper_words = frozenset(capital - lower - game - ALL_STOPS)

    def proper(self, word: str) -> bool:
        """Whether the rules write ``word`` (folded) only as a name: capitalised mid-sentence, never
        in lower case, and not a word of the type line or a keyword's name."""
        return word in self.proper_words

    def said(self, phrase: str) -> bool:
        """Whether the words of ``phrase`` (a name's key: folded words, one space between) follow
        each other in some rule's text."""
        try:
            wanted = [self._ids[self._form(w)] for w in phrase.split()]
        except KeyError:
            return False
        if not wanted:
            return False
        # The rarest word's places, then the others at their offsets.
        r = int(np.argmin([self._starts[i + 1] - self._starts[i] for i in wanted]))
        starts = self._positions[self._starts[wanted[r]]:self._starts[wanted[r] + 1]].astype(np.int64) - r
        starts = starts[(starts >= 0) & (starts + len(wanted) <= len(self._seq))]
        for k, i in enumerate(wanted):
            if not len(starts):
                return False
            starts = starts[self._seq[starts + k] == i]
        return bool(len(starts))

    def _form(self, word: str) -> str:
        """A word as phrases compare it: its Italian stem (stop words as they are)."""
        form = self._forms.get(word)
        if form is None:
            form = stem(word, "it") or word
            if len(self._forms) < 100_000:
                self._forms[word] = form
        return form


_built: dict[int, tuple[object, RuleWords]] = {}
_lock = threading.Lock()


def rule_words(corpus) -> RuleWords:
    """The rules' words for ``corpus`` (built once per corpus, whichever thread asks first)."""
    with _lock:
        kept = _built.get(id(corpus))
        if kept is not None and kept[0] is corpus:
            return kept[1]
        texts = []
        for n in corpus.numbers:
            rule = corpus.rules[n]
            for t in (rule.en, rule.tr, rule.it):  # the English, the project's Italian, the community's
                if t is not None:
                    texts.extend((n, s) for s in (t.text, *t.examples))
        built = RuleWords(texts)
        _built.clear()  # one corpus in force at a time: an older one's words are let go
        _built[id(corpus)] = (corpus, built)
        return built
