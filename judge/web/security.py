"""Security headers on every response and CSRF protection for state-changing forms."""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, request, session
from werkzeug.exceptions import BadRequest

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def csrf_token() -> str:
    token = session.get("_csrf")
    if not token:
        token = session["_csrf"] = secrets.token_urlsafe(32)
    return token


class CsrfError(BadRequest):
    """A form posted without its token (a page left open until the session expired, often on a
    phone). A blueprint whose form holds typed text handles it by showing the form again with
    the text and a new token; elsewhere it is the plain 400 page."""

    description = "Modulo scaduto o non valido (token CSRF mancante): ricarica la pagina e riprova."


# What a form that kept the user's text says instead.
CSRF_KEPT = "Il modulo era scaduto (token CSRF): quello che avevi scritto è ancora qui, invia di nuovo."


def _check_csrf() -> None:
    # JSON APIs are not forms: browsers cannot send cross-site JSON without CORS, which we never allow.
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") or request.path.startswith("/api/"):
        return
    if request.routing_exception is not None:
        return  # unknown address or method: let routing answer 404/405
    sent = request.form.get("csrf_token", "") or request.headers.get("X-CSRF-Token", "")
    expected = session.get("_csrf", "")
    if not expected or not hmac.compare_digest(str(sent), str(expected)):
        raise CsrfError()


# On every response: the app's (below) and the ones the server itself makes (serve_cli).
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def _headers(response):
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.before_request(_check_csrf)
    app.after_request(_headers)
    app.jinja_env.globals["csrf_token"] = csrf_token
