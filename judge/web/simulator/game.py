"""The stepper and the games' JSON API (routes of the "scenario" blueprint).

A game is opened through history (a cached snapshot, not a replay from the
start); every action, judge actions included, is one more entry in the game document,
saved under a new permalink.
"""

from __future__ import annotations

import json
from functools import lru_cache

from flask import current_app, jsonify, redirect, render_template, request, session, url_for

from judge.engine import IllegalAction, ScenarioError
from judge.engine.characteristics import explain
from judge.engine.mechanics import turn_plan
from judge.engine.steps import STEP_NAMES
from judge.web.errors import error_response
from judge.web.simulator import actions as acts
from judge.web.simulator import forms, play, views
from judge.web.simulator.blueprint import BadRequest, bp
from judge.web.simulator.documents import (KIND_GAME, KIND_SCENARIO, _api_body, _download, _load,
                                           _load_raw, _save, _store_document, _url_for_doc,
                                           histories)
from judge.web.simulator.history import LOG_EVENTS, Save
from judge.web.simulator.store import StoreError

LAST_EVENTS = 12            # "what just happened", above the board
RULE_HOVER_CHARS = 600


class _Redirect(Exception):
    def __init__(self, url: str):
        self.url = url


@bp.errorhandler(_Redirect)
def _redirect(e: _Redirect):
    return redirect(e.url, 303)


def _game(ident: str, log: int | None = LOG_EVENTS,
          loaded: tuple[str, dict, bytes] | None = None) -> tuple[dict, play.Played]:
    kind, doc, data = loaded or _load_raw(ident)
    if kind != KIND_GAME:
        raise _Redirect(url_for("scenario.modifica", ident=ident))
    try:
        played = histories().open(ident, doc, log)
    except ScenarioError as e:
        raise BadRequest(422, "Lo scenario di partenza di questa partita non è più valido.",
                         list(e.errors)) from None
    played.doc_data = data
    return doc, played


def _save_game(save: Save) -> str:
    try:
        return histories().save(save, KIND_GAME)
    except StoreError as e:
        raise BadRequest(e.status, e.message) from None


# --- links to the rules the log cites ------------------------------------------------------------

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


# --- the page ------------------------------------------------------------------------------------

def _stepper_page(ident: str, doc: dict, played: play.Played, status: int = 200,
                  error: IllegalAction | None = None, sel=None,
                  field_errors: dict[str, list[str]] | None = None):
    game = played.game
    if sel is not None and sel.get("azione") not in ("decidi", "vai", "giudice"):
        sel = None
    groups = play.log_groups(played)
    last = played.steps[-1] if played.steps and played.steps[-1][0] == played.n_actions - 1 else None
    lesson = views.lesson(game, doc.get("scenario") or {})
    rules = sorted({n for g in groups for _, e in g.entries for n in e.rules}
                   | set((game.pending or {}).get("rules", []))
                   | views.decision_rules(game.pending)
                   | set(error.rules if error else [])
                   | set((game.result or {}).get("rules", []))
                   | set(lesson["rules"] if lesson else []))
    board = views.board(game)
    st = game.state
    phases_rules = ["500.8", "500.9", "500.10"] if st.turn.phases is not None else []
    info = {n: rule_info(n) for n in sorted(set(rules) | set(board["rules"]) | set(phases_rules))}
    judge = views.judge_panel(game, request.args, sel if sel is not None and
                              sel.get("azione") == "giudice" else None, field_errors)
    acts_done = doc.get("actions") or []
    return render_template(
        "scenario_stepper.html", ident=ident, doc=doc, played=played, game=game, st=st,
        title=st.title or "Scenario", board=board, groups=groups, rules=info,
        decision=views.decision_view(game), error=error, sel=sel, steps=forms.STEPS_IT,
        step_names=STEP_NAMES, variants=forms.VARIANTS_IT, day_night=forms.DAY_NIGHT_IT,
        can_undo=bool(acts_done), can_redo=bool(doc.get("redo")),
        redo_label=play.describe(doc["redo"][0], st) if doc.get("redo") else "",
        undo_label=play.describe(acts_done[-1], st) if acts_done else "",
        permalink=url_for("scenario.partita", ident=ident, _external=True),
        zones=forms.ZONES_IT, result=game.result, judge=judge, lesson=lesson,
        last=last, last_events=LAST_EVENTS,
        judge_labels={i: play.log_label(a, st) for i, a, _ in played.steps if a.get("type") == "act"},
        full_log=request.args.get("registro") == "completo", goto=_goto(),
        turn_phases=(turn_plan.describe(st.turn.phases, st.turn.phase_at)
                     if st.turn.phases is not None else ""), turn_phases_rules=phases_rules,
    ), status


