"""The scenario store: saved scenarios and games under content-addressed ids, and the cache
of their histories, behind one interface (judge/store/core.py) with two backends:

* SQLite, embedded, the default: a file in the instance folder, nothing to install;
* PostgreSQL, when ``JUDGE_DATABASE_URL=postgresql://…``: one store for many servers.

``open_store`` picks the backend from a URL or a path.
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.store.core import Store
from judge.store.documents import (KINDS, MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH, CorruptDocument,
                                   HistoryRow, StoreError, StoreFull, StoreReadOnly,
                                   StoreUnavailable, canonical, canonical_edited, check_document,
                                   check_size, document_id, json_depth, lone_surrogate,
                                   surrogate_message, valid_id)
from judge.store.pruning import Policy

DB_NAME = "scenari.sqlite3"

__all__ = [
    "DB_NAME", "KINDS", "MAX_DOCUMENT_BYTES", "MAX_JSON_DEPTH", "CorruptDocument", "HistoryRow",
    "Policy", "Store", "StoreError", "StoreFull", "StoreReadOnly", "StoreUnavailable", "canonical",
    "canonical_edited", "check_document", "check_size", "database_url", "document_id", "json_depth",
    "lone_surrogate", "open_store", "surrogate_message", "valid_id",
]


def is_postgres(url: str | os.PathLike | None) -> bool:
    return isinstance(url, str) and url.startswith(("postgresql://", "postgres://"))


def database_url(env=os.environ) -> str | None:
    """``JUDGE_DATABASE_URL`` when set (a postgresql:// URL or a SQLite file path)."""
    return (env.get("JUDGE_DATABASE_URL") or "").strip() or None


def open_store(where: str | os.PathLike, policy: Policy | None = None, pool_size: int = 10,
               wait: bool = True, **kw) -> Store:
    """A store at ``where``: a ``postgresql://`` URL, or a SQLite file path (``sqlite:///…`` too).
    ``wait=False``: a database that does not answer yet is no error (the server starts without
    it, judge/store/postgres.py)."""
    if is_postgres(where):
        from judge.store.postgres import PostgresStore

        return PostgresStore(str(where), policy=policy, pool_size=pool_size, wait=wait, **kw)
    from judge.store.sqlite import SQLiteStore

    path = str(where)
    if path.startswith("sqlite:///"):
        path = path[len("sqlite://"):]
    return SQLiteStore(Path(path), policy=policy, **kw)
