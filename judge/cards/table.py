"""The card table (``carte/carte.jsonl.gz``) and its rulings (``carte/rulings.jsonl.gz``), read
compactly.

The table is 17 MB of JSON once decompressed: held as Python objects it would take several
times that in the server's memory, which has a budget (docs/deployment.md). So the lines are
written once to an anonymous temporary file and a face is read back and decoded only when a
page or a look-up needs it (``os.pread``: a few microseconds, any thread). The server keeps
only the names index (judge.cards.lookup) and one offset per line. Rulings are read the same
way, the first time a card page asks for them.

The files are data with their own provenance (carte/README.md); a newer table with the same
fields dropped into ``carte/`` replaces this one at the next start, with no code change. A line
that cannot be read is skipped here and reported by ``judge verifica`` (judge.cards.checks).
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import json
import os
import pickle
import re
import sys
import tempfile
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from array import array

from judge import build_cache
from judge.cards.index import NameIndex
from judge.cards.names import name_key, slug

CARDS_FILE = "carte.jsonl.gz"
CACHED_LINES, CACHED_INDEX = "righe.jsonl", "indice.pickle"  # in the build cache (CardTable._load)
_POSSESSIVE = re.compile(r"[\'\u2019]s\b")
RULINGS_FILE = "rulings.jsonl.gz"


@dataclass(frozen=True)
class Ruling:
    date: str        # YYYY-MM-DD
    text: str


@dataclass(frozen=True)
class CardFace:
    """One line of the table: a card, or one face or half of a multi-part card (fields as in
    carte/README.md; lists become tuples)."""

    name: str
    name_it: str | None = None
    name_it_alt: tuple[str, ...] = ()
    mana_cost: str | None = None
    colors: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    keywords: tuple[str, ...] = ()
    text: str | None = None
    layout: str = "normal"
    names: tuple[str, ...] = ()
    source: str = ""
    first_set: dict | None = None
    xmage_diff: dict | None = None

    @property
    def slug(self) -> str:
        return slug(self.name)

    @property
    def display_name(self) -> str:
        """The Italian name where the table has one, else the English (as printed)."""
        return self.name_it or self.name

    @property
    def english_aside(self) -> str | None:
        """The English name, to show beside an Italian one that differs from it."""
        return self.name if self.name_it and self.name_it != self.name else None

    @property
    def type_line(self) -> str:
        """The English type line: "Legendary Creature — Human Wizard"."""
        left = " ".join((*self.supertypes, *self.types))
        return f"{left} — {' '.join(self.subtypes)}" if self.subtypes else left

    def names_by_lang(self) -> list[tuple[str, str]]:
        """``[(name, "en"|"it")]``: the English name, the Italian one, older Italian ones."""
        out = [(self.name, "en")]
        out += [(n, "it") for n in (self.name_it, *self.name_it_alt) if n]
        return out


_TUPLES = ("name_it_alt", "colors", "supertypes", "types", "subtypes", "keywords", "names")
_FIELDS = set(CardFace.__dataclass_fields__)


def face_from_json(d: Any) -> CardFace:
    """A face from one decoded line; ``ValueError`` when it is no card (judge verifica says why,
    field by field). Fields the table adds later are ignored; those it lacks take their default."""
    if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not d["name"].strip():
        raise ValueError("riga senza nome")
    kw = {k: v for k, v in d.items() if k in _FIELDS}
    for k in _TUPLES:
        v = kw.get(k)
        kw[k] = tuple(str(x) for x in v) if isinstance(v, list) else ()
    for k in ("name_it", "mana_cost", "power", "toughness", "loyalty", "defense", "text"):
        if kw.get(k) is not None:
            kw[k] = str(kw[k])
    for k in ("first_set", "xmage_diff"):
        if not isinstance(kw.get(k), dict):
            kw[k] = None
    kw["layout"] = str(kw.get("layout") or "normal")
    kw["source"] = str(kw.get("source") or "")
    return CardFace(**kw)


class _Lines:
    """Lines of text kept out of the Python heap: in an anonymous temporary file, read back by
    offset (in memory only if no temporary file can be made)."""

    def __init__(self) -> None:
        self.offsets = array("q", [0])
        try:
            self._file = tempfile.TemporaryFile(prefix="judge-carte-")
            self._memory: list[bytes] | None = None
        except OSError:
            self._file = None
            self._memory = []
        self._pending: list[bytes] = []

    def add(self, line: bytes) -> int:
        self.offsets.append(self.offsets[-1] + len(line))
        if self._memory is not None:
            self._memory.append(line)
        else:
            self._pending.append(line)
            if len(self._pending) >= 4096:
                self._flush()
        return len(self.offsets) - 2

    def _flush(self) -> None:
        if self._file is not None and self._pending:
            self._file.write(b"".join(self._pending))
            self._pending = []

    def close_writing(self) -> None:
        self._flush()
        if self._file is not None:
            self._file.flush()

    @classmethod
    def reading(cls, path: Path, offsets: array) -> "_Lines":
        """Lines already written to ``path`` (the build cache's copy), read back by offset."""
        lines = cls.__new__(cls)
        lines.offsets, lines._memory, lines._pending = offsets, None, []
        lines._file = open(path, "rb")
        return lines

    def save(self, path: Path) -> None:
        """Every line, one after the other, into ``path`` (what ``reading`` reads)."""
        with open(path, "wb") as out:
            for i in range(len(self)):
                out.write(self[i])

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> bytes:
        if self._memory is not None:
            return self._memory[i]
        start = self.offsets[i]
        return os.pread(self._file.fileno(), self.offsets[i + 1] - start, start)


def _gzip_lines(path: Path):
    try:
        with gzip.open(path, "rb") as fh:
            for line in fh:
                line = line.strip()
                if line:
                    yield line
    except EOFError as e:         # a truncated file: unreadable, like a missing one
        raise OSError(f"{path}: {e}") from e


class CardTable:
    """The faces of the table, by row number, with their names index and their rulings."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.path = self.directory / CARDS_FILE
        self.rulings_path = self.directory / RULINGS_FILE
        self.skipped: list[int] = []      # line numbers (1-based) that are no card
        # Names the index finds beside a face's own (its English, Italian and older Italian names):
        # row -> [(name shown, "en"|"it")], at the index positions after the face's own.
        self.aliases: dict[int, list[tuple[str, str]]] = {}
        self._rulings: dict[str, int] | None = None
        self._ruling_lines: _Lines | None = None
        self._lock = threading.Lock()
        self._load()

    def _load(self) -> None:
        """The lines and the names index: from the build cache (judge/build_cache.py: the index
        pickled, the lines decompressed, a fraction of a second) or built from the table's file
        (seconds: every line decoded, 28,000 words indexed for typos) and kept there for the next
        start. The key is the table's bytes and the code that reads it."""
        key = cache_key(self.directory)
        built = False

        def build_into(folder: Path) -> None:
            nonlocal built
            self._build()
            built = True
            self._rows.save(folder / CACHED_LINES)
            with open(folder / CACHED_INDEX, "wb") as fh:
                pickle.dump({"index": self.index, "offsets": self._rows.offsets, "aliases": self.aliases,
                             "skipped": self.skipped, "version": self.version}, fh, protocol=build_cache.PROTOCOL)

        with build_cache.directory("carte", key, build_into, "indice delle carte",
                                   ready=lambda p: (p / CACHED_INDEX).exists(), keep=2) as folder:
            if built:
                return
            if folder is None or not self._restore(folder):
                self._build()

    def _restore(self, folder: Path) -> bool:
        """What ``_load`` kept in ``folder``; False when it cannot be read (then it is built)."""
        enabled = gc.isenabled()
        gc.disable()  # many small objects: no collection while they load
        try:
            with open(folder / CACHED_INDEX, "rb") as fh:
                state = pickle.load(fh)
            self._rows = _Lines.reading(folder / CACHED_LINES, state["offsets"])
        except Exception:  # a truncated or older entry: build instead
            return False
        finally:
            if enabled:
                gc.enable()
        self.index, self.aliases, self.skipped, self.version = (state["index"], state["aliases"], state["skipped"],
                                                                state["version"])
        return True

    def _build(self) -> None:
        self._rows = _Lines()
        self.skipped = []
        self._digest = hashlib.blake2b(digest_size=8)
        self._parts: dict[int, tuple[str, str | None, tuple[str, ...]]] = {}  # multi-part faces, while reading
        self.index = NameIndex(self._with_aliases(list(self._read())))
        self.version = self._digest.hexdigest()

    def _read(self):
        """Each face's names, in row order, as the lines are stored (for the index)."""
        for lineno, line in enumerate(_gzip_lines(self.path), 1):
            try:
                face = face_from_json(json.loads(line))
            except ValueError:            # json.JSONDecodeError is a ValueError
                self.skipped.append(lineno)
                continue
            self._digest.update(line)
            row = self._rows.add(line)
            if len(face.names) > 1:
                self._parts[row] = (face.name, face.name_it, face.names)
            yield tuple(n for n, _ in face.names_by_lang())
        self._rows.close_writing()

    def _with_aliases(self, rows: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """Each row's names, then the other ways people write them (``aliases``):

        - a multi-part card by its whole name, «Fire // Ice», «Brazen Borrower // Petty Theft»,
          «Delver of Secrets // Insectile Aberration» (on its first part, the face whose page shows
          the others), and in Italian when every part has an Italian name («Fuoco // Ghiaccio»);
        - a possessive without its apostrophe, «Yawgmoths Will» («Yawgmoth's Will» is «yawgmoth s
          will» as a key: the missing apostrophe is a missing word, not a typo the speller sees)."""
        for row, names in enumerate(rows):  # the face's own names only (position 0 is the English)
            bare = [(_POSSESSIVE.sub("s", n), n, "en" if i == 0 else "it") for i, n in enumerate(names)
                    if _POSSESSIVE.search(n)]
            if bare:
                self._add_aliases(rows, row, bare)
        italian = {name: name_it for name, name_it, _ in self._parts.values() if name_it}
        for row, (name, _, whole) in self._parts.items():
            if name == whole[0]:
                extra = [(" // ".join(whole), " // ".join(whole), "en")]
                if all(p in italian for p in whole):
                    it = " // ".join(italian[p] for p in whole)
                    extra.append((it, it, "it"))
                self._add_aliases(rows, row, extra)
        del self._parts
        return rows

    def _add_aliases(self, rows: list[tuple[str, ...]], row: int, extra: list[tuple[str, str, str]]) -> None:
        """(name the index keys, name shown, language) after the row's names."""
        rows[row] = rows[row] + tuple(key for key, _, _ in extra)
        self.aliases.setdefault(row, []).extend((shown, lang) for _, shown, lang in extra)

    def names_of(self, row: int) -> list[tuple[str, str]]:
        """A row's names as the index holds them, by position: the face's own, then its aliases."""
        return self.face(row).names_by_lang() + self.aliases.get(row, [])

    def __len__(self) -> int:
        return len(self._rows)

    def face(self, row: int) -> CardFace:
        return _decode(self, row)

    def row_of(self, english_name: str) -> int | None:
        """The row of a face by its English name exactly as the table spells it."""
        for e in self.index.exact(name_key(english_name)):
            if e.lang == "en" and self.face(e.row).name == english_name:
                return e.row
        return None

    def by_name(self, english_name: str) -> CardFace | None:
        row = self.row_of(english_name)
        return None if row is None else self.face(row)

    def raw(self, row: int) -> bytes:
        return self._rows[row]

    # --- rulings -----------------------------------------------------------------------
    def rulings(self, english_name: str) -> list[Ruling]:
        """The official rulings of a card (to November 2018), oldest first as the table has
        them; [] when it has none."""
        self._load_rulings()
        i = self._rulings.get(english_name) if self._rulings is not None else None
        if i is None:
            return []
        try:
            data = json.loads(self._ruling_lines[i])
        except ValueError:
            return []
        out = []
        for r in data.get("rulings") or []:
            if isinstance(r, dict) and isinstance(r.get("text"), str):
                out.append(Ruling(str(r.get("date") or ""), r["text"]))
        return out

    def names_with_rulings(self) -> list[str]:
        """The English names that have rulings, in the file's order."""
        self._load_rulings()
        return list(self._rulings or {})

    def _load_rulings(self) -> None:
        if self._rulings is not None:
            return
        with self._lock:
            if self._rulings is not None:
                return
            lines = _Lines()
            index: dict[str, int] = {}
            if self.rulings_path.exists():
                for line in _gzip_lines(self.rulings_path):
                    try:
                        name = json.loads(line).get("name")
                    except (ValueError, AttributeError):
                        continue
                    if isinstance(name, str) and name not in index:
                        index[name] = lines.add(line)
            lines.close_writing()
            self._ruling_lines, self._rulings = lines, index


@lru_cache(maxsize=512)
def _decode(table: CardTable, row: int) -> CardFace:
    return face_from_json(json.loads(table.raw(row)))


_tables: dict[Path, CardTable] = {}
_tables_lock = threading.Lock()


def default_directory() -> Path:
    """``carte/`` beside the package, or ``JUDGE_CARTE`` (a folder with the same two files)."""
    from judge import CARDS_DIR

    env = os.environ.get("JUDGE_CARTE")
    return Path(env) if env else CARDS_DIR


def cache_key(directory: Path) -> str:
    """The build cache's key of a table: its bytes and the code that reads it."""
    return build_cache.digest(build_cache.code_digest("cards", "search"), build_cache.file_digest(directory / CARDS_FILE))


def in_cache(directory: Path | None = None) -> bool:
    """Whether the build cache holds the index of this table (a start then reads it at once)."""
    path = Path(directory or default_directory()).resolve()
    try:
        return build_cache.has("carte", cache_key(path))
    except OSError:  # no table
        return True


def load_table(directory: Path | None = None) -> CardTable:
    """The table of ``directory`` (default: ``default_directory()``), read once per process.
    ``FileNotFoundError`` when the folder has no table."""
    path = Path(directory or default_directory()).resolve()
    table = _tables.get(path)
    if table is None:
        with _tables_lock:
            table = _tables.get(path)
            if table is None:
                table = _tables[path] = CardTable(path)
                _give_back_memory()
    return table


def _give_back_memory() -> None:
    """Return to the system the memory the build freed (glibc keeps it otherwise: about 9 MB
    of a server's resident memory, measured in bench/cards_bench.py)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):      # not glibc: nothing to do
        pass


def is_loaded(directory: Path | None = None) -> bool:
    return Path(directory or default_directory()).resolve() in _tables


if __name__ == "__main__":  # python -m judge.cards.table [FOLDER]: build_cache.build_beside's process
    try:
        load_table(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
    except OSError:
        pass
