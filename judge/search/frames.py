"""Reading a question: its frame, what it is about, and the rules that answer that kind of question.

A full question carries its subject in few words and its frame in many: «Se la creatura che attacca
viene rimossa dal combattimento prima del danno, infligge danno lo stesso?» asks whether something
still happens (the frame: «lo stesso») about a creature removed from combat and damage (the
subject); the rules that answer are 506.4 (a creature removed from combat), then 510.1c. The
frames are data (``cornici.tsv``): each row names a frame, how players say it, what the question
is about, and the rules that answer, the one that answers the frame first.

``read`` gives, for a question, the rows it matches and:

- the rules they name, weighted by their place in the row (the first 1, the next less): the
  search adds them to the rules its words find (query.py);
- the frame's own words («controlla», «ordine», «livello»): they say what is asked, not what it is
  about, and weigh less in the search than the words of the subject.

A card the question names is part of what it is about: «Ho Hardened Scales e un effetto che raddoppia i
segnalini: in che ordine si applicano?» asks the order of replacement effects (616.1) without the word, since
the card is one. ``read`` takes what the named cards are (``about``: judge/search/named_cards.py, their type
line and the titles of the rules they rely on) as words a subject may be said with; the frame itself must be
in the question.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from judge.search.analysis import stem, words
from judge.search.tables import rows

FRAMES_FILE = Path(__file__).with_name("cornici.tsv")
MAX_GAP = 2  # words allowed between two words of a phrase
NEXT_RULE = 0.5  # each rule after the first weighs this much of the one before it (chosen on the tuning halves)
# What each frame asks, as the quick answer says it.
ASKS = {
    "ancora": "succede lo stesso?", "controllo": "chi controlla, chi possiede?", "quando": "quando?",
    "puoi": "si può scegliere?", "rispondere": "si può rispondere, usa la pila?", "oppure": "è l'uno o l'altro?",
    "ordine": "in che ordine?", "livello": "in che livello?", "quanti": "quanti?", "dove": "dove va?",
    "conta": "conta come?", "succede": "che cosa succede?", "prevale": "che cosa prevale?",
    "colore": "di che colore?", "scelta": "chi sceglie?",
}


def is_full_question(text: str) -> bool:
    """A whole question, not a few words: seven words or more, or five with a question mark (the
    definition the figures per kind of query use too, judge/search/evaluate.py)."""
    n = len(words(text))
    return n >= 7 or (n >= 5 and "?" in text)


Token = tuple[str, str | None]  # (folded word, "\x00" + its Italian stem, or None for a stop word)
Phrase = tuple[Token, ...]


@dataclass(frozen=True)
class Frame:
    name: str  # «ancora», «controllo», «quando»…
    phrases: tuple[Phrase, ...]  # how the frame is said (any of them)
    subject: tuple[tuple[Phrase, ...], ...]  # groups that must all be there, each any of its phrases
    rules: tuple[str, ...]
    line: int = 0

    @property
    def asks(self) -> str:
        return ASKS.get(self.name, "")


@dataclass
class Reading:
    frames: list[Frame] = field(default_factory=list)  # the rows matched, in file order
    rules: dict[str, float] = field(default_factory=dict)  # rule -> weight (0–1)
    frame_words: set[str] = field(default_factory=set)  # folded words that say the frame


def _stem_key(word: str) -> str | None:
    """A word's Italian stem as frames compare it (apart from words: "\x00" first), or None."""
    s = stem(word, "it")
    return None if s is None else "\x00" + s


def _phrase(text: str) -> Phrase:
    """A phrase's tokens; a word written ``=word`` matches only as written, not by its stem («=finisce»:
    «fino» has its stem, fin)."""
    out: list[Token] = []
    for part in text.split():
        exact = part.startswith("=")
        out += [(w, None if exact else _stem_key(w)) for w in words(part.lstrip("="))]
    return tuple(out)


def _alternatives(text: str) -> tuple[Phrase, ...]:
    return tuple(p for p in (_phrase(a) for a in text.split("|")) if p)


def parse_frames(text: str) -> list[Frame]:
    out: list[Frame] = []
    for n, (name, phrases, subject, rules) in rows(text, "cornice", 4, FRAMES_FILE.name):
        groups = tuple(_alternatives(g) for g in subject.split(" + ")) if subject else ()
        frame = Frame(name, _alternatives(phrases), tuple(g for g in groups if g), tuple(rules.split()), n)
        if not frame.phrases:
            raise ValueError(f"{FRAMES_FILE.name}, riga {n}: una cornice senza frasi")
        out.append(frame)
    return out


