"""`/salute`: the health check for load balancers and monitoring, which tells the truth (issue 38).

It reports each part of the site: the search (a self-check: a search with a word never seen
before, so the whole analysis runs, must answer with results), the scenario store (reachable,
writable, full), the offline copy and the index. A search that cannot answer used to leave
/salute at «ok» while every search answered 500; a full store (every save 507) and a database
outage too.

Answers:

* ``"stato": "ok"`` (200): everything works;
* ``"stato": "degradato"`` (200): rules and search work, something else does not (the store is
  unreachable, read-only or full; the offline copy could not be made; the index is being
  rebuilt or is not ready). Still 200: the store is shared by every server, and a load balancer
  that took them all out for it would stop the rules too. ``?severo=1`` answers 503 here
  (for monitoring that should page someone);
* ``"stato": "guasto"`` (503): this server cannot search (its self-check failed, or has not
  answered for SEARCH_STUCK seconds): a load balancer takes it out, the others serve.

Within its own deadline whatever the parts do: each check runs in a thread of its own at most
every PROBE_SECONDS, and a request waits for them at most DEADLINE seconds (a store that does
not answer by then is reported as such); a check that hangs is never started twice.
"""

from __future__ import annotations

import random
import string
import threading
import time
from typing import Any, Callable

from flask import Blueprint, current_app, jsonify, request

from judge.corpus import load_corpus
from judge.search import meaning

bp = Blueprint("health", __name__)

PROBE_SECONDS = 0.5      # a part is checked again at most this often (per process)
DEADLINE = 0.4           # a request waits at most this long for the checks
SEARCH_STUCK = 3.0       # a search check that has not answered after this long: «guasto»
OFFLINE_STUCK = 300.0    # an offline copy still missing this long after its build started


class Probe:
    """Runs ``check()`` in a thread of its own, at most every PROBE_SECONDS; never two at once."""

    def __init__(self, check: Callable[[], dict]):
        self.check = check
        self.lock = threading.Lock()
        self.result: dict | None = None
        self.at = float("-inf")                 # when the last result came
        self.started: float | None = None       # when the running check started (None: idle)
        self.done = threading.Event()

    def kick(self) -> "Probe":
        """Start a check if the last one is older than PROBE_SECONDS and none is running."""
        with self.lock:
            if self.started is None and time.monotonic() - self.at >= PROBE_SECONDS:
                self.started = time.monotonic()
                self.done = threading.Event()
                threading.Thread(target=self._run, name="judge-salute", daemon=True).start()
        return self

    def latest(self, wait: float) -> tuple[dict | None, float | None]:
        """The freshest result within ``wait`` seconds (None if there is none yet) and, if a
        check is still running, since when."""
        self.kick()
        with self.lock:
            done = self.done if self.started is not None else None
        if done is not None:
            done.wait(wait)
        with self.lock:
            return self.result, self.started

    def _run(self) -> None:
        try:
            result = self.check()
        except Exception as e:  # a check that fails is a result: it says what failed
            result = {"ok": False, "errore": f"{type(e).__name__}: {e}"[:300]}
        with self.lock:
            self.result, self.at, self.started = result, time.monotonic(), None
            self.done.set()


def _probe(name: str, make: Callable[[], Callable[[], dict]]) -> Probe:
    """The app's probe called ``name`` (``make()`` gives its check, the first time)."""
    probes = current_app.extensions.setdefault("judge.salute", {})
    with _probes_lock:
        if name not in probes:
            probes[name] = Probe(make())
        return probes[name]


_probes_lock = threading.Lock()


def _nonce() -> str:
    return "salute" + "".join(random.choices(string.ascii_lowercase, k=8))


def _search_check() -> Callable[[], dict]:
    instance = current_app.instance_path

    def check() -> dict:
        from judge.search.engines import run_search

        started = time.perf_counter()
        # A word never seen: the analysis runs for it (stemming, spelling), as for a visitor's.
        result = run_search(instance, f"pila {_nonce()}")
        ms = round((time.perf_counter() - started) * 1000, 1)
        if not result.total:
            return {"ok": False, "ms": ms, "errore": "la ricerca di prova non ha trovato nulla"}
        return {"ok": True, "ms": ms}

    return check


def _store_check() -> Callable[[], dict]:
    app = current_app._get_current_object()

    def check() -> dict:
        from judge.store.documents import StoreUnavailable
        from judge.web.simulator.store import store_for

        try:
            return store_for(app).stats()
        except StoreUnavailable as e:
            return {"raggiungibile": False, "scrivibile": False, "pieno": False, "errore": e.message}

    return check


