"""The embedded backend: one SQLite file in the instance folder (nothing to install).

WAL mode with ``synchronous=FULL``; each save is one ``BEGIN IMMEDIATE … COMMIT`` and returns
only after the commit.  A killed writer leaves at most an uncommitted WAL tail, which SQLite
discards on the next open.  One short-lived connection per operation: safe across threads
and across the processes serving the same instance.

A folder or file that cannot be written (a read-only mount, a file owned by someone else)
opens the store read-only: documents are served, saves refused with StoreReadOnly.
"""

from __future__ import annotations

import errno
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from judge.store import schema
from judge.store.core import Store, Tx
from judge.store.documents import StoreFull, StoreReadOnly, StoreUnavailable

_READ_ONLY_ERRNOS = {errno.EACCES, errno.EPERM, errno.EROFS}


def _read_only_error(e: BaseException) -> bool:
    if isinstance(e, OSError):
        return e.errno in _READ_ONLY_ERRNOS
    text = str(e).lower()
    return isinstance(e, sqlite3.OperationalError) and (
        "readonly" in text or "read-only" in text or "unable to open" in text)


class SQLiteStore(Store):
    backend = "sqlite"
    shards = schema.SHARDS["sqlite"]

    def __init__(self, path: str | Path, **kw):
        super().__init__(**kw)
        self.path = Path(path)
        self._uri: str | None = None            # set when opened read-only
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            try:
                conn.execute("PRAGMA busy_timeout=30000")
                conn.execute("PRAGMA journal_mode=WAL")
                self._migrate(conn)
            finally:
                conn.close()
        except (OSError, sqlite3.OperationalError) as e:
            if not _read_only_error(e):
                raise
            self._open_read_only(e)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("CREATE TABLE IF NOT EXISTS migrazioni (versione INTEGER PRIMARY KEY, "
                         "applicata REAL NOT NULL)")
            current = conn.execute("SELECT coalesce(max(versione), 0) FROM migrazioni").fetchone()[0]
            for version, sql in schema.pending(current):
                for statement in schema.render(sql, "sqlite"):
                    conn.execute(statement)
                conn.execute("INSERT INTO migrazioni VALUES (?, ?)", (version, self.clock()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _open_read_only(self, cause: BaseException) -> None:
        self.read_only = True
        self.problem = (f"L'archivio {self.path} non è scrivibile ({cause}): "
                        "gli scenari salvati si aprono, i nuovi salvataggi sono rifiutati.")
        if not self.path.exists():
            self._uri = ""                       # nothing saved yet: an empty store
            return
        for mode in ("mode=ro", "immutable=1"):  # immutable: the WAL index cannot be created
            uri = f"file:{self.path}?{mode}"
            try:
                conn = sqlite3.connect(uri, uri=True, timeout=30)
                try:
                    conn.execute("SELECT count(*) FROM documenti").fetchone()
                finally:
                    conn.close()
                self._uri = uri
                return
            except sqlite3.Error:
                continue
        raise StoreUnavailable(f"L'archivio {self.path} non si può leggere ({cause}).")

    # --- backend hooks -----------------------------------------------------------------------
    @contextmanager
    def _tx(self, write: bool, durable: bool = True) -> Iterator[Tx]:
        if self._uri == "":
            yield _EmptyTx()
            return
        try:
            if self._uri:
                conn = sqlite3.connect(self._uri, uri=True, timeout=30, isolation_level=None)
            else:
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        except sqlite3.Error as e:
            raise self._unavailable(e) from None
        try:
            conn.execute("PRAGMA busy_timeout=30000")
            if not write:
                yield Tx(conn.execute)
                return
            conn.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield Tx(conn.execute)
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise self._unavailable(e) from None
        finally:
            conn.close()

    def _unavailable(self, e: sqlite3.Error) -> StoreUnavailable:
        text = str(e).lower()
        if "readonly" in text or "read-only" in text:
            self.read_only = True
            self.problem = f"L'archivio {self.path} è diventato di sola lettura ({e})."
            return StoreReadOnly(self.problem)
        if "disk is full" in text or "database or disk is full" in text:
            return StoreFull("Lo spazio su disco dell'archivio degli scenari è esaurito: "
                             "nessun nuovo salvataggio per ora.")
        return StoreUnavailable(f"L'archivio degli scenari non risponde ({e}).")

    def _in(self, values: list) -> tuple[str, list]:
        return f"IN ({','.join('?' * len(values))})", list(values)

    def _disk_bytes(self) -> int | None:
        try:
            return sum(p.stat().st_size for p in (self.path, Path(f"{self.path}-wal"))
                       if p.exists())
        except OSError:
            return None

    def integrity_check(self) -> str:
        with self._tx(write=False) as tx:
            return tx.one("PRAGMA integrity_check")[0]


class _EmptyTx(Tx):
    """Reads of a read-only store that was never created: nothing is there."""

    def __init__(self):
        super().__init__(None)

    def one(self, sql, params=()):
        return (0, 0, 0, 0) if "FROM totali" in sql else None

    def all(self, sql, params=()):
        return []

    def run(self, sql, params=()):
        raise StoreReadOnly("archivio in sola lettura")
