"""Card pages (blueprint "cards"): a page per card, its JSON, the card search and the
suggestions the builder asks for as one types.

    GET /carte?q=…             find a card by name (Italian or English, typos tolerated)
    GET /carte/<nome>          a card; any Italian or English spelling answers 301 to its
                               canonical address, /carte/<English name as a slug>
    GET /api/carte?q=…         suggestions as one types (JSON)
    GET /api/carte/<nome>      a card (JSON), same names and redirects as the page

The table's limits are said on every page (carte/README.md): a card without an Italian name is
shown with its English one, texts are 2018 Oracle wording, rulings stop in November 2018.
"""

from __future__ import annotations

import datetime as dt
import re
import threading

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, url_for
from markupsafe import Markup, escape

from judge.cards import lookup, types_it
from judge.cards.names import MAX_NAME_CHARS, name_key
from judge.cards.rules import card_rules, keyword_name
from judge.cards.table import CardFace, is_loaded, load_table
from judge.corpus import load_corpus
from judge.engine import terms
from judge.engine.scenario import card_defaults
from judge.web import render
from judge.web.cache import cached
from judge.web.errors import error_response

bp = Blueprint("cards", __name__)

PREVIEW_CHARS = 300
COLOR_NAMES = {c: terms.MANA_IT[c] for c in card_defaults.COLORS}


def _warm_in_background(state) -> None:
    """Read the table beside the server's start, not in its way: the first search or card page
    after a start then finds it ready (about a second of work, off the start's clock)."""
    app = state.app
    previous = app.extensions.get("judge.warm_up")

    def warm() -> None:
        if previous:
            previous()
        if not is_loaded():
            threading.Thread(target=_load_quietly, name="judge-carte", daemon=True).start()

    app.extensions["judge.warm_up"] = warm


def _load_quietly() -> None:
    try:
        load_table()
    except OSError:
        pass        # no table: card pages say so when asked


bp.record_once(_warm_in_background)


# --- what a page shows of a card ---------------------------------------------------------------

def _italian(term: str) -> str | None:
    return terms.TABLE.italian(term) or terms.TABLE.italian(term.lower())


def rule_preview(number: str) -> dict:
    """A rule link with the text a reader sees on hover (Italian where there is one)."""
    rule = load_corpus().get(number)
    text = rule.best.text if rule is not None and rule.best is not None else ""
    if len(text) > PREVIEW_CHARS:
        text = text[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " …"
    return {"number": number, "url": render.rule_url(number), "preview": text,
            "lang": rule.best.lang if rule is not None and rule.best is not None else "en"}


def keyword_rows(face: CardFace) -> list[dict]:
    """Each printed keyword: its rule, its Italian name, whether the simulator automates it."""
    rules = card_rules(load_corpus())
    out = []
    for kw in face.keywords:
        number = rules.keyword_rule(kw)
        out.append({"keyword": kw, "rule": rule_preview(number) if number else None,
                    "italian": _italian(keyword_name(kw)),
                    "automated": card_defaults.engine_keyword(kw) is not None})
    return out


def linked_text(face: CardFace) -> Markup:
    """The English text, escaped, with each printed keyword linked to its rule."""
    text = face.text or ""
    rules = card_rules(load_corpus())
    phrases: dict[str, str] = {}
    for kw in face.keywords:
        number = rules.keyword_rule(kw)
        phrase = keyword_name(kw)
        if number and phrase:
            phrases.setdefault(phrase.lower(), number)
    if not phrases:
        return Markup(str(escape(text)).replace("\n", "<br>\n"))
    pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
                         + r")(?![\w-])", re.IGNORECASE)
    out, pos = [], 0
    for m in pattern.finditer(text):
        info = rule_preview(phrases[m.group(1).lower()])
        out.append(str(escape(text[pos:m.start()])))
        # data-anteprima: the preview every rule link has (static/js/anteprime.js), though the link
        # names a keyword, not the rule's number.
        out.append(f'<a class="cit" href="{escape(info["url"])}" data-anteprima="{escape(info["number"])}">'
                   f'{escape(m.group(1))}</a>')
        pos = m.end()
    out.append(str(escape(text[pos:])))
    return Markup("".join(out).replace("\n", "<br>\n"))


@bp.app_template_filter("data_iso")
def iso_date_it(value: str | None) -> str:
    """«1993-08-05» as «5 agosto 1993» (the table's dates are ISO); anything else as it is."""
    try:
        return render.date_it(dt.date.fromisoformat(value or ""))
    except ValueError:
        return value or ""


@bp.app_template_filter("tipo_italiano")
def type_line_it(face: CardFace) -> str:
    """The type line as Italian cards print it («Creatura Leggendaria — Umano Mago»)."""
    return types_it.italian_type_line(face.types, face.supertypes, face.subtypes, load_corpus())


