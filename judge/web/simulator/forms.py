"""The builder's form ↔ scenario data, Italian names for the engine's English values, web limits.

Form fields are named after the scenario path they edit (``players[0].life``,
``battlefield[2].counters``), so the engine's validation errors, which carry
the same paths, land next to the right field.
"""

from __future__ import annotations

import copy
import re
from typing import Any, Mapping

from judge.engine import terms
from judge.engine.characteristics import keywords as kw
from judge.engine.scenario import parse as sc
from judge.engine.scenario import templates
from judge.engine.state import CARD_LISTS, ZONES
from judge.engine.steps import STEPS
from judge.engine.validation import NEGATIVE, OUT_OF_RANGE
from judge.web.simulator import state_fields

# --- Italian labels ------------------------------------------------------------------

# Names of things the terminology table names come from it (through the engine's terms),
# so the builder, the stepper and the engine's log say each thing one way.
VARIANTS_IT = {
    "two-player": "Partita a due giocatori",
    "free-for-all": "Tutti contro tutti",
    "commander": terms.italian("Commander"),
    "two-headed-giant": terms.TWO_HEADED_GIANT,
    "brawl": "Brawl",
    "archenemy": terms.italian("Archenemy"),
    "vanguard": terms.italian("Vanguard"),
}
STEPS_IT = {s.name: s.label for s in STEPS}
ZONE_LABELS = {z: it[:1].upper() + it[1:] for z, it in terms.ZONE_IT.items()}   # every zone
ZONES_IT = {z: ZONE_LABELS[z] for z in ZONES}                                   # the builder's
TYPES_IT = dict(terms.TYPE_IT)
SUPERTYPES_IT = {"legendary": terms.italian("legendary"), "world": "mondo", "basic": "base",
                 "snow": "neve"}
KEYWORDS_IT = kw.KEYWORD_IT        # keywords and the engine's combat abilities (keywords.py)
COUNTERS_IT = terms.COUNTER_IT
DAY_NIGHT_IT = {"day": terms.italian("day"), "night": terms.italian("night")}
MANA_IT = terms.MANA_IT
ATTACK_IT = {"multiple": "più giocatori (attacco multiplo)", "choose": "un solo avversario scelto",
             "left": "l'avversario a sinistra", "right": "l'avversario a destra"}

# Extra Italian spellings accepted in the form (besides the labels above and the English values).
_ALIASES = {"creature": ["creature"], "artifact": ["artefatti"], "land": ["terre"],
            "legendary": ["leggendaria", "leggendari", "leggendarie"],
            "basic": ["base"], "loyalty": ["fedelta", "lealtà", "lealta"],
            "kindred": ["tribale"]}

GENERIC_CARD = templates.PLACEHOLDER_CARD   # name of the cards a number stands for ("7" in a zone)

# --- web limits (stricter than the engine's, which are for files) -------------------

MAX_PLAYERS = 8
MAX_PERMANENTS = 300
MAX_CARDS = 1500                  # in all zones together, battlefield included
MAX_ACTIONS = 1000                # in a saved game
MAX_ZONE_COUNT = 250              # the number that stands for generic cards in one zone


def _table(labels: dict[str, str]) -> dict[str, str]:
    out = {}
    for en, it in labels.items():
        out[en.lower()] = en
        out[it.lower()] = en
        for extra in _ALIASES.get(en, []):
            out[extra] = en
    return out


_TYPES = _table(TYPES_IT)
_SUPERTYPES = _table(SUPERTYPES_IT)
_COUNTERS = _table(COUNTERS_IT)


def counter_kind(text: str) -> str:
    """A counter kind as the engine names it ("fedeltà" → "loyalty"); other kinds as written."""
    return _COUNTERS.get(text.strip().lower(), text.strip())


def split_list(text: str) -> list[str]:
    return [x.strip() for x in re.split(r"[,;\n]", text or "") if x.strip()]


def to_it(values: list[str], labels: dict[str, str]) -> str:
    return ", ".join(labels.get(v, v) for v in values or [])


