"""The app's scenario store (judge/store/): SQLite in the instance folder, or PostgreSQL when
``JUDGE_DATABASE_URL`` (config ``SCENARIO_DATABASE_URL``) is set.  The names the simulator
uses are re-exported here."""

from __future__ import annotations

import os
from pathlib import Path

from judge.store import (DB_NAME, MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH, CorruptDocument,  # noqa: F401
                         HistoryRow, Policy, StoreError, StoreFull, StoreReadOnly,
                         StoreUnavailable, canonical, canonical_edited, check_document,
                         check_size, database_url, document_id, json_depth, lone_surrogate,
                         open_store, surrogate_message, valid_id)
from judge.store.core import Store as ScenarioStore  # noqa: F401
from judge.store.sqlite import SQLiteStore  # noqa: F401
from judge.web.limits import store_grew


def store_for(app) -> ScenarioStore:
    """The app's store (opened on first use, kept in ``app.extensions``)."""
    store = app.extensions.get("judge_scenari")
    if store is None:
        where = (app.config.get("SCENARIO_DATABASE_URL") or app.config.get("SCENARIO_DB")
                 or database_url() or Path(app.instance_path) / DB_NAME)
        policy = app.config.get("SCENARIO_POLICY") or Policy.from_env()
        threads = int(os.environ.get("JUDGE_THREADS", "8") or 8)
        store = open_store(where, policy=policy, pool_size=threads + 2, wait=False)
        store.on_growth = store_grew          # the per-client byte budget (judge/web/limits.py)
        app.extensions["judge_scenari"] = store
    return store
