"""Search pages: /cerca (HTML) and /api/cerca (JSON). Any input gives a normal answer, never a 500."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, redirect, render_template, request

from judge.corpus import load_corpus
from judge.search.engines import IndexRebuilding, index_ready, keep_in_memory, rebuilding, run_search
from judge.search.query import LANGS, MAX_LIMIT, MAX_QUERY_CHARS, SearchResult
from judge.web.cache import cached
from judge.web.cards import carte_nominate, suggestion_payload
from judge.web.tournament import document_filter, reference_url, tournament_hits, tournament_payload

bp = Blueprint("search", __name__)

PER_PAGE = 10


def _setup(state) -> None:
    app = state.app
    instance = app.instance_path
    app.extensions["judge.index_status"] = lambda: index_ready(instance)
    app.extensions["judge.index_rebuilding"] = lambda: rebuilding(instance)
    app.extensions["judge.warm_up"] = lambda: keep_in_memory(instance)


bp.record_once(_setup)


@bp.errorhandler(IndexRebuilding)
def _rebuilding(e: IndexRebuilding):
    from flask import make_response

    from judge.web.errors import error_response

    response = make_response(error_response(
        503, "L'indice di ricerca è in ricostruzione: riprova tra qualche secondo. Le pagine delle "
             "regole restano consultabili."))
    response.headers["Retry-After"] = "5"
    return response


def _int_arg(name: str, default: int, lo: int, hi: int) -> int:
    raw = request.args.get(name, "")
    try:
        value = int(raw.strip()[:6]) if raw.strip() else default
    except ValueError:
        value = default
    return max(lo, min(value, hi))


def _params() -> dict:
    lang = (request.args.get("lingua") or "tutte").strip().lower()
    chapter = (request.args.get("capitolo") or "").strip()[:2] or None
    section = (request.args.get("sezione") or "").strip()[:4] or None
    return {
        "lang": lang if lang in LANGS else "tutte",
        "chapter": chapter,
        "section": section,
    }


def active_filters(params: dict) -> list[str]:
    """The filters in use, in words ("solo italiano", "capitolo 7"): the folded filter box says them."""
    out = []
    if params["lang"] != "tutte":
        out.append("solo italiano" if params["lang"] == "it" else "solo inglese")
    if params["chapter"]:
        out.append(f"capitolo {params['chapter']}")
    if params["section"]:
        out.append(f"sezione {params['section']}")
    return out


def _run(q: str, page: int, per_page: int, params: dict) -> SearchResult:
    return run_search(current_app.instance_path, q, page=page, per_page=per_page, **params)


@bp.get("/cerca")
@cached
def cerca():
    q = request.args.get("q", "")
    # «MTR 2.5», «ipg 3.2», «JAR»: straight to the tournament document's section.
    if (target := reference_url(q)) and request.args.get("diretto", "1") != "0":
        return redirect(target, code=302)
    params = _params()
    page = _int_arg("pagina", 1, 1, 1000)
    document = document_filter(request.args.get("documento"))
    rules_wanted = document in ("tutti", "regole")
    result = _run(q, page, PER_PAGE, params) if q.strip() and rules_wanted else SearchResult(query=q.strip()[:MAX_QUERY_CHARS])
    tournament = tournament_hits(q, document, page)
    if result.rule and request.args.get("diretto", "1") != "0":
        return redirect(f"/regole/{result.rule}", code=302)
    chapters = [(c.number, c.best.text if c.best else "") for c in load_corpus().chapters()]
    return render_template(
        "cerca.html",
        q=result.query if q.strip() else "",
        result=result,
        params=params,
        attivi=active_filters(params),
        chapters=chapters,
        max_chars=MAX_QUERY_CHARS,
        documento=document,
        tornei=tournament,
    )


@bp.get("/api/cerca")
@cached
def api_cerca():
    q = request.args.get("q", "")
    params = _params()
    limit = _int_arg("limite", PER_PAGE, 1, MAX_LIMIT)
    page = _int_arg("pagina", 1, 1, 1000)
    document = document_filter(request.args.get("documento"))
    result = _run(q, page, limit, params) if document in ("tutti", "regole") else SearchResult(query=q)
    # The cards the query names, as the page shows them above the rules; the tournament documents' sections.
    return jsonify({**result.as_json(), "cards": [suggestion_payload(m) for m in carte_nominate(q)],
                    "documento": document, "tornei": [tournament_payload(h) for h in tournament_hits(q, document, page)]})
