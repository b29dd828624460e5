"""The judge actions in the stepper: forms built from the engine's action registry.

Every action in ``judge.engine.registry.ACTIONS`` gets a form: its parameters are read
from the function's signature, and each becomes a widget chosen by the parameter's name
(``player`` → the players, ``object`` → the permanents, ``kind`` → a counter kind …) or,
for names this module does not know, by its annotation (``int`` → a number, ``bool`` →
a checkbox, anything else → JSON).  So an action or a parameter added to the engine appears
here without work; the tables below only give Italian names and better widgets.

Form fields are ``p.<parameter>`` (``r1.p.<parameter>`` for the second row of a repeatable
action); ids of objects and players travel as option values, never typed by hand.
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass
from typing import Any, Mapping

from judge.engine import terms
from judge.engine.characteristics import derived
from judge.engine.characteristics import keywords as kw
from judge.engine.registry import ACTIONS
from judge.engine.scenario import parse as sc
from judge.engine.scenario.templates import PLACEHOLDER_CARD
from judge.engine.state import CARD_TYPES, MANA, SUPERTYPES, State
from judge.engine.validation import NEGATIVE, OUT_OF_RANGE
from judge.web.simulator import forms

# --- Italian names -------------------------------------------------------------------------

ACTION_LABELS = {
    "deal_damage": "Infliggi danno", "gain_life": "Guadagna punti vita",
    "lose_life": "Perde punti vita", "set_life": "Imposta i punti vita",
    "pay_life": "Paga punti vita", "draw": "Pesca", "each_player_draws": "Ogni giocatore pesca",
    "discard": "Scarta", "each_player_discards": "Ogni giocatore scarta", "mill": "Macina",
    "move": "Sposta in un'altra zona",
    "destroy": "Distruggi", "sacrifice": "Sacrifica", "exile": "Esilia", "tap": "TAPpa",
    "untap": "STAPpa", "add_counters": "Metti segnalini", "remove_counters": "Rimuovi segnalini",
    "create_token": "Crea pedine", "add_mana": "Aggiungi mana", "cast_spell": "Lancia una magia",
    "trigger": "Abilità innescate in pila", "until_end_of_turn": "Fino alla fine del turno",
    "attach": "Assegna (Aura, Equipaggiamento)", "shuffle": "Rimescola il grimorio",
    "set_day_night": "Giorno o notte", "become_monarch": "Diventa il monarca",
    "take_initiative": "Prende l'iniziativa", "concede": "Concede la partita",
    "copy_spell": "Copia una magia o un'abilità", "planeswalk": "Viaggia tra i piani",
    "add_effect": "Nuovo effetto continuo", "end_effect": "Finisce un effetto continuo",
    "add_replacement": "Nuovo effetto di sostituzione o prevenzione",
    "regenerate": terms.verb("regenerate").capitalize() + " (scudo di rigenerazione)",
    "prevent_damage": "Previeni danno",
    "venture": terms.verb(terms.VENTURE)[:1].upper() + terms.verb(terms.VENTURE)[1:],
    "set_tapped": "Modifica diretta: TAPpato o STAPpato",
    "goad": terms.italian("goad")[:1].upper() + terms.italian("goad")[1:] + " una creatura",
    "change_control": "Cambia il controllo", "remove_from_combat": "Rimuovi dal combattimento",
    "phase_out": "Scompare (intermittenza)", "phase_in": "Ritorna (intermittenza)",
    "add_extra_turn": "Turno extra dopo questo",
    "add_extra_phases": "Fasi o sottofasi aggiuntive",
}
GROUPS = (
    ("Vita e danno", ("deal_damage", "gain_life", "lose_life", "pay_life", "set_life")),
    ("Permanenti", ("tap", "untap", "destroy", "sacrifice", "exile", "add_counters",
                    "remove_counters", "until_end_of_turn", "attach", "goad", "create_token",
                    "set_tapped")),
    ("Controllo, combattimento, intermittenza", ("change_control", "remove_from_combat",
                                                 "phase_out", "phase_in")),
    ("Effetti", ("add_effect", "add_replacement", "regenerate", "prevent_damage",
                 "end_effect")),
    ("Carte e zone", ("draw", "each_player_draws", "discard", "each_player_discards", "mill", "move",
                      "shuffle")),
    ("Pila e mana", ("cast_spell", "copy_spell", "trigger", "add_mana")),
    ("Partita", ("add_extra_turn", "add_extra_phases", "set_day_night", "become_monarch", "take_initiative",
                 "venture", "planeswalk", "concede")),
)
OTHER_GROUP = "Altre azioni"

PARAM_LABELS = {
    "player": "Giocatore", "controller": "Controllore", "target": "Bersaglio",
    "amount": "Quantità", "source": "Fonte", "combat": "È danno da combattimento",
    "value": "Valore", "count": "Quante", "cards": "Carte da scartare",
    "random": "Carte scartate a caso", "object": "Permanente", "zone": "Zona di destinazione",
    "bottom": "In fondo al grimorio (invece che in cima)", "kind": "Tipo di segnalino",
    "name": "Nome", "types": "Tipi", "subtypes": "Sottotipi", "supertypes": "Supertipi",
    "power": "Forza", "toughness": "Costituzione", "keywords": "Abilità", "mana": "Mana",
    "card": "Carta", "text": "Testo dell'abilità", "to": "Assegnato a",
    "spell": "Magia o abilità in pila", "room": "Stanza", "dungeon": "Nuovo dungeon",
    "undercity": "In Undercity (con l'iniziativa)", "tapped": "TAPpato (non spuntato: STAPpato)",
    "effect": "Effetto (JSON, come nel formato degli scenari)", "which": "Effetto che finisce",
}
LABEL_OVERRIDES = {
    ("deal_damage", "amount"): "Danni", ("gain_life", "amount"): "Punti vita",
    ("lose_life", "amount"): "Punti vita", ("pay_life", "amount"): "Punti vita",
    ("set_life", "value"): "Nuovo totale di punti vita", ("draw", "count"): "Carte",
    ("each_player_draws", "count"): "Carte ciascuno", ("mill", "count"): "Carte",
    ("each_player_discards", "count"): "Carte ciascuno",
    ("add_counters", "count"): "Segnalini", ("remove_counters", "count"): "Segnalini",
    ("create_token", "count"): "Pedine", ("add_counters", "target"): "Su (permanente o giocatore)",
    ("remove_counters", "target"): "Da (permanente o giocatore)", ("move", "object"): "Oggetto",
    ("exile", "object"): "Oggetto", ("move", "controller"): "Controllore (sul campo di battaglia)",
    ("until_end_of_turn", "power"): "Forza (+/−)",
    ("until_end_of_turn", "toughness"): "Costituzione (+/−)",
    ("until_end_of_turn", "keywords"): "Abilità guadagnate", ("trigger", "source"): "Fonte",
    ("set_day_night", "value"): "Diventa", ("copy_spell", "controller"): "Controllore della copia",
    ("venture", "room"): "Stanza in cui entra (se può scegliere)",
    ("goad", "player"): "Giocatore che la sprona", ("cast_spell", "target"): "Bersaglio",
    ("prevent_damage", "target"): "A chi (giocatore o permanente)",
    ("prevent_damage", "amount"): "Danni da prevenire (vuoto: tutto il danno in questo turno)",
    ("add_replacement", "effect"): "Effetto (JSON, come nel formato degli scenari: event, "
                                   "instead; per saltare: event step, phase o turn)",
    ("add_extra_turn", "count"): "Quanti turni extra",
    ("add_extra_phases", "effect"): "Effetto (JSON, come nel formato degli scenari: controller, "
                                    "adds, after o before)",
    ("change_control", "player"): "Nuovo controllore", ("change_control", "duration"): "Durata",
}
# What an optional choice left empty means (the engine's default for that parameter).
EMPTY_LABELS = {
    ("move", "controller"): "il proprietario (nessun altro lo mette sul campo di battaglia, 110.2a)",
    ("copy_spell", "controller"): "il controllore dell'originale",
    ("cast_spell", "target"): "nessun bersaglio",
}

# --- widgets -----------------------------------------------------------------------------------
# player: a player in the game · target: a player or a permanent · permanent · object: any card
# or permanent · card: a card outside the battlefield · attach_to: a permanent or a player ·
# source: any object (optional) · hand_cards: cards in hands (checkboxes) · int · bool · text ·
# longtext · zone · types/supertypes (checkboxes) · keywords (text, Italian or English,
# comma separated) · list (comma separated) · mana ·
# counter (kind, with suggestions) · choice · json.
KIND_BY_NAME = {
    "player": "player", "controller": "player", "target": "target", "object": "permanent",
    "to": "attach_to", "source": "source", "card": "card", "cards": "hand_cards", "zone": "zone",
    "keywords": "keywords", "types": "types", "supertypes": "supertypes", "subtypes": "list",
    "mana": "mana", "kind": "counter", "text": "longtext", "name": "text", "spell": "stack",
    "which": "effect",
}
KIND_OVERRIDES = {("move", "object"): "object", ("exile", "object"): "object",
                  ("set_day_night", "value"): "choice", ("change_control", "duration"): "choice"}
CHOICES = {("set_day_night", "value"): (("day", "giorno"), ("night", "notte")),
           ("change_control", "duration"): (("end_of_turn", "fino alla fine del turno"),
                                            ("indefinitely", "a tempo indeterminato"))}
HIDDEN = {"id", "check_sba", "ctx"}            # engine details a judge never sets
REPEATABLE = {"trigger": 4}                    # rows: several abilities as one history entry
# A repeatable action whose rows are one call of the engine: the rows become this parameter
# (several abilities triggering at once go on the stack in APNAP order, 603.3b), so it has
# no widget of its own; the parameters of a row are then required although the engine's
# signature makes them optional (it takes either them or the list).
ROWS_PARAM = {"trigger": "abilities"}
ROW_REQUIRED = {("trigger", "controller"), ("trigger", "text")}
MOVE_ZONES = ("hand", "library", "graveyard", "exile", "command", "battlefield")
ZONE_LABELS = forms.ZONE_LABELS
COUNTER_SUGGESTIONS = ("+1/+1", "-1/-1", "loyalty", "defense", "lore", "poison", "shield",
                       "stun", "charge", "time")
# Kinds whose value names an object or a player, and what they accept.
ACCEPTS = {"player": {"player"}, "target": {"player", "permanent"}, "permanent": {"permanent"},
           "object": {"permanent", "card"}, "card": {"card"}, "attach_to": {"player", "permanent"},
           "source": {"permanent", "card"}, "stack": {"stack"}, "effect": {"effect"}}


@dataclass(frozen=True)
class Param:
    name: str
    kind: str
    label: str
    required: bool
    default: Any = None
    choices: tuple[tuple[str, str], ...] = ()
    empty: str = "nessuna"            # an optional choice left empty: what the engine does then


@dataclass(frozen=True)
class ActionSpec:
    name: str
    label: str
    summary: str
    params: tuple[Param, ...]
    rows: int = 1                     # > 1: the action may be repeated in one history entry


def _kind(action: str, name: str, annotation: Any) -> str:
    if (action, name) in KIND_OVERRIDES:
        return KIND_OVERRIDES[(action, name)]
    if name in KIND_BY_NAME:
        return KIND_BY_NAME[name]
    ann = str(annotation).replace(" ", "")
    base = ann.removesuffix("|None")
    if base == "int":
        return "int"
    if base == "bool":
        return "bool"
    if base == "str":
        return "text"
    if base in ("list[str]",):
        return "list"
    return "json"


def spec_for(name: str) -> ActionSpec:
    fn = ACTIONS[name]
    sig = inspect.signature(fn.func)
    params = []
    for p in list(sig.parameters.values())[1:]:
        if p.name in HIDDEN or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) \
                or ROWS_PARAM.get(name) == p.name:
            continue
        kind = _kind(name, p.name, p.annotation)
        params.append(Param(
            name=p.name, kind=kind,
            label=LABEL_OVERRIDES.get((name, p.name), PARAM_LABELS.get(p.name, p.name)),
            required=p.default is p.empty or (name, p.name) in ROW_REQUIRED,
            default=None if p.default is p.empty else p.default,
            choices=CHOICES.get((name, p.name), ()),
            empty=EMPTY_LABELS.get((name, p.name), "nessuna")))
    return ActionSpec(name=name, label=ACTION_LABELS.get(name, fn.summary or name),
                      summary=fn.summary, params=tuple(params), rows=REPEATABLE.get(name, 1))


def catalog() -> list[tuple[str, list[ActionSpec]]]:
    """Every registered action, grouped, in the order of ``GROUPS`` (new ones at the end)."""
    specs = {n: spec_for(n) for n in ACTIONS}
    out = []
    for g, names in GROUPS:
        out.append((g, [specs[n] for n in names if n in specs]))
    known = {n for _, names in GROUPS for n in names}
    other = [specs[n] for n in sorted(specs) if n not in known]
    if other:
        out.append((OTHER_GROUP, other))
    return [(g, items) for g, items in out if items]


def label(name: str) -> str:
    return ACTION_LABELS.get(name) or (ACTIONS[name].summary if name in ACTIONS else name)


# --- choices from the board ---------------------------------------------------------------------

@dataclass
class Option:
    value: str
    label: str


def board_options(st: State) -> dict[str, list[tuple[str, list[Option]]]]:
    """Option groups per widget kind, from the current state (players and objects by name)."""
    players = [Option(p.id, p.name) for p in st.players if not p.lost]
    perms: list[tuple[str, list[Option]]] = []
    for pl in st.players:
        mine = [Option(p.id, _perm_label(st, p)) for p in st.battlefield
                if derived.controller(st, p) == pl.id]
        if mine:
            perms.append((f"Campo di battaglia: {pl.name}", mine))
    cards: list[tuple[str, list[Option]]] = []
    for pl in st.players:
        for z in ("hand", "graveyard", "exile", "command", "library"):
            zone = pl.zone(z)
            # A library of placeholder cards (templates.py) is 30 identical «Carta»: not worth picking.
            shown = [Option(c.id, _card_label(c, z, i)) for i, c in enumerate(zone)
                     if not (z == "library" and _placeholder(c))]
            if shown:
                cards.append((f"{ZONE_LABELS[z]}: {pl.name}", shown))
    spells = [Option(i.card.id, i.card.name) for i in reversed(st.stack) if i.card is not None]
    if spells:
        cards.append(("Pila", spells))
    items = [Option(i.id, _stack_label(st, i)) for i in reversed(st.stack)]
    effects = [Option(e.id, f"{e.text or e.id} ({e.id})") for e in st.effects]
    by_kind = {"player": [("Giocatori", players)], "permanent": perms, "card": cards,
               "stack": [("Pila (dalla cima)", items)] if items else [],
               "effect": [("Effetti continui", effects)] if effects else []}
    out = {}
    for kind, accepts in ACCEPTS.items():
        groups = []
        for what in ("player", "permanent", "card", "stack", "effect"):
            if what in accepts:
                groups += by_kind[what]
        out[kind] = groups
    hands = [(f"Mano di {pl.name}", [Option(c.id, c.name) for c in pl.hand], pl.id)
             for pl in st.players if pl.hand]
    out["hand_cards"] = hands            # type: ignore[assignment]
    return out


def _perm_label(st: State, p) -> str:
    extra = []
    if derived.is_creature(st, p):
        extra.append(f"{derived.power(st, p)}/{derived.toughness(st, p)}")
    if p.tapped:
        extra.append("TAPpato")
    return p.name + (f" ({', '.join(extra)})" if extra else "")


def _stack_label(st: State, item) -> str:
    what = "Magia" if item.kind == "spell" else "Abilità"
    text = item.text if len(item.text) <= 60 else item.text[:57] + "…"
    return f"{what}: {text} ({st.name_of(item.controller)})"


def _placeholder(c) -> bool:
    return c.name == PLACEHOLDER_CARD and not getattr(c, "types", None)


def _card_label(c, zone: str, i: int) -> str:
    if zone == "library":
        return f"{c.name} ({i + 1}ª dall'alto)"
    return c.name


def what_is(st: State, oid: str) -> str | None:
    """"player", "permanent", "card" or None: what a selection from the board is."""
    if st.has_player(oid):
        return "player"
    if st.perm(oid) is not None:
        return "permanent"
    return "card" if st.find_card(oid) is not None else None


def actions_for(st: State, oid: str) -> list[tuple[ActionSpec, Param, bool]]:
    """The actions that can take ``oid`` (a player or an object): ``(spec, the parameter it
    fills, one_click)``; one_click when it is the action's only parameter (TAPpa, Distruggi).
    """
    what = what_is(st, oid)
    if what is None:
        return []
    out = []
    for _, specs in catalog():
        for spec in specs:
            param = next((p for p in spec.params if what in ACCEPTS.get(p.kind, ())), None)
            if param is None:
                continue
            out.append((spec, param, spec.params == (param,)))
    return out


# --- reading a submitted form -----------------------------------------------------------------

class FormError(ValueError):
    """Italian messages by form field."""

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = errors
        super().__init__("; ".join(m for _, m in errors))


def field_name(row: int, param: str, sub: str = "") -> str:
    base = f"p.{param}" if row == 0 else f"r{row}.p.{param}"
    return f"{base}.{sub}" if sub else base


def params_from_form(spec: ActionSpec, form: Mapping[str, Any]) -> dict | list[dict]:
    """The engine parameters of a submitted action form (FormError with Italian messages by
    field).  A repeatable action gives a list: one dict per row that was filled in, or, for
    an action in ``ROWS_PARAM``, one call with the rows as that parameter."""
    rows, errors = [], []
    for row in range(spec.rows):
        if row and not _row_filled(spec, form, row):
            continue
        params, errs = _read_row(spec, form, row)
        rows.append(params)
        errors += errs
    if errors:
        raise FormError(errors)
    if spec.rows == 1:
        return rows[0]
    if spec.name in ROWS_PARAM:
        return rows[0] if len(rows) == 1 else {ROWS_PARAM[spec.name]: rows}
    return rows


def _row_filled(spec: ActionSpec, form, row: int) -> bool:
    return any(str(form.get(field_name(row, p.name), "")).strip() for p in spec.params
               if p.kind not in ("player", "bool"))


def _getlist(form, name: str) -> list[str]:
    return list(form.getlist(name)) if hasattr(form, "getlist") else list(form.get(name) or [])


def _read_row(spec: ActionSpec, form, row: int) -> tuple[dict, list[tuple[str, str]]]:
    params: dict[str, Any] = {}
    errors: list[tuple[str, str]] = []
    for p in spec.params:
        name = field_name(row, p.name)
        raw = form.get(name)
        text = "" if raw is None else str(raw).strip()
        value: Any = None
        try:
            if p.kind == "bool":
                if form.get(name) in ("1", "on", "true"):
                    params[p.name] = True
                continue
            if p.kind in ("types", "supertypes", "hand_cards"):
                value = [v for v in _getlist(form, name) if v] or None
                allowed = {"types": CARD_TYPES, "supertypes": SUPERTYPES}.get(p.kind)
                if value and allowed and any(v not in allowed for v in value):
                    raise ValueError("scelta non valida")
            elif p.kind == "keywords":
                value = forms.parse_keywords(text) or None
            elif p.kind == "mana":
                value = {}
                for m in MANA:
                    n = _int(str(form.get(f"{name}.{m}", "") or "").strip() or "0", 0)
                    if n:
                        value[m] = n
                if not value:
                    raise ValueError("indica almeno un mana (per esempio 2 rosso)")
            elif p.kind == "int":
                if text:
                    value = _int(text, None)
            elif p.kind == "list":
                value = forms.split_list(text) or None
            elif p.kind == "counter":
                value = forms.counter_kind(text) if text else None
            elif p.kind == "json":
                if text:
                    try:
                        value = json.loads(text)
                    except (ValueError, RecursionError):     # too deep for the parser: invalid too
                        raise ValueError("JSON non valido") from None
            elif p.kind in ("zone", "choice"):
                allowed = MOVE_ZONES if p.kind == "zone" else [v for v, _ in p.choices]
                if text and text not in allowed:
                    raise ValueError("scelta non valida")
                value = text or None
            else:                       # players, objects, text
                if len(text) > sc.MAX_TEXT:
                    raise ValueError(f"al massimo {sc.MAX_TEXT} caratteri")
                value = text or None
        except ValueError as e:
            errors.append((name, str(e)))
            continue
        if value is None:
            if p.required:
                errors.append((name, "campo obbligatorio" if p.kind not in ACCEPTS
                               else "scegli dall'elenco"))
            continue
        params[p.name] = value
    return params, errors


def _int(text: str, minimum: int | None) -> int:
    text = text.replace("−", "-").strip()
    if not re.fullmatch(r"[+-]?\d{1,10}", text):
        raise ValueError("atteso un intero")
    n = int(text)
    if abs(n) > sc.MAX_INT:
        raise ValueError(OUT_OF_RANGE)
    if minimum is not None and n < minimum:
        raise ValueError(NEGATIVE)
    return n


# --- describing an action ---------------------------------------------------------------------

def describe(name: str, params: dict | list, st: State | None = None) -> str:
    """"Infliggi danno: Orso, 3" — for the log, the undo button and the Markdown export:
    the values in the order of the form, objects and players by name."""
    rows = params if isinstance(params, list) else [params]
    if len(rows) == 1 and isinstance(rows[0], dict) and isinstance(rows[0].get(ROWS_PARAM.get(name)), list):
        rows = rows[0][ROWS_PARAM[name]]
    order = [p for p in spec_for(name).params] if name in ACTIONS else []
    parts = []
    for row in rows:
        row = row if isinstance(row, dict) else {}
        known = [p for p in order if p.name in row]
        extra = [Param(k, "text", k, False) for k in row if k not in {p.name for p in order}]
        vals = [(p, _value_text(p, row[p.name], st)) for p in known + extra]
        parts.append(", ".join(_labelled(p, v) for p, v in vals if v))
    body = "; ".join(p for p in parts if p)
    return f"{label(name)} ({body})" if body else label(name)


def _labelled(p: Param, text: str) -> str:
    """«bersaglio: Orso»; a checkbox's own label says it already."""
    if p.kind == "bool":
        return text
    return f"{p.label[:1].lower()}{p.label[1:]}: {text}"