def keywords_text(texts: list[str] | None, name_of=None, protection: bool = True) -> str:
    """Keywords in Italian («volare, protezione dal rosso»); without the protections when the
    form shows them in their own field."""
    return ", ".join(kw.italian(t, name_of) for t in texts or []
                     if protection or not t.startswith("protection from "))


def protection_text(texts: list[str] | None, name_of=None) -> str:
    """The qualities of a permanent's protections, for the form's own field: «rosso, Bruno»."""
    return ", ".join(kw.quality_noun(t[len("protection from "):], name_of) for t in texts or []
                     if t.startswith("protection from "))


def colors_text(colors) -> str:
    """«rosso, verde»: the colours of an object in Italian."""
    return ", ".join(MANA_IT.get(c, c) for c in colors or [])


def parse_colors(r: "FormReader", name: str) -> list[str] | None:
    """The colours field (Italian or English names, or W U B R G) → mana symbols."""
    if not r.has(name):
        return None
    out = []
    for item in split_list(r.text(name)):
        sym = kw.color_symbol(item)
        if sym is None:
            r.errors.append((name, f"colore sconosciuto «{item}» (bianco, blu, nero, rosso, verde)"))
        elif sym not in out:
            out.append(sym)
    return out


def parse_keywords(text: str) -> list[str]:
    """Comma-separated keywords, in Italian or English → stored texts; ValueError (Italian)."""
    try:
        return kw.canonical(split_list(text))
    except kw.KeywordError as e:
        cited = f" (regola {', '.join(e.rules)})" if e.rules and "regola" not in e.message else ""
        raise ValueError(e.message + cited) from None


def parse_protection(text: str, players: Mapping[str, str]) -> list[str]:
    """«rosso, creature, Bruno» → protection keywords; ``players``: name or id (lower case) →
    id.  ValueError (Italian)."""
    out = []
    for item in split_list(text):
        pid = players.get(item.lower())
        quality = f"giocatore {pid}" if pid else item
        out += parse_keywords(f"protezione da {quality}")
    return out


KEYWORD_GROUPS = (("combat", "Combattimento e danno"), ("evasion", "Evasione: chi può bloccare"),
                  ("protection", "Protezione"), ("targets", "Bersagli"),
                  ("trigger", "Abilità innescate del combattimento"),
                  ("restriction", "Restrizioni (abilità che non sono parole chiave)"),
                  ("requirement", "Requisiti (abilità che non sono parole chiave)"),
                  ("other", "Altre"))