def card_payload(face: CardFace, external: bool = True) -> dict:
    """A card as JSON (the API's, and what the page shows)."""
    table = load_table()
    filled = card_defaults.card_fields(face)
    rules = card_rules(load_corpus())
    return {
        "name": face.name,
        "name_it": face.name_it,
        "name_it_alt": list(face.name_it_alt),
        "url": url_for("cards.carta", nome=face.slug, _external=external),
        "mana_cost": face.mana_cost,
        "colors": list(face.colors),
        "supertypes": list(face.supertypes),
        "types": list(face.types),
        "subtypes": list(face.subtypes),
        "type_line": face.type_line,
        "type_line_it": type_line_it(face),
        "power": face.power,
        "toughness": face.toughness,
        "loyalty": face.loyalty,
        "defense": face.defense,
        "keywords": [{"keyword": k["keyword"], "rule": k["rule"]["number"] if k["rule"] else None,
                      "automated": k["automated"]} for k in keyword_rows(face)],
        "text": face.text,
        "layout": face.layout,
        "names": list(face.names),
        "first_set": face.first_set,
        "oracle_update": face.xmage_diff,
        "rules": [{"number": r.number, "what": r.what, "value": r.value,
                   "url": render.rule_url(r.number, external=external)} for r in rules.for_face(face)],
        "rulings": [{"date": r.date, "text": r.text} for r in table.rulings(face.name)],
        "scenario": {k: v for k, v in filled.fields.items() if k != "ongoing" or v},
        "not_automated": filled.not_automated,
        "source": face.source,
        "table_version": table.version,
    }


def suggestion_payload(m: lookup.Match) -> dict:
    face = m.face
    return {"name": face.name, "name_it": face.name_it, "matched": m.name, "lang": m.lang,
            "type_line": face.type_line, "type_line_it": type_line_it(face), "mana_cost": face.mana_cost,
            "url": url_for("cards.carta", nome=face.slug),
            "api": url_for("cards.api_carta", nome=face.slug)}


# --- resolving an address ---------------------------------------------------------------------

def _resolve(nome: str, endpoint: str):
    """(face, None) for a canonical address; otherwise (None, a redirect or an error page)."""
    if len(nome) > MAX_NAME_CHARS or not name_key(nome):
        return None, _not_found(nome, [])
    face = lookup.by_slug(nome)
    if face is not None:
        if nome == face.slug:
            return face, None
        return None, redirect(url_for(endpoint, nome=face.slug), code=301)
    found = lookup.exact(nome)
    if len(found) == 1:
        return None, redirect(url_for(endpoint, nome=found[0].face.slug), code=301)
    if found:
        return None, _ambiguous(nome, found)
    return None, _not_found(nome, lookup.find(nome, 5))


def _not_found(nome: str, near: list[lookup.Match]):
    shown = nome[:MAX_NAME_CHARS]
    message = f"Nessuna carta si chiama «{shown}» nella tabella delle carte."
    if request.path.startswith("/api/"):
        return error_response(404, message, nearest=[suggestion_payload(m) for m in near])
    return render_template("carta_non_trovata.html", nome=shown, near=near, message=message), 404


def _ambiguous(nome: str, found: list[lookup.Match]):
    message = f"«{nome[:MAX_NAME_CHARS]}» è il nome italiano di {len(found)} carte: scegline una."
    if request.path.startswith("/api/"):
        return error_response(300, message, choices=[suggestion_payload(m) for m in found])
    return render_template("carta_non_trovata.html", nome=nome, near=found, message=message,
                           ambiguous=True), 300


def _table_missing():
    return error_response(503, "La tabella delle carte non è disponibile su questo server.")


# --- routes -------------------------------------------------------------------------------------

@bp.get("/carte")
@cached
def carte():
    q = request.args.get("q", "")[:MAX_NAME_CHARS]
    try:
        found = lookup.find(q, 20) if q.strip() else []
        table = load_table()
    except OSError:
        return _table_missing()
    return render_template("carte.html", q=q, found=found, total=len(table))


@bp.get("/carte/<path:nome>")
@cached
def carta(nome: str):
    try:
        face, response = _resolve(nome, "cards.carta")
    except OSError:
        return _table_missing()
    if response is not None:
        return response
    table = load_table()
    parts = [(n, table.by_name(n)) for n in face.names] if face.names else []
    rules = card_rules(load_corpus())
    return render_template(
        "carta.html", face=face, text=linked_text(face), keywords=keyword_rows(face),
        rules=[(r, rule_preview(r.number)) for r in rules.for_face(face)],
        rulings=table.rulings(face.name), parts=parts, type_line_it=type_line_it(face),
        colors=[COLOR_NAMES.get(c, c) for c in face.colors], filled=card_defaults.card_fields(face))


@bp.get("/api/carte")
@cached
def api_carte():
    q = request.args.get("q", "")[:MAX_NAME_CHARS]
    try:
        limit = max(1, min(int(request.args.get("limite", "8")[:3]), lookup.MAX_SUGGESTIONS))
    except ValueError:
        limit = 8
    try:
        found = lookup.suggest(q, limit)
    except OSError:
        return _table_missing()
    return jsonify({"query": q, "cards": [suggestion_payload(m) for m in found]})


@bp.get("/api/carte/<path:nome>")
@cached
def api_carta(nome: str):
    try:
        face, response = _resolve(nome, "cards.api_carta")
    except OSError:
        return _table_missing()
    if response is not None:
        return response
    return jsonify(card_payload(face))


@bp.app_template_global("carte_nominate")
def carte_nominate(q: str) -> list[lookup.Match]:
    """For the search page: the cards a query names (none when the table is missing)."""
    if not q or not q.strip() or not current_app.config.get("CARDS_IN_SEARCH", True):
        return []
    try:
        return lookup.named(q)
    except OSError:
        return []