class Frames(tuple):
    """The frames of a table, in file order, with the frames each word or stem may start: a phrase
    can only match where its first word does, so a question is checked against the few frames its
    words can start (``starts``: folded word, or "\\x00" and a stem -> positions). ``subject_keys``:
    every word and stem key a subject is said with."""

    def __new__(cls, frames):
        self = super().__new__(cls, frames)
        starts: dict[str, set[int]] = {}
        for i, f in enumerate(self):
            for p in f.phrases:
                for k in p[0]:
                    if k is not None:
                        starts.setdefault(k, set()).add(i)
        self.starts = {k: tuple(sorted(v)) for k, v in starts.items()}
        self.subject_keys = frozenset(k for f in self for g in f.subject for p in g for tok in p for k in tok
                                      if k is not None)
        return self


@lru_cache(maxsize=1)
def load_frames() -> Frames:
    return Frames(parse_frames(FRAMES_FILE.read_text(encoding="utf-8")))


def _find(phrase: Phrase, ws: list[str], keys: list[str | None], where: dict[str, list[int]]) -> list[int] | None:
    """Where ``phrase`` is in the question: its words in order, at most ``MAX_GAP`` apart (``keys``:
    the stem keys of the question's words; ``where``: the positions of each word and stem key)."""
    first = phrase[0]
    starts = where.get(first[0], ())
    if first[1] is not None and first[1] in where:
        starts = sorted({*starts, *where[first[1]]})
    for start in starts:
        at, pos = [start], start
        for tok in phrase[1:]:
            nxt = next((i for i in range(pos + 1, min(len(ws), pos + 2 + MAX_GAP))
                        if ws[i] == tok[0] or (tok[1] is not None and keys[i] == tok[1])), None)
            if nxt is None:
                break
            at.append(nxt)
            pos = nxt
        else:
            return at
    return None


def subject_words(text: str, frames: Frames | None = None) -> str:
    """The words of ``text`` a frame's subject may be said with, in order (what a named card is, kept
    short: the offline index holds it for every card)."""
    keys = (frames if frames is not None else load_frames()).subject_keys
    return " ".join(w for w in words(text) if w in keys or _stem_key(w) in keys)


def _positions(ws: list[str], keys: list[str | None]) -> dict[str, list[int]]:
    where: dict[str, list[int]] = {}
    for i, (w, k) in enumerate(zip(ws, keys)):
        where.setdefault(w, []).append(i)
        if k is not None:
            where.setdefault(k, []).append(i)
    return where


def read(text: str, frames: Frames | None = None, about: tuple[str, ...] = ()) -> Reading:
    """The frames ``text`` matches and what they bring (see the module's docstring); ``about``: what each
    card the question names is, words its subject may be said with."""
    ws = words(text)
    out = Reading()
    if len(ws) < 2:
        return out
    keys = [_stem_key(w) for w in ws]
    where = _positions(ws, keys)
    # The subject is looked for in the question and then in each card's words, apart (a gap longer than a
    # phrase allows: no phrase runs from one into the next).
    sws, skeys = list(ws), list(keys)
    for text_about in about:
        more = words(text_about)
        sws += [""] * (MAX_GAP + 1) + more
        skeys += [None] * (MAX_GAP + 1) + [_stem_key(w) for w in more]
    swhere = _positions(sws, skeys) if len(sws) > len(ws) else where
    frames = frames if frames is not None else load_frames()
    candidates = sorted({i for k in where for i in frames.starts.get(k, ())})
    for frame in (frames[i] for i in candidates):
        said = next((at for at in (_find(p, ws, keys, where) for p in frame.phrases
                                   if p[0][0] in where or p[0][1] in where) if at is not None), None)
        if said is None:
            continue
        if len(said) > 1:  # «chi controlla», «in che ordine»: the frame's words, whatever it is about
            out.frame_words.update(ws[i] for i in said)
        if any(all(_find(p, sws, skeys, swhere) is None for p in group if p[0][0] in swhere or p[0][1] in swhere)
               for group in frame.subject):
            continue
        out.frames.append(frame)
        out.frame_words.update(ws[i] for i in said)
        weight = 1.0
        for n in frame.rules:
            out.rules[n] = max(out.rules.get(n, 0.0), weight)
            weight *= NEXT_RULE
    return out
