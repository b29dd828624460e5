"""Derived data kept on disk between runs, keyed by a hash of what it is made from.

What a start computes from the repository's files (the editions parsed, the rule trace between
them, the corpus assembled and checked, the search index and the arrays the search reads) is
done once and kept here, then reused while its inputs are unchanged. An entry's key is a SHA-256
of its inputs' contents and of the code that makes it (every source file of the packages it
names): an edited file, or an edited parser, makes a new key, and only the entries that read
that file are rebuilt.

Layout: ``<cache>/<kind>/<key>.pickle`` (a value) or ``<cache>/<kind>/<key>/`` (a folder: the
search index), each with ``<key>.lock`` beside it. One process builds an entry while holding an
exclusive ``flock`` on the lock; the others wait on it, then read what it wrote. Entries are
written under a temporary name and renamed into place, so nobody reads half an entry. Each kind
keeps its most recently used entries (``keep``) and removes the others.

The folder is ``JUDGE_CACHE_DIR``, else ``<project>/.cache/``; ``JUDGE_CACHE_DIR=0`` turns the
cache off (everything is computed in memory, the cold path a benchmark wants). A folder that
cannot be written is the same as none.

What is built is reported, with progress, to the reporter that ``set_reporter`` installs
(``judge serve`` and ``judge verifica``: standard error); otherwise nothing is printed.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from judge import ROOT

try:  # pragma: no cover - always there on Linux
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

T = TypeVar("T")
ENV = "JUDGE_CACHE_DIR"
DEFAULT_FOLDER = ROOT / ".cache"
PROTOCOL = 5


# -- where, and under which key -----------------------------------------------------------------

def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    raw = os.environ.get(ENV)
    if raw is not None and raw.strip().lower() in ("", "0", "no", "off"):
        return None
    return Path(raw) if raw else DEFAULT_FOLDER


def digest(*parts: str | bytes) -> str:
    """A key from its parts (in order; each part delimited, so ("ab", "c") differs from ("a", "bc"))."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()[:40]


