"""The shared backend: PostgreSQL behind ``JUDGE_DATABASE_URL=postgresql://…`` (psycopg 3 with a
connection pool), for several `judge serve` processes or machines on one store.

The app creates and migrates the schema itself (judge/store/schema.py), under an advisory
lock so that servers starting together apply each migration once.  Saves are transactions
committed before they return (PostgreSQL's defaults: ``fsync``, ``synchronous_commit``);
concurrent saves of the same content are ``INSERT … ON CONFLICT DO NOTHING`` of one row.
The rare deadlock between two transactions touching the same history rows is retried.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from typing import Iterator

from judge.store import schema
from judge.store.core import Store, Tx
from judge.store.documents import StoreReadOnly, StoreUnavailable

MIGRATION_LOCK = 0x6A756467          # "judg": pg_advisory_xact_lock key for migrations
RETRIES = 5


def _psycopg():
    try:
        import psycopg
        import psycopg_pool
    except ImportError as e:  # pragma: no cover - both are dependencies of the package
        raise StoreUnavailable(f"PostgreSQL richiede psycopg e psycopg_pool ({e}): "
                               "pip install 'psycopg[binary]' psycopg_pool") from None
    return psycopg, psycopg_pool


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class PostgresStore(Store):
    backend = "postgresql"
    shards = schema.SHARDS["postgresql"]

    def __init__(self, url: str, pool_size: int = 10, **kw):
        super().__init__(**kw)
        self.url = url
        psycopg, psycopg_pool = _psycopg()
        self._errors = psycopg.errors
        self._psycopg = psycopg
        try:
            self.pool = psycopg_pool.ConnectionPool(
                url, min_size=1, max_size=max(2, pool_size), open=True, timeout=30,
                kwargs={"autocommit": True}, name="judge-archivio")
            self.pool.wait(timeout=30)
        except Exception as e:
            raise StoreUnavailable(f"PostgreSQL non raggiungibile a {redact(url)}: {e}") from None
        self._migrate()

    def _migrate(self) -> None:
        with self.pool.connection() as conn:
            if conn.execute("SELECT to_regclass('migrazioni')").fetchone()[0] is not None:
                if conn.execute("SELECT max(versione) FROM migrazioni").fetchone()[0] == schema.VERSION:
                    return          # up to date: nothing to write (a read-only database opens too)
        try:
            self._apply_migrations()
        except self._errors.ReadOnlySqlTransaction:
            raise StoreUnavailable("Il database è in sola lettura e il suo schema va aggiornato: "
                                   "avvia una volta judge con un database scrivibile.") from None

    def _apply_migrations(self) -> None:
        with self.pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
            conn.execute("CREATE TABLE IF NOT EXISTS migrazioni (versione INTEGER PRIMARY KEY, "
                         "applicata DOUBLE PRECISION NOT NULL)")
            current = conn.execute("SELECT coalesce(max(versione), 0) FROM migrazioni").fetchone()[0]
            for version, sql in schema.pending(current):
                for statement in schema.render(sql, "postgresql"):
                    conn.execute(statement)
                conn.execute("INSERT INTO migrazioni VALUES (%s, %s)", (version, self.clock()))

    def close(self) -> None:
        self.pool.close()

    # --- backend hooks -----------------------------------------------------------------------
    @contextmanager
    def _tx(self, write: bool, durable: bool = True) -> Iterator[Tx]:
        errors = self._errors
        try:
            with self.pool.connection() as conn:
                def run(sql, params):
                    return conn.execute(sql.replace("?", "%s"), params)

                if not write:
                    yield Tx(run)
                    return
                with conn.transaction():
                    if not durable:    # a cache row: no need to wait for the WAL flush
                        conn.execute("SET LOCAL synchronous_commit = off")
                    yield Tx(run)
        except errors.ReadOnlySqlTransaction as e:
            self.problem = f"Il database è in sola lettura ({e})."
            raise StoreReadOnly(self.problem) from None
        except (errors.DeadlockDetected, errors.SerializationFailure):
            raise
        except self._psycopg.OperationalError as e:
            raise StoreUnavailable(f"Il database degli scenari non risponde ({e}).") from None
        except Exception as e:
            if type(e).__module__.startswith("psycopg_pool"):
                raise StoreUnavailable(f"Il database degli scenari non risponde ({e}).") from None
            raise

    def _write(self, work, refuse_growth: bool = False, durable: bool = True) -> None:
        # Two transactions may lock the same history rows in different orders only through a
        # shared prefix met from two games: PostgreSQL aborts one, which is tried again.
        for attempt in range(RETRIES):
            try:
                return super()._write(work, refuse_growth=refuse_growth, durable=durable)
            except (self._errors.DeadlockDetected, self._errors.SerializationFailure):
                if attempt == RETRIES - 1:
                    raise StoreUnavailable("Il database degli scenari è troppo occupato: "
                                           "riprova.") from None

    def _writable_now(self) -> bool:
        try:
            with self._tx(write=False) as tx:
                (value,) = tx.one("SELECT current_setting('transaction_read_only')")
        except StoreUnavailable:
            return False
        if value == "on":
            self.problem = "Il database è in sola lettura (transaction_read_only)."
        return value != "on"

    def _in(self, values: list) -> tuple[str, list]:
        return "= ANY(?)", [list(values)]

    def _disk_bytes(self) -> int | None:
        with self._tx(write=False) as tx:
            (size,) = tx.one("SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
                             "WHERE c.relname IN ('documenti', 'storia', 'partite_storia', 'totali') "
                             "AND c.relnamespace = current_schema()::regnamespace")
        return int(size or 0)

    def integrity_check(self) -> str:
        with self._tx(write=False) as tx:
            bad = tx.one("SELECT count(*) FROM documenti WHERE sha256 IS NULL OR dati IS NULL")[0]
        return "ok" if not bad else f"{bad} righe incomplete"
