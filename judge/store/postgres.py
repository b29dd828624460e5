"""The shared backend: PostgreSQL behind ``JUDGE_DATABASE_URL=postgresql://…`` (psycopg 3 with a
connection pool), for several `judge serve` processes or machines on one store.

The app creates and migrates the schema itself (judge/store/schema.py), under an advisory
lock so that servers starting together apply each migration once.  Saves are transactions
committed before they return (PostgreSQL's defaults: ``fsync``, ``synchronous_commit``);
concurrent saves of the same content are ``INSERT … ON CONFLICT DO NOTHING`` of one row.
The rare deadlock between two transactions touching the same history rows is retried.

An outage stays in the store (issue 38).  A request waits at most a second for a pooled
connection (it waited 30 s: eight of them held every server thread, and rule pages took 8 s);
connections are checked before use, so that none left broken by a database restart is handed
out (they gave 503s up to 25 minutes later); a dead peer is noticed within seconds (TCP
keepalives and ``tcp_user_timeout``).  After a failure the store refuses at once for a moment,
then lets one request try while the others keep being refused (``_Breaker``): an outage costs a
scenario request a quick Italian 503, not a server thread.  A server may start while the
database is down (``wait=False``): the schema is checked on the first request that reaches it.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from contextlib import contextmanager
from typing import Iterator

from judge.store import schema
from judge.store.core import Store, Tx
from judge.store.documents import StoreReadOnly, StoreUnavailable

MIGRATION_LOCK = 0x6A756467          # "judg": pg_advisory_xact_lock key for migrations
RETRIES = 5
POOL_SECONDS = 1.0                   # the longest a request waits for a connection
CONNECT_SECONDS = 2                  # libpq's shortest connect_timeout
QUIET_SECONDS = 0.5                  # after a failure, refuse at once this long, then try once
TRIAL_STEP = 0.1                     # the try asks the pool again this often (each ask connects)
START_SECONDS = 10.0                 # `judge archivio` waits this long for the database
UNREACHABLE = ("Il database degli scenari non risponde: gli scenari e le partite salvati non si "
               "possono aprire né salvare per ora (le regole e la ricerca funzionano). Riprova tra "
               "poco.")
log = logging.getLogger("judge.archivio")
# The pool logs every failed connection attempt: during an outage, ten lines a second. The breaker
# says once when the database stops answering and once when it is back.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

CONNECTION = {
    "autocommit": True,
    "connect_timeout": CONNECT_SECONDS,
    # A database host that vanishes (no RST) is noticed in seconds, not after TCP's minutes.
    "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2, "keepalives_count": 2,
    "tcp_user_timeout": 5000,
}


class _Breaker:
    """Refuse at once for ``QUIET_SECONDS`` after a failure, then let one caller try."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.lock = threading.Lock()
        self.until: float | None = None        # None: the database answered last time
        self.trying = False
        self.detail = ""

    def admit(self) -> bool:
        """True for the one trial after a failure; StoreUnavailable while refusing."""
        with self.lock:
            if self.until is None:
                return False
            if self.trying or self.clock() < self.until:
                raise StoreUnavailable(UNREACHABLE)
            self.trying = True
            return True

    def answered(self, trial: bool) -> None:
        if trial or self.until is not None:
            with self.lock:
                if self.until is not None:
                    log.warning("il database degli scenari risponde di nuovo")
                self.until, self.trying = None, False

    def failed(self, detail: str) -> None:
        with self.lock:
            if self.until is None:
                log.warning("il database degli scenari non risponde: %s", detail)
            self.until, self.trying, self.detail = self.clock() + QUIET_SECONDS, False, detail


def _psycopg():
    try:
        import psycopg
        import psycopg_pool
    except ImportError as e:  # pragma: no cover - both are dependencies of the package
        raise StoreUnavailable(f"PostgreSQL richiede psycopg e psycopg_pool ({e}): "
                               "pip install 'psycopg[binary]' psycopg_pool") from None
    return psycopg, psycopg_pool


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", url)


