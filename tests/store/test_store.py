"""The saved-scenario store, on both backends: content addressing, limits, concurrent writers,
killed writers."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge import ROOT
from judge.store import (MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH, CorruptDocument, StoreError,
                         canonical, canonical_edited, json_depth, valid_id)
from judge.store import open_store as open_at


def doc(n: int, size: int = 0) -> dict:
    return {"format": "judge-scenario", "version": 1, "title": f"Scenario {n}",
            "players": [{"id": "p1", "name": "Alice"}], "pad": "x" * size}


def test_same_content_same_id_and_round_trip(open_store):
    store = open_store()
    a = store.save(doc(1), "scenario")
    b = store.save({**doc(1)}, "scenario")          # same content, other dict order
    c = store.save(doc(2), "scenario")
    assert a == b != c
    assert valid_id(a)
    assert store.load(a) == ("scenario", doc(1))
    assert store.count() == 2
    assert store.load("zzzzzzzzzzzzzzzzzzzz") is None
    assert store.load("../../etc/passwd") is None


def test_sqlite_is_in_wal_mode(tmp_path):
    path = tmp_path / "s.sqlite3"
    open_at(path).save(doc(1), "scenario")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_limits_have_italian_messages(open_store):
    store = open_store()
    with pytest.raises(StoreError, match="Scenario troppo grande"):
        store.save(doc(1, MAX_DOCUMENT_BYTES), "scenario")
    deep: list = []
    cur = deep
    for _ in range(MAX_JSON_DEPTH + 5):
        cur.append([])
        cur = cur[0]
    assert json_depth(deep) > MAX_JSON_DEPTH
    with pytest.raises(StoreError, match="JSON troppo annidato"):
        store.save({"x": deep}, "scenario")
    assert store.count() == 0


def test_a_damaged_row_is_reported_not_served(open_store):
    store = open_store()
    ident = store.save(doc(1), "scenario")
    with store._tx(write=True) as tx:
        tx.run("UPDATE documenti SET dati = ? WHERE id = ?", (zlib.compress(b'{"title":"altro"}'), ident))
    with pytest.raises(CorruptDocument):
        store.load(ident)


def test_concurrent_threads_lose_nothing(open_store):
    store = open_store()
    acked: list[tuple[int, str]] = []
    lock = threading.Lock()

    def writer(k: int) -> None:
        for i in range(25):
            n = k * 1000 + i % 20          # some duplicates across iterations: same id, one row
            ident = store.save(doc(n, 200), "scenario")
            with lock:
                acked.append((n, ident))

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(acked) == 200
    for n, ident in acked:
        assert store.load(ident) == ("scenario", doc(n, 200))
    assert store.count() == len({n for n, _ in acked}) == 160
    assert store.integrity_check() == "ok"


WRITER = r"""
import sys
sys.path.insert(0, {root!r})
from judge.store import open_store
store = open_store({path!r})
start, count, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
for n in range(start, start + count):
    doc = {{"format": "judge-scenario", "version": 1, "title": f"Scenario {{n}}",
            "players": [{{"id": "p1", "name": "Alice"}}], "pad": "x" * size,
            "noise": [n * 7919 % 104729 + j for j in range(size // 8)]}}
    ident = store.save(doc, "scenario")
    print(n, ident, flush=True)
"""


def expected(n: int, size: int) -> dict:
    return {"format": "judge-scenario", "version": 1, "title": f"Scenario {n}",
            "players": [{"id": "p1", "name": "Alice"}], "pad": "x" * size,
            "noise": [n * 7919 % 104729 + j for j in range(size // 8)]}


def _writer_script(tmp_path: Path, db: str) -> Path:
    script = tmp_path / "writer.py"
    script.write_text(WRITER.format(root=str(ROOT), path=str(db)))
    return script


def test_concurrent_processes_lose_nothing(tmp_path, store_url, open_store):
    open_store()
    script = _writer_script(tmp_path, store_url)
    procs = [subprocess.Popen([sys.executable, str(script), str(k * 100), "30", "300"],
                              stdout=subprocess.PIPE, text=True) for k in range(4)]
    acked = []
    for p in procs:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0
        acked += [(int(a), b) for a, b in (line.split() for line in out.splitlines())]
    assert len(acked) == 120
    store = open_store()
    for n, ident in acked:
        assert store.load(ident) == ("scenario", expected(n, 300))
    assert store.count() == 120
    assert store.integrity_check() == "ok"


@pytest.mark.parametrize("kill_after, extra_delay", [(3, 0.0), (11, 0.003), (25, 0.011)])
def test_writer_killed_mid_write_keeps_every_acknowledged_save(tmp_path, store_url, open_store,
                                                              kill_after, extra_delay):
    """SIGKILL a process that is saving big documents in a loop; every save it reported
    as done must be readable and the store must pass its integrity check."""
    open_store()
    script = _writer_script(tmp_path, store_url)
    size = 40_000
    p = subprocess.Popen([sys.executable, str(script), "0", "100000", str(size)],
                         stdout=subprocess.PIPE, text=True)
    acked = []
    try:
        while len(acked) < kill_after:
            line = p.stdout.readline()
            assert line, "the writer stopped early"
            n, ident = line.split()
            acked.append((int(n), ident))
        time.sleep(extra_delay)               # somewhere inside the next save
        os.kill(p.pid, signal.SIGKILL)
        rest, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    # Lines flushed between our last read and the kill were acknowledged too.
    acked += [(int(a), b) for a, b in (line.split() for line in rest.splitlines() if line.strip())]
    assert p.returncode == -signal.SIGKILL
    store = open_store()
    assert store.integrity_check() == "ok"
    for n, ident in acked:
        assert store.load(ident) == ("scenario", expected(n, size))
    assert store.count() >= len(acked)
    # The store still takes saves after the crash.
    ident = store.save(doc(999), "scenario")
    assert store.load(ident) == ("scenario", doc(999))


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                     lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=6), kids, max_size=3),
                     max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(scenario=st.dictionaries(st.text(max_size=6), _json, max_size=4),
       actions=st.lists(st.dictionaries(st.text(max_size=6), _json, max_size=3), max_size=4),
       redo=st.lists(st.dictionaries(st.text(max_size=6), _json, max_size=2), max_size=2),
       action=st.dictionaries(st.text(max_size=6), _json, max_size=3),
       new_redo=st.lists(st.dictionaries(st.text(max_size=4), _json, max_size=2), max_size=2))
def test_a_game_one_action_apart_is_encoded_without_its_actions(scenario, actions, redo, action, new_redo):
    """The saved JSON of a document with one action more (a step, redo) or less (undo),
    made by splicing, is exactly its canonical JSON (so ids and permalinks do not change),
    whatever the content."""
    doc = {"format": "judge-partita", "version": 1, "scenario": scenario, "actions": actions, "redo": redo}
    old = canonical(doc)
    more = {**doc, "actions": [*actions, action], "redo": new_redo}
    assert canonical_edited(old, doc, new_redo, append=action) == canonical(more)
    if actions:
        less = {**doc, "actions": actions[:-1], "redo": new_redo}
        assert canonical_edited(old, doc, new_redo, drop_last=True) == canonical(less)
    else:
        assert canonical_edited(old, doc, new_redo, drop_last=True) is None
    assert canonical_edited(old, {**doc, "x": 1}, new_redo, append=action) is None
    assert canonical_edited(b"{}", doc, new_redo, append=action) is None
