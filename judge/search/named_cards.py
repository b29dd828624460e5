"""A card named in a question brings the rules it relies on.

«con Rest in Peace le creature muoiono?» names Rest in Peace (judge/cards/mentions.py finds it,
Italian or English, inside the question). Its name is taken out of the words searched (its words
would find rules about «rest» or «peace»), and the rules it relies on become candidates beside
the words' (query.py): its keywords' rules, its supertypes' and subtypes' (the legend rule, Auras,
Equipment), the section of a card of its kind (split, double-faced…), and the rules its text
invokes (judge/cards/text_rules.py: «instead» → 614.1a, «skip» → 614.10, «can't» → 614.17), and
the rules its official rulings speak of (judge/search/card_rulings.py).
The basic characteristics every card has (mana cost, colour, type line, power and toughness)
bring nothing: every card would bring them.

What a card is also says what a question is about (``about``, read by the question's frame:
judge/search/frames.py): its Italian type line and the titles of what its main rules are about (Hardened
Scales: «Incantesimo», «Effetti di sostituzione»), kept to the words a frame's subject may use.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from judge.cards.lookup import Match
from judge.cards.mentions import GameWords, mentioned
from judge.cards.rules import card_rules
from judge.cards.table import CardTable, load_table
from judge.cards.text_rules import invoked
from judge.cards.types_it import italian_type_line
from judge.corpus.numbers import RuleNumber
from judge.search.card_rulings import ruling_rules
from judge.search.frames import subject_words

# How much each kind of rule a card relies on weighs (the weight of the rules a question's likeness
# brings is 1 at most: judge/search/learned.py).
KEYWORD = 1.0  # a keyword's rules (702.9a… for flying); its heading counts half
TEXT = 1.0  # the first rule of a phrase of its text («instead» → 614.1a); the next ones a bit less
TEXT_NEXT = 0.8
KIND = 0.7  # the rules of its supertypes, subtypes and layout
RULING = 0.6  # a rule one of its rulings speaks of (judge/search/card_rulings.py; chosen on tuning)
ABOUT = 0.8  # the rules whose titles say what a card is about: its keywords' and its text's, not its rulings'
SKIPPED = {"costo di mana", "colore", "forza e costituzione", "riga del tipo", "tipo",
           "forza o costituzione con *", "fedeltà", "difesa"}


@dataclass
class NamedCards:
    text: str  # the question without the cards' names
    cards: list[Match] = field(default_factory=list)
    rules: dict[str, float] = field(default_factory=dict)  # rule -> weight
    about: tuple[str, ...] = ()  # what each card is, in words a question's subject may use (card_about)


def named_cards(text: str, corpus, words: GameWords | Callable[[str], bool], table: CardTable | None = None) -> NamedCards:
    """The cards ``text`` names and the rules they rely on (none when the card table is missing)."""
    if table is None:
        try:
            table = load_table()
        except OSError:
            return NamedCards(text)
    found = mentioned(text, words, table)
    if not found:
        return NamedCards(text)
    out = NamedCards(text)
    rules = card_rules(corpus)
    for m in reversed(found):  # from the end, so that earlier positions stay valid
        out.text = out.text[:m.start] + " " + out.text[m.end:]
    about = []
    for m in found:
        if all(c.face.name != m.match.face.name for c in out.cards):
            out.cards.append(m.match)
            own: dict[str, float] = {}
            add_face(own, m.match.face, rules, corpus)
            about.append(card_about(m.match.face, own, corpus))
            for n, w in own.items():
                if w > out.rules.get(n, 0.0):
                    out.rules[n] = w
    out.about = tuple(a for a in about if a)
    return out


def card_about(face, own: dict[str, float], corpus) -> str:
    """What ``face`` is, in the words a question's subject may use (frames.subject_words): its Italian type
    line, and the titles of the keywords and sections of the rules it relies on most (``own``: add_face's)."""
    line = re.sub(r"\([^()]*\)", " ", italian_type_line(face.types, face.supertypes, face.subtypes, corpus))
    titles = dict.fromkeys(_title(n, corpus) for n, w in own.items() if w >= ABOUT)
    return subject_words(" ".join([line, *titles]))


def _title(number: str, corpus) -> str:
    """The Italian title of what a rule is about: its keyword's or keyword action's (702.19b → 702.19
    «Travolgere»), else its section's (614.1a → 614 «Effetti di sostituzione»)."""
    n = RuleNumber.parse(number)
    rule = corpus.get(f"{n.section}.{n.rule}" if n.section in (701, 702) and n.rule is not None else str(n.section))
    text = rule and (rule.tr or rule.it)
    return text.text if text else ""


def _add(acc: dict[str, float], number: str | None, weight: float, corpus) -> None:
    if number and number in corpus and weight > acc.get(number, 0.0):
        acc[number] = weight


def _add_family(acc: dict[str, float], number: str | None, weight: float, corpus) -> None:
    """A rule that is a heading (702.9 «Flying») through the rules under it; another rule itself,
    and its subrules a bit less."""
    rule = corpus.get(number) if number else None
    if rule is None:
        return
    heading = not rule.en or len(rule.en.text.split()) <= 4
    _add(acc, number, weight * (0.5 if heading else 1.0), corpus)
    for child in rule.children:
        _add(acc, child, weight if heading else weight * 0.7, corpus)


def add_face(acc: dict[str, float], face, rules, corpus) -> None:
    """Into ``acc`` (rule -> weight, the best kept): the rules ``face`` relies on (the server's
    questions and the offline index's cards alike: judge/search/offline_cards.py)."""
    for ref in rules.for_face(face):
        if ref.what in SKIPPED:
            continue
        _add_family(acc, ref.number, KEYWORD if ref.what == "parola chiave" else KIND, corpus)
    first: set[str] = set()
    for number, what in invoked(face):
        _add(acc, number, TEXT if what not in first else TEXT_NEXT, corpus)
        first.add(what)
    for number in ruling_rules(face.name):
        _add(acc, number, RULING, corpus)