def keyword_help() -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Every keyword the engine knows, by group: (Italian as written in the form, English
    name, rule), for the builder's list and the forms' suggestions."""
    out = []
    for group, label in KEYWORD_GROUPS:
        rows = []
        for spec in kw.REGISTRY:
            if spec.group != group:
                continue
            it = spec.italian
            written = {"n": f"{it} N", "cost": f"{it} {{costo}}", "quality": f"{it} da …",
                       "quality?": f"{it} (o {it} da …)"}.get(spec.param, it)
            if spec.param == "land":
                written = ", ".join(kw.italian(k) for k in kw.LANDWALKS)
            rows.append((written, spec.name, spec.rule))
        out.append((label, rows))
    return out


def keyword_suggestions() -> list[str]:
    """Italian texts to offer in a keywords field (a datalist)."""
    out = []
    for spec in kw.REGISTRY:
        out += [kw.italian(e) for e in kw.examples(spec) if "player" not in e]
    return out


def counters_text(counters: Mapping[str, int] | None) -> str:
    return ", ".join(f"{COUNTERS_IT.get(k, k)}: {n}" for k, n in (counters or {}).items())


def limit_errors(data: Any) -> list[tuple[str, str]]:
    """The web's limits on a scenario's size (Italian, with paths)."""
    if not isinstance(data, dict):
        return []
    errs = []
    players = data.get("players") if isinstance(data.get("players"), list) else []
    bf = data.get("battlefield") if isinstance(data.get("battlefield"), list) else []
    if len(players) > MAX_PLAYERS:
        errs.append(("players", f"troppi giocatori: {len(players)} (il limite è {MAX_PLAYERS})"))
    if len(bf) > MAX_PERMANENTS:
        errs.append(("battlefield", f"troppi permanenti: {len(bf)} (il limite è {MAX_PERMANENTS})"))
    cards = len(bf)
    for p in players:
        if isinstance(p, dict):
            for z in CARD_LISTS:
                if isinstance(p.get(z), list):
                    cards += len(p[z])
    if cards > MAX_CARDS:
        errs.append(("", f"troppe carte: {cards} in tutto (il limite è {MAX_CARDS})"))
    return errs


# --- ids ----------------------------------------------------------------------------

def all_ids(data: dict) -> set[str]:
    ids: set[str] = set()
    for p in data.get("players") or []:
        if isinstance(p, dict):
            ids.add(str(p.get("id")))
            for z in CARD_LISTS:
                for c in p.get(z) or []:
                    if isinstance(c, dict):
                        ids.add(str(c.get("id")))
    for c in data.get("battlefield") or []:
        if isinstance(c, dict):
            ids.add(str(c.get("id")))
    for s in data.get("stack") or []:
        if isinstance(s, dict):
            ids.add(str(s.get("id")))
            if isinstance(s.get("card"), dict):
                ids.add(str(s["card"].get("id")))
    return ids


def new_id(prefix: str, used: set[str]) -> str:
    n = 1
    while f"{prefix}{n}" in used:
        n += 1
    used.add(f"{prefix}{n}")
    return f"{prefix}{n}"


# --- zones as text --------------------------------------------------------------------

def _is_generic(c: Any) -> bool:
    return (isinstance(c, dict) and c.get("name") == GENERIC_CARD
            and not c.get("types") and set(c) <= {"id", "name", "types", "owner"})


def zone_text(cards: list[dict]) -> str:
    """One card per line; a run of generic cards is written as its number."""
    lines: list[str] = []
    run = 0
    for c in cards or []:
        if _is_generic(c):
            run += 1
            continue
        if run:
            lines.append(str(run))
            run = 0
        lines.append(str(c.get("name", "")) if isinstance(c, dict) else "")
    if run:
        lines.append(str(run))
    return "\n".join(lines)


def parse_zone(text: str, old: list, owner: str, used: set[str], path: str,
               errors: list[tuple[str, str]]) -> list[dict]:
    """Lines → cards.  A line that is a number N stands for N generic cards.  A line
    naming the card already in that position keeps it (with its types and id)."""
    flat_old = [c for c in old if isinstance(c, dict)]
    out: list[dict] = []
    for line in (text or "").splitlines():
        line = line.strip()
        if not line:
            continue
        if re.fullmatch(r"\d+", line):
            n = int(line)
            if n > MAX_ZONE_COUNT:
                errors.append((path, f"al massimo {MAX_ZONE_COUNT} carte generiche per riga"))
                n = 0
            for _ in range(n):
                pos = len(out)
                if pos < len(flat_old) and _is_generic(flat_old[pos]):
                    out.append(flat_old[pos])
                else:
                    out.append({"id": new_id(f"{owner}-c", used), "name": GENERIC_CARD,
                                "types": []})
            continue
        pos = len(out)
        if pos < len(flat_old) and flat_old[pos].get("name") == line:
            out.append(flat_old[pos])
        else:
            kept = next((c for c in flat_old if c.get("name") == line and c not in out), None)
            out.append(kept or {"id": new_id(f"{owner}-c", used), "name": line, "types": []})
    for c in out:
        used.add(str(c.get("id")))
    return out


# --- the builder form -------------------------------------------------------------------

class FormReader:
    """Typed reads of form fields, collecting Italian errors under the field's path."""

    def __init__(self, form: Mapping[str, str]):
        self.form = form
        self.errors: list[tuple[str, str]] = []

    def has(self, name: str) -> bool:
        return name in self.form

    def text(self, name: str, default: str = "") -> str:
        v = self.form.get(name)
        return default if v is None else str(v).strip()

    def int(self, name: str, default: int | None = None, nullable: bool = False,
            minimum: int | None = None) -> int | None:
        raw = self.form.get(name)
        if raw is None:
            return default
        raw = str(raw).strip().replace("−", "-")
        if raw == "":
            if nullable:
                return None
            self.errors.append((name, "atteso un intero"))
            return default
        if not re.fullmatch(r"[+-]?\d{1,10}", raw):
            self.errors.append((name, "atteso un intero"))
            return default
        n = int(raw)
        if abs(n) > sc.MAX_INT:
            self.errors.append((name, OUT_OF_RANGE))
            return default
        if minimum is not None and n < minimum:
            self.errors.append((name, NEGATIVE if minimum == 0 else
                                f"atteso un intero maggiore o uguale a {minimum}"))
            return default
        return n

    def bool(self, name: str) -> bool:
        return self.form.get(name) in ("1", "on", "true", "si", "sì")

    def choice_list(self, name: str, table: dict[str, str], what: str) -> list[str] | None:
        raw = self.form.get(name)
        if raw is None:
            return None
        out = []
        for item in split_list(raw):
            en = table.get(item.lower())
            if en is None:
                labels = _labels_for(table)
                self.errors.append((name, f'{what} sconosciut{"a" if what.startswith("parola") else "o"} '
                                    f'"{item}" (ammessi: {", ".join(labels.values())})'))
                continue
            if en not in out:
                out.append(en)
        return out

    def keywords(self, name: str, protection: str | None = None,
                 players: Mapping[str, str] | None = None) -> list[str] | None:
        """The keywords field ``name`` (and the protection field, if given), parsed."""
        if name not in self.form and (protection is None or protection not in self.form):
            return None
        out: list[str] = []
        for field, parse in ((name, parse_keywords),
                             (protection, lambda t: parse_protection(t, players or {}))):
            if field is None or field not in self.form:
                continue
            try:
                out += [k for k in parse(self.text(field)) if k not in out
                        or not k.startswith("protection from ")]
            except ValueError as e:
                self.errors.append((field, str(e)))
        return out

    def counters(self, name: str) -> dict[str, int] | None:
        raw = self.form.get(name)
        if raw is None:
            return None
        out: dict[str, int] = {}
        for item in split_list(raw):
            m = re.fullmatch(r"(.+?)\s*[:=]\s*([+-]?\d{1,9})", item) or \
                re.fullmatch(r"([+-]?\d{1,9})\s+(.+)", item)
            if not m:
                self.errors.append((name, f'segnalini: scrivi "tipo: numero" (es. "+1/+1: 2"), '
                                    f'non "{item}"'))
                continue
            a, b = m.groups()
            kind, n = (a, int(b)) if not re.fullmatch(r"[+-]?\d+", a) else (b, int(a))
            kind = counter_kind(kind)
            if n < 0:
                self.errors.append((name, "il numero di segnalini non può essere negativo"))
                continue
            if n:
                out[kind] = out.get(kind, 0) + n
        return out


