"""Errors in Italian: an HTML page for people, JSON for /api/ — never a traceback."""

from __future__ import annotations

from flask import Flask, jsonify, make_response, render_template, request
from flask.globals import request_ctx
from werkzeug.exceptions import BadHost, HTTPException, InternalServerError

MESSAGES = {
    400: "Richiesta non valida.",
    404: "Pagina non trovata.",
    405: "Metodo non consentito per questo indirizzo.",
    413: "Richiesta troppo grande: il limite è di 2 MB.",
    414: "Indirizzo troppo lungo.",
    416: "Intervallo di byte richiesto non disponibile per questo file.",
    429: "Troppe richieste: riprova tra poco.",
    431: "Intestazioni della richiesta troppo grandi.",
    500: "Errore interno del server. L'errore è stato registrato.",
    501: "Richiesta non supportata dal server (per esempio una codifica del corpo sconosciuta).",
    503: "Servizio momentaneamente non disponibile: riprova tra poco.",
    507: "Spazio di archiviazione esaurito.",
}


def wants_json() -> bool:
    return request.path.startswith("/api/")


def error_response(status: int, message: str | None = None, **extra):
    message = message or MESSAGES.get(status, "Errore.")
    if wants_json():
        return jsonify({"error": {"status": status, "message": message, **extra}}), status
    if request_ctx.url_adapter is None:
        # The request could not even be routed (an invalid Host): the site's pages build links,
        # so answer with the page that needs none.
        return plain_page(status, message), status, {"Content-Type": "text/html; charset=utf-8"}
    try:
        return render_template("errore.html", status=status, message=message, **extra), status
    except Exception:  # the error page itself failed: answer with a page that cannot fail
        from flask import current_app

        current_app.logger.exception("pagina di errore non disponibile")
        return plain_page(status, message), status, {"Content-Type": "text/html; charset=utf-8"}


def plain_page(status: int, message: str | None = None) -> str:
    """A self-contained Italian error page, for when templates cannot be used (or the server
    answers without the app: serve_cli)."""
    from markupsafe import escape

    message = message or MESSAGES.get(status) or (MESSAGES[500] if status >= 500 else MESSAGES[400])
    return (f'<!doctype html><html lang="it"><meta charset="utf-8"><title>Errore {status}</title>'
            f"<h1>Errore {status}</h1><p>{escape(message)}</p><p><a href=\"/\">Torna all'indice</a></p></html>")


BAD_HOST = ("Intestazione Host non valida: deve essere un nome di dominio (etichette di al più 63 "
            "caratteri, 253 in tutto) o un indirizzo IP.")


def _http_error(exc: HTTPException):
    status = exc.code or 500
    description = exc.description if exc.description and not exc.description.startswith(("The ", "A ", "You ", "This ")) else None
    if isinstance(exc, BadHost):
        description = BAD_HOST
    response = make_response(error_response(status, description or MESSAGES.get(status)))
    # Keep the headers the status needs (Allow on 405, Retry-After on 429/503).
    for name, value in exc.get_headers():
        if name.lower() in ("allow", "retry-after"):
            response.headers[name] = value
    return response


def _unexpected(exc: Exception):
    if isinstance(exc, HTTPException):
        return _http_error(exc)
    from flask import current_app

    current_app.logger.exception("errore non gestito", exc_info=exc)
    return error_response(500)


def _store_unavailable(exc):
    """A read-only, unreachable or full scenario store: 503/507 with what still works."""
    from flask import current_app

    current_app.logger.warning("archivio degli scenari: %s", exc.message)
    response = make_response(error_response(exc.status, exc.message))
    if exc.status == 503:
        response.headers["Retry-After"] = "30"
    return response


def init_app(app: Flask) -> None:
    from judge.store.documents import StoreUnavailable

    app.register_error_handler(StoreUnavailable, _store_unavailable)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(InternalServerError, _unexpected)
    app.register_error_handler(Exception, _unexpected)
