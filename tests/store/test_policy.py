"""Totals, opens, the quota and its pruning policy, schema migrations and moving a store: the
same behaviour on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlite3
import threading
import zlib

import pytest

from judge.store import HistoryRow, Policy, StoreFull, StoreReadOnly, open_store as open_at
from judge.store.pruning import OPEN_GRACE, parse_duration, parse_size

DAY = 86400.0


class Clock:
    def __init__(self, t: float = 1_800_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t


def scenario(n: int, pad: int = 0) -> dict:
    return {"format": "judge-scenario", "version": 1, "title": f"S{n}", "pad": "x" * pad}


def test_totals_count_rows_and_bytes_exactly(open_store):
    store = open_store()
    a = store.save(scenario(1), "scenario")
    store.save(scenario(1), "scenario")                          # same content: one row
    store.save({"g": 1}, "partita", history=[HistoryRow("k1", None, 0, [{"e": 1}], b"s" * 50)],
               engine="e", key="k1")
    t = store.totals()
    assert (t["documenti"], t["scenari"], t["partite"], t["storia"]) == (2, 1, 1, 1)
    with store._tx(write=False) as tx:
        rows = tx.one("SELECT (SELECT sum(byte) FROM documenti) + (SELECT sum(byte) FROM storia)")[0]
    assert t["byte"] == rows > 0
    stats = store.stats(max_age=0)
    assert stats["scrivibile"] and stats["documenti"] == 2 and stats["byte_su_disco"] > 0
    assert store.load(a) == ("scenario", scenario(1))


def test_sixteen_identical_saves_at_once_are_one_row(open_store):
    store = open_store()
    ids, errors = [], []
    barrier = threading.Barrier(16)

    def save():
        barrier.wait()
        try:
            ids.append(store.save({"same": True, "x": [1, 2, 3]}, "partita",
                                  history=[HistoryRow("kk", None, 0, [], b"snap")], engine="e", key="kk"))
        except Exception as e:          # pragma: no cover - what the test looks for
            errors.append(e)

    threads = [threading.Thread(target=save) for _ in range(16)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert not errors and len(set(ids)) == 1 and len(ids) == 16
    assert store.totals()["documenti"] == 1 and store.totals()["storia"] == 1


def test_a_visit_after_the_grace_marks_a_document_opened(open_store):
    clock = Clock()
    store = open_store(clock=clock)
    ident = store.save(scenario(1), "scenario")
    store.load_raw(ident, opening=True)            # the redirect right after saving
    assert _opened(store, ident) is None
    clock.t += OPEN_GRACE + 1
    store.load_raw(ident)                          # not a visit (a POST acting on it)
    assert _opened(store, ident) is None
    store.load_raw(ident, opening=True)
    assert _opened(store, ident) == clock.t


def _opened(store, ident):
    with store._tx(write=False) as tx:
        return tx.one("SELECT aperto FROM documenti WHERE id = ?", (ident,))[0]


def test_pruning_removes_only_what_the_policy_says(open_store):
    clock = Clock()
    store = open_store(clock=clock, policy=Policy(quota=0, keep_days=30))
    old_unopened = store.save(scenario(1), "scenario")
    old_game = store.save({"g": "old"}, "partita", history=[HistoryRow("h-old", None, 0, [], b"x")],
                          engine="e", key="h-old")
    old_opened = store.save(scenario(2), "scenario")
    store.put_history([HistoryRow("h-orphan", None, 0, [], b"y")])     # a replay's intermediate state
    clock.t += OPEN_GRACE + 1
    store.load_raw(old_opened, opening=True)
    clock.t += 20 * DAY
    resaved = store.save(scenario(3), "scenario")
    clock.t += 5 * DAY
    store.save(scenario(3), "scenario")            # saved again 5 days later: in use
    young = store.save(scenario(4), "scenario")
    clock.t += 11 * DAY                            # old ones: 31 days; resaved: 11; young: 11
    before = store.totals()
    report = store.prune()
    assert sorted(report.removed_ids) == sorted([old_unopened, old_game])
    assert (report.documents, report.games, report.history_rows) == (2, 1, 2)
    for kept in (old_opened, resaved, young):
        assert store.load(kept) is not None
    assert store.load(old_unopened) is None and store.load(old_game) is None
    assert store.snapshot("h-old") is None and store.snapshot("h-orphan") is None
    after = store.totals()
    assert after["documenti"] == before["documenti"] - 2
    assert after["byte"] == before["byte"] - report.bytes_freed
    assert store.prune().documents == 0            # nothing more to do


def test_the_quota_prunes_oldest_unopened_first_then_refuses(open_store):
    clock = Clock()
    policy = Policy(quota=20_000, keep_days=365, min_age=3600, target=0.9)
    store = open_store(clock=clock, policy=policy)
    big = 4_000                                      # hex text: ~2.3 KB a row once compressed
    docs = []
    for i in range(8):
        docs.append(store.save(_incompressible(i, big), "scenario"))
        clock.t += 60
    clock.t += OPEN_GRACE
    store.load_raw(docs[0], opening=True)            # the oldest was opened: it stays
    clock.t += 2 * 3600                              # all older than min_age
    while True:                                      # fill up to the quota
        try:
            docs.append(store.save(_incompressible(len(docs), big), "scenario"))
        except StoreFull:
            pytest.fail("the first saves over the quota must prune, not refuse")
        if len(docs) == 12:
            break
    assert store.totals()["byte"] <= policy.quota
    assert store.load(docs[0]) is not None
    removed = [d for d in docs[1:8] if store.load(d) is None]
    # the oldest unopened went first, and only as many as needed
    assert removed == docs[1:1 + len(removed)] and removed
    for d in docs[8:]:
        assert store.load(d) is not None              # younger than min_age: never pruned
    with pytest.raises(StoreFull):                    # nothing left that may go
        for i in range(20):
            store.save(_incompressible(100 + i, big), "scenario")
    assert store.totals()["byte"] <= policy.quota
    assert store.load(docs[0]) is not None


def _incompressible(n: int, size: int) -> dict:
    import hashlib

    text = "".join(hashlib.sha256(f"{n}-{i}".encode()).hexdigest() for i in range(size // 64 + 1))
    return {"format": "judge-scenario", "version": 1, "n": n, "pad": text[:size]}


def test_read_only_postgres_serves_reads_and_refuses_writes(postgres, pg_url):
    store = open_at(pg_url)
    ident = store.save(scenario(1), "scenario")
    store.close()
    database = pg_url.rsplit("/", 1)[1]
    postgres.sql(f'ALTER DATABASE "{database}" SET default_transaction_read_only = on')
    try:
        ro = open_at(pg_url)
        assert ro.load(ident) == ("scenario", scenario(1))
        with pytest.raises(StoreReadOnly, match="sola lettura"):
            ro.save(scenario(2), "scenario")
        ro.put_history([HistoryRow("x", None, 0, [], None)])    # a cache write: silently skipped
        assert ro.stats(max_age=0)["scrivibile"] is False
        ro.close()
    finally:
        postgres.sql(f'ALTER DATABASE "{database}" SET default_transaction_read_only = off')


def test_a_store_from_before_migrations_is_migrated_and_its_documents_kept(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE documenti (id TEXT PRIMARY KEY, tipo TEXT NOT NULL, sha256 TEXT NOT NULL,
                                dati BLOB NOT NULL, creato REAL NOT NULL) WITHOUT ROWID;
        CREATE TABLE storia (chiave TEXT PRIMARY KEY, padre TEXT, n INTEGER NOT NULL, nev INTEGER NOT NULL,
                             eventi BLOB NOT NULL, stato BLOB, sha256 TEXT) WITHOUT ROWID;
        CREATE TABLE partite_storia (id TEXT NOT NULL, motore TEXT NOT NULL, chiave TEXT NOT NULL,
                                     PRIMARY KEY (id, motore)) WITHOUT ROWID;""")
    from judge.store import canonical, document_id
    import hashlib

    data = canonical(scenario(7))
    conn.execute("INSERT INTO documenti VALUES (?, 'scenario', ?, ?, 1.0)",
                 (document_id(data), hashlib.sha256(data).hexdigest(), zlib.compress(data)))
    conn.commit()
    conn.close()
    store = open_at(path, policy=Policy(quota=0, keep_days=0))
    assert store.load(document_id(data)) == ("scenario", scenario(7))
    assert store.totals()["documenti"] == 1
    assert store.prune().documents == 0            # may have been shared: counts as opened
    with store._tx(write=False) as tx:
        assert tx.one("SELECT max(versione) FROM migrazioni")[0] == 2


