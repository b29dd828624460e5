"""The tournament documents on disk: every edition in ``tornei_en/`` and the project's translation
in ``tornei_it/``, parsed once per set of files (kept in the build cache between runs).

``tornei_en/`` holds the English files as published (``MTR-20260227.txt``,
``JAR-20240923.html``…) and ``edizioni.tsv`` (where each comes from, its SHA-256). An edition
may come in two extractions (IPG 20240923: text and HTML); the text one is read, the other
checks it (tests/tournament). The newest edition of each document is in force.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from judge import ROOT, build_cache
from judge.tournament.model import DOCUMENTS, DocEdition
from judge.tournament.structure import SOURCE_FILE, parse_source
from judge.tournament.tsv import rows

TORNEI_EN_DIR = ROOT / "tornei_en"
TORNEI_IT_DIR = ROOT / "tornei_it"
REGISTER_FILE = "edizioni.tsv"
_PREFERRED = ("txt", "html")  # of two extractions of one edition, the text is read


def source_paths(folder: Path) -> list[Path]:
    """One file per (document, edition): the text extraction where both are there; oldest first."""
    chosen: dict[tuple[str, str], Path] = {}
    for p in sorted(Path(folder).glob("*")):
        m = SOURCE_FILE.match(p.name)
        if not m:
            continue
        key = (m["doc"], m["id"])
        if key not in chosen or _PREFERRED.index(m["ext"]) < _PREFERRED.index(SOURCE_FILE.match(chosen[key].name)["ext"]):
            chosen[key] = p
    return [chosen[k] for k in sorted(chosen, key=lambda k: (k[0], k[1]))]


@dataclass(frozen=True)
class RegisterEntry:
    file: str
    effective: str  # ISO date
    sha256: str
    source: str  # where the copy comes from


def read_register(folder: Path) -> dict[str, RegisterEntry]:
    path = Path(folder) / REGISTER_FILE
    if not path.exists():
        return {}
    columns = ("file", "in vigore dal", "sha256", "provenienza della copia")
    return {cells[0]: RegisterEntry(*cells) for _, cells in rows(path, columns, header_required=False)}


@dataclass
class TournamentDocs:
    """Every edition of every document, oldest first per document, and the register."""

    editions: dict[str, list[DocEdition]]  # "mtr" -> editions, oldest first
    register: dict[str, RegisterEntry] = field(default_factory=dict)
    folder: Path = TORNEI_EN_DIR

    def in_force(self, doc: str) -> DocEdition | None:
        eds = self.editions.get(doc) or []
        return eds[-1] if eds else None

    def edition(self, doc: str, ident: str) -> DocEdition | None:
        return next((e for e in self.editions.get(doc, []) if e.id == ident), None)

    def has(self, doc: str, section: str | None) -> bool:
        """Whether the edition in force of ``doc`` has ``section`` (None: the document itself)."""
        edition = self.in_force(doc)
        return edition is not None and (section is None or edition.section(section) is not None)

    def all(self) -> list[DocEdition]:
        return [e for doc in DOCUMENTS for e in self.editions.get(doc, [])]


def _parse(path: Path) -> DocEdition:
    key = build_cache.digest(build_cache.code_digest("tournament"), path.name, build_cache.file_digest(path))
    return build_cache.value("torneo", key, lambda: parse_source(path), f"documento {path.name}", keep=12)


_lock = threading.Lock()
_cache: dict[tuple, TournamentDocs] = {}


def load_documents(folder: Path | None = None) -> TournamentDocs:
    """The documents in ``folder`` (default: the repository's tornei_en/), cached until a file changes."""
    folder = Path(folder or TORNEI_EN_DIR)
    paths = source_paths(folder)
    register = folder / REGISTER_FILE
    stamp = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in [*paths, *([register] if register.exists() else [])])
    key = (str(folder), stamp)
    with _lock:
        got = _cache.get(key)
        if got is None:
            editions: dict[str, list[DocEdition]] = {}
            for p in paths:
                e = _parse(p)
                editions.setdefault(e.doc, []).append(e)
            _cache.clear()
            got = _cache[key] = TournamentDocs(editions, read_register(folder), folder)
        return got


def section_exists(doc: str, section: str | None) -> bool:
    """``TournamentDocs.has`` on the repository's documents: the citation finder's filter."""
    return load_documents().has(doc, section)
