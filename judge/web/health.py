"""`/salute`: a cheap health check for load balancers and monitoring (also the benchmarks' trivial route)."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from judge.corpus import load_corpus

bp = Blueprint("health", __name__)


@bp.get("/salute")
def salute():
    corpus = load_corpus()
    # The search area registers a status callable here (None until it exists).
    index_status = current_app.extensions.get("judge.index_status")
    ready = bool(index_status()) if index_status else None
    return jsonify({
        "stato": "ok",
        "indice_pronto": ready,
        "corpus": corpus.content_hash,
        "edizione_in_vigore": corpus.in_force.id,
        "sezioni_italiane": len(corpus.italian_sections),
    })
