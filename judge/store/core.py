"""The scenario store's one interface, with the SQL both backends share.

A backend (judge/store/sqlite.py, judge/store/postgres.py) only says how to open a
transaction, how its placeholders and lists are written and what its errors mean; every
query below runs unchanged on SQLite and PostgreSQL, so permalinks, saved games, their
histories and snapshots behave the same on both.

Concurrency comes from content addressing: a save is ``INSERT … ON CONFLICT DO NOTHING`` of a
row whose id is the hash of its content, so the same document saved at once through two
servers is one row, never an error or a duplicate, and nothing is ever updated in place
except the bookkeeping columns (last save, first open, the snapshot a cache row gains).
Nothing read from the store is cached in a process beyond the request: whichever server
wrote a row, every server reads the same.

Durability: a save returns only after its transaction commits (SQLite: WAL with
``synchronous=FULL``; PostgreSQL: ``fsync`` and ``synchronous_commit`` on, as by default),
so an acknowledged save survives a killed process.  Reads check the content hash, so a
damaged row is reported, never served.
"""

from __future__ import annotations

import hashlib
import json
import random
import threading
import time
import zlib
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from judge.store import pruning
from judge.store.documents import (CorruptDocument, HistoryRow, StoreFull, StoreReadOnly,
                                   StoreUnavailable, check_document, document_id, valid_id)
from judge.store.schema import ROW_OVERHEAD

STATS_SECONDS = 5.0          # /salute reads the totals at most this often per process
FULL_SECONDS = 60.0          # a save refused for want of space makes the store «pieno» this long
READ_ONLY = ("L'archivio degli scenari è in sola lettura: puoi aprire gli scenari e le partite "
             "salvati, ma non salvarne di nuovi. Riprova più tardi.")
FULL = ("L'archivio degli scenari è pieno: nessun nuovo salvataggio finché non si libera spazio "
        "(gli scenari già salvati restano consultabili). Riprova più tardi.")


class Delta:
    """What a transaction adds to (or removes from) the running totals."""

    __slots__ = ("documents", "games", "history", "bytes")

    def __init__(self):
        self.documents = self.games = self.history = self.bytes = 0

    def __bool__(self) -> bool:
        return bool(self.documents or self.games or self.history or self.bytes)


class _OverQuota(Exception):
    pass


class Tx:
    """A transaction (or a single read) on a backend connection: ``?`` placeholders."""

    def __init__(self, run):
        self._run = run          # (sql, params) -> cursor

    def one(self, sql: str, params=()) -> tuple | None:
        return self._run(sql, params).fetchone()

    def all(self, sql: str, params=()) -> list[tuple]:
        return self._run(sql, params).fetchall()

    def run(self, sql: str, params=()) -> int:
        return self._run(sql, params).rowcount