GOTO_KEY = "simulatore_fino_a"


def _goto() -> str:
    """Where «Avanza fino a» points: the judge's last choice (kept in the session, across actions,
    decisions and games), else the end of the turn."""
    chosen = session.get(GOTO_KEY)
    return chosen if chosen in STEP_NAMES or chosen == "turno" else "cleanup"


@bp.get("/s/<ident>")
def partita(ident: str):
    full = request.args.get("registro") == "completo"
    try:
        doc, played = _game(ident, None if full else LOG_EVENTS)
    except _Redirect as r:
        return redirect(r.url, 303)
    return _stepper_page(ident, doc, played)


def _action_from_form(form) -> tuple[str, dict | None]:
    azione = form.get("azione", "")
    if azione == "passo":
        return azione, {"type": "step"}
    if azione == "turno":
        return azione, {"type": "next_turn"}
    if azione == "vai":
        target = form.get("fino_a", "")
        if target == "turno" or target in STEP_NAMES:
            session[GOTO_KEY] = target  # the choice stays for the next «Vai»
        if target == "turno":
            return azione, {"type": "next_turn"}
        if target not in STEP_NAMES:
            raise IllegalAction("scegli una sottofase valida")
        # stop at the end of a turn without that step (no attackers: no combat damage, 508.8)
        return azione, {"type": "step_to", "step": target, "turn_end": True}
    if azione in ("annulla", "ripeti"):
        return azione, None
    if azione == "predefinita":
        return azione, {"type": "decide", "answer": None}
    if azione == "decidi":
        return azione, {"type": "decide", "answer": "FORM"}
    if azione == "giudice":
        name = form.get("nome", "")
        if name not in acts.ACTIONS:
            raise IllegalAction("azione del giudice sconosciuta: scegline una dall'elenco")
        return azione, {"type": "act", "name": name,
                        "params": acts.params_from_form(acts.spec_for(name), form)}
    raise IllegalAction("azione sconosciuta")


@bp.post("/s/<ident>")
def partita_azione(ident: str):
    doc, played = _game(ident, log=0)
    h = histories()
    try:
        azione, action = _action_from_form(request.form)
        if azione == "annulla":
            save = h.undo(played, doc)
            if save is None:
                raise IllegalAction("non c'è niente da annullare")
        elif azione == "ripeti":
            redone = h.redo(played, doc)
            if redone is None:
                raise IllegalAction("non c'è niente da ripetere")
            save = redone[1]
        else:
            if action["type"] == "decide" and action.get("answer") == "FORM":
                pending = played.game.pending
                if pending is None:
                    raise IllegalAction("nessuna decisione in sospeso")
                action["answer"] = play.answer_from_form(pending, request.form)
            if len(doc.get("actions") or []) >= forms.MAX_ACTIONS:
                raise IllegalAction(f"troppe azioni in una partita (il limite è {forms.MAX_ACTIONS}): "
                                    "esporta lo stato attuale e riparti da lì")
            _, _, save = h.perform(played, doc, action)      # IllegalAction: nothing changed
    except acts.FormError as e:
        doc2, played2 = _game(ident)
        by_field: dict[str, list[str]] = {}
        for f, m in e.errors:
            by_field.setdefault(f, []).append(m)
        return _stepper_page(ident, doc2, played2, 422, sel=request.form, field_errors=by_field,
                             error=IllegalAction("controlla i campi evidenziati"))
    except IllegalAction as e:
        doc2, played2 = _game(ident)          # a fresh open: the state shown is the saved one
        return _stepper_page(ident, doc2, played2, 422, error=e, sel=request.form)
    return redirect(url_for("scenario.partita", ident=_save_game(save)), 303)


@bp.get("/s/<ident>/modifica")
def partita_modifica(ident: str):
    _, played = _game(ident, log=0)
    ident2 = _save(played.game.to_dict(), KIND_SCENARIO)
    return redirect(url_for("scenario.modifica", ident=ident2), 303)


@bp.get("/s/<ident>/scenario.json")
def stato_json(ident: str):
    try:
        _, played = _game(ident, log=0)
    except _Redirect:
        return redirect(url_for("scenario.bozza_json", ident=ident), 303)
    return _download(played.game.to_dict(), f"scenario-{ident}.json")


