"""The project's small tables (``#`` comments, a header line, TAB-separated cells): one reader."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError


def rows(path: Path, columns: tuple[str, ...], header_required: bool = True) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of every row after the header; a row with another number of cells is
    a SourceFormatError naming the line."""
    header = False
    for number, raw in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = [c.strip() for c in raw.split("\t")]
        if not header:
            header = True
            if tuple(cells) == columns:
                continue
            if header_required:
                raise SourceFormatError(path, number, f"intestazione attesa: {' TAB '.join(columns)}")
        if len(cells) != len(columns):
            raise SourceFormatError(path, number, f"attesi {len(columns)} campi separati da TAB ({', '.join(columns)}), "
                                                  f"trovati {len(cells)}")
        yield number, cells
    if header_required and not header:
        raise SourceFormatError(path, 1, "tabella vuota")