def _labels_for(table: dict[str, str]) -> dict[str, str]:
    for labels in (TYPES_IT, SUPERTYPES_IT):
        if set(table.values()) == set(labels):
            return labels
    return {}


def _nullable_choice(r: FormReader, name: str, allowed: set[str]) -> tuple[bool, str | None]:
    if not r.has(name):
        return False, None
    v = r.text(name)
    if v == "":
        return True, None
    if v not in allowed:
        r.errors.append((name, "scelta non valida"))
        return False, None
    return True, v


def player_names(data: dict) -> dict[str, str]:
    """Players by lower-case name and id, for the protection field («Bruno» → p2)."""
    out = {}
    for p in data.get("players") or []:
        if isinstance(p, dict) and isinstance(p.get("id"), str):
            out[str(p.get("name") or p["id"]).lower()] = p["id"]
            out[p["id"].lower()] = p["id"]
    return out


def new_permanent(r: FormReader, prefix: str, data: dict, used: set[str]) -> dict | None:
    """The quick "add a permanent" row of the builder (None when its name is empty)."""
    name = r.text(f"{prefix}.name")
    if not name:
        return None
    players = [p.get("id") for p in data.get("players") or [] if isinstance(p, dict)]
    ctrl = r.text(f"{prefix}.controller") or (players[0] if players else "")
    perm: dict[str, Any] = {"id": new_id("perm", used), "name": name,
                            "types": r.choice_list(f"{prefix}.types", _TYPES, "tipo") or [],
                            "controller": ctrl, "owner": ctrl}
    keywords = r.keywords(f"{prefix}.keywords", f"{prefix}.protection", player_names(data))
    if keywords:
        perm["keywords"] = keywords
    colors = parse_colors(r, f"{prefix}.colors")
    if colors:
        perm["colors"] = colors
    sup = r.choice_list(f"{prefix}.supertypes", _SUPERTYPES, "supertipo")
    if sup:
        perm["supertypes"] = sup
    subs = split_list(r.text(f"{prefix}.subtypes"))
    if subs:
        perm["subtypes"] = subs
    for key in ("power", "toughness"):
        n = r.int(f"{prefix}.{key}", nullable=True)
        if n is not None:
            perm[key] = n
    counters = r.counters(f"{prefix}.counters")
    if counters:
        perm["counters"] = counters
    for key in ("tapped", "summoning_sick", "token"):
        if r.bool(f"{prefix}.{key}"):
            perm[key] = True
    return perm


