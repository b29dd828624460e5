"""Rule previews: ``/api/anteprima/<numero>``, what a citation shows on hover, focus or first tap.

The same answer serves this site's pages (static/js/anteprime.js), the offline copy (which builds
it from the edition's data, judge/web/offline.py) and other sites that include the embed script
(judge/web/embed.py): it is public, read-only data, so any origin may read it (CORS), without
cookies.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from judge.corpus import Corpus, Rule, load_corpus
from judge.web import render
from judge.web.cache import cached
from judge.web.errors import error_response
from judge.web.tournament_citations import document_preview

bp = Blueprint("previews", __name__)

# A preview is a glance, not the page: longer texts are cut (the popover links the whole rule).
MAX_PREVIEW_CHARS = 900


def shorten(text: str, limit: int = MAX_PREVIEW_CHARS) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def preview_text(corpus: Corpus, rule: Rule) -> dict:
    """What a preview shows of a rule: the Italian text shown first (the English where there is no
    Italian) with its language, layer and label; for a section, its first rule (a section's title
    is a name, not a text: no label of its own); for a chapter, its sections by name."""
    t = rule.best
    children = corpus.children(rule.number)
    if rule.kind == "capitolo":  # its sections, by name: titles from several sources, no one label
        text = shorten("Sezioni: " + "; ".join(f"{c.number}. {render.heading_name(c)}" for c in children) + ".")
        return {"text": text, "lang": t.lang if t else None, "layer": None, "label": None}
    if rule.kind == "sezione" and children and children[0].best:  # how it begins
        t = children[0].best
        text = shorten(f"{children[0].number} {t.text}")
    else:
        text = shorten(t.text) if t else ""
    return {"text": text, "lang": t.lang if t else None, "layer": t.layer if t else None,
            "label": t.label if t else None}


def preview_payload(corpus: Corpus, rule: Rule, external: bool = True) -> dict:
    """Number, title («702.19 Travolgere»), what the preview shows (``preview_text``) and the
    address of the rule."""
    return {
        "number": rule.number,
        "title": render.rule_heading(rule, corpus),
        **preview_text(corpus, rule),
        "url": render.rule_url(rule.number, external=external),
    }


def cross_origin(methods: str):
    """An after-request hook for a public, read-only answer: any site may read it (the embed
    script runs on other sites), never with cookies or credentials, by ``methods`` only.
    Only the two endpoints the embed script calls have it: /api/anteprima and /api/citazioni."""

    def allow(response):
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Allow-Methods"] = methods
        response.headers["Access-Control-Allow-Headers"] = "Content-Type"
        response.headers["Access-Control-Max-Age"] = "86400"
        response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
        return response

    return allow


bp.after_request(cross_origin("GET, OPTIONS"))


@bp.get("/api/anteprima/<numero>")
@cached
def anteprima(numero: str):
    corpus = load_corpus()
    rule = corpus.get((numero or "").strip()[:20])
    if rule is None and (document := document_preview((numero or "")[:20])):
        return jsonify(document)  # «IPG 2.1», «JAR»: a tournament document's section
    if rule is None:
        return error_response(404, f"La regola «{numero[:20]}» non esiste nell'edizione in vigore.")
    return jsonify(preview_payload(corpus, rule))
