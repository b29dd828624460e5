"""Saved scenarios: a content-addressed SQLite store in the instance folder.

Every document (a scenario being built, or a game: starting scenario plus the
actions taken) is saved under an id derived from its content, so

* the same state always gets the same id (saving twice stores one row);
* two people saving at the same time can never overwrite each other: a row is
  only ever inserted, never updated, and identical ids mean identical content;
* a permalink never changes meaning.

Durability: the database runs in WAL mode with ``synchronous=FULL``; each save
is one ``BEGIN IMMEDIATE … COMMIT`` transaction and :meth:`ScenarioStore.save`
returns only after the commit, so an acknowledged save survives a killed
process (and a power cut).  A killed writer leaves at most an uncommitted WAL
tail, which SQLite discards on the next open.  Reads check the content hash,
so a damaged row is reported, never served.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import time
import zlib
from pathlib import Path
from typing import Any

DB_NAME = "scenari.sqlite3"

# Limits (the messages are shown to users; see also judge.web.scenario for limits on content).
MAX_DOCUMENT_BYTES = 512 * 1024       # canonical JSON of one saved document
MAX_JSON_DEPTH = 24

ID_LEN = 20                           # base32 characters: 100 bits of SHA-256
ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567"

SCHEMA = """
CREATE TABLE IF NOT EXISTS documenti (
    id      TEXT PRIMARY KEY,
    tipo    TEXT NOT NULL,
    sha256  TEXT NOT NULL,
    dati    BLOB NOT NULL,
    creato  REAL NOT NULL
) WITHOUT ROWID;
"""


class StoreError(ValueError):
    """A document that cannot be saved (too big, too deep, not JSON); ``message`` is Italian."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class CorruptDocument(RuntimeError):
    """A stored row whose content no longer matches its hash."""


def json_depth(value: Any) -> int:
    """Nesting depth of decoded JSON (a scalar is 0), computed without recursion."""
    depth = 0
    stack = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            depth = max(depth, d)
            stack.extend((x, d + 1) for x in v.values())
        elif isinstance(v, list):
            depth = max(depth, d)
            stack.extend((x, d + 1) for x in v)
    return depth


def canonical(doc: Any) -> bytes:
    """The bytes the id is computed from: sorted keys, no spaces, UTF-8."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def document_id(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LEN]


def valid_id(ident: str) -> bool:
    return len(ident) == ID_LEN and all(c in ID_ALPHABET for c in ident)


def check_document(doc: Any) -> bytes:
    """Refuse documents that are too deep or too big; return their canonical bytes."""
    depth = json_depth(doc)
    if depth > MAX_JSON_DEPTH:
        raise StoreError(f"JSON troppo annidato: profondità {depth}, il limite è {MAX_JSON_DEPTH}.")
    try:
        data = canonical(doc)
    except (TypeError, ValueError) as e:
        raise StoreError(f"Documento non salvabile come JSON: {e}") from None
    if len(data) > MAX_DOCUMENT_BYTES:
        raise StoreError(f"Scenario troppo grande: {len(data) // 1024} KB, il limite è "
                         f"{MAX_DOCUMENT_BYTES // 1024} KB.")
    return data


class ScenarioStore:
    """One SQLite file; a short-lived connection per operation (safe across threads and processes)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as conn:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA synchronous=FULL")
        return _Closing(conn)

    def save(self, doc: Any, kind: str) -> str:
        """Store ``doc`` (JSON-compatible data) and return its id; durable when this returns."""
        data = check_document(doc)
        ident = document_id(data)
        blob = zlib.compress(data, 6)
        sha = hashlib.sha256(data).hexdigest()
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("INSERT OR IGNORE INTO documenti (id, tipo, sha256, dati, creato) "
                             "VALUES (?, ?, ?, ?, ?)", (ident, kind, sha, blob, time.time()))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return ident

    def load(self, ident: str) -> tuple[str, Any] | None:
        """``(kind, document)`` for an id, or None if there is no such document."""
        if not valid_id(ident):
            return None
        with self._connect() as conn:
            row = conn.execute("SELECT tipo, sha256, dati FROM documenti WHERE id = ?",
                               (ident,)).fetchone()
        if row is None:
            return None
        kind, sha, blob = row
        try:
            data = zlib.decompress(blob)
        except zlib.error:
            raise CorruptDocument(ident) from None
        if hashlib.sha256(data).hexdigest() != sha or document_id(data) != ident:
            raise CorruptDocument(ident)
        return kind, json.loads(data)

    def count(self) -> int:
        with self._connect() as conn:
            return conn.execute("SELECT count(*) FROM documenti").fetchone()[0]

    def integrity_check(self) -> str:
        with self._connect() as conn:
            return conn.execute("PRAGMA integrity_check").fetchone()[0]


class _Closing:
    """A connection usable as ``with`` that closes (not just commits) at the end."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        return self.conn

    def __exit__(self, *exc) -> None:
        self.conn.close()

    def execute(self, *a):
        return self.conn.execute(*a)


def store_for(app) -> ScenarioStore:
    """The app's store (created on first use, kept in ``app.extensions``)."""
    store = app.extensions.get("judge_scenari")
    if store is None:
        path = app.config.get("SCENARIO_DB") or Path(app.instance_path) / DB_NAME
        store = app.extensions["judge_scenari"] = ScenarioStore(path)
    return store
