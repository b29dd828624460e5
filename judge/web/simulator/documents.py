"""The documents the simulator's routes read and write: scenarios and games loaded from and saved
to the store (a :class:`BadRequest` when that fails), JSON bodies and uploads checked before they
are parsed, files to download."""

from __future__ import annotations

import json
import os
from typing import Any

from flask import Response, current_app, request, url_for

from judge.web.simulator import play
from judge.web.simulator.blueprint import BadRequest
from judge.web.simulator.history import Histories
from judge.web.simulator.store import (MAX_DOCUMENT_BYTES, MAX_JSON_DEPTH, CorruptDocument,
                                       StoreError, check_document, document_id, json_depth,
                                       lone_surrogate, store_for, surrogate_message)

KIND_SCENARIO = "scenario"
KIND_GAME = "partita"
MAX_UPLOAD_BYTES = MAX_DOCUMENT_BYTES * 2      # a pretty-printed file is larger than its canonical form


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
        raise BadRequest(e.status, e.message) from None


def _load(ident: str) -> tuple[str, Any]:
    return _load_raw(ident)[:2]


def _load_raw(ident: str) -> tuple[str, Any, bytes]:
    """``(kind, document, its canonical JSON)``; 404 or 500 (damaged) as a BadRequest."""
    try:
        # a visit (not a POST acting on it) marks the document opened: never pruned (judge/store/pruning.py)
        found = _store().load_raw(ident, opening=request.method in ("GET", "HEAD"))
    except CorruptDocument:
        current_app.logger.error("documento danneggiato nel database: %s", ident)
        raise BadRequest(500, "Questo scenario salvato è danneggiato e non può essere aperto.") from None
    if found is None:
        raise BadRequest(404, "Scenario non trovato: l'indirizzo è sbagliato o incompleto.")
    return found


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
    bad = lone_surrogate(data)
    if bad is not None:
        raise BadRequest(422, surrogate_message(bad))
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
            raise BadRequest(e.status, e.message) from None
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


def _download(data: Any, name: str, mimetype: str = "application/json") -> Response:
    body = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    resp = Response(body, mimetype=mimetype)
    resp.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp
