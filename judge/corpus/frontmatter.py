"""A tiny front-matter format for the files in ``rules_it/``.

Each file starts with ``---``, lines of ``key: value`` (values are JSON scalars
or bare text), and ``---``. Kept deliberately simple so a judge can edit it by
hand and so it needs no YAML dependency.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

_KEY = re.compile(r"^(?P<key>[a-z0-9_]+):\s*(?P<value>.*)$")


class SourceFormatError(ValueError):
    """A malformed data file: the message names the file and the line (Italian)."""

    def __init__(self, path: Path | str, line: int, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        super().__init__(f"{self.path}:{line}: {message}")


def dump(meta: dict[str, object]) -> str:
    lines = ["---"]
    for key, value in meta.items():
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def split(text: str, path: Path | str) -> tuple[dict[str, object], list[str], int]:
    """Return (meta, body lines, line number of the first body line)."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise SourceFormatError(path, 1, "manca l'intestazione '---' con i metadati")
    meta: dict[str, object] = {}
    for i, line in enumerate(lines[1:], start=2):
        if line.strip() == "---":
            return meta, lines[i:], i + 1
        if not line.strip():
            continue
        m = _KEY.match(line)
        if not m:
            raise SourceFormatError(path, i, f"riga di metadati non valida: «{line[:60]}» (atteso 'chiave: valore')")
        raw = m["value"].strip()
        try:
            meta[m["key"]] = json.loads(raw)
        except json.JSONDecodeError:
            meta[m["key"]] = raw
    raise SourceFormatError(path, len(lines), "intestazione dei metadati non chiusa da '---'")