def search_health(wait: float) -> dict:
    """``{"risponde": True|False|None, "ms", "errore"}``: None while the first check runs."""
    ready = current_app.extensions.get("judge.index_status")
    if ready is None:                       # no search on this app
        return {"risponde": None}
    if not ready():
        return {"risponde": None, "errore": "indice non ancora pronto"}
    result, running_since = _probe("ricerca", _search_check).latest(wait)
    if running_since is not None and time.monotonic() - running_since > SEARCH_STUCK:
        return {"risponde": False, "errore": f"la ricerca di prova non risponde da più di "
                                             f"{SEARCH_STUCK:g} s".replace(".", ",")}
    if result is None:
        return {"risponde": None}
    out = {"risponde": bool(result.get("ok")), "ms": result.get("ms")}
    if result.get("errore"):
        out["errore"] = result["errore"]
    return out


def store_health(wait: float = DEADLINE) -> dict:
    """The scenario store's backend, reachability, writability, fullness, counts and bytes
    (judge/store/core.py); ``raggiungibile: false`` when it cannot be opened or has not answered
    within ``wait`` seconds."""
    result, running_since = _probe("archivio", _store_check).latest(wait)
    if running_since is not None and (result is None or time.monotonic() - running_since >= wait):
        seconds = f"{wait:g}".replace(".", ",")
        return {**(result or {}), "raggiungibile": False, "scrivibile": False,
                "errore": f"L'archivio degli scenari non ha risposto entro {seconds} s."}
    return dict(result or {})


def offline_health() -> dict:
    from judge.web import offline

    if "offline.data" not in current_app.view_functions:
        return {"pronta": None}
    corpus = load_corpus()
    if offline.ready(corpus):
        return {"pronta": True}
    started = offline.build_started(current_app.instance_path, corpus)
    if started is None:
        return {"pronta": False, "in_preparazione": False}
    if time.monotonic() - started < OFFLINE_STUCK:
        return {"pronta": False, "in_preparazione": True}
    return {"pronta": False, "in_preparazione": False,
            "errore": "la copia offline non è stata preparata: controlla che la cartella dell'istanza "
                      "sia scrivibile"}


@bp.get("/salute")
def salute():
    corpus = load_corpus()
    deadline = time.monotonic() + DEADLINE
    # The search area registers its status callables here (None until it exists).
    index_status = current_app.extensions.get("judge.index_status")
    index_rebuilding = current_app.extensions.get("judge.index_rebuilding")
    ready = bool(index_status()) if index_status else None
    _probe("archivio", _store_check).kick()          # both checks run at once
    if ready:
        _probe("ricerca", _search_check).kick()
    store = store_health(max(0.0, deadline - time.monotonic()))
    search = search_health(max(0.0, deadline - time.monotonic()))
    copy = offline_health()
    # read last: the search check may have just found the index damaged and started a rebuild
    rebuilding = bool(index_rebuilding()) if index_rebuilding else False

    problems: list[str] = []
    if search["risponde"] is False:
        problems.append(f"ricerca: {search.get('errore', 'non risponde')}")
    if ready is False:
        problems.append("indice: non ancora pronto")
    if rebuilding:
        problems.append("indice: in ricostruzione (la ricerca risponde dalla copia in memoria)")
    if not store.get("raggiungibile", True) or not store.get("scrivibile", True) or store.get("pieno"):
        problems.append(f"archivio: {store.get('errore') or 'non disponibile'}")
    if copy.get("errore"):
        problems.append(f"copia offline: {copy['errore']}")
    reading = meaning.status()
    search["significato"] = reading.as_json()
    if reading.broken:
        problems.append(f"ricerca per significato: {reading.reason}")

    state = "guasto" if search["risponde"] is False else "degradato" if problems else "ok"
    body: dict[str, Any] = {
        "stato": state,
        "indice_pronto": ready,
        "indice_in_ricostruzione": rebuilding,
        "corpus": corpus.content_hash,
        "edizione_in_vigore": corpus.in_force.id,
        "sezioni_italiane": len(corpus.italian_sections),
        "archivio": store,
        "ricerca": search,
        "copia_offline": copy,
        "problemi": problems,
    }
    strict = request.args.get("severo") in ("1", "si", "sì", "true")
    status = 503 if state == "guasto" or (strict and state != "ok") else 200
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response