_file_digests: dict[str, tuple[tuple, str]] = {}
_digest_lock = threading.Lock()


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes, read again only when its size, times or inode change."""
    st = path.stat()
    stamp = (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    key = str(path)
    got = _file_digests.get(key)
    if got is not None and got[0] == stamp:
        return got[1]
    value = hashlib.sha256(path.read_bytes()).hexdigest()
    with _digest_lock:
        _file_digests[key] = (stamp, value)
    return value


_code_digests: dict[tuple[str, ...], str] = {}


def code_digest(*packages: str) -> str:
    """A hash of the sources of ``judge.<package>`` for each package named (and of the Python and
    pickle versions): what a cached entry made by that code is valid for."""
    got = _code_digests.get(packages)
    if got is None:
        parts: list[str | bytes] = [sys.version, str(PROTOCOL)]
        base = Path(__file__).resolve().parent
        for package in packages:
            here = base / package if package else base
            files = sorted(here.glob("*.py")) if here.is_dir() else [here.with_suffix(".py")]
            for p in files:
                parts += [p.name, p.read_bytes()]
        got = _code_digests[packages] = digest(*parts)
    return got


# -- what was built: the log and the progress reports -------------------------------------------

@dataclass(frozen=True)
class Event:
    kind: str
    label: str
    action: str  # "letto" (from the cache), "costruito", "calcolato" (cache off)
    seconds: float


_events: deque[Event] = deque(maxlen=500)
_reporter: Callable[[str], None] | None = None


def set_reporter(report: Callable[[str], None] | None) -> None:
    """Where build messages go (None: nowhere)."""
    global _reporter
    _reporter = report


def report(message: str) -> None:
    if _reporter is not None:
        _reporter(f"judge: {message}")


def events() -> list[Event]:
    """What this process read from the cache or built, oldest first."""
    return list(_events)


def _seconds(s: float) -> str:
    return f"{s:.1f}".replace(".", ",") + " s"


class Progress:
    """Progress of one build step, reported at most every ``every`` seconds."""

    def __init__(self, label: str, total: int, every: float = 2.0):
        self.label, self.total, self.every = label, max(total, 1), every
        self.done = 0
        self.started = self.last = time.monotonic()

    def advance(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if _reporter is not None and now - self.last >= self.every and self.done < self.total:
            self.last = now
            report(f"{self.label}: {self.done}/{self.total} ({100 * self.done // self.total}%)")


def progress(label: str, total: int) -> Progress:
    return Progress(label, total)


# -- entries ---------------------------------------------------------------------------------------

@contextlib.contextmanager
def _locked(path: Path, exclusive: bool, label: str) -> Iterator[bool]:
    """Hold a lock on ``path``, waiting (and saying so) while another process holds it. Yields
    False when the lock file cannot be made (a cache folder that cannot be written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = open(path, "a+")
    except OSError:
        yield False
        return
    with fh:
        if fcntl is not None:
            mode = fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH
            try:
                fcntl.flock(fh.fileno(), mode | fcntl.LOCK_NB)
            except BlockingIOError:
                report(f"{label}: in costruzione in un altro processo, attendo…")
                fcntl.flock(fh.fileno(), mode)
        try:
            yield True
        finally:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


_MISSING = object()


def _load(path: Path) -> Any:
    """The value pickled at ``path``; _MISSING when there is none or it cannot be read (a
    truncated file, a class that changed: it is removed and built again)."""
    # A pickle of many small objects: the collector would walk the growing heap again and again
    # while it loads (1.5 s instead of 0.2 for the corpus).
    enabled = gc.isenabled()
    gc.disable()
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except FileNotFoundError:
        return _MISSING
    except Exception:
        with contextlib.suppress(OSError):
            path.unlink()
        return _MISSING
    finally:
        if enabled:
            gc.enable()


def _touch(path: Path) -> None:
    with contextlib.suppress(OSError):
        os.utime(path)


def _write(path: Path, value: Any) -> None:
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(value, fh, protocol=PROTOCOL)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _build(kind: str, label: str, build: Callable[[], T], action: str, quiet: bool = False) -> T:
    t0 = time.monotonic()
    if not quiet:
        report(f"{label}…")
    got = build()
    seconds = time.monotonic() - t0
    _events.append(Event(kind, label, action, seconds))
    if not quiet:
        report(f"{label}: fatto in {_seconds(seconds)}")
    return got


def _read(kind: str, label: str, path: Path, t0: float) -> Any:
    got = _load(path)
    if got is not _MISSING:
        _touch(path)
        _events.append(Event(kind, label, "letto", time.monotonic() - t0))
    return got


def value(kind: str, key: str, build: Callable[[], T], label: str, keep: int = 8, quiet: bool = False) -> T:
    """The value cached under ``kind``/``key``, built (by one process at a time) when missing.
    ``quiet``: a small part of a larger step, which reports progress for all its parts."""
    base = folder()
    if base is None:
        return _build(kind, label, build, "calcolato", quiet)
    path = base / kind / f"{key}.pickle"
    t0 = time.monotonic()
    got = _read(kind, label, path, t0)
    if got is not _MISSING:
        return got
    with _locked(path.with_suffix(".lock"), True, label) as locked:
        if not locked:
            return _build(kind, label, build, "calcolato", quiet)
        got = _read(kind, label, path, t0)  # built by another process while this one waited
        if got is _MISSING:
            got = _build(kind, label, build, "costruito", quiet)
            _write(path, got)
            _prune(path.parent, keep)
        return got


def has(kind: str, key: str) -> bool:
    """Whether the entry ``kind``/``key`` is in the cache (a value or a folder)."""
    base = folder()
    return base is not None and ((base / kind / f"{key}.pickle").exists() or (base / kind / key).is_dir())


def build_beside(module: str, *args: str) -> None:
    """Run ``python -m module args…`` in a process of its own, to build cache entries on another core
    while this process builds its own (a start from an empty cache); it takes the entry's lock, and
    whoever needs the entry waits on that lock, then reads it."""
    if folder() is None:
        return
    import subprocess

    subprocess.Popen([sys.executable, "-m", module, *args], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)


@contextlib.contextmanager
def directory(kind: str, key: str, build_into: Callable[[Path], None], label: str,
              ready: Callable[[Path], bool], keep: int = 3) -> Iterator[Path | None]:
    """A folder cached under ``kind``/``key`` (built into an empty folder by ``build_into`` when
    missing or not ``ready``), held for reading while the ``with`` block runs. None when the
    cache is off or cannot be written: the caller builds where it needs the folder."""
    base = folder()
    if base is None:
        yield None
        return
    path = base / kind / key
    lock_path = base / kind / f"{key}.lock"
    if not ready(path):
        with _locked(lock_path, True, label) as locked:
            if not locked:
                yield None
                return
            if not ready(path):
                shutil.rmtree(path, ignore_errors=True)
                tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=path.parent))
                try:
                    _build(kind, label, lambda: build_into(tmp), "costruito")
                    os.rename(tmp, path)
                except BaseException:
                    shutil.rmtree(tmp, ignore_errors=True)
                    raise
                _prune(path.parent, keep)
    else:
        _events.append(Event(kind, label, "letto", 0.0))
    # Read under a shared lock: nobody prunes or rebuilds the folder while it is being read.
    with _locked(lock_path, False, label) as locked:
        if not locked:
            yield None
            return
        _touch(path)
        yield path


def _prune(here: Path, keep: int) -> None:
    """Keep the ``keep`` most recently used entries of a kind; also drop temporaries left by a
    process that died while writing. An entry whose lock someone holds is left alone."""
    now = time.time()
    entries = []
    for p in here.iterdir():
        if p.name.startswith(".tmp-"):
            with contextlib.suppress(OSError):
                if now - p.stat().st_mtime > 3600:
                    shutil.rmtree(p) if p.is_dir() else p.unlink()
        elif p.suffix != ".lock":
            with contextlib.suppress(OSError):
                entries.append((p.stat().st_mtime, p))
    entries.sort(reverse=True)
    for _, p in entries[keep:]:
        lock_path = here / f"{p.name.removesuffix('.pickle')}.lock"
        try:
            with open(lock_path, "a+") as fh:
                if fcntl is not None:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                shutil.rmtree(p, ignore_errors=True) if p.is_dir() else p.unlink(missing_ok=True)
            lock_path.unlink(missing_ok=True)
        except (BlockingIOError, OSError):
            continue


class Memo:
    """Many small results (one per file, say) kept as one entry: read whole, and written back whole
    by ``save`` when a result had to be computed; results not asked for in a run are dropped then."""

    def __init__(self, kind: str, key: str):
        base = folder()
        self.path = base / kind / f"{key}.pickle" if base is not None else None
        got = _load(self.path) if self.path is not None else _MISSING
        self.kept: dict = got if isinstance(got, dict) else {}
        self.used: dict = {}
        self.computed = 0

    def get(self, key, compute: Callable[[], T]) -> T:
        if key in self.kept:
            got = self.used[key] = self.kept[key]
            return got
        got = self.used[key] = compute()
        self.computed += 1
        return got

    def save(self, keep: int = 4) -> None:
        if self.path is None or not self.computed:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _write(self.path, self.used)
        except OSError:
            return
        _prune(self.path.parent, keep)
