"""The engine's Italian names, from the project's one terminology table.

Zones, card types, counters, mana colours, sectors and the verbs of the log
(«Alice rimescola il suo grimorio») are the official Italian terms of
``rules_it/terminologia.tsv``, the table that the translation check, the glossary and the
search use too.  It is read once, at import, through ``judge.corpus.terminology``; a name
the engine needs and the table lacks is an error here, to be fixed by adding a row to
the table, never by a private dictionary.  Keywords have their own registry, with their
Italian names from this table: ``keywords.py``.
"""

from __future__ import annotations

import re

from judge.corpus.terminology import Terminology, load_terminology
from judge.engine.state import CARD_LISTS, CARD_TYPES, MANA, SECTORS, ZONES

TABLE: Terminology = load_terminology()


def italian(term: str) -> str:
    """The table's Italian for an English term."""
    it = TABLE.italian(term)
    if it is None:
        raise LookupError(f"«{term}» non è in {TABLE.path}: aggiungi una riga alla tabella")
    return it


# What the engine calls things → the English term of the table.
ZONE_TERMS = {"hand": "hand", "library": "library", "graveyard": "graveyard", "exile": "exile",
              "command": "command zone", "battlefield": "battlefield", "stack": "stack",
              "scheme_deck": "scheme deck", "planar_deck": "planar deck"}
MANA_TERMS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green", "C": "colorless"}
# Counter kinds the table names ("X counter" there is «segnalino X»).
COUNTER_TERMS = {"loyalty": "loyalty", "defense": "defense", "lore": "lore counter",
                 "poison": "poison counter", "shield": "shield counter", "stun": "stun counter",
                 "charge": "charge counter", "time": "time counter"}
# The log's events and the verb that names each («Alice pesca», «Orso viene TAPpato»).
VERB_TERMS = {"draw": "draw", "discard": "discard", "mill": "mill", "sacrifice": "sacrifice",
              "shuffle": "shuffle", "cast": "cast", "tap": "tap", "untap": "untap",
              "attach": "attach", "venture": "venture into the dungeon", "goad": "goad"}
VENTURE = "venture into the dungeon"

assert set(ZONE_TERMS) == {*ZONES, *CARD_LISTS, "battlefield", "stack"}
ZONE_IT = {z: italian(t) for z, t in ZONE_TERMS.items()}
TYPE_IT = {t: italian(t) for t in CARD_TYPES}
MANA_IT = {m: italian(MANA_TERMS[m]) for m in MANA}
SECTOR_IT = {s: italian(s) for s in SECTORS}
COUNTER_IT = {k: italian(t).removeprefix("segnalino ") for k, t in COUNTER_TERMS.items()}
TWO_HEADED_GIANT = italian("Two-Headed Giant")


def counter(kind: str) -> str:
    """A counter kind in Italian: «fedeltà», «+1/+1»; a kind the table lacks as written."""
    return COUNTER_IT.get(kind, kind)


# --- verbs -----------------------------------------------------------------------------
# The table gives verbs in the infinitive; the log needs the third person («rimescola») and
# the past participle («TAPpato»).  The table's verbs are regular (-are, -ere, -ire), some
# reflexive and followed by their object («avventurarsi nel dungeon»).

def _split(infinitive: str) -> tuple[bool, str, str, str]:
    verb, _, rest = infinitive.partition(" ")
    reflexive = verb.endswith(("arsi", "ersi", "irsi"))
    if reflexive:
        verb = verb[:-2] + "e"
    if not verb.endswith(("are", "ere", "ire")):
        raise ValueError(f"«{infinitive}» non è un verbo all'infinito")
    return reflexive, verb[:-3], verb[-3:], rest


def third_person(infinitive: str) -> str:
    """«rimescolare» → «rimescola», «concedere» → «concede», «avventurarsi nel dungeon» →
    «si avventura nel dungeon»."""
    reflexive, stem, ending, rest = _split(infinitive)
    return " ".join(x for x in ("si" if reflexive else "", stem + ("a" if ending == "are" else "e"),
                                rest) if x)


def participle(infinitive: str) -> str:
    """«TAPpare» → «TAPpato», «assegnare» → «assegnato» (regular participles only)."""
    _, stem, ending, _ = _split(infinitive)
    return stem + {"are": "ato", "ere": "uto", "ire": "ito"}[ending]


def verb(term: str) -> str:
    """The table's verb for ``term`` in the third person: ``verb("shuffle")`` → «rimescola»."""
    return third_person(italian(term))


def done(term: str) -> str:
    """The table's verb for ``term`` as a participle: ``done("tap")`` → «TAPpato»."""
    return participle(italian(term))


# --- zones with their article ----------------------------------------------------------------

_PREPOSITIONS = {"": "", "da": "da", "in": "ne", "a": "a", "di": "de", "su": "su"}


def zone(prep: str, name: str) -> str:
    """A zone's Italian name with its article, joined to a preposition: ("da", "exile") →
    «dall'esilio», ("in", "hand") → «nella mano», ("a", "graveyard") → «al cimitero»."""
    if prep == "in" and name == "battlefield":
        prep = "su"                              # «sul campo di battaglia»
    word = ZONE_IT[name]
    first = word.split()[0].lower()
    feminine = first.endswith("a") or first == "mano"
    if first[0] in "aeiou":
        article = "l'"
    elif not feminine and re.match(r"(s[^aeiou]|z|gn|ps|x|y)", first):
        article = "lo"
    else:
        article = "la" if feminine else "il"
    base = _PREPOSITIONS[prep]
    if base:
        article = base + {"il": "l", "lo": "llo", "la": "lla", "l'": "ll'"}[article]
    return article + ("" if article.endswith("'") else " ") + word
