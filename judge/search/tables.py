"""The search's small data tables (``significati.tsv``, ``cornici.tsv``, ``testo_regole.tsv``): rows of
TAB-separated cells, blank lines and "#" comments skipped, an optional header row."""

from __future__ import annotations

from collections.abc import Iterator


def rows(text: str, header: str, width: int, name: str) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells stripped) of each row; the first row is a header when its first cell is
    ``header``. A row without exactly ``width`` cells is an Italian ``ValueError`` naming ``name``."""
    first = True
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cells = [c.strip() for c in line.split("\t")]
        if first:
            first = False
            if cells[0] == header:
                continue
        if len(cells) != width:
            raise ValueError(f"{name}, riga {n}: attesi {width} campi separati da TAB: {line!r}")
        yield n, cells