class PostgresStore(Store):
    backend = "postgresql"
    shards = schema.SHARDS["postgresql"]

    def __init__(self, url: str, pool_size: int = 10, wait: bool = True, **kw):
        """``wait``: fail now (StoreUnavailable) if the database cannot be reached within
        START_SECONDS (the commands); False: open anyway, each request finds out (the server)."""
        super().__init__(**kw)
        self.url = url
        psycopg, psycopg_pool = _psycopg()
        self._errors = psycopg.errors
        self._psycopg = psycopg
        self._pool_errors = (psycopg_pool.PoolTimeout, psycopg_pool.TooManyRequests)
        self._breaker = _Breaker()
        self._schema_lock = threading.Lock()
        self._schema_ready = False
        try:
            # A connection for each thread kept open (opened in the background): a request never
            # waits for one to be made, and a second's wait means the database does not answer.
            size = max(2, pool_size)
            self.pool = psycopg_pool.ConnectionPool(
                url, min_size=size, max_size=size, open=True, timeout=POOL_SECONDS,
                kwargs=CONNECTION, check=psycopg_pool.ConnectionPool.check_connection,
                # a failed connection is not retried in the background with growing delays (up
                # to minutes after the database is back): the next request that needs one asks
                reconnect_timeout=0, name="judge-archivio")
        except Exception as e:
            raise StoreUnavailable(f"PostgreSQL non raggiungibile a {redact(url)}: {e}") from None
        deadline = time.monotonic() + (START_SECONDS if wait else POOL_SECONDS)
        while True:
            try:
                self._ensure_schema()
                break
            except StoreReadOnly:
                raise
            except StoreUnavailable as e:
                if time.monotonic() < deadline:
                    time.sleep(0.2)
                    continue
                if wait:
                    self.pool.close()
                    raise StoreUnavailable(f"PostgreSQL non raggiungibile a {redact(url)}: "
                                           f"{self._breaker.detail or e.message}") from None
                self.problem = (f"PostgreSQL non raggiungibile a {redact(url)} all'avvio "
                                f"({self._breaker.detail}): gli scenari saranno disponibili "
                                "quando il database risponde.")
                break

    def _ensure_schema(self) -> None:
        if self._schema_ready:
            return
        with self._schema_lock:
            if not self._schema_ready:
                self._migrate()
                self._schema_ready = True
                self.problem = None

    def _migrate(self) -> None:
        with self._connected() as conn:
            if conn.execute("SELECT to_regclass('migrazioni')").fetchone()[0] is not None:
                if conn.execute("SELECT max(versione) FROM migrazioni").fetchone()[0] == schema.VERSION:
                    return          # up to date: nothing to write (a read-only database opens too)
        try:
            self._apply_migrations()
        except self._errors.ReadOnlySqlTransaction:
            raise StoreUnavailable("Il database è in sola lettura e il suo schema va aggiornato: "
                                   "avvia una volta judge con un database scrivibile.") from None

    def _apply_migrations(self) -> None:
        with self._connected() as conn, conn.transaction():
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

    @contextmanager
    def _connected(self):
        """A pooled connection within POOL_SECONDS. A failure to reach the database trips the
        breaker and is StoreUnavailable; anything else passes through untouched."""
        trial = self._breaker.admit()
        try:
            conn = self._getconn(trial)
            try:
                with conn:                  # commit or roll back; the pool's: not closed
                    yield conn
            finally:
                self.pool.putconn(conn)
        except self._errors.TransactionRollback:       # a conflict: _write tries again
            self._breaker.answered(trial)
            raise
        except (self._psycopg.OperationalError, *self._pool_errors) as e:
            self._breaker.failed(_first_line(e))
            raise StoreUnavailable(UNREACHABLE) from None
        except BaseException:
            self._breaker.answered(trial)
            raise
        else:
            self._breaker.answered(trial)

    def _getconn(self, trial: bool):
        if not trial:
            return self.pool.getconn()
        # The try after a failure asks again every TRIAL_STEP: each ask makes the pool connect
        # (one attempt, reconnect_timeout=0), so a database back up is found within TRIAL_STEP,
        # not after a whole wait behind an attempt made while it was still down.
        deadline = time.monotonic() + POOL_SECONDS
        while True:
            try:
                return self.pool.getconn(timeout=max(0.01, min(TRIAL_STEP, deadline - time.monotonic())))
            except self._pool_errors:
                if time.monotonic() >= deadline:
                    raise

    # --- backend hooks -----------------------------------------------------------------------
    @contextmanager
    def _tx(self, write: bool, durable: bool = True) -> Iterator[Tx]:
        errors = self._errors
        self._ensure_schema()
        try:
            with self._connected() as conn:
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

    def _check_writable(self) -> bool:
        with self._tx(write=False) as tx:
            (value,) = tx.one("SELECT current_setting('transaction_read_only')")
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
