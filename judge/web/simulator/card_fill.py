"""The builder fills in a card picked by name (Italian or English, typos corrected): types,
subtypes, supertypes, power, toughness, loyalty, defense, colours, mana cost and the keywords
the engine automates, as the builder's Italian form values.

Every field stays editable, and what the judge changed stays theirs: the form carries the
values last filled in from a card (``nuovo.auto``), and a field is filled from a card only
when it is empty or still holds that value. The same rule serves the page without JavaScript
(the «Compila dalla carta» button, or «Aggiungi» with only the card typed) and with it
(static/js/carte.js fills the fields as one picks a suggestion).

A permanent that is a card of the table keeps its name in ``"card"``; the builder shows the
card's page beside it and which fields the judge set apart from the card.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from judge.cards import lookup
from judge.engine.scenario import card_defaults
from judge.web.simulator import forms

FIELDS = ("name", "types", "supertypes", "subtypes", "power", "toughness", "loyalty", "defense",
          "colors", "mana_cost", "keywords")
EXTRA = ("mana_cost", "loyalty", "defense")     # fields the builder has no other input for
DEFAULTS = {"types": forms.TYPES_IT["creature"]}          # what the empty «add» row shows
LABELS = {"name": "Nome", "types": "Tipi", "supertypes": "Supertipi", "subtypes": "Sottotipi",
          "power": "Forza", "toughness": "Costituzione", "loyalty": "Fedeltà", "defense": "Difesa",
          "colors": "Colori", "mana_cost": "Costo di mana", "keywords": "Abilità"}
COLORS_IT = {c: forms.MANA_IT[c] for c in card_defaults.COLORS}
_COLOR_WORDS = {**{v.lower(): k for k, v in COLORS_IT.items()}, **{c.lower(): c for c in COLORS_IT},
                "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
MAX_AUTO_CHARS = 4000


@dataclass
class Fill:
    """The outcome of filling the «add» row from a card."""

    form: dict[str, str]
    errors: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def form_values(filled: card_defaults.Filled) -> dict[str, str]:
    """A card's scenario fields as the builder's form writes them (Italian)."""
    f = filled.fields
    out = {"name": f["name"], "types": forms.to_it(f["types"], forms.TYPES_IT),
           "supertypes": forms.to_it(f["supertypes"], forms.SUPERTYPES_IT),
           "subtypes": ", ".join(f["subtypes"]), "colors": forms.to_it(f["colors"], COLORS_IT),
           "mana_cost": f["mana_cost"] or "", "keywords": forms.to_it(f["keywords"], forms.KEYWORDS_IT)}
    for key in card_defaults.NUMBERS:
        out[key] = "" if f[key] is None else str(f[key])
    return out


def refill(current: Mapping[str, str], auto: Mapping[str, str],
           new: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The values of a card over the form's: a field takes the card's value when it is empty or
    still holds what was filled in last (``auto``); otherwise it is the judge's and stays.
    Returns (values, fields kept as the judge wrote them though the card says otherwise)."""
    out, kept = {}, []
    for key, value in new.items():
        cur = (current.get(key) or "").strip()
        if cur == "" or cur == (auto.get(key) or "").strip():
            out[key] = value
        else:
            out[key] = cur
            if cur != value.strip():
                kept.append(key)
    return out, kept


def _auto(form: Mapping[str, str], prefix: str) -> dict[str, str]:
    raw = form.get(f"{prefix}.auto") or ""
    try:
        data = json.loads(raw) if raw and len(raw) <= MAX_AUTO_CHARS else {}
    except (ValueError, RecursionError):     # too deep for the parser: ignored like any invalid value
        data = {}
    if not isinstance(data, dict):
        data = {}
    return {**DEFAULTS, **{k: v for k, v in data.items() if k in (*FIELDS, "card") and isinstance(v, str)}}


def prepare(form: Mapping[str, str], prefix: str = "nuovo") -> Fill:
    """The form with the «add» row filled from the card typed in it (if any)."""
    out = Fill({k: form.get(k) for k in form})
    text = (form.get(f"{prefix}.card") or "").strip()
    if not text:
        return out
    try:
        found = lookup.exact(text) or lookup.named(text, limit=2)
    except OSError:
        out.errors.append((f"{prefix}.card", "tabella delle carte non disponibile su questo server"))
        return out
    if len(found) != 1:
        try:
            lookup.resolve(text)
        except lookup.CardNotFound as e:
            out.errors.append((f"{prefix}.card", e.message))
        return out
    match = found[0]
    auto = _auto(form, prefix)
    if auto.get("card") == match.face.name:     # filled from this card already: nothing to redo
        return out
    filled = card_defaults.card_fields(match.face, match.face_name)
    new = form_values(filled)
    values, kept = refill({k: form.get(f"{prefix}.{k}") or "" for k in FIELDS}, auto, new)
    out.form.update({f"{prefix}.{k}": v for k, v in values.items()})
    out.form[f"{prefix}.card"] = match.face.name
    out.form[f"{prefix}.auto"] = json.dumps({**new, "card": match.face.name}, ensure_ascii=False)
    out.notes.append(describe(filled, match, kept, new))
    return out


