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

Beside the documents, a cache of game histories (tables ``storia`` and
``partite_storia``, see judge/web/simulator/history.py): for each prefix of a
game, the events of its last action and, often, the engine's state after it,
so that opening a game costs the same after 1,000 actions as after one.  The
documents stay the truth: the cache can be deleted at any time.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.engine.validation import json_depth  # one walker for the engine and the store

DB_NAME = "scenari.sqlite3"

# Limits (the messages are shown to users; see also judge.web.simulator.forms for limits on content).
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
CREATE TABLE IF NOT EXISTS storia (
    chiave  TEXT PRIMARY KEY,     -- history key: engine build, starting scenario, actions so far
    padre   TEXT,                 -- the same history without its last action (NULL: no action)
    n       INTEGER NOT NULL,     -- number of actions
    nev     INTEGER NOT NULL,     -- number of events of the last action
    eventi  BLOB NOT NULL,        -- zlib(JSON list) of the events of the last action
    stato   BLOB,                 -- zlib(engine snapshot) of the state after it, or NULL
    sha256  TEXT                  -- of the uncompressed snapshot
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS partite_storia (
    id      TEXT NOT NULL,        -- a game document (documenti.id)
    motore  TEXT NOT NULL,        -- the engine build its history key was computed for
    chiave  TEXT NOT NULL,
    PRIMARY KEY (id, motore)
) WITHOUT ROWID;
"""


@dataclass
class HistoryRow:
    """One prefix of a game history (see the ``storia`` table)."""

    key: str
    parent: str | None
    n: int
    events: list[dict]
    snapshot: bytes | None = None


class StoreError(ValueError):
    """A document that cannot be saved (too big, too deep, not JSON); ``message`` is Italian."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


class CorruptDocument(RuntimeError):
    """A stored row whose content no longer matches its hash."""


def canonical(doc: Any) -> bytes:
    """The bytes the id is computed from: sorted keys, no spaces, UTF-8."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def document_id(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return base64.b32encode(digest).decode("ascii").lower()[:ID_LEN]


def valid_id(ident: str) -> bool:
    return len(ident) == ID_LEN and all(c in ID_ALPHABET for c in ident)


def check_document(doc: Any, depth_checked: bool = False) -> bytes:
    """Refuse documents that are too deep or too big; return their canonical bytes.
    ``depth_checked``: the caller knows the depth is within the limit (a saved document
    with one action more, whose depth it checked), so the walk is skipped."""
    depth = 0 if depth_checked else json_depth(doc)
    if depth > MAX_JSON_DEPTH:
        raise StoreError(f"JSON troppo annidato: profondità {depth}, il limite è {MAX_JSON_DEPTH}.")
    try:
        data = canonical(doc)
    except (TypeError, ValueError) as e:
        raise StoreError(f"Documento non salvabile come JSON: {e}") from None
    return check_size(data)


def check_size(data: bytes) -> bytes:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise StoreError(f"Scenario troppo grande: {len(data) // 1024} KB, il limite è "
                         f"{MAX_DOCUMENT_BYTES // 1024} KB.")
    return data


GAME_KEYS = {"actions", "format", "redo", "scenario", "version"}


def canonical_edited(old: bytes, doc: dict, redo: list, append: Any = None,
                     drop_last: bool = False) -> bytes | None:
    """The canonical JSON of ``doc`` with its last action dropped and/or one appended and
    ``redo`` as its redo list, made from ``old`` (= canonical(doc)) without encoding the
    actions again: a step, undo or redo after 1,000 actions costs what one after a single
    action does.  None when ``doc`` is not a plain game document."""
    if set(doc) != GAME_KEYS or not isinstance(doc["actions"], list) or \
            (drop_last and not doc["actions"]):
        return None
    head = b'{"actions":'
    fmt, scenario = canonical(doc["format"]), canonical(doc["scenario"])

    def rest(redo_list: list) -> bytes:
        return (b',"format":' + fmt + b',"redo":' + canonical(redo_list) + b',"scenario":'
                + scenario + b',"version":' + canonical(doc["version"]) + b"}")

    tail = rest(doc["redo"])
    if not (old.startswith(head + b"[") and old.endswith(b"]" + tail)):
        return None
    inner = old[len(head) + 1:len(old) - len(tail) - 1]       # the actions, encoded
    if drop_last:
        last = canonical(doc["actions"][-1])
        if not inner.endswith(last):
            return None
        inner = inner[:len(inner) - len(last)].removesuffix(b",")
    if append is not None:
        inner += (b"," if inner else b"") + canonical(append)
    return head + b"[" + inner + b"]" + rest(redo)


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

    def save(self, doc: Any, kind: str, history: list[HistoryRow] = (),
             engine: str = "", key: str | None = None, data: bytes | None = None) -> str:
        """Store ``doc`` (JSON-compatible data) and return its id; durable when this returns.

        For a game, ``history`` rows and the document's history ``key`` (for the ``engine``
        build) are written in the same transaction.  ``data``: ``check_document(doc)`` when the
        caller already has it."""
        data = check_document(doc) if data is None else data
        ident = document_id(data)
        blob = zlib.compress(data, 6)
        sha = hashlib.sha256(data).hexdigest()
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.execute("INSERT OR IGNORE INTO documenti (id, tipo, sha256, dati, creato) "
                             "VALUES (?, ?, ?, ?, ?)", (ident, kind, sha, blob, time.time()))
                _put_history(conn, history, [(ident, engine, key)] if key else [])
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return ident

    def load(self, ident: str) -> tuple[str, Any] | None:
        """``(kind, document)`` for an id, or None if there is no such document."""
        found = self.load_raw(ident)
        return found[:2] if found else None

    def load_raw(self, ident: str) -> tuple[str, Any, bytes] | None:
        """``(kind, document, its canonical JSON)`` for an id, or None."""
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
        return kind, json.loads(data), data

    def count(self) -> int:
        with self._connect() as conn:
            return conn.execute("SELECT count(*) FROM documenti").fetchone()[0]

    def integrity_check(self) -> str:
        with self._connect() as conn:
            return conn.execute("PRAGMA integrity_check").fetchone()[0]

    # --- the history cache ---------------------------------------------------------------
    def put_history(self, rows: list[HistoryRow], keys: list[tuple[str, str, str]] = ()) -> None:
        """Cache rows and ``(document id, engine, key)`` links; a cache needs no fsync."""
        with self._connect() as conn:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("BEGIN IMMEDIATE")
            try:
                _put_history(conn, rows, keys)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def game_snapshot(self, ident: str, engine: str, max_depth: int
                      ) -> tuple[str | None, tuple[int, bytes] | None]:
        """A game's history key and ``nearest_snapshot`` of it, in one connection."""
        with self._connect() as conn:
            row = conn.execute("SELECT chiave FROM partite_storia WHERE id = ? AND motore = ?",
                               (ident, engine)).fetchone()
            if row is None:
                return None, None
            return row[0], _snapshot(_nearest(conn, row[0], max_depth))

    def history_parent(self, key: str) -> tuple[str | None, int] | None:
        """``(parent key, number of actions)`` of a cached history, or None."""
        with self._connect() as conn:
            row = conn.execute("SELECT padre, n FROM storia WHERE chiave = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def nearest_snapshot(self, key: str, max_depth: int) -> tuple[int, bytes] | None:
        """``(n, snapshot)`` of the history itself or of its nearest ancestor with a snapshot,
        at most ``max_depth`` actions back; None if there is none or it is damaged."""
        with self._connect() as conn:
            return _snapshot(_nearest(conn, key, max_depth))

    def snapshots_among(self, keys: list[str]) -> dict[str, int]:
        """Which of ``keys`` have a snapshot: ``{key: n}``."""
        out: dict[str, int] = {}
        with self._connect() as conn:
            for i in range(0, len(keys), 500):
                part = keys[i:i + 500]
                q = ("SELECT chiave, n FROM storia WHERE stato IS NOT NULL AND chiave IN (%s)"
                     % ",".join("?" * len(part)))
                out.update(conn.execute(q, part).fetchall())
        return out

    def snapshot(self, key: str) -> tuple[int, bytes] | None:
        with self._connect() as conn:
            row = conn.execute("SELECT n, stato, sha256 FROM storia WHERE chiave = ? AND stato "
                               "IS NOT NULL", (key,)).fetchone()
        return _snapshot(row)

    def add_snapshot(self, key: str, snapshot: bytes) -> None:
        blob, sha = zlib.compress(snapshot, 1), hashlib.sha256(snapshot).hexdigest()
        with self._connect() as conn:
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("UPDATE storia SET stato = ?, sha256 = ? WHERE chiave = ? AND stato IS NULL",
                         (blob, sha, key))

    def history_events(self, key: str, limit: int | None) -> tuple[list[tuple[int, list[dict]]], bool]:
        """``([(n, events of action n)], complete)``, oldest first, walking back from ``key``
        until at least ``limit`` events are collected (None: the whole history); ``complete``
        when the walk reached the start of the game."""
        with self._connect() as conn:
            rows = conn.execute(
                "WITH RECURSIVE su(chiave, padre, n, tot) AS ("
                " SELECT chiave, padre, n, nev FROM storia WHERE chiave = ?"
                " UNION ALL SELECT s.chiave, s.padre, s.n, su.tot + s.nev"
                " FROM storia s JOIN su ON s.chiave = su.padre WHERE su.tot < ?)"
                " SELECT s.n, CASE WHEN s.nev > 0 THEN s.eventi END, su.padre IS NULL"
                " FROM su JOIN storia s ON s.chiave = su.chiave",
                (key, 1 << 62 if limit is None else limit)).fetchall()
        out = []
        for n, blob, _ in rows:
            if blob is None:
                continue
            try:
                out.append((n, json.loads(zlib.decompress(blob))))
            except (zlib.error, ValueError):
                raise CorruptDocument(key) from None
        out.sort(key=lambda r: r[0])
        return out, any(root for _, _, root in rows)


def _put_history(conn, rows, keys) -> None:
    for r in rows:
        snap = sha = None
        if r.snapshot is not None:
            snap, sha = zlib.compress(r.snapshot, 1), hashlib.sha256(r.snapshot).hexdigest()
        events = zlib.compress(json.dumps(r.events, ensure_ascii=False,
                                          separators=(",", ":")).encode("utf-8"), 1)
        conn.execute("INSERT OR IGNORE INTO storia (chiave, padre, n, nev, eventi, stato, sha256) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)", (r.key, r.parent, r.n, len(r.events), events,
                                                      snap, sha))
        if snap is not None:     # a row cached earlier without a snapshot gets one
            conn.execute("UPDATE storia SET stato = ?, sha256 = ? WHERE chiave = ? AND stato IS NULL",
                         (snap, sha, r.key))
    for ident, engine, key in keys:
        conn.execute("INSERT OR IGNORE INTO partite_storia (id, motore, chiave) VALUES (?, ?, ?)",
                     (ident, engine, key))


def _nearest(conn, key: str, max_depth: int):
    return conn.execute(
        "WITH RECURSIVE su(chiave, padre, n, ha, d) AS ("
        " SELECT chiave, padre, n, stato IS NOT NULL, 0 FROM storia WHERE chiave = ?"
        " UNION ALL SELECT s.chiave, s.padre, s.n, s.stato IS NOT NULL, su.d + 1"
        " FROM storia s JOIN su ON s.chiave = su.padre WHERE NOT su.ha AND su.d < ?)"
        " SELECT s.n, s.stato, s.sha256 FROM su JOIN storia s ON s.chiave = su.chiave"
        " WHERE su.ha LIMIT 1", (key, max_depth)).fetchone()


def _snapshot(row) -> tuple[int, bytes] | None:
    if row is None or row[1] is None:
        return None
    try:
        data = zlib.decompress(row[1])
    except zlib.error:
        return None
    if hashlib.sha256(data).hexdigest() != row[2]:
        return None                 # damaged: the caller replays instead
    return row[0], data


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
