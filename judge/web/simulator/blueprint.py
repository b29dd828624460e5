"""The simulator's blueprint ("scenario"), what it adds to every page (the endpoint helpers of
base.html, the rule page's «Prova nel simulatore» block) and its error, :class:`BadRequest`: an
Italian page, or JSON under /api/, with the fields at fault."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, request, url_for

from judge.web.errors import error_response
from judge.web.simulator import library

bp = Blueprint("scenario", __name__)


@bp.app_context_processor
def _endpoint_helpers():
    """``has_endpoint``/``endpoint_url`` for base.html even when the rules blueprint
    (which normally provides them) is not registered."""
    def has_endpoint(name: str) -> bool:
        return name in current_app.view_functions

    def endpoint_url(name: str, fallback: str, **values) -> str:
        return url_for(name, **values) if name in current_app.view_functions else fallback

    return {"has_endpoint": has_endpoint, "endpoint_url": endpoint_url}


@bp.app_template_global("scenari_per_regola")
def scenari_per_regola(number: str, limit: int = 8) -> list[tuple[str, str]]:
    """For the rule page's "Prova nel simulatore" block: ``[(slug, title)]``."""
    try:
        return library.scenarios_for_rule(number, current_app.config.get("SCENARIO_LIBRARY") or None)[:limit]
    except OSError:
        return []


class BadRequest(Exception):
    def __init__(self, status: int, message: str, errors: list[tuple[str, str]] | None = None):
        self.status, self.message, self.errors = status, message, errors or []
        super().__init__(message)


@bp.errorhandler(BadRequest)
def _bad_request(e: BadRequest):
    errors = [{"path": p, "message": m} for p, m in e.errors]
    if request.path.startswith("/api/"):
        return error_response(e.status, e.message, errors=errors)
    return render_template("scenario_errore.html", status=e.status, message=e.message,
                           errors=errors), e.status