def _value_text(p: Param, v: Any, st: State | None) -> str:
    def named(x: Any) -> str:
        if isinstance(x, str) and st is not None and (st.has_player(x) or st.find_card(x)):
            return st.name_of(x)
        return str(x)
    def word(table: Mapping[str, str], x: Any) -> str:      # a hand-made file's value may be a list
        return table.get(x, x) if isinstance(x, str) else str(x)
    if isinstance(v, bool):
        return p.label[:1].lower() + p.label[1:] if v else ""
    if p.kind == "zone":
        return word(ZONE_LABELS, v).lower()
    if p.kind == "choice":
        return word(dict(p.choices), v)
    if p.kind == "keywords" and isinstance(v, list):
        return kw.italian_list([str(k) for k in v], st.name_of if st is not None else None)
    if p.kind == "types" and isinstance(v, list):
        return ", ".join(word(forms.TYPES_IT, k) for k in v)
    if p.kind == "counter":
        return f"segnalini {word(forms.COUNTERS_IT, v)}"
    if isinstance(v, dict):
        return ", ".join(f"{n} {word(forms.MANA_IT, m)}" for m, n in v.items())
    if isinstance(v, list):
        return ", ".join(named(x) for x in v)
    if p.name in ("power", "toughness") and isinstance(v, int):
        return f"{p.label.split(' ')[0].lower()} {v:+d}"
    return named(v)