class Store:
    """Saved scenarios and games, and the cache of their histories.  Thread-safe."""

    backend = ""
    shards = 1

    def __init__(self, policy: pruning.Policy | None = None, clock=time.time):
        self.policy = policy or pruning.Policy()
        self.clock = clock
        self.read_only = False
        self.problem: str | None = None        # why the store is read-only, for /salute and logs
        self._stats: dict | None = None       # the totals /salute shows, and when they were read
        self._stats_at = 0.0
        self._full_at: float | None = None     # when a save was last refused for want of space
        self._prune_lock = threading.Lock()
        # Told the bytes each committed write added (the web layer's per-client byte budget).
        self.on_growth: Callable[[int], None] | None = None

    # --- what a backend provides --------------------------------------------------------------
    @contextmanager
    def _tx(self, write: bool, durable: bool = True) -> Iterator[Tx]:
        raise NotImplementedError

    def _in(self, values: list) -> tuple[str, list]:
        """``IN (…)`` for a list of values: (SQL fragment, parameters)."""
        raise NotImplementedError

    def _disk_bytes(self) -> int | None:
        return None

    def _check_writable(self) -> bool:
        """Whether writes would be accepted now; StoreUnavailable when the store does not answer."""
        return not self.read_only

    def _writable_now(self) -> bool:
        try:
            return self._check_writable()
        except StoreUnavailable:
            return False

    def integrity_check(self) -> str:
        return "ok"

    def close(self) -> None:
        pass

    # --- documents --------------------------------------------------------------------------
    def save(self, doc: Any, kind: str, history: list[HistoryRow] = (),
             engine: str = "", key: str | None = None, data: bytes | None = None) -> str:
        """Store ``doc`` (JSON-compatible data) and return its id; durable when this returns.

        For a game, ``history`` rows and the document's history ``key`` (for the ``engine``
        build) are written in the same transaction.  ``data``: ``check_document(doc)`` when the
        caller already has it.  StoreReadOnly / StoreFull when the store refuses writes."""
        data = check_document(doc) if data is None else data
        ident = document_id(data)
        blob = zlib.compress(data, 6)
        sha = hashlib.sha256(data).hexdigest()
        rows = _history_values(history)
        links = [(ident, engine, key)] if key else []

        def work(tx: Tx, now: float) -> Delta:
            delta = Delta()
            if tx.run("INSERT INTO documenti (id, tipo, sha256, dati, creato, salvato, byte) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                      (ident, kind, sha, blob, now, now, len(blob) + ROW_OVERHEAD)):
                delta.documents, delta.games = 1, int(kind == "partita")
                delta.bytes += len(blob) + ROW_OVERHEAD
            else:   # saved again (an undo back to it, the same game twice): in use, not stale
                tx.run("UPDATE documenti SET salvato = ? WHERE id = ? AND salvato < ?",
                       (now, ident, now))
            self._put_history(tx, rows, links, delta, now)
            return delta

        self._write(work, refuse_growth=True)
        return ident

    def load(self, ident: str) -> tuple[str, Any] | None:
        """``(kind, document)`` for an id, or None if there is no such document."""
        found = self.load_raw(ident)
        return found[:2] if found else None

    def load_raw(self, ident: str, opening: bool = False) -> tuple[str, Any, bytes] | None:
        """``(kind, document, its canonical JSON)`` for an id, or None.  ``opening``: a visit
        (not the saver's own redirect within ``OPEN_GRACE``), recorded once: a document opened
        since it was saved is never pruned."""
        if not valid_id(ident):
            return None
        with self._tx(write=False) as tx:
            row = tx.one("SELECT tipo, sha256, dati, salvato, aperto FROM documenti WHERE id = ?",
                         (ident,))
        if row is None:
            return None
        kind, sha, blob, saved, opened = row
        try:
            data = zlib.decompress(bytes(blob))
        except zlib.error:
            raise CorruptDocument(ident) from None
        if hashlib.sha256(data).hexdigest() != sha or document_id(data) != ident:
            raise CorruptDocument(ident)
        if opening and opened is None:
            self._mark_opened(ident, saved)
        return kind, json.loads(data), data

    def _mark_opened(self, ident: str, saved: float | None) -> None:
        now = self.clock()
        if saved is not None and now - saved < pruning.OPEN_GRACE or not self._writable_now():
            return
        try:
            self._write(lambda tx, _: tx.run("UPDATE documenti SET aperto = ? WHERE id = ? AND "
                                             "aperto IS NULL", (now, ident)) and None,
                        durable=False)
        except StoreUnavailable:
            pass        # a read-only store still serves the document

    def count(self) -> int:
        return self.totals()["documenti"]

    def totals(self) -> dict[str, int]:
        """Exact counts and bytes, from the running totals (no row is counted)."""
        with self._tx(write=False) as tx:
            d, g, h, b = tx.one("SELECT sum(documenti), sum(partite), sum(storia), sum(byte) "
                                "FROM totali")
        return {"documenti": int(d or 0), "scenari": int((d or 0) - (g or 0)),
                "partite": int(g or 0), "storia": int(h or 0), "byte": int(b or 0)}

    def stats(self, max_age: float = STATS_SECONDS) -> dict:
        """For ``/salute``: backend, reachability and writability (asked each time), counts and
        bytes (read at most every ``max_age`` seconds per process), quota, and ``pieno``: at the
        quota, or a save refused for want of space in the last minute."""
        now = time.monotonic()
        out: dict[str, Any] = {"backend": self.backend}
        try:
            writable = self._check_writable()
            if self._stats is None or now - self._stats_at >= max_age:
                totals = {**self.totals(), "byte_su_disco": self._disk_bytes()}
                self._stats, self._stats_at = totals, now
            out.update(self._stats)
            out["raggiungibile"] = True
        except StoreUnavailable as e:
            writable, out["raggiungibile"], out["errore"] = False, False, e.message
        out["scrivibile"] = writable
        out["quota"] = self.policy.quota or None
        at_quota = bool(self.policy.quota and out.get("byte") is not None and out["byte"] >= self.policy.quota)
        out["pieno"] = at_quota or (self._full_at is not None and now - self._full_at < FULL_SECONDS)
        if out["pieno"] and out["raggiungibile"]:
            out["errore"] = FULL
        if not writable and out["raggiungibile"]:
            out["errore"] = self.problem or READ_ONLY
        return out

    # --- writing, with the quota ---------------------------------------------------------------
    def _write(self, work, refuse_growth: bool = False, durable: bool = True) -> None:
        """Run ``work(tx, now) -> Delta|None`` in a write transaction and add its delta to the
        totals.  ``refuse_growth``: if it would take the store past the quota, prune under the
        policy and try once more; then StoreFull."""
        if self.read_only:
            raise StoreReadOnly(READ_ONLY)
        for attempt in (0, 1):
            try:
                with self._tx(write=True, durable=durable) as tx:
                    delta = work(tx, self.clock())
                    if delta:
                        if refuse_growth and delta.bytes > 0 and self.policy.quota:
                            (total,) = tx.one("SELECT sum(byte) FROM totali")
                            if (total or 0) + delta.bytes > self.policy.quota:
                                raise _OverQuota()
                        tx.run("UPDATE totali SET documenti = documenti + ?, partite = partite + ?, "
                               "storia = storia + ?, byte = byte + ? WHERE shard = ?",
                               (delta.documents, delta.games, delta.history, delta.bytes,
                                random.randrange(self.shards)))
                self._stats = None
                if delta and delta.bytes > 0 and self.on_growth is not None:
                    self.on_growth(delta.bytes)
                return
            except _OverQuota:
                if attempt:
                    self._full_at = time.monotonic()
                    raise StoreFull(FULL) from None
                self.prune(by_age=False)
            except StoreFull:               # the disk itself (judge/store/sqlite.py)
                self._full_at = time.monotonic()
                raise
        raise AssertionError("unreachable")

    def prune(self, by_age: bool = True) -> pruning.Report:
        """Apply the pruning policy now (``by_age=False``: only what the quota needs)."""
        with self._prune_lock:
            report = pruning.prune(self, self.policy, self.clock(), by_age=by_age)
        self._stats = None
        return report

    def _prune_documents(self, cutoff: float, limit: int, need: int | None = None) -> pruning.Report:
        """Remove up to ``limit`` documents never opened and last saved before ``cutoff``,
        oldest first (and their history links), stopping once ``need`` bytes are freed."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT id, byte FROM documenti WHERE aperto IS NULL AND salvato < ? "
                          "ORDER BY salvato, id LIMIT ?", (cutoff, limit))
        ids = _within(rows, need)
        report = pruning.Report()
        if not ids:
            return report

        def work(tx: Tx, now: float) -> Delta:
            frag, params = self._in(ids)
            # re-checked here: a visit or a new save since the selection keeps the document
            gone = tx.all(f"DELETE FROM documenti WHERE id {frag} AND aperto IS NULL AND salvato < ? "
                          "RETURNING id, tipo, byte", (*params, cutoff))
            delta = Delta()
            if gone:
                frag2, params2 = self._in([r[0] for r in gone])
                tx.run(f"DELETE FROM partite_storia WHERE id {frag2}", params2)
            delta.documents = -len(gone)
            delta.games = -sum(1 for r in gone if r[1] == "partita")
            delta.bytes = -sum(r[2] or 0 for r in gone)
            report.documents, report.games = len(gone), -delta.games
            report.bytes_freed = -delta.bytes
            report.removed_ids = [r[0] for r in gone]
            return delta

        self._write(work)
        return report

    def _prune_history(self, cutoff: float, limit: int, need: int | None = None) -> pruning.Report:
        """Remove up to ``limit`` history rows created before ``cutoff`` that no document links to."""
        with self._tx(write=False) as tx:
            rows = tx.all("SELECT chiave, byte FROM storia s WHERE creato < ? AND NOT EXISTS "
                          "(SELECT 1 FROM partite_storia p WHERE p.chiave = s.chiave) "
                          "ORDER BY creato, chiave LIMIT ?", (cutoff, limit))
        keys = _within(rows, need)
        report = pruning.Report()
        if not keys:
            return report

        def work(tx: Tx, now: float) -> Delta:
            frag, params = self._in(keys)
            gone = tx.all(f"DELETE FROM storia WHERE chiave {frag} AND NOT EXISTS (SELECT 1 FROM "
                          "partite_storia p WHERE p.chiave = storia.chiave) RETURNING byte", params)
            delta = Delta()
            delta.history, delta.bytes = -len(gone), -sum(r[0] or 0 for r in gone)
            report.history_rows, report.bytes_freed = len(gone), -delta.bytes
            return delta

        self._write(work)
        return report

    # --- the history cache ---------------------------------------------------------------
    def put_history(self, rows: list[HistoryRow], keys: list[tuple[str, str, str]] = ()) -> None:
        """Cache rows and ``(document id, engine, key)`` links.  A cache: no fsync, and nothing
        is cached on a read-only or full store."""
        values = _history_values(rows)

        def work(tx: Tx, now: float) -> Delta:
            delta = Delta()
            self._put_history(tx, values, sorted(keys), delta, now)
            return delta

        self._cache_write(work)

    def _cache_write(self, work) -> None:
        try:
            self._write(work, refuse_growth=True, durable=False)
        except StoreUnavailable:
            pass

    def _put_history(self, tx: Tx, values: list[tuple], links, delta: Delta, now: float) -> None:
        for key, parent, n, nev, events, snap, sha in values:
            size = len(events) + len(snap or b"") + ROW_OVERHEAD
            if tx.run("INSERT INTO storia (chiave, padre, n, nev, eventi, stato, sha256, creato, byte) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                      (key, parent, n, nev, events, snap, sha, now, size)):
                delta.history += 1
                delta.bytes += size
            elif snap is not None:     # a row cached earlier without a snapshot gets one
                delta.bytes += self._set_snapshot(tx, key, snap, sha)
        for ident, engine, key in links:
            tx.run("INSERT INTO partite_storia (id, motore, chiave) VALUES (?, ?, ?) "
                   "ON CONFLICT DO NOTHING", (ident, engine, key))

    @staticmethod
    def _set_snapshot(tx: Tx, key: str, blob: bytes, sha: str) -> int:
        if tx.run("UPDATE storia SET stato = ?, sha256 = ?, byte = byte + ? WHERE chiave = ? "
                  "AND stato IS NULL", (blob, sha, len(blob), key)):
            return len(blob)
        return 0

    def game_snapshot(self, ident: str, engine: str, max_depth: int
                      ) -> tuple[str | None, tuple[int, bytes] | None]:
        """A game's history key and ``nearest_snapshot`` of it, in one connection."""
        with self._tx(write=False) as tx:
            row = tx.one("SELECT chiave FROM partite_storia WHERE id = ? AND motore = ?",
                         (ident, engine))
            if row is None:
                return None, None
            return row[0], _snapshot(_nearest(tx, row[0], max_depth))

    def history_parent(self, key: str) -> tuple[str | None, int] | None:
        """``(parent key, number of actions)`` of a cached history, or None."""
        with self._tx(write=False) as tx:
            row = tx.one("SELECT padre, n FROM storia WHERE chiave = ?", (key,))
        return (row[0], row[1]) if row else None

    def nearest_snapshot(self, key: str, max_depth: int) -> tuple[int, bytes] | None:
        """``(n, snapshot)`` of the history itself or of its nearest ancestor with a snapshot,
        at most ``max_depth`` actions back; None if there is none or it is damaged."""
        with self._tx(write=False) as tx:
            return _snapshot(_nearest(tx, key, max_depth))

    def snapshots_among(self, keys: list[str]) -> dict[str, int]:
        """Which of ``keys`` have a snapshot: ``{key: n}``."""
        out: dict[str, int] = {}
        with self._tx(write=False) as tx:
            for i in range(0, len(keys), 500):
                frag, params = self._in(keys[i:i + 500])
                out.update(tx.all(f"SELECT chiave, n FROM storia WHERE stato IS NOT NULL AND "
                                  f"chiave {frag}", params))
        return out

    def snapshot(self, key: str) -> tuple[int, bytes] | None:
        with self._tx(write=False) as tx:
            row = tx.one("SELECT n, stato, sha256 FROM storia WHERE chiave = ? AND stato "
                         "IS NOT NULL", (key,))
        return _snapshot(row)

    def add_snapshot(self, key: str, snapshot: bytes) -> None:
        blob, sha = zlib.compress(snapshot, 1), hashlib.sha256(snapshot).hexdigest()

        def work(tx: Tx, now: float) -> Delta:
            delta = Delta()
            delta.bytes = self._set_snapshot(tx, key, blob, sha)
            return delta

        self._cache_write(work)

    def history_events(self, key: str, limit: int | None) -> tuple[list[tuple[int, list[dict]]], bool]:
        """``([(n, events of action n)], complete)``, oldest first, walking back from ``key``
        until at least ``limit`` events are collected (None: the whole history); ``complete``
        when the walk reached the start of the game."""
        with self._tx(write=False) as tx:
            rows = tx.all(
                "WITH RECURSIVE su(chiave, padre, n, tot) AS ("
                " SELECT chiave, padre, n, nev FROM storia WHERE chiave = ?"
                " UNION ALL SELECT s.chiave, s.padre, s.n, su.tot + s.nev"
                " FROM storia s JOIN su ON s.chiave = su.padre WHERE su.tot < ?)"
                " SELECT s.n, CASE WHEN s.nev > 0 THEN s.eventi END, su.padre IS NULL"
                " FROM su JOIN storia s ON s.chiave = su.chiave",
                (key, 1 << 62 if limit is None else limit))
        out = []
        for n, blob, _ in rows:
            if blob is None:
                continue
            try:
                out.append((n, json.loads(zlib.decompress(bytes(blob)))))
            except (zlib.error, ValueError):
                raise CorruptDocument(key) from None
        out.sort(key=lambda r: r[0])
        return out, any(root for _, _, root in rows)

    # --- moving a store (judge archivio migra) -------------------------------------------------
    TABLES = {
        "documenti": ("id", "tipo", "sha256", "dati", "creato", "salvato", "aperto", "byte"),
        "storia": ("chiave", "padre", "n", "nev", "eventi", "stato", "sha256", "creato", "byte"),
        "partite_storia": ("id", "motore", "chiave"),
    }

    def export_rows(self, table: str, batch: int = 500) -> Iterator[list[tuple]]:
        """Every row of a table, in key order, a batch at a time."""
        cols = self.TABLES[table]
        key = cols[0] if table != "partite_storia" else "id, motore"
        last: tuple | None = None
        while True:
            with self._tx(write=False) as tx:
                if last is None:
                    rows = tx.all(f"SELECT {', '.join(cols)} FROM {table} ORDER BY {key} LIMIT ?",
                                  (batch,))
                elif table == "partite_storia":
                    rows = tx.all(f"SELECT {', '.join(cols)} FROM {table} WHERE id > ? OR "
                                  f"(id = ? AND motore > ?) ORDER BY {key} LIMIT ?",
                                  (last[0], last[0], last[1], batch))
                else:
                    rows = tx.all(f"SELECT {', '.join(cols)} FROM {table} WHERE {cols[0]} > ? "
                                  f"ORDER BY {key} LIMIT ?", (last[0], batch))
            if not rows:
                return
            rows = [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in rows]
            yield rows
            last = rows[-1]

    def import_rows(self, table: str, rows: list[tuple]) -> int:
        """Insert rows exported from another store (already present ones are left alone);
        returns how many were new.  The totals follow."""
        cols = self.TABLES[table]
        sql = (f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))}) "
               "ON CONFLICT DO NOTHING")
        added = [0]

        def work(tx: Tx, now: float) -> Delta:
            delta = Delta()
            for r in rows:
                if tx.run(sql, r):
                    added[0] += 1
                    if table == "documenti":
                        delta.documents += 1
                        delta.games += int(r[1] == "partita")
                        delta.bytes += r[7] or 0
                    elif table == "storia":
                        delta.history += 1
                        delta.bytes += r[8] or 0
            return delta

        self._write(work)
        return added[0]