@bp.get("/s/<ident>/partita.json")
def partita_json(ident: str):
    kind, doc = _load(ident)
    if kind != KIND_GAME:
        return redirect(url_for("scenario.modifica", ident=ident), 303)
    return _download(doc, f"partita-{ident}.json")


@bp.get("/s/<ident>/registro.md")
def registro_md(ident: str):
    doc, played = _game(ident, log=None)
    text = play.markdown_log(played.game.state.title, played,
                             lambda n: rule_url(n, external=True),
                             url_for("scenario.partita", ident=ident, _external=True))
    resp = current_app.response_class(text, mimetype="text/markdown")
    if request.args.get("scarica"):
        resp.headers["Content-Disposition"] = f'attachment; filename="registro-{ident}.md"'
    return resp


# --- JSON API ---------------------------------------------------------------------------------

def _game_json(ident: str, doc: dict, played: play.Played, events=None) -> dict:
    g = played.game
    return {"id": ident, "tipo": KIND_GAME,
            "url": url_for("scenario.partita", ident=ident, _external=True),
            "documento": doc, "stato": g.to_dict(),
            "eventi": [e.to_dict() for e in (played.events if events is None else events)],
            "in_attesa": g.pending, "risultato": g.result,
            "interrotta": played.broken[1] if played.broken else None,
            # the layers (613): how each characteristic an effect or counter changed came to be
            "caratteristiche": explain.explain_board(g.state),
            "effetti_non_applicati": explain.notes(g.state)}


def _game_response(ident: str, save: Save, played: play.Played, events, status: int):
    """``_game_json`` as a response, with the document's canonical JSON (already made to
    save it) put in as it is: encoding a 1,000-action document again would cost as much
    as the step."""
    out = _game_json(ident, {}, played, events)
    # "documento" comes before every other object key, so its first occurrence is this one
    head, tail = json.dumps(out, ensure_ascii=False).encode().split(b'"documento": {}', 1)
    body = head + b'"documento": ' + save.data + tail
    return current_app.response_class(body, status=status, mimetype="application/json")


@bp.get("/api/scenari/<ident>")
def api_get(ident: str):
    kind, doc, data = _load_raw(ident)
    if kind == KIND_GAME:
        _, played = _game(ident, log=None, loaded=(kind, doc, data))
        return jsonify(_game_json(ident, doc, played))
    return jsonify({"id": ident, "tipo": KIND_SCENARIO,
                    "url": url_for("scenario.modifica", ident=ident, _external=True),
                    "documento": doc})


@bp.post("/api/scenari")
def api_save():
    kind, ident = _store_document(_api_body())
    return jsonify({"id": ident, "tipo": kind, "url": _url_for_doc(kind, ident, external=True)}), 201


@bp.post("/api/scenari/<ident>/azioni")
def api_action(ident: str):
    body = _api_body()
    kind, doc, data = _load_raw(ident)
    if kind != KIND_GAME:
        raise BadRequest(409, "Questo id è uno scenario, non una partita: salvalo come partita "
                              "(format \"judge-partita\") per eseguire azioni.")
    if not isinstance(body, dict):
        raise BadRequest(422, 'Azione non valida: atteso un oggetto come {"type": "step"}.')
    kind_ = body.get("type")
    if kind_ not in ("undo", "redo"):
        errs = [(p.replace("actions[0]", "azione"), m)
                for p, m in play.check_game({**doc, "actions": [body]}) if p.startswith("actions")]
        if errs:
            raise BadRequest(422, "Azione non valida.", errs)
        if len(doc.get("actions") or []) >= forms.MAX_ACTIONS:
            raise BadRequest(422, f"Troppe azioni in una partita (il limite è {forms.MAX_ACTIONS}).")
    _, played = _game(ident, log=0, loaded=(kind, doc, data))
    h = histories()
    try:
        if kind_ == "undo":
            save, events = h.undo(played, doc), []
            if save is None:
                raise BadRequest(422, "Non c'è niente da annullare.")
        elif kind_ == "redo":
            redone = h.redo(played, doc)
            if redone is None:
                raise BadRequest(422, "Non c'è niente da ripetere.")
            events, save = redone
        else:
            _, events, save = h.perform(played, doc, body)
    except IllegalAction as e:
        return error_response(422, e.message[:1].upper() + e.message[1:] + ".", rules=e.rules)
    new_ident = _save_game(save)
    if kind_ == "undo":
        played = h.opened(new_ident, save)
    return _game_response(new_ident, save, played, events, 201)
