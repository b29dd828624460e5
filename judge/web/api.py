"""The JSON API: rules in both languages, the citation linker, changes between editions, the
glossary and the analytic indexes.

Documented in docs/openapi.json, served at /api/openapi.json. Errors are JSON with an
Italian message: {"error": {"status": 404, "message": "...", ...}}.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, redirect, request, url_for

from judge import ROOT
from judge.corpus import Corpus, Rule, load_corpus
from judge.web import card_links, render
from judge.web.analytic_index import selected
from judge.web.cache import cached, prepared
from judge.web.errors import error_response
from judge.web.json_body import read_json
from judge.web.linker import MAX_LINKER_CHARS, as_html, as_markdown, edition_hint, link_report, too_long_message
from judge.corpus.pinned import resolve
from judge.web.changes import changes_payload, changes_request, last_change, old_text, parse_edition
from judge.web.rules import (
    _not_found,
    canonical_rule,
    in_edition,
    glossary_entries,
    rule_warnings,
    text_payload,
    translation_payload,
)

bp = Blueprint("api", __name__, url_prefix="/api")

OPENAPI_FILE = ROOT / "docs" / "openapi.json"


def _cite(corpus: Corpus, n: str) -> dict:
    exists = n in corpus
    return {"number": n, "exists": exists, "url": render.rule_url(n, external=True) if exists else None}


def edition_payload(e) -> dict:
    verification = load_corpus().verification.get(e.id)
    return {"id": e.id, "date": e.date.isoformat(), "verified": bool(verification and verification.verified)}


def rule_payload(corpus: Corpus, rule: Rule) -> dict:
    def num(r: Rule | None):
        return r.number if r else None

    return {
        "number": rule.number,
        "kind": rule.kind,
        "title": render.rule_title(rule),
        "url": render.rule_url(rule.number, external=True),
        "history_url": url_for("rules.storia", numero=rule.number, _external=True),
        "it": text_payload(rule.it),
        "en": text_payload(rule.en),
        "translation": translation_payload(rule.tr),
        "translation_available": rule.italian is not None,
        "chapter": rule.chapter,
        "section": rule.section,
        "parent": rule.parent if rule.parent in corpus else None,
        "children": list(rule.children),
        "previous": num(corpus.previous(rule.number)),
        "next": num(corpus.next(rule.number)),
        "citations": {
            "it": [_cite(corpus, n) for n in corpus.citations(rule.number, "it")],
            "en": [_cite(corpus, n) for n in corpus.citations(rule.number, "en")],
        },
        "cited_by": [n for n in corpus.cited_by.get(rule.number, []) if n != rule.number],
        "last_change": (lc.to_dict() if (lc := last_change(corpus, rule.number)) else None),
        "warnings": rule_warnings(corpus, rule.number, external=True),
        "edition_in_force": edition_payload(corpus.in_force),
    }


@bp.get("/regole/<numero>")
@cached
def regola(numero: str):
    corpus = load_corpus()
    edition, err = parse_edition(corpus, request.args.get("edizione"))
    if err:
        return err
    if edition is not None and edition is not corpus.in_force:
        return _in_edition(corpus, numero, edition)
    found, answer = canonical_rule(corpus, numero, "api.regola")
    return answer or jsonify(rule_payload(corpus, found))


def _in_edition(corpus: Corpus, numero: str, edition):
    """A rule as an older edition had it, and where it is today."""
    number, answer = in_edition(corpus, numero, edition, "api.regola")
    if answer:
        return answer
    text, examples = old_text(edition, number)
    where = resolve(number, corpus, edition)
    return jsonify({
        "number": number,
        "edition": edition_payload(edition),
        "text": text,
        "examples": examples,
        "url": render.rule_url(number, external=True, edizione=edition.id),
        "now": where.now,
        "now_url": render.rule_url(where.now, external=True) if where.now else None,
        "status": where.status,
        "notice": where.notice,
        "edition_in_force": edition_payload(corpus.in_force),
    })


@bp.get("/regole/<path:numero>")
def regola_with_slash(numero: str):
    return _not_found(load_corpus(), numero)


MAX_JSON_DEPTH = 8        # {"text": …, "edition": …} needs 1


def _json_object():
    """(decoded JSON body, None) or (None, an Italian 4xx): invalid JSON is 400, JSON nested past
    any sense or holding a lone surrogate 422."""
    return read_json(MAX_JSON_DEPTH, "Corpo JSON non valido: invia un oggetto {\"text\": \"...\"}.")


def _linker_input():
    """(text, edition value, None) from a JSON, text/plain or form body, or (None, None, error)."""
    edition = request.args.get("edizione") or request.args.get("edition")
    if request.is_json:
        data, err = _json_object()
        if err:
            return None, None, err
        if not isinstance(data, dict):
            return None, None, error_response(400, "Corpo JSON non valido: invia un oggetto {\"text\": \"...\"}.")
        text = data.get("text", data.get("testo"))
        if not isinstance(text, str):
            return None, None, error_response(400, "Campo «text» mancante o non di tipo stringa.")
        value = data.get("edition", data.get("edizione", edition))
        if value is not None and not isinstance(value, str):
            return None, None, error_response(400, "Campo «edition» non di tipo stringa (AAAAMMGG).")
        return text, value, None
    if (request.mimetype or "").startswith("text/"):
        return request.get_data(as_text=True), edition, None
    if request.form:
        value = request.form.get("edition", request.form.get("edizione", edition))
        return request.form.get("text", request.form.get("testo", "")), value, None
    return None, None, error_response(
        415, "Formato non supportato: invia JSON ({\"text\": \"...\"}) oppure testo semplice (text/plain)."
    )


def _hint_payload(hint) -> dict | None:
    """A date the text writes and the edition in force then, when it is not the one read in."""
    if hint is None:
        return None
    return {"written": hint.written, **edition_payload(hint.edition)}


@bp.post("/collega")
def collega():
    corpus = load_corpus()
    text, value, err = _linker_input()
    if err:
        return err
    _, err = parse_edition(corpus, request.args.get("edizione") or request.args.get("edition"))
    if err:  # a bad ?edizione= is an error even when the body names another edition
        return err
    if len(text) > MAX_LINKER_CHARS:
        return error_response(413, too_long_message(len(text)), limit=MAX_LINKER_CHARS, length=len(text))
    edition, err = parse_edition(corpus, value)
    if err:
        return err
    report = link_report(text, corpus, external=True, edition=edition)
    cards = card_links.mentions(text)
    return jsonify({
        "cards": [m.as_json() for m in cards],
        "text": text,
        "edition": edition_payload(edition or corpus.in_force),
        "edition_in_force": edition_payload(corpus.in_force),
        "spans": report.spans,
        "rules": [
            {
                "number": r.number,
                "url": render.rule_url(r.number, external=True),
                "lang": r.best.lang if r.best else None,
                "text": r.best.text if r.best else None,
                "it": r.it.text if r.it else None,
                "translation": r.tr.text if r.tr else None,
                "en": r.en.text if r.en else None,
            }
            for r in report.rules
        ],
        "unknown": report.unknown,
        "notices": report.notices,
        "suggested_edition": _hint_payload(edition_hint(text, corpus, edition)),
        "markdown": as_markdown(report, cards),  # the text with its citations and cards as links, ready to paste
        "html": as_html(report, cards),
        "limit": MAX_LINKER_CHARS,
        "complete": report.complete,  # False: past MAX_LISTED_CITATIONS, a notice says so
    })


@bp.get("/modifiche/<intervallo>")
@cached
def modifiche(intervallo: str):
    corpus = load_corpus()
    err, found = changes_request(corpus, intervallo)
    if err:
        return err
    return jsonify({
        "from": edition_payload(found.old),
        "to": edition_payload(found.new),
        **changes_payload(found),
        "url": url_for("rules.modifiche", intervallo=f"{found.old.id}..{found.new.id}", sezione=found.section,
                       _external=True),
    })


@bp.get("/glossario")
@cached
def glossario():
    corpus = load_corpus()
    return jsonify({
        "edition": edition_payload(corpus.in_force),
        "entries": [
            {"term": e["term"], "text": e["text"], "it_term": e["it_term"], "it_text": e["it_text"],
             "current": e["current"]}
            for e in glossary_entries(corpus)
        ],
    })


@bp.get("/indice-analitico")
@cached
def indice_analitico():
    """The analytic index (``lingua=en``: the English one), whole or filtered as the page does."""
    lang, q, index, entries = selected(load_corpus())
    return jsonify({
        "lang": lang,
        "q": q,
        "total": len(index),
        "entries": [
            {"heading": e.heading, "topic": e.topic,
             "rules": [{"number": n, "url": render.rule_url(n, external=True)} for n in e.rules]}
            for e in entries
        ],
    })


@bp.get("/edizioni")
@cached
def edizioni():
    """The editions, oldest first: dates, changes from the one before, verification; ``missing``:
    editions the register knows of without a copy (their changes are in the next one)."""
    from judge.corpus.edition_list import edition_rows

    corpus = load_corpus()
    editions, missing = [], []
    for r in edition_rows(corpus):
        if not r.present:
            missing.append({"id": r.id, "date": r.date.isoformat(), "note": r.note})
            continue
        editions.append({**edition_payload(corpus.edition(r.id)), "previous": r.previous, "counts": r.counts,
                         "verification": r.verification.to_dict() if r.verification else None,
                         "changes_url": url_for("rules.modifiche", intervallo=f"{r.previous}..{r.id}",
                                                _external=True) if r.previous else None})
    return jsonify({"in_force": edition_payload(corpus.in_force), "editions": editions, "missing": missing})


@bp.get("/openapi.json")
@prepared()
def openapi():
    spec = json.loads(OPENAPI_FILE.read_text(encoding="utf-8"))
    return Response(json.dumps(spec, ensure_ascii=False, indent=2), mimetype="application/json")


@bp.get("")
@bp.get("/")
def index():
    return redirect(url_for("api.openapi"), code=302)
