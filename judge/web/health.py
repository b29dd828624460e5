"""`/salute`: a cheap health check for load balancers and monitoring (also the benchmarks' trivial route)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from judge.corpus import load_corpus

bp = Blueprint("health", __name__)


def store_health() -> dict:
    """The scenario store's backend, writability, counts and bytes (read at most every few
    seconds: judge/store/core.py); ``raggiungibile: false`` when it cannot be opened."""
    from judge.store.documents import StoreUnavailable
    from judge.web.simulator.store import store_for

    try:
        return store_for(current_app).stats()
    except StoreUnavailable as e:
        return {"raggiungibile": False, "scrivibile": False, "errore": e.message}


@bp.get("/salute")
def salute():
    corpus = load_corpus()
    # The search area registers a status callable here (None until it exists).
    index_status = current_app.extensions.get("judge.index_status")
    ready = bool(index_status()) if index_status else None
    index_rebuilding = current_app.extensions.get("judge.index_rebuilding")
    store = store_health()
    # Reads still work on a read-only or unreachable store: "degradato", still 200, so that a
    # load balancer keeps the rules and the search online; monitoring reads "archivio".
    ok = store.get("scrivibile") and store.get("raggiungibile", True)
    return jsonify({
        "stato": "ok" if ok else "degradato",
        "indice_pronto": ready,
        "indice_in_ricostruzione": bool(index_rebuilding()) if index_rebuilding else False,
        "corpus": corpus.content_hash,
        "edizione_in_vigore": corpus.in_force.id,
        "sezioni_italiane": len(corpus.italian_sections),
        "archivio": store,
    })
