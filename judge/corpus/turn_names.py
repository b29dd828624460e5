"""The Italian names of the turn's phases and steps: one set for the pages, the simulator and the
engine's log.

Each name is the terminology table's term (``rules_it/terminologia.tsv``), looked up by its English
term, so the home page's index, a section's title, ``/turno``, the simulator's pickers and the log
never say «dichiarazione delle creature attaccanti» in one place and «degli attaccanti» in another.
The sections are those of the edition of 25 September 2026 (rules 500–514).
"""

from __future__ import annotations

from functools import lru_cache

from judge.corpus.terminology import load_terminology

# Section (20260925) -> the table's English term for what it defines.
SECTION_TERMS: dict[str, str] = {
    "501": "beginning phase",
    "502": "untap step",
    "503": "upkeep step",
    "504": "draw step",
    "505": "main phase",
    "506": "combat phase",
    "507": "beginning of combat step",
    "508": "declare attackers step",
    "509": "declare blockers step",
    "510": "combat damage step",
    "511": "end of combat step",
    "512": "ending phase",
    "513": "end step",
    "514": "cleanup step",
}

# The two main phases of a turn (505.1): the first and the second.
FIRST_MAIN = "precombat main phase"
SECOND_MAIN = "postcombat main phase"


def capital(name: str) -> str:
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=64)
def _italian(term: str) -> str:
    it = load_terminology().italian(term)
    if it is None:
        raise LookupError(f"«{term}» non è in rules_it/terminologia.tsv: aggiungi una riga alla tabella")
    return it


def turn_name(term: str) -> str:
    """The table's Italian for a phase or step («sottofase di STAP» for "untap step"), lowercase
    as in running text."""
    return _italian(term)


def section_name(section: str) -> str | None:
    """The name a turn section goes by on every page («Sottofase di dichiarazione degli attaccanti»
    for 508), None for a section that is no phase or step."""
    term = SECTION_TERMS.get(section)
    return capital(_italian(term)) if term else None
