"""The tournament terminology table (``rules_it/terminologia_tornei.tsv``).

The format of the rules' table (judge/corpus/terminology.py) with one more column, the
Italian gloss given beside a name kept in English («Game Rule Violation (violazione delle
regole di gioco)»). Its terms join the rules' ones for the translation check: the game's
words (grimorio, pila, pescare) are the same in the tournament documents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from judge import RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.terminology import Term, Terminology, load_terminology
from judge.tournament.tsv import rows

TOURNAMENT_TERMINOLOGY_FILE = "terminologia_tornei.tsv"
_COLUMNS = ("inglese", "italiano", "glossa", "forme", "evitare", "fonte")


@dataclass(frozen=True)
class TournamentTerm:
    term: Term
    gloss: str | None  # None: the term is Italian already

    @property
    def english(self) -> str:
        return self.term.term

    @property
    def italian(self) -> str:
        return self.term.italian

    @property
    def abbreviations(self) -> tuple[str, ...]:
        return tuple(f for f in self.term.english if re.fullmatch(r"[A-Za-z/]{2,6}", f) and sum(c.isupper() for c in f) >= 2)

    def first_use(self) -> str:
        """How the term is written the first time on a page: «Game Loss (partita persa)»."""
        return f"{self.italian} ({self.gloss})" if self.gloss else self.italian


class TournamentTerminology:
    def __init__(self, terms: list[TournamentTerm], path: Path | None = None):
        self.terms = terms
        self.path = path
        self._by_english = {f.casefold(): t for t in terms for f in t.term.english}

    def get(self, english: str) -> TournamentTerm | None:
        return self._by_english.get((english or "").strip().casefold())

    def gloss(self, english: str) -> str | None:
        t = self.get(english)
        return t.gloss if t else None

    def __iter__(self):
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)


def parse_tournament_terminology(path: Path) -> TournamentTerminology:
    terms: list[TournamentTerm] = []
    for number, (english, italian, gloss, forms, avoid, source) in rows(path, _COLUMNS):
        if not english or not italian or not source:
            raise SourceFormatError(path, number, "inglese, italiano e fonte sono obbligatori")

        def cell(value: str) -> tuple[str, ...]:
            return () if value in ("", "-") else tuple(x.strip() for x in value.split("|") if x.strip())

        term = Term(cell(english), italian, cell(forms), cell(avoid), source, number)
        terms.append(TournamentTerm(term, None if gloss in ("", "-") else gloss))
    return TournamentTerminology(terms, Path(path))


_cache: dict[tuple, TournamentTerminology] = {}


def load_tournament_terminology(folder: Path | None = None) -> TournamentTerminology:
    path = Path(folder or RULES_IT_DIR) / TOURNAMENT_TERMINOLOGY_FILE
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _cache:
        _cache.clear()
        _cache[key] = parse_tournament_terminology(path)
    return _cache[key]


def combined_terminology(folder: Path | None = None) -> Terminology:
    """The rules' terms and the tournaments' together: what a tournament translation must use.
    The tournament table comes first, so its longer names ("Game Rule Violation") cover the
    shorter game words inside them."""
    rules = load_terminology(folder)
    return Terminology([t.term for t in load_tournament_terminology(folder)] + list(rules.terms))