def test_migra_moves_a_sqlite_store_into_postgres_without_losing_a_permalink(tmp_path, pg_url):
    from click.testing import CliRunner

    from judge.cli import main

    source = open_at(tmp_path / "scenari.sqlite3")
    ids = [source.save(scenario(i, pad=i * 10), "scenario") for i in range(30)]
    game = source.save({"g": 1}, "partita", history=[HistoryRow("kg", None, 0, [{"a": 1}], b"snap")],
                       engine="e", key="kg")
    source.close()
    runner = CliRunner()
    for _ in range(2):                                # a second run finds everything there
        result = runner.invoke(main, ["archivio", "migra", "--instance", str(tmp_path), "--a", pg_url])
        assert result.exit_code == 0, result.output
    assert "verificati 31 documenti" in result.output
    target = open_at(pg_url)
    for i, ident in enumerate(ids):
        assert target.load(ident) == ("scenario", scenario(i, pad=i * 10))
    assert target.game_snapshot(game, "e", 32) == ("kg", (0, b"snap"))
    assert target.totals()["documenti"] == 31
    target.close()


def test_sizes_and_durations_parse():
    assert parse_size("2GB") == 2 * 1024 ** 3 and parse_size("500 mb") == 500 * 1024 ** 2
    assert parse_size("0") == 0
    assert parse_duration("12h") == 43200 and parse_duration("30d") == 30 * DAY
    with pytest.raises(ValueError, match="non valida"):
        parse_size("molto")
