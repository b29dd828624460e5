"""The analytic indexes: headwords and players' doubts -> rules.

Like the index at the back of a printed rulebook, they are written by the project, not by Wizards or
the wiki: they are none of the three text layers, they only point at rules. Each entry names a doubt
in the words players use ("danno: si rimuove a fine turno") and the rules that answer it, so the
site can list it by headword (/indice-analitico) and the search can match those words to rules
whose text says the same thing otherwise.

Two files, one format: ``rules_it/indice_analitico.tsv`` in Italian, and
``rules_it/indice_analitico_en.tsv`` in English, for the doubts Italian judges and players phrase in
English game jargon ("damage: wears off at end of turn", "fizzle", "ETB").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError

ANALYTIC_INDEX_FILE = "indice_analitico.tsv"
ANALYTIC_INDEX_FILES = {"it": ANALYTIC_INDEX_FILE, "en": "indice_analitico_en.tsv"}
_COLUMNS = ("voce", "sottovoce", "regole")
_RULE = re.compile(r"\d{3}(?:\.\d+[a-z]{0,2})?")
MAX_RULES = 3


@dataclass(frozen=True)
class Entry:
    heading: str  # "voce": the word looked under ("danno", "travolgere")
    topic: str  # "sottovoce": the doubt, in players' words
    rules: tuple[str, ...]  # the rules that answer it, most specific first
    line: int

    @cached_property  # read for every hit of every search that finds the rule
    def text(self) -> str:
        """How the entry reads on its own ("danno: si rimuove a fine turno")."""
        return f"{self.heading}: {self.topic}"


def sort_key(text: str) -> str:
    """Italian dictionary order: accents and case do not count ("è" files with "e")."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def initial(heading: str) -> str:
    """The letter a headword is filed under ("#" for digits and symbols)."""
    first = sort_key(heading)[:1].upper()
    return first if "A" <= first <= "Z" else "#"


class AnalyticIndex:
    def __init__(self, entries: list[Entry], path: Path | None = None, lang: str = "it"):
        self.entries = entries
        self.path = path
        self.lang = lang  # the language its headwords and doubts are written in
        self._by_rule: dict[str, list[Entry]] = {}
        for e in entries:
            for n in e.rules:
                self._by_rule.setdefault(n, []).append(e)

    def __len__(self) -> int:
        return len(self.entries)

    def for_rule(self, number: str) -> list[Entry]:
        """The entries pointing to ``number``."""
        return self._by_rule.get(number, [])

    @property
    def rules(self) -> set[str]:
        return set(self._by_rule)


def parse_analytic_index(path: Path, lang: str = "it") -> AnalyticIndex:
    """Read the index; a malformed line stops the load with its line number (the file is ours:
    a mistake is fixed, not skipped). Whether the rules exist is the corpus check's job."""
    entries: list[Entry] = []
    seen: dict[tuple[str, str], int] = {}
    header_seen = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = [c.strip() for c in raw.split("\t")]
        if not header_seen:
            if tuple(cells) != _COLUMNS:
                raise SourceFormatError(path, number, f"intestazione attesa: {' TAB '.join(_COLUMNS)}")
            header_seen = True
            continue
        if len(cells) != len(_COLUMNS) or not all(cells):
            raise SourceFormatError(path, number, f"attesi {len(_COLUMNS)} campi non vuoti separati da TAB")
        heading, topic, rules_cell = cells
        rules = tuple(rules_cell.split())
        bad = [r for r in rules if not _RULE.fullmatch(r)]
        if bad:
            raise SourceFormatError(path, number, f"numero di regola non valido: «{bad[0]}»")
        if len(rules) > MAX_RULES or len(set(rules)) != len(rules):
            raise SourceFormatError(path, number, f"da 1 a {MAX_RULES} regole diverse per voce")
        key = (sort_key(heading), sort_key(topic))
        if key in seen:
            raise SourceFormatError(path, number, f"voce ripetuta (già alla riga {seen[key]})")
        seen[key] = number
        entries.append(Entry(heading, topic, rules, number))
    if not header_seen:
        raise SourceFormatError(path, 1, "tabella vuota")
    return AnalyticIndex(entries, path, lang)
