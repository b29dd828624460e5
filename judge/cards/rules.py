"""The rules a card relies on, read from the rules in force.

Keyword abilities are found by the titles of rules 702.x (and keyword actions by 701.x), card
types by the section titles of chapter 3, subtypes by the rules that say «Some artifacts have
the subtype “Equipment.”» and by the sections named for a kind of card («Saga Cards»),
supertypes by the rules of 205.4 that name them and the rules those cite (the legend rule,
704.5j). Nothing is copied from an edition: a new edition that renumbers a rule (Siege was
310.11 and is 310.12 on 25 September 2026) is followed at the next start. Only the basic
characteristics are cited by number, the rules of chapter 2 that define them.

Keyword names are matched as the table writes them (lower case, with their parameter):
«protection from red» is Protection, «equip {2}» Equip, «swampwalk» Landwalk, «basic
landcycling {2}» Cycling, «double agenda» Hidden Agenda (whose rule defines it). A keyword
that no rule in force names is reported by ``judge verifica``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.cards.names import name_words
from judge.cards.table import CardFace
from judge.corpus.citations import find_citations

# The rules that define a printed characteristic (chapter 2; numbers of 25 September 2026).
MANA_COST = "202.1"       # mana cost
COLOR_FROM_COST = "202.2"  # colour from the mana cost
COLOR_INDICATOR = "204.1"  # colour indicator
TYPE_LINE = "205.1"
CARD_TYPES = "205.2"
SUBTYPES = "205.3"
SUPERTYPES = "205.4"
POWER_TOUGHNESS = "208.1"
STAR_POWER_TOUGHNESS = "208.2"   # "*" in power or toughness
LOYALTY = "209.1"
DEFENSE = "210.1"

# A card's layout → the title of the section of chapter 7 on cards of that kind.
LAYOUT_SECTIONS = {
    "split": "Split Cards", "aftermath": "Split Cards", "room": "Split Cards",
    "flip": "Flip Cards", "leveler": "Leveler Cards", "double-faced": "Double-Faced Cards",
    "modal_dfc": "Double-Faced Cards", "meld": "Double-Faced Cards",
    "adventure": "Adventurer Cards", "omen": "Omen Cards", "prepare": "Preparation Cards",
}
# Keyword parameters: a cost, a number or X, what follows a dash.
_PARAMETER = re.compile(r"\s*(?:—|\{|\b\d+\b|\bx\b).*$", re.IGNORECASE)
_SUBTYPE_RULE = re.compile(r"have the subtype “?([A-Z][\w’' -]*?)\.?”?(?:[.\s]|$)")
_SUPERTYPE = re.compile(r"supertype “(\w+)”")
_PLACEHOLDERS = {"cost", "n", "x", "quality", "number", "type", "subtype"}


@dataclass(frozen=True)
class RuleRef:
    number: str
    what: str         # which characteristic, in Italian: "tipo", "parola chiave", "costo di mana"…
    value: str = ""   # the card's value, as the table writes it: "Creature", "flying", "{1}{G}"


def keyword_name(keyword: str) -> str:
    """A keyword without its parameter: «equip {2}» → «equip», «bushido 2» → «bushido»."""
    return _PARAMETER.sub("", keyword).strip()


def _plurals(word: str) -> set[str]:
    w = word.lower()
    return {w + "s", w[:-1] + "ies", w[:-2] + "a", w + "es"}


class CardRules:
    """What governs each characteristic and keyword, for one corpus (see ``card_rules``)."""

    def __init__(self, corpus):
        self.corpus = corpus
        self._keywords: dict[tuple[str, ...], str] = {}   # title words → 702.x
        self._actions: dict[tuple[str, ...], str] = {}    # title words → 701.x
        self._types: dict[str, str] = {}
        self._sections_by_title: dict[str, str] = {}
        self._subtypes: dict[str, str] = {}
        self._supertypes: dict[str, str] = {}
        self._definitions: list[tuple[str, tuple[str, ...]]] | None = None
        for chapter in ("3", "7"):
            for section in corpus.sections(chapter):
                if section.en is not None:
                    self._sections_by_title[section.en.text.strip().lower()] = section.number
        self._types = {t: n for t, n in self._sections_by_title.items() if n.startswith("3")}
        for rule in corpus.in_force.rules:
            number, text = rule.number, rule.text
            section, _, sub = number.partition(".")
            if section in ("701", "702") and sub.isdigit():       # a keyword's own rule: its title
                target = self._keywords if section == "702" else self._actions
                for title in re.split(r"\s+and\s+", text):
                    words = tuple(name_words(title))
                    if words:
                        target.setdefault(words, number)
            if section[:1] == "3" and sub.isdigit():
                for m in _SUBTYPE_RULE.finditer(text):
                    self._subtypes.setdefault(m.group(1).strip(), number)
            if section == "205" and sub.startswith("4") and sub != "4":
                for m in _SUPERTYPE.finditer(text):
                    self._supertypes.setdefault(m.group(1).lower(), number)

    # --- look-ups -------------------------------------------------------------------------
    def type_section(self, card_type: str) -> str | None:
        """«Creature» → 302 (the section titled «Creatures»)."""
        for plural in _plurals(card_type):
            if plural in self._types:
                return self._types[plural]
        return None

    def subtype_rule(self, subtype: str) -> str | None:
        """«Equipment» → 301.5; «Saga» → 303.5; a kind of card with its own section («Case» →
        719 «Case Cards»; «Adventure» → 715 «Adventurer Cards»)."""
        if subtype in self._subtypes:
            return self._subtypes[subtype]
        s = subtype.lower()
        return self._sections_by_title.get(f"{s} cards") or self._sections_by_title.get(f"{s}r cards")

    def supertype_rule(self, supertype: str) -> str | None:
        return self._supertypes.get(supertype.lower())

    def section_titled(self, title: str) -> str | None:
        return self._sections_by_title.get(title.lower())

    def keyword_rule(self, keyword: str) -> str | None:
        """The rule of a keyword ability (702.x) as the table writes it, or of a keyword
        action (701.x); None when no rule in force names it."""
        words = tuple(name_words(keyword))
        name = tuple(name_words(keyword_name(keyword))) or words
        for n in range(len(words), 0, -1):          # the longest title the keyword starts with
            if words[:n] in self._keywords:
                return self._keywords[words[:n]]
        if name:
            last = name[-1]
            if last.endswith("walk") and ("landwalk",) in self._keywords:   # 702.14: [quality]walk
                return self._keywords[("landwalk",)]
            for (title,), number in ((k, v) for k, v in self._keywords.items() if len(k) == 1):
                if last != title and last.endswith(title) and len(title) >= 4:  # typecycling, multikicker
                    return number
            found = self._defined_in_702(name)
            if found:
                return found
            if (last,) in self._keywords and len(name) > 1:      # «fox offering»: [Subtype] offering
                return self._keywords[(last,)]
        for n in range(len(words), 0, -1):
            if words[:n] in self._actions:
                return self._actions[words[:n]]
        return None

    def _defined_in_702(self, name: tuple[str, ...]) -> str | None:
        """A variant that a rule of 702 defines in its own words: «Double agenda is a variant of
        the hidden agenda ability» (702.106f), «“Doctor’s companion” means …» (702.124m)."""
        if self._definitions is None:
            defs = []
            for rule in self.corpus.in_force.rules:
                chapter, _, sub = rule.number.partition(".")
                digits = re.match(r"\d+", sub)
                if chapter != "702" or digits is None or digits.group(0) == "1":   # 702.1: keywords in general
                    continue
                section = "702." + digits.group(0)
                phrases = re.findall(r"“([^”]{2,60})”", rule.text) + [rule.text.split(" is ", 1)[0][:60]]
                for p in phrases:
                    words = tuple(w for w in name_words(p) if w not in _PLACEHOLDERS)
                    if words:
                        defs.append((section, words))
            self._definitions = defs
        for section, words in self._definitions:
            if words == name:
                return section
        return None

    # --- a card -----------------------------------------------------------------------------
    def for_face(self, face: CardFace) -> list[RuleRef]:
        """The rules its characteristics and keywords rely on, in the order of the card."""
        out: list[RuleRef] = []

        def add(number: str | None, what: str, value: str = "") -> None:
            if number and number in self.corpus and all(r.number != number for r in out):
                out.append(RuleRef(number, what, value))

        if face.mana_cost:
            add(MANA_COST, "costo di mana", face.mana_cost)
        if face.colors:
            from_cost = set(re.findall(r"[WUBRG]", face.mana_cost or ""))
            add(COLOR_FROM_COST if set(face.colors) <= from_cost else COLOR_INDICATOR, "colore",
                " ".join(face.colors))
        if face.power is not None or face.toughness is not None:
            pt = f"{face.power}/{face.toughness}"
            add(POWER_TOUGHNESS, "forza e costituzione", pt)
            if "*" in pt:
                add(STAR_POWER_TOUGHNESS, "forza o costituzione con *", pt)
        if face.loyalty is not None:
            add(LOYALTY, "fedeltà", face.loyalty)
        if face.defense is not None:
            add(DEFENSE, "difesa", face.defense)
        add(TYPE_LINE, "riga del tipo", face.type_line)
        for t in face.supertypes:
            rule = self.supertype_rule(t)
            add(rule or SUPERTYPES, "supertipo", t)
            text = self.corpus.rules[rule].en.text if rule and self.corpus.rules[rule].en else ""
            for c in find_citations(text):           # the legend rule, the world rule
                for n in c.numbers:
                    add(n, "supertipo", t)
        for t in face.types:
            add(self.type_section(t), "tipo", t)
        for sub in face.subtypes:
            add(self.subtype_rule(sub), "sottotipo", sub)
        layout = LAYOUT_SECTIONS.get(face.layout)
        if layout:
            add(self.section_titled(layout), "carta di più parti", face.layout)
        for kw in face.keywords:
            add(self.keyword_rule(kw), "parola chiave", kw)
        return out


def card_rules(corpus) -> CardRules:
    """The card rules of ``corpus``, built once per loaded corpus."""
    cached = getattr(corpus, "_card_rules", None)
    if cached is None:
        cached = corpus._card_rules = CardRules(corpus)
    return cached
