"""Open search engines, one per instance folder: opened on first use, rebuilt when the index on disk
is deleted or damaged under a running server, never half-read.

A server holds its whole index in memory (``keep_in_memory``): when the files under it are
deleted or damaged, it keeps answering from memory while a separate process rebuilds them
(judge/search/rebuild.py), then swaps the new engine in.  Without the index in memory (the
command line, tests) the rebuild happens on the spot, as the search cannot go on without it."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.corpus import Corpus, load_corpus
from judge.search import meaning
from judge.search.index import ensure_index, fingerprint, index_name, index_root, is_ready
from judge.search.query import Engine
from judge.search.results import SearchResult

__all__ = ["IndexRebuilding", "get_engine", "index_ready", "keep_in_memory", "rebuilding", "run_search",
           "search"]

log = logging.getLogger(__name__)


class IndexRebuilding(RuntimeError):
    """The index cannot answer now: it is being rebuilt (the web answers 503 with Retry-After)."""

_engines: dict[str, Engine] = {}
_engines_lock = threading.Lock()
# How often an open engine looks at its files on disk (deleted, replaced or damaged since it opened them).
DISK_CHECK_SECONDS = 2.0


_keys: dict[str, str] = {}
# Instance folders whose index is being rebuilt in the background, and the threads doing it.
_rebuilds: dict[str, threading.Thread] = {}
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
    (a server's start-up: about two seconds, so no search waits on the index files), and the model of a
    question's meaning loaded beside it (judge/search/meaning.py)."""
    _in_memory.add(_key(instance))
    engine = get_engine(instance)
    engine.scorer.preload()  # opened before this call: preloaded here (a no-op when already done)
    threading.Thread(target=meaning.warm_up, name="judge-significato", daemon=True).start()
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
            if key in _in_memory:
                # Damaged on disk, whole in memory: keep answering, rebuild beside the server.
                _rebuild_in_background(instance, key, corpus, engine.disk)
                engine.checked = now
                return engine
            engine = _open_engine(instance, corpus, broken=engine.disk)
        else:
            engine = _open_engine(instance, corpus)
        _engines[key] = engine
        return engine


def _rebuild_in_background(instance, key: str, corpus: Corpus, broken: tuple) -> None:
    """Start (once) a process that rebuilds the index, and swap the new engine in when it is done."""
    running = _rebuilds.get(key)
    if running is not None and running.is_alive():
        return

    def work():
        try:
            out = subprocess.run([sys.executable, "-m", "judge.search.rebuild", os.fspath(instance),
                                  json.dumps(broken)], capture_output=True, text=True, timeout=900)
            if out.returncode:
                log.error("ricostruzione dell'indice non riuscita: %s", out.stderr[-2000:])
                return
            fresh = _open_engine(instance, corpus)
            with _engines_lock:
                _engines[key] = fresh
            log.warning("indice di ricerca ricostruito: %s", fresh.path)
        except Exception:
            log.exception("ricostruzione dell'indice non riuscita")
        finally:
            _rebuilds.pop(key, None)

    thread = _rebuilds[key] = threading.Thread(target=work, name="judge-index-rebuild", daemon=True)
    thread.start()


def rebuilding(instance: str | os.PathLike) -> bool:
    """Is the instance's index being rebuilt in the background?"""
    running = _rebuilds.get(_key(instance))
    return running is not None and running.is_alive()


def run_search(instance: str | os.PathLike, query: str | None, **kwargs) -> SearchResult:
    """Search, surviving an index damaged under a running server: on a failure the index is
    checked, rebuilt if its files changed, and the search is tried once more.  IndexRebuilding
    when it cannot answer until a background rebuild is done."""
    engine = get_engine(instance)
    try:
        return engine.search(query, **kwargs)
    except Exception:
        fresh = get_engine(instance, verify=True)
        if fresh is engine:
            if rebuilding(instance):
                raise IndexRebuilding() from None
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


