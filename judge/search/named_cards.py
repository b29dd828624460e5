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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from judge.cards.lookup import Match
from judge.cards.mentions import GameWords, mentioned
from judge.cards.rules import card_rules
from judge.cards.table import CardTable, load_table
from judge.cards.text_rules import invoked
from judge.search.card_rulings import ruling_rules

# How much each kind of rule a card relies on weighs (the weight of the rules a question's likeness
# brings is 1 at most: judge/search/learned.py).
KEYWORD = 1.0  # a keyword's rules (702.9a… for flying); its heading counts half
TEXT = 1.0  # the first rule of a phrase of its text («instead» → 614.1a); the next ones a bit less
TEXT_NEXT = 0.8
KIND = 0.7  # the rules of its supertypes, subtypes and layout
RULING = 0.6  # a rule one of its rulings speaks of (judge/search/card_rulings.py; chosen on tuning)
SKIPPED = {"costo di mana", "colore", "forza e costituzione", "riga del tipo", "tipo",
           "forza o costituzione con *", "fedeltà", "difesa"}


@dataclass
class NamedCards:
    text: str  # the question without the cards' names
    cards: list[Match] = field(default_factory=list)
    rules: dict[str, float] = field(default_factory=dict)  # rule -> weight


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
    for m in found:
        if all(c.face.name != m.match.face.name for c in out.cards):
            out.cards.append(m.match)
        add_face(out.rules, m.match.face, rules, corpus)
    return out


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
