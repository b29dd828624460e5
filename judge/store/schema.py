"""The store's schema, created and brought up to date by the app (never by hand): a list of
numbered migrations, each applied once, in order, in one transaction, and recorded in the
table ``migrazioni``.  The same list serves SQLite and PostgreSQL; the few differences in SQL
are the placeholders below.

Version 1 is the schema of the first SQLite store (documents, history cache); a store made
before migrations were recorded has those tables already and is marked at version 1.
Version 2 adds what the quota and the many-servers layout need: when a document was last
saved and first opened, the bytes of each row, and the running totals (``totali``) that
``/salute`` and the quota read without counting rows.
"""

from __future__ import annotations

import time

# {blob}: binary column; {real}: float column; {norowid}: SQLite's WITHOUT ROWID.
MIGRATIONS: list[tuple[int, str]] = [
    (1, """
CREATE TABLE IF NOT EXISTS documenti (
    id      TEXT PRIMARY KEY,
    tipo    TEXT NOT NULL,
    sha256  TEXT NOT NULL,
    dati    {blob} NOT NULL,
    creato  {real} NOT NULL
){norowid};
CREATE TABLE IF NOT EXISTS storia (
    chiave  TEXT PRIMARY KEY,     -- history key: engine build, starting scenario, actions so far
    padre   TEXT,                 -- the same history without its last action (NULL: no action)
    n       INTEGER NOT NULL,     -- number of actions
    nev     INTEGER NOT NULL,     -- number of events of the last action
    eventi  {blob} NOT NULL,      -- zlib(JSON list) of the events of the last action
    stato   {blob},               -- zlib(engine snapshot) of the state after it, or NULL
    sha256  TEXT                  -- of the uncompressed snapshot
){norowid};
CREATE TABLE IF NOT EXISTS partite_storia (
    id      TEXT NOT NULL,        -- a game document (documenti.id)
    motore  TEXT NOT NULL,        -- the engine build its history key was computed for
    chiave  TEXT NOT NULL,
    PRIMARY KEY (id, motore)
){norowid};
"""),
    (2, """
ALTER TABLE documenti ADD COLUMN salvato {real};      -- last save (a re-save of the same content too)
ALTER TABLE documenti ADD COLUMN aperto {real};       -- first visit after the save's grace, or NULL
ALTER TABLE documenti ADD COLUMN byte INTEGER;        -- what the row counts towards the quota
ALTER TABLE storia ADD COLUMN creato {real};
ALTER TABLE storia ADD COLUMN byte INTEGER;
-- Documents stored before opens were recorded may have been shared: they count as opened.
UPDATE documenti SET salvato = creato, aperto = creato, byte = length(dati) + {overhead};
UPDATE storia SET creato = {now}, byte = length(eventi) + coalesce(length(stato), 0) + {overhead};
CREATE INDEX documenti_non_aperti ON documenti (salvato) WHERE aperto IS NULL;
CREATE INDEX partite_storia_chiave ON partite_storia (chiave);
CREATE INDEX storia_creato ON storia (creato);
CREATE TABLE totali (
    shard      INTEGER PRIMARY KEY,   -- several rows, so that writers on PostgreSQL rarely wait on one
    documenti  BIGINT NOT NULL,
    partite    BIGINT NOT NULL,
    storia     BIGINT NOT NULL,
    byte       BIGINT NOT NULL
);
INSERT INTO totali (shard, documenti, partite, storia, byte) SELECT 0,
    (SELECT count(*) FROM documenti), (SELECT count(*) FROM documenti WHERE tipo = 'partita'),
    (SELECT count(*) FROM storia),
    (SELECT coalesce(sum(byte), 0) FROM documenti) + (SELECT coalesce(sum(byte), 0) FROM storia);
{more_shards}
"""),
]

VERSION = MIGRATIONS[-1][0]
ROW_OVERHEAD = 100        # bytes counted per row beside its blobs: keys, hashes, index entries
SHARDS = {"sqlite": 1, "postgresql": 16}


def render(sql: str, dialect: str) -> list[str]:
    """The statements of a migration for ``dialect`` ("sqlite" or "postgresql")."""
    pg = dialect == "postgresql"
    sql = sql.format(
        blob="BYTEA" if pg else "BLOB", real="DOUBLE PRECISION" if pg else "REAL",
        norowid="" if pg else " WITHOUT ROWID", overhead=ROW_OVERHEAD, now=repr(time.time()),
        more_shards="\n".join(f"INSERT INTO totali VALUES ({i}, 0, 0, 0, 0);"
                              for i in range(1, SHARDS[dialect])),
    )
    if pg:
        sql = sql.replace("length(", "octet_length(")
    lines = [line.split("--")[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


def pending(current: int) -> list[tuple[int, str]]:
    return [(v, sql) for v, sql in MIGRATIONS if v > current]
