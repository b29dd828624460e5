"""The start page (a new scenario from a variant, an imported file, the library) and the
builder: routes of the "scenario" blueprint (the package lists them all)."""

from __future__ import annotations

import re

from flask import current_app, redirect, render_template, request, url_for

from judge.engine import ScenarioError
from judge.engine.scenario import parse as sc
from judge.engine.scenario import templates
from judge.engine.state import VARIANTS, ZONES
from judge.web.errors import error_response
from judge.web.security import CSRF_KEPT, CsrfError
from judge.web.simulator import card_fill, effect_fields, forms, library, play, state_fields
from judge.web.simulator.blueprint import BadRequest, bp
from judge.web.simulator.documents import (KIND_GAME, KIND_SCENARIO, MAX_UPLOAD_BYTES, _download,
                                           _json_body, _load, _save, _store_document,
                                           _url_for_doc)
from judge.web.simulator.store import StoreError, check_document


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
    f = {"title", "description", "question", "answer", "options.attack", "turn.number", "turn.active_player",
         "turn.step", "day_night", "monarch", "initiative", "players", "battlefield"}
    f |= {f"nuovo.{k}" for k in ("name", "types", "supertypes", "subtypes", "power",
                                  "toughness", "counters", "keywords", "protection", "colors",
                                  "controller")}
    for i, _ in enumerate(d.get("players") or []):
        f |= {f"players[{i}].{k}" for k in ("name", "life", "poison", "max_hand_size", "team",
                                             "mana_pool", "commander_damage", *ZONES)}
    f |= card_fill.field_names(d)
    f |= {f"pila.{k}" for k in ("kind", "controller", "text", "source")}
    for i, _ in enumerate(d.get("stack") or []):
        f |= {f"stack[{i}].{k}" for k in ("kind", "controller", "text", "source", "card")}
    for i, _ in enumerate(d.get("battlefield") or []):
        f |= {f"battlefield[{i}].{k}" for k in
              ("name", "types", "supertypes", "subtypes", "keywords", "protection", "colors", "power",
               "toughness", "damage", "counters", "controller", "owner", "attached_to", "tapped",
               "summoning_sick", "phased_out", "token")}
    f |= {f"effects[{i}]" for i, _ in enumerate(d.get("effects") or [])}
    f |= {"effetto.carta", "effetto.json", *(f"effetto.{b}" for b in effect_fields.et.BLANKS)}
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
                  errors: list[tuple[str, str]] | None = None, focus: str = "",
                  card_notes: list[str] | None = None):
    draft = card_fill.expanded(draft)
    if not isinstance(draft.get("turn"), dict):     # "turn" may be left out of a file (defaults)
        draft = {**draft, "turn": {}}
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
        cards=card_fill.card_rows(draft), card_notes=card_notes or [], card_fill=card_fill,
        effects_json=effect_fields.effects_json(draft), pick=effect_fields.picked(raw),
        effect_options=effect_fields.options(draft), blanks=effect_fields.et.BLANKS,
        template_cards=effect_fields.et.cards(),
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
    draft = card_fill.expanded(draft)
    filled = card_fill.prepare(request.form.to_dict())    # a card typed in the «add» row
    if filled.errors or request.form.get("azione") == "compila":
        return _builder_page(ident, draft, 422 if filled.errors else 200, raw=filled.form,
                             errors=filled.errors, focus="nuovo.card" if filled.errors else "nuovo.name",
                             card_notes=filled.notes)
    if request.form.get("azione") == "effetto-modelli":        # a card's effect templates
        return _builder_page(ident, draft, raw=filled.form, focus="effetto.carta")
    new, errs, focus = card_fill.apply(draft, filled.form)
    focus = effect_fields.apply(new, filled.form, errs) or focus
    if not errs:
        errs = play.validate_scenario(new)
        added = len(new.get("battlefield") or []) - 1
        if (filled.form.get("nuovo.name") or "").strip() and added >= 0:
            pre = f"battlefield[{added}]"
            errs = [("nuovo" + p[len(pre):] if p.startswith(pre + ".") or p == pre else p, m)
                    for p, m in errs]
    if errs:
        return _builder_page(ident, draft, 422, raw=filled.form, errors=errs)
    try:
        check_document(new)
    except StoreError as e:
        return _builder_page(ident, draft, e.status, raw=filled.form, errors=[("", e.message)])
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
