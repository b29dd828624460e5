"""The tournament documents' analytic index (``rules_it/indice_analitico_tornei.tsv``): headwords
and doubts in judges' words, each pointing to the sections that answer it («IPG 2.1»). The
/tornei page lists it; the tournament search reads its words as the sections' names."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge import RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError
from judge.tournament.numbers import parse_reference
from judge.tournament.tsv import rows

INDEX_FILE = "indice_analitico_tornei.tsv"


@dataclass(frozen=True)
class IndexEntry:
    heading: str
    topic: str
    sections: tuple[tuple[str, str], ...]  # (doc, section)
    line: int

    @property
    def text(self) -> str:
        return f"{self.heading} {self.topic}"


def read_index(path: Path | None = None) -> list[IndexEntry]:
    path = Path(path or RULES_IT_DIR / INDEX_FILE)
    out = []
    for number, (heading, topic, refs_cell) in rows(path, ("voce", "sottovoce", "sezioni")):
        refs = []
        for ref in refs_cell.split(","):
            found = parse_reference(ref.strip())
            if found is None or found[1] is None:
                raise SourceFormatError(path, number, f"«{ref.strip()}» non è una sezione («IPG 2.1», «MTR C»)")
            refs.append(found)
        out.append(IndexEntry(heading, topic, tuple(refs), number))
    return out
