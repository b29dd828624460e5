"""The scenario builder and the stepper (blueprint "scenario").

Routes (documented in docs/simulatore.md):

    GET  /simulatore                              start: variant, import, library
    POST /simulatore/nuovo                        a new scenario from a variant
    POST /simulatore/importa                      a scenario or game from a file or pasted JSON
    GET  /simulatore/libreria                     the library, by rule section, questions and answers
    GET  /simulatore/libreria/<slug>              a library scenario in the builder
    GET  /simulatore/libreria/<slug>/avvia        a library scenario in the stepper
    GET  /simulatore/modifica/<id>                the builder (a saved draft)
    POST /simulatore/modifica/<id>                save the builder form (→ a new id)
    GET  /simulatore/modifica/<id>/scenario.json  the draft as a file
    GET  /s/<id>                                  permalink: the stepper (or the builder for a draft)
    POST /s/<id>                                  step, step to, next turn, undo, redo, decide
    GET  /s/<id>/modifica                         the current state of a game in the builder
    GET  /s/<id>/scenario.json                    the current state as a scenario file
    GET  /s/<id>/partita.json                     starting scenario + actions
    GET  /s/<id>/registro.md                      the log as Markdown with rule links
    GET  /api/scenari/<id>                        a saved document (and for a game: state, events)
    POST /api/scenari                             save a scenario or a game (JSON body)
    POST /api/scenari/<id>/azioni                 perform one action on a saved game (JSON body)

Every state is saved under a content-addressed id (see scenario_store), so any
URL above is a permalink that survives restarts and works for anybody.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for

from judge.engine import ScenarioError
from judge.engine import scenario as sc
from judge.engine import templates
from judge.engine.state import VARIANTS, ZONES
from judge.web import library
from judge.web import scenario_forms as forms
from judge.web import scenario_forms_state as state_fields
from judge.web import scenario_play as play
from judge.web.errors import error_response
from judge.web.security import CSRF_KEPT, CsrfError
from judge.web.scenario_history import Histories
from judge.web.scenario_store import (MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH, CorruptDocument,
                                      StoreError, check_document, document_id, json_depth,
                                      store_for)

bp = Blueprint("scenario", __name__)

KIND_SCENARIO = "scenario"
KIND_GAME = "partita"
MAX_UPLOAD_BYTES = MAX_DOCUMENT_BYTES * 2      # a pretty-printed file is larger than its canonical form
RULE_HOVER_CHARS = 600


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


# --- helpers ---------------------------------------------------------------------------------

class BadRequest(Exception):
    def __init__(self, status: int, message: str, errors: list[tuple[str, str]] | None = None):
        self.status, self.message, self.errors = status, message, errors or []
        super().__init__(message)


def _store():
    return store_for(current_app)


def histories() -> Histories:
    """The app's game histories (config ``SCENARIO_SNAPSHOTS``, default on; env
    ``JUDGE_SCENARIO_SNAPSHOTS=0`` turns the cache off: every request replays)."""
    h = current_app.extensions.get("judge_histories")
    if h is None:
        on = current_app.config.get("SCENARIO_SNAPSHOTS",
                                    os.environ.get("JUDGE_SCENARIO_SNAPSHOTS", "1") != "0")
        h = current_app.extensions["judge_histories"] = Histories(_store(), enabled=bool(on))
    return h


def _save(doc: Any, kind: str) -> str:
    try:
        return _store().save(doc, kind)
    except StoreError as e:
        raise BadRequest(413, e.message) from None


def _load(ident: str) -> tuple[str, Any]:
    return _load_raw(ident)[:2]


def _load_raw(ident: str) -> tuple[str, Any, bytes]:
    """``(kind, document, its canonical JSON)``; 404 or 500 (damaged) as a BadRequest."""
    try:
        found = _store().load_raw(ident)
    except CorruptDocument:
        current_app.logger.error("documento danneggiato nel database: %s", ident)
        raise BadRequest(500, "Questo scenario salvato è danneggiato e non può essere aperto.") from None
    if found is None:
        raise BadRequest(404, "Scenario non trovato: l'indirizzo è sbagliato o incompleto.")
    return found


@bp.errorhandler(BadRequest)
def _bad_request(e: BadRequest):
    errors = [{"path": p, "message": m} for p, m in e.errors]
    if request.path.startswith("/api/"):
        return error_response(e.status, e.message, errors=errors)
    return render_template("scenario_errore.html", status=e.status, message=e.message,
                           errors=errors), e.status


def rule_url(number: str, external: bool = False) -> str:
    if "rules.rule" in current_app.view_functions:
        return url_for("rules.rule", numero=number, _external=external)
    return (request.host_url.rstrip("/") if external else "") + f"/regole/{number}"


@lru_cache(maxsize=4096)
def _rule_text(number: str, corpus_key: int) -> tuple[bool, str, str]:
    from judge.corpus import load_corpus
    rule = load_corpus().get(number)
    if rule is None or rule.best is None:
        return False, "", ""
    text = rule.best.text
    if len(text) > RULE_HOVER_CHARS:
        text = text[:RULE_HOVER_CHARS].rsplit(" ", 1)[0] + " …"
    return True, text, rule.best.lang


def rule_info(number: str) -> dict:
    """Number, URL and hover text (Italian where we have it) of a cited rule."""
    from judge.corpus import load_corpus
    try:
        exists, text, lang = _rule_text(number, id(load_corpus()))
    except Exception:  # the corpus is missing: links still work, no hover text
        exists, text, lang = False, "", ""
    return {"number": number, "url": rule_url(number), "text": text, "lang": lang,
            "exists": exists}


def _json_body(raw: str | bytes) -> Any:
    if isinstance(raw, bytes):
        if len(raw) > MAX_UPLOAD_BYTES:
            raise BadRequest(413, f"File troppo grande: il limite è {MAX_UPLOAD_BYTES // 1024} KB.")
        try:
            raw = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadRequest(422, "Il file non è testo UTF-8: serve un file JSON.") from None
    if len(raw) > MAX_UPLOAD_BYTES:
        raise BadRequest(413, f"Testo troppo lungo: il limite è {MAX_UPLOAD_BYTES // 1024} KB.")
    if not raw.strip():
        raise BadRequest(422, "Nessun JSON: scegli un file o incolla il testo dello scenario.")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:
        raise BadRequest(422, f"JSON troppo annidato: il limite è {MAX_JSON_DEPTH} livelli.") from None
    except ValueError as e:
        msg = (f"JSON non valido alla riga {e.lineno}, colonna {e.colno}: {e.msg}"
               if isinstance(e, json.JSONDecodeError) else f"JSON non valido: {e}")
        raise BadRequest(422, msg + ".") from None
    depth = json_depth(data)
    if depth > MAX_JSON_DEPTH:
        raise BadRequest(422, f"JSON troppo annidato: profondità {depth}, il limite è {MAX_JSON_DEPTH}.")
    return data


def _api_body() -> Any:
    if not request.is_json:
        raise BadRequest(415, "Serve un corpo JSON (Content-Type: application/json).")
    return _json_body(request.get_data(cache=False))


def _no_constant(name: str):
    raise ValueError(f"valore non ammesso {name}")


def _store_document(data: Any) -> tuple[str, str]:
    """Validate and save a scenario or a game; returns (kind, id)."""
    if play.is_game(data):
        errs = play.check_game(data)
        if not errs:
            errs = [(f"scenario.{p}" if p else "scenario", m)
                    for p, m in play.validate_scenario(data["scenario"])]
        if errs:
            raise BadRequest(422, "La partita non è valida.", errs)
        data.setdefault("actions", [])
        data.setdefault("redo", [])
        try:
            ident = document_id(check_document(data))
        except StoreError as e:
            raise BadRequest(413, e.message) from None
        played = histories().open(ident, data, log=0)     # replayed once, and cached
        if played.broken:
            raise BadRequest(422, "La partita non si può riprodurre: " + played.broken[1] + ".")
        return KIND_GAME, _save(data, KIND_GAME)
    if not isinstance(data, dict):
        raise BadRequest(422, "Lo scenario deve essere un oggetto JSON.")
    errs = play.validate_scenario(data)
    if errs:
        raise BadRequest(422, "Lo scenario non è valido.", errs)
    return KIND_SCENARIO, _save(data, KIND_SCENARIO)


def _url_for_doc(kind: str, ident: str, external: bool = False) -> str:
    if kind == KIND_GAME:
        return url_for("scenario.partita", ident=ident, _external=external)
    return url_for("scenario.modifica", ident=ident, _external=external)


# --- the start page ---------------------------------------------------------------------------

def _library_dir():
    """The library folder (config ``SCENARIO_LIBRARY``, default ``scenarios/``)."""
    return current_app.config.get("SCENARIO_LIBRARY") or None


def _start_page(status: int = 200, **ctx):
    ctx.setdefault("form", {})
    return render_template("scenario_start.html", variants=forms.VARIANTS_IT,
                           entries=library.library(_library_dir()), errors=ctx.pop("errors", []),
                           import_errors=ctx.pop("import_errors", []),
                           message=ctx.pop("message", ""), **ctx), status


@bp.errorhandler(CsrfError)
def _expired_form(e: CsrfError):
    # The start page's forms come back filled in (the pasted JSON too; a chosen file cannot be).
    if request.endpoint in ("scenario.nuovo", "scenario.importa"):
        return _start_page(400, message=CSRF_KEPT, form=request.form)
    return error_response(400, e.description)


@bp.get("/simulatore")
def builder():
    return _start_page()


@bp.post("/simulatore/nuovo")
def nuovo():
    variant = request.form.get("variant", "two-player")
    raw_n = (request.form.get("players") or "").strip()
    title = (request.form.get("title") or "").strip()[:sc.MAX_TEXT]
    n = None
    if raw_n:
        # ASCII digits only: "²" is a digit to str.isdigit() but not to int().
        if not re.fullmatch(r"[0-9]{1,3}", raw_n) or not 2 <= int(raw_n) <= forms.MAX_PLAYERS:
            return _start_page(422, errors=[("players", f"numero di giocatori fra 2 e {forms.MAX_PLAYERS}")],
                               message="Controlla i campi evidenziati.", form=request.form)
        n = int(raw_n)
    if variant not in VARIANTS:
        return _start_page(422, errors=[("variant", "variante sconosciuta")],
                           message="Controlla i campi evidenziati.", form=request.form)
    title = title or f"Nuovo scenario: {forms.VARIANTS_IT[variant]}"
    try:
        data = templates.new_scenario(variant, n, title)
    except ScenarioError as e:
        return _start_page(422, errors=[("players" if p == "players" else p, m) for p, m in e.errors],
                           message="Controlla i campi evidenziati.", form=request.form)
    ident = _save(data, KIND_SCENARIO)
    return redirect(url_for("scenario.modifica", ident=ident, campo="nuovo.name"), 303)


@bp.post("/simulatore/importa")
def importa():
    upload = request.files.get("file")
    try:
        if upload is not None and upload.filename:
            data = _json_body(upload.read(MAX_UPLOAD_BYTES + 1))
        else:
            data = _json_body(request.form.get("json", ""))
        kind, ident = _store_document(data)
    except BadRequest as e:
        if e.status == 500:
            raise
        # The file's own paths (players[0].life …) belong to the import field, not to the
        # fields of the new-scenario form that happen to share a name.
        return _start_page(e.status, import_errors=[("", e.message)] + e.errors,
                           message="Impossibile importare lo scenario: vedi sotto il campo del file.",
                           form=request.form)
    return redirect(_url_for_doc(kind, ident), 303)


def _library_data(slug: str) -> dict:
    data = library.load(slug, _library_dir())
    if data is None:
        raise BadRequest(404, "Scenario della libreria non trovato.")
    errs = play.validate_scenario(data)
    if errs:
        raise BadRequest(422, "Questo scenario della libreria non è valido.", errs)
    return data


def _section_title(number: str) -> str:
    try:
        from judge.corpus import load_corpus
        rule = load_corpus().get(number)
    except Exception:           # no corpus: the number alone
        rule = None
    return rule.best.text if rule is not None and rule.best is not None else ""


@bp.get("/simulatore/libreria")
def libreria_indice():
    entries = library.library(_library_dir())
    groups = [(n, _section_title(n), items) for n, items in library.by_section(entries)]
    return render_template("scenario_libreria.html", groups=groups, count=len(entries),
                           variants=forms.VARIANTS_IT)


@bp.get("/simulatore/libreria/<slug>")
def libreria(slug: str):
    ident = _save(_library_data(slug), KIND_SCENARIO)
    return redirect(url_for("scenario.modifica", ident=ident), 303)


@bp.get("/simulatore/libreria/<slug>/avvia")
def libreria_avvia(slug: str):
    ident = _save(play.new_game(_library_data(slug)), KIND_GAME)
    return redirect(url_for("scenario.partita", ident=ident), 303)


# --- the builder ------------------------------------------------------------------------------

def _fields(d: dict) -> set[str]:
    f = {"title", "description", "options.attack", "turn.number", "turn.active_player",
         "turn.step", "day_night", "monarch", "initiative", "players", "battlefield"}
    f |= {f"nuovo.{k}" for k in ("name", "types", "supertypes", "subtypes", "power",
                                  "toughness", "counters", "keywords", "protection", "colors",
                                  "controller")}
    for i, _ in enumerate(d.get("players") or []):
        f |= {f"players[{i}].{k}" for k in ("name", "life", "poison", "max_hand_size", "team",
                                             "mana_pool", "commander_damage", *ZONES)}
    f |= {f"pila.{k}" for k in ("kind", "controller", "text", "source")}
    for i, _ in enumerate(d.get("stack") or []):
        f |= {f"stack[{i}].{k}" for k in ("kind", "controller", "text", "source", "card")}
    for i, _ in enumerate(d.get("battlefield") or []):
        f |= {f"battlefield[{i}].{k}" for k in
              ("name", "types", "supertypes", "subtypes", "keywords", "protection", "colors", "power",
               "toughness",
               "damage", "counters", "controller", "owner", "attached_to", "tapped",
               "summoning_sick", "phased_out", "token")}
    return f


def _group_errors(errors: list[tuple[str, str]], fields: set[str]) -> tuple[dict, list]:
    by_field: dict[str, list[str]] = {}
    general: list[str] = []
    for path, msg in errors:
        f = forms.field_for(path, fields)
        if f in ("players", "battlefield", ""):
            general.append(f"{path}: {msg}" if path else msg)
        else:
            by_field.setdefault(f, []).append(msg)
    return by_field, general


def _builder_page(ident: str, draft: dict, status: int = 200, raw=None,
                  errors: list[tuple[str, str]] | None = None, focus: str = ""):
    fields = _fields(draft)
    by_field, general = _group_errors(errors or [], fields)
    if by_field and not focus:
        focus = next(iter(by_field))
    players = _with_rule_defaults(draft)
    return render_template(
        "scenario_builder.html", ident=ident, d=draft, raw=raw, players=players,
        commanders=state_fields.commanders(draft), stack_kinds=state_fields.STACK_KINDS,
        mana_text=state_fields.mana_text,
        errors=by_field, general_errors=general, focus=focus, f=forms,
        steps=forms.STEPS_IT, zones=forms.ZONES_IT, keyword_groups=forms.keyword_help(),
        keyword_suggestions=forms.keyword_suggestions(),
        player_name=lambda pid: next((str(p.get("name") or pid) for p in draft.get("players") or []
                                      if isinstance(p, dict) and p.get("id") == pid), pid),
        permalink=url_for("scenario.modifica", ident=ident, _external=True),
    ), status


# A library file or an imported scenario may leave out what the rules give (a player's
# starting life, 119.1; no poison; a maximum hand size of seven, 402.2).  The builder shows
# the values the engine will use, so a field is never blank: saving the form unchanged must
# neither fail ("atteso un intero") nor turn a hand size of seven into "no limit".
_RULE_DEFAULT_KEYS = ("life", "poison", "max_hand_size", "team")


def _with_rule_defaults(draft: dict) -> list[dict]:
    players = [p for p in draft.get("players") or [] if isinstance(p, dict)]
    if all(k in p for p in players for k in _RULE_DEFAULT_KEYS):
        return players
    try:
        state = sc.parse(draft)
    except ScenarioError:       # parse raises nothing else, whatever the input
        return players          # an invalid draft: its errors are shown, the fields as written
    out = []
    for p in players:
        pl = next((x for x in state.players if x.id == p.get("id")), None)
        if pl is None:
            out.append(p)
            continue
        out.append({**{k: getattr(pl, k) for k in _RULE_DEFAULT_KEYS if k not in p}, **p})
    return out


@bp.get("/simulatore/modifica/<ident>")
def modifica(ident: str):
    kind, doc = _load(ident)
    if kind == KIND_GAME:
        return redirect(url_for("scenario.partita", ident=ident), 303)
    return _builder_page(ident, doc, focus=request.args.get("campo", "")[:80])


@bp.post("/simulatore/modifica/<ident>")
def modifica_salva(ident: str):
    kind, draft = _load(ident)
    if kind == KIND_GAME:
        raise BadRequest(409, "Questo indirizzo è una partita, non uno scenario da modificare.")
    new, errs, focus = forms.apply_form(draft, request.form)
    if not errs:
        errs = play.validate_scenario(new)
        added = len(new.get("battlefield") or []) - 1
        if request.form.get("nuovo.name", "").strip() and added >= 0:
            pre = f"battlefield[{added}]"
            errs = [("nuovo" + p[len(pre):] if p.startswith(pre + ".") or p == pre else p, m)
                    for p, m in errs]
    if errs:
        return _builder_page(ident, draft, 422, raw=request.form, errors=errs)
    try:
        check_document(new)
    except StoreError as e:
        return _builder_page(ident, draft, 413, raw=request.form, errors=[("", e.message)])
    new_ident = _save(new, KIND_SCENARIO)
    if request.form.get("azione") == "avvia":
        gid = _save(play.new_game(new), KIND_GAME)
        return redirect(url_for("scenario.partita", ident=gid), 303)
    return redirect(url_for("scenario.modifica", ident=new_ident, campo=focus or None), 303)


@bp.get("/simulatore/modifica/<ident>/scenario.json")
def bozza_json(ident: str):
    kind, doc = _load(ident)
    if kind == KIND_GAME:
        return redirect(url_for("scenario.stato_json", ident=ident), 303)
    return _download(doc, f"scenario-{ident}.json")


def _download(data: Any, name: str, mimetype: str = "application/json") -> Response:
    body = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp


from judge.web import scenario_game  # noqa: E402,F401  (the stepper's routes, on this blueprint)