def apply_form(draft: dict, form: Mapping[str, str]) -> tuple[dict, list[tuple[str, str]], str]:
    """Apply the builder form to a copy of ``draft``.

    Returns ``(new data, errors, focus)``: ``errors`` are the form's own errors
    (numbers that are not numbers, unknown keywords …); the engine validates the
    result afterwards.  ``focus`` names the field to focus after the action.
    """
    d = copy.deepcopy(draft)
    r = FormReader(form)
    used = all_ids(d)
    focus = ""
    if r.has("title"):
        d["title"] = r.text("title")
    # The description, and the question the scenario asks with its answer (shared as a question:
    # the simulator shows the question on top and the answer behind «Mostra la risposta»).
    for key in ("description", "question", "answer"):
        if r.has(key):
            value = r.text(key)
            if value:
                d[key] = value
            else:
                d.pop(key, None)
    player_ids = {p.get("id") for p in d.get("players") or [] if isinstance(p, dict)}
    if r.has("options.attack"):
        v = r.text("options.attack")
        if v in ATTACK_IT:
            d.setdefault("options", {})["attack"] = v
        else:
            r.errors.append(("options.attack", "scelta non valida"))
    # turn and designations
    turn = d.setdefault("turn", {})
    where = (turn.get("number"), turn.get("active_player"), turn.get("step"))
    n = r.int("turn.number", turn.get("number", 1), minimum=1)
    if n is not None:
        turn["number"] = n
    if r.has("turn.active_player"):
        turn["active_player"] = r.text("turn.active_player")
    if r.has("turn.step"):
        turn["step"] = r.text("turn.step")
    if where != (turn.get("number"), turn.get("active_player"), turn.get("step")):
        # the phases an effect added (500.8) belong to the turn and step the draft was at
        for key in ("phases", "phase_at", "step_at"):
            turn.pop(key, None)
    if r.has("day_night"):
        v = r.text("day_night")
        if v in ("", "day", "night"):
            d["day_night"] = v or None
        else:
            r.errors.append(("day_night", "scelta non valida"))
    for key in ("monarch", "initiative"):
        ok, v = _nullable_choice(r, key, player_ids)
        if ok:
            d[key] = v
    # players
    for i, p in enumerate(d.get("players") or []):
        pre = f"players[{i}]"
        if not isinstance(p, dict) or not r.has(f"{pre}.name"):
            continue
        p["name"] = r.text(f"{pre}.name") or str(p.get("id"))
        for key in ("life", "poison"):
            v = r.int(f"{pre}.{key}", p.get(key), minimum=0 if key == "poison" else None)
            if v is not None:
                p[key] = v
        if r.has(f"{pre}.max_hand_size"):
            p["max_hand_size"] = r.int(f"{pre}.max_hand_size", p.get("max_hand_size"),
                                       nullable=True, minimum=0)
        for z in ZONES:
            if r.has(f"{pre}.{z}"):
                p[z] = parse_zone(r.text(f"{pre}.{z}"), p.get(z) or [], str(p.get("id")), used,
                                  f"{pre}.{z}", r.errors)
    # permanents
    for i, c in enumerate(d.get("battlefield") or []):
        pre = f"battlefield[{i}]"
        if not isinstance(c, dict) or not r.has(f"{pre}.name"):
            continue
        c["name"] = r.text(f"{pre}.name") or c.get("name", "")
        keywords = r.keywords(f"{pre}.keywords", f"{pre}.protection", player_names(d))
        if keywords is not None:
            if keywords:
                c["keywords"] = keywords
            else:
                c.pop("keywords", None)
        colors = parse_colors(r, f"{pre}.colors")
        if colors is not None:
            if colors:
                c["colors"] = colors
            else:
                c.pop("colors", None)
        for key, table, what in (("types", _TYPES, "tipo"), ("supertypes", _SUPERTYPES, "supertipo")):
            vals = r.choice_list(f"{pre}.{key}", table, what)
            if vals is not None:
                if vals or key == "types":
                    c[key] = vals
                else:
                    c.pop(key, None)
        if r.has(f"{pre}.subtypes"):
            subs = split_list(r.text(f"{pre}.subtypes"))
            if subs:
                c["subtypes"] = subs
            else:
                c.pop("subtypes", None)
        for key in ("power", "toughness"):
            if r.has(f"{pre}.{key}"):
                v = r.int(f"{pre}.{key}", c.get(key), nullable=True)
                if v is None:
                    c.pop(key, None)
                else:
                    c[key] = v
        if r.has(f"{pre}.damage"):
            c["damage"] = r.int(f"{pre}.damage", c.get("damage", 0), minimum=0) or 0
        counters = r.counters(f"{pre}.counters")
        if counters is not None:
            c["counters"] = counters
        if r.has(f"{pre}.present"):
            for key in ("tapped", "summoning_sick", "phased_out", "token"):
                c[key] = r.bool(f"{pre}.{key}")
        for key in ("controller", "owner"):
            if r.has(f"{pre}.{key}"):
                c[key] = r.text(f"{pre}.{key}")
        if r.has(f"{pre}.attached_to"):
            c["attached_to"] = r.text(f"{pre}.attached_to") or None
    state_fields.apply_players(d, r, draft)
    focus = state_fields.apply_stack(d, r, used, new_id) or focus
    if r.bool("azzera_procedura"):
        for key in ("pending", "procedure", "answers"):
            d.pop(key, None)
    # actions: add, duplicate, remove
    action = r.text("azione", "salva")
    perm = new_permanent(r, "nuovo", d, used)
    if perm is not None:
        d.setdefault("battlefield", []).append(perm)
        focus = "nuovo.name"
    bf = d.get("battlefield") or []
    m = re.fullmatch(r"(rimuovi|duplica|su|giu):(\d{1,4})", action)
    if m and int(m.group(2)) < len(bf):
        kind, i = m.group(1), int(m.group(2))
        if kind == "rimuovi":
            gone = bf.pop(i).get("id")
            for c in bf:
                if isinstance(c, dict) and c.get("attached_to") == gone:
                    c["attached_to"] = None
            focus = "nuovo.name"
        elif kind == "duplica":
            twin = copy.deepcopy(bf[i])
            twin["id"] = new_id("perm", used)
            bf.insert(i + 1, twin)
            focus = f"battlefield[{i + 1}].name"
        elif kind == "su" and i > 0:
            bf[i - 1], bf[i] = bf[i], bf[i - 1]
            focus = f"battlefield[{i - 1}].name"
        elif kind == "giu" and i + 1 < len(bf):
            bf[i + 1], bf[i] = bf[i], bf[i + 1]
            focus = f"battlefield[{i + 1}].name"
    return d, r.errors, focus


def field_for(path: str, fields: set[str]) -> str:
    """The form field an engine error path belongs to (``players[0].hand[3].owner`` → the
    hand textarea); "" when no field shows it."""
    p = path
    while p:
        if p in fields:
            return p
        cut = max(p.rfind("."), p.rfind("["))
        if cut <= 0:
            break
        p = p[:cut]
    return ""