def _history_values(rows) -> list[tuple]:
    """Rows ready to insert, in key order (concurrent writers then lock rows in one order)."""
    out = []
    for r in sorted(rows, key=lambda r: r.key):
        snap = sha = None
        if r.snapshot is not None:
            snap, sha = zlib.compress(r.snapshot, 1), hashlib.sha256(r.snapshot).hexdigest()
        events = zlib.compress(json.dumps(r.events, ensure_ascii=False,
                                          separators=(",", ":")).encode("utf-8"), 1)
        out.append((r.key, r.parent, r.n, len(r.events), events, snap, sha))
    return out


def _within(rows: list[tuple], need: int | None) -> list:
    """The first ids of ``rows`` (id, bytes) whose bytes add up to ``need`` (all: None)."""
    if need is None:
        return [r[0] for r in rows]
    out, freed = [], 0
    for ident, size in rows:
        if freed >= need:
            break
        out.append(ident)
        freed += size or 0
    return out


def _nearest(tx: Tx, key: str, max_depth: int):
    return tx.one(
        "WITH RECURSIVE su(chiave, padre, n, ha, d) AS ("
        " SELECT chiave, padre, n, stato IS NOT NULL, 0 FROM storia WHERE chiave = ?"
        " UNION ALL SELECT s.chiave, s.padre, s.n, s.stato IS NOT NULL, su.d + 1"
        " FROM storia s JOIN su ON s.chiave = su.padre WHERE NOT su.ha AND su.d < ?)"
        " SELECT s.n, s.stato, s.sha256 FROM su JOIN storia s ON s.chiave = su.chiave"
        " WHERE su.ha LIMIT 1", (key, max_depth))


def _snapshot(row) -> tuple[int, bytes] | None:
    if row is None or row[1] is None:
        return None
    try:
        data = zlib.decompress(bytes(row[1]))
    except zlib.error:
        return None
    if hashlib.sha256(data).hexdigest() != row[2]:
        return None                 # damaged: the caller replays instead
    return row[0], data
