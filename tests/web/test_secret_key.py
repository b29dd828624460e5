"""The instance's secret key: workers started together on one folder agree on one key."""

from __future__ import annotations

import multiprocessing
import threading

from judge.web import _secret_key


def test_workers_started_together_agree_on_one_key(tmp_path, monkeypatch):
    # Many writers released at once on an empty folder: before the fix, one's rename took the
    # temporary file from under another's, which failed to start ("non è scrivibile").
    monkeypatch.delenv("JUDGE_SECRET_KEY", raising=False)
    for round_ in range(20):
        folder = tmp_path / str(round_)
        folder.mkdir()
        barrier = threading.Barrier(12)
        keys, errors = [], []

        def start():
            barrier.wait()
            try:
                keys.append(_secret_key(folder))
            except Exception as e:  # noqa: BLE001 - the test reports any failure
                errors.append(e)

        threads = [threading.Thread(target=start) for _ in range(12)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(keys) == 12 and len(set(keys)) == 1 and len(keys[0]) == 64
        assert [p.name for p in folder.iterdir()] == ["secret_key"]  # no temporary file left
        assert _secret_key(folder) == keys[0]  # a restart reads the same key


def _key(folder, queue):
    queue.put(_secret_key(folder))


def test_processes_started_together_agree_on_one_key(tmp_path, monkeypatch):
    monkeypatch.delenv("JUDGE_SECRET_KEY", raising=False)
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_key, args=(tmp_path, queue)) for _ in range(6)]
    for p in procs:
        p.start()
    keys = [queue.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=60)
    assert all(p.exitcode == 0 for p in procs) and len(set(keys)) == 1
    assert (tmp_path / "secret_key").read_text() == keys[0]
