"""The builder's «Effetti continui»: each effect of the scenario as its JSON (editable, with the
engine's errors beside it), and a new one from a card's templates (the card's text shown beside,
the judge fills the blanks: the permanent with the ability, the chosen colour or type, the
target) or written as JSON.  The templates are a table (judge.engine.scenario.effect_templates),
not a parser of card text.

Fields: ``effects[i]`` (the JSON of effect i), ``effetto.carta``, ``effetto.modello`` (the
template's index), ``effetto.<blank>`` (source, target, color, type, power, toughness, player),
``effetto.json``; actions ``effetto-modelli``, ``effetto-aggiungi``, ``effetto-rimuovi:i``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from judge.cards.lookup import CardNotFound, resolve
from judge.engine.scenario import effect_templates as et
from judge.engine.state import MANA_COLORS
from judge.web.simulator import forms

MAX_JSON = 20_000


def effects_json(d: dict) -> list[str]:
    """Each effect of the draft as the text of its field."""
    return [json.dumps(e, ensure_ascii=False, indent=1) for e in d.get("effects") or []]


@dataclass
class Picked:
    """The card whose templates the builder shows, and its text."""

    name: str
    text: str
    templates: tuple[et.Template, ...]
    error: str = ""


def picked(form: Mapping[str, str] | None) -> Picked | None:
    raw = ((form or {}).get("effetto.carta") or "").strip()
    if not raw:
        return None
    try:
        face = resolve(raw[:200])
    except CardNotFound as e:
        return Picked(raw, "", (), e.message)
    found = et.for_card(face.name)
    error = "" if found else (f"nessun modello per {face.name}: scrivi l'effetto in JSON (i modelli "
                              f"sono per {', '.join(et.cards())})")
    return Picked(face.name, face.text or "", found, error)


def options(d: dict) -> dict[str, list[tuple[str, str]]]:
    """The choices of the blanks: permanents, players, colours."""
    perms = [(str(c.get("id")), f"{c.get('name')} ({c.get('id')})")
             for c in d.get("battlefield") or [] if isinstance(c, dict)]
    players = [(str(p.get("id")), str(p.get("name") or p.get("id")))
               for p in d.get("players") or [] if isinstance(p, dict)]
    return {"source": perms, "target": perms, "player": players,
            "color": [(c, forms.MANA_IT[c]) for c in MANA_COLORS]}


def apply(d: dict, form: Mapping[str, str], errors: list[tuple[str, str]]) -> str:
    """Read the effects' fields into ``d`` (in place); returns the field to focus."""
    effects = list(d.get("effects") or [])
    for i in range(len(effects)):
        name = f"effects[{i}]"
        if name not in form:
            continue
        raw = form.get(name) or ""
        try:
            value = json.loads(raw) if len(raw) <= MAX_JSON else None
        except ValueError as e:
            errors.append((name, f"JSON non valido: {e}"))
            continue
        if not isinstance(value, dict):
            errors.append((name, "atteso un oggetto JSON (un effetto)"))
            continue
        effects[i] = value
    action = form.get("azione") or ""
    focus = ""
    m = re.fullmatch(r"effetto-rimuovi:(\d{1,4})", action)
    if m and int(m.group(1)) < len(effects):
        effects.pop(int(m.group(1)))
        focus = "effetto.carta"
    if action == "effetto-aggiungi":
        new = _new_effect(d, form, errors)
        if new is not None:
            new.setdefault("id", _new_id(d, effects))
            effects.append(new)
            focus = f"effects[{len(effects) - 1}]"
    if effects:
        d["effects"] = effects
    else:
        d.pop("effects", None)
    return focus


def _new_id(d: dict, effects: list) -> str:
    used = forms.all_ids(d) | {e.get("id") for e in effects if isinstance(e, dict)}
    return forms.new_id("e", used)


def _new_effect(d: dict, form: Mapping[str, str], errors: list[tuple[str, str]]) -> dict | None:
    raw = (form.get("effetto.json") or "").strip()
    pick = picked(form)
    choice = (form.get("effetto.modello") or "").strip()
    if pick is not None and pick.templates and choice.isdigit() and int(choice) < len(pick.templates):
        values: dict[str, Any] = {}
        for blank in et.BLANKS:
            v = (form.get(f"effetto.{blank}") or "").strip()
            if blank in ("power", "toughness") and re.fullmatch(r"-?\d{1,6}", v):
                values[blank] = int(v)
            elif v:
                values[blank] = v
        effect, errs = et.fill(pick.templates[int(choice)], values, pick.name)
        errors += [(f"effetto.{b}", m) for b, m in errs]
        return effect or None
    if raw:
        try:
            value = json.loads(raw) if len(raw) <= MAX_JSON else None
        except ValueError as e:
            errors.append(("effetto.json", f"JSON non valido: {e}"))
            return None
        if not isinstance(value, dict):
            errors.append(("effetto.json", "atteso un oggetto JSON (un effetto)"))
            return None
        return value
    errors.append(("effetto.carta", "scegli un modello della carta o scrivi l'effetto in JSON"))
    return None