def describe(filled: card_defaults.Filled, match: lookup.Match, kept: list[str],
             new: Mapping[str, str]) -> str:
    """What was filled in and what was not, in Italian, for the judge."""
    face = match.face
    parts = [f"Compilato da «{face.display_name}»" + (f" ({face.english_aside})" if face.english_aside else "")]
    if not match.exact:
        parts[0] += f", il nome più vicino a quello scritto"
    if kept:
        parts.append("mantenuti i tuoi valori: " + ", ".join(f"{LABELS[k]} (la carta: {new[k] or 'nessuno'})" for k in kept))
    if filled.printed:
        parts.append("da indicare a mano: " + ", ".join(f"{card_defaults.NUMBER_LABELS[k]} «{v}»"
                                                      for k, v in filled.printed.items()))
    if filled.not_automated:
        parts.append("parole chiave non automatizzate dal simulatore: " + ", ".join(filled.not_automated))
    if filled.other_types:
        parts.append("tipi che il simulatore non usa: " + ", ".join(filled.other_types))
    return "; ".join(parts) + ". Controlla i campi e premi «Aggiungi»."


def read_extra(r: forms.FormReader, prefix: str, obj: dict[str, Any]) -> None:
    """The card, mana cost, loyalty and defense of a permanent from the form. An
    emptied field of a card's permanent is written empty, so the card does not fill it again."""
    is_card = bool(obj.get("card"))
    if r.has(f"{prefix}.card"):
        text = r.text(f"{prefix}.card")
        if text:
            obj["card"] = text
            is_card = True
    if r.has(f"{prefix}.mana_cost"):
        cost = re.sub(r"\s+", "", r.text(f"{prefix}.mana_cost")).upper()
        _put(obj, "mana_cost", cost or None, is_card)
    for key in ("loyalty", "defense"):
        if r.has(f"{prefix}.{key}"):
            _put(obj, key, r.int(f"{prefix}.{key}", obj.get(key), nullable=True, minimum=0), is_card)


def _put(obj: dict, key: str, value: Any, keep_empty: bool) -> None:
    if value in (None, []) and not keep_empty:
        obj.pop(key, None)
    else:
        obj[key] = value


def field_names(d: dict) -> set[str]:
    """The builder's form fields this module adds (for placing errors)."""
    out = {f"nuovo.{k}" for k in ("card", *EXTRA)}
    for i, _ in enumerate(d.get("battlefield") or []):
        out |= {f"battlefield[{i}].{k}" for k in EXTRA}
    return out


def card_rows(d: dict) -> dict[int, dict]:
    """For each permanent that is a card of the table: its face and the fields the judge set
    apart from the card ({field: the card's value, as the form writes it})."""
    out: dict[int, dict] = {}
    for i, c in enumerate(d.get("battlefield") or []):
        if not isinstance(c, dict) or not isinstance(c.get("card"), str):
            continue
        try:
            found = lookup.exact(c["card"])
        except OSError:
            return {}
        if len(found) != 1:
            continue
        card = form_values(card_defaults.card_fields(found[0].face, found[0].face_name))
        mine = form_values(card_defaults.Filled(found[0].face, {
            **card_defaults.card_fields(found[0].face).fields,
            **{k: c[k] for k in FIELDS if k in c}}))
        out[i] = {"face": found[0].face,
                  "changed": {k: card[k] for k in FIELDS if k != "name" and mine[k] != card[k]}}
    return out


def expanded(draft: dict) -> dict:
    """The draft with each permanent that names a card completed from the table (what the
    engine will read), so the builder shows and saves every value."""
    bf = draft.get("battlefield") if isinstance(draft, dict) else None
    if not isinstance(bf, list) or not any(isinstance(c, dict) and "card" in c for c in bf):
        return draft
    out = dict(draft)
    out["battlefield"] = [card_defaults.with_card(c, "", True, lambda p, m: None)
                          if isinstance(c, dict) and isinstance(c.get("card"), str) else c for c in bf]
    return out


def apply(draft: dict, form: Mapping[str, str]) -> tuple[dict, list[tuple[str, str]], str]:
    """``forms.apply_form`` with the fields of this module: colours, mana cost,
    loyalty and defense of each permanent, and the card of the one added."""
    d = copy.deepcopy(draft)
    r = forms.FormReader(form)
    rows = d.get("battlefield") or []
    for i, c in enumerate(rows):
        if isinstance(c, dict) and r.has(f"battlefield[{i}].present"):
            read_extra(r, f"battlefield[{i}]", c)
    before = {c.get("id") for c in rows if isinstance(c, dict)}
    new, errors, focus = forms.apply_form(d, form)
    for c in new.get("battlefield") or []:
        if not isinstance(c, dict):
            continue
        if c.get("id") not in before:
            read_extra(r, "nuovo", c)             # the permanent just added
        if c.get("card"):                          # emptied by the judge: stays empty
            for key in FIELDS:
                c.setdefault(key, [] if key in ("types", "supertypes", "subtypes", "colors", "keywords") else None)
    return new, errors + r.errors, focus
