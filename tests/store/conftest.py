"""The store's suite runs on both backends: SQLite in a temporary folder, and PostgreSQL in a
fresh database of a real cluster started by the tests (tests/conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "s.sqlite3")
    return request.getfixturevalue("pg_url")


@pytest.fixture()
def open_store(store_url):
    """``open_store(**kw)`` on this test's store; every store opened is closed at the end."""
    from judge.store import open_store as _open

    opened = []

    def make(**kw):
        s = _open(store_url, **kw)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()
