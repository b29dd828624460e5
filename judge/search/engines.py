"""Open search engines, one per instance folder: opened on first use, rebuilt when the index on disk
is deleted or damaged under a running server, never half-read."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from judge.corpus import Corpus, load_corpus
from judge.search.index import ensure_index, fingerprint, index_name, index_root, is_ready
from judge.search.query import Engine
from judge.search.results import SearchResult

__all__ = ["get_engine", "index_ready", "keep_in_memory", "run_search", "search"]

_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()
# How often an open engine looks at its files on disk (deleted, replaced or damaged since it opened them).
DISK_CHECK_SECONDS = 2.0


_keys: dict[str, str] = {}
# Instance folders whose engines read the whole index into memory as they open (servers): then
# and after every rebuild, so no request after a rebuild waits on Whoosh either.
_in_memory: set[str] = set()


def _key(instance: str | os.PathLike) -> str:
    """The engines' key for an instance folder: its resolved path (resolved once, not per request)."""
    raw = os.fspath(instance)
    key = _keys.get(raw)
    if key is None:
        key = _keys[raw] = str(Path(raw).resolve())
    return key


def _open_engine(instance: str | os.PathLike, corpus: Corpus, broken: tuple | None = None) -> Engine:
    """Open the index for ``corpus``, rebuilding it when it is missing or cannot be read."""
    path = ensure_index(instance, corpus, broken)
    try:
        engine = Engine(path, corpus)
    except Exception:
        # Complete on the surface (table of contents present) but damaged inside: rebuild once.
        engine = Engine(ensure_index(instance, corpus, fingerprint(path)), corpus)
    if _key(instance) in _in_memory:
        engine.scorer.preload()
    engine.disk = fingerprint(engine.path)
    engine.checked = time.monotonic()
    return engine


def keep_in_memory(instance: str | os.PathLike) -> Engine:
    """Open the instance's engine with the whole index in memory, now and whenever it is reopened
    (a server's start-up: about two seconds, so no search waits on the index files)."""
    _in_memory.add(_key(instance))
    engine = get_engine(instance)
    engine.scorer.preload()  # opened before this call: preloaded here (a no-op when already done)
    return engine


def get_engine(instance: str | os.PathLike, corpus: Corpus | None = None, verify: bool = False) -> Engine:
    """The engine for an instance folder and the current corpus; builds or rebuilds the index on demand.

    Every few seconds (or with ``verify``) the open index's files are compared with what was
    opened: an index deleted or damaged on disk is rebuilt and reopened, never half-read."""
    corpus = corpus or load_corpus()
    key = _key(instance)
    engine = _engines.get(key)
    now = time.monotonic()
    if engine is not None and engine.corpus is corpus and not verify and now - engine.checked < DISK_CHECK_SECONDS:
        return engine
    with _engines_lock:
        engine = _engines.get(key)
        if engine is not None and engine.corpus is corpus:
            if fingerprint(engine.path) == engine.disk and (not verify or is_ready(engine.path)):
                engine.checked = now
                return engine
            engine = _open_engine(instance, corpus, broken=engine.disk)
        else:
            engine = _open_engine(instance, corpus)
        _engines[key] = engine
        return engine


def run_search(instance: str | os.PathLike, query: str | None, **kwargs) -> SearchResult:
    """Search, surviving an index damaged under a running server: on a failure the index is
    checked, rebuilt if its files changed, and the search is tried once more."""
    engine = get_engine(instance)
    try:
        return engine.search(query, **kwargs)
    except Exception:
        fresh = get_engine(instance, verify=True)
        if fresh is engine:
            raise  # the index is intact: a real bug, reported as such
        return fresh.search(query, **kwargs)


def index_ready(instance: str | os.PathLike) -> bool:
    """Is the index for the current corpus built (without building it)? Cheap: health checks call it."""
    corpus = load_corpus()
    engine = _engines.get(_key(instance))
    if engine is not None and engine.corpus is corpus:
        return True
    return is_ready(index_root(instance) / index_name(corpus))


def search(instance: str | os.PathLike, query: str | None, **kwargs) -> SearchResult:
    return run_search(instance, query, **kwargs)


