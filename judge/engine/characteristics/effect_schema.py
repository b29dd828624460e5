"""Continuous effects as JSON: the vocabulary of the format (operations and their layers,
selectors, conditions, durations), a record read and checked with Italian errors and field
paths, and written back.  docs/scenario-format.md («Effetti continui») documents it.

``read(v, d, path)`` gives an :class:`~judge.engine.state.Effect` (or None) and reports what is
wrong on the ``Validator``; which objects and players it names exist is checked once the whole
scenario is read (``check_refs``).  ``to_json(effect)`` writes it; ``read(to_json(e))`` is ``e``.
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import keywords
from judge.engine.state import CARD_TYPES, MANA_COLORS, SUPERTYPES, Effect, State
from judge.engine.validation import EXPECTED, Validator

KINDS = ("static", "resolved")
# 611.2a: a resolved effect lasts as stated, or until the end of the game; "source": for as long
# as its source stays on the battlefield (it ends when the source leaves).
DURATIONS = ("end_of_turn", "game", "source")
ZONE_NAMES = ("battlefield", "stack", "hand", "library", "graveyard", "exile", "command")

# Each operation and the layer (or sublayer) of 613.1–613.4 where it applies; "players" and
# "rules" are the effects on players (613.10) and on the game's rules (613.11).  A set_pt of a
# characteristic-defining ability applies in 7a (613.4a).
LAYER = {
    "copy": "1a",
    "control": "2",
    "change_text": "3",
    **{f"{verb}_{what}": "4" for verb in ("set", "add", "remove")
       for what in ("types", "subtypes", "supertypes")},
    "all_creature_types": "4",
    "set_colors": "5", "add_colors": "5",
    "add_abilities": "6", "remove_abilities": "6", "lose_all_abilities": "6",
    "cant_have_abilities": "6",
    "set_pt": "7b", "modify_pt": "7c", "switch_pt": "7d",
    "cant_gain_life": "players", "cant_lose_life": "players",
    "max_hand_size": "rules", "no_legend_rule": "rules",
}
OBJECT_LAYERS = ("1a", "1b", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d")
PLAYER_OPS = tuple(op for op, layer in LAYER.items() if layer in ("players", "rules"))

# The keys of a described set of objects (``{"filter": {...}}``).
FILTER_LISTS = {"types": CARD_TYPES, "not_types": CARD_TYPES, "subtypes": None,
                "not_subtypes": None, "supertypes": SUPERTYPES, "not_supertypes": SUPERTYPES,
                "colors": MANA_COLORS, "not_colors": MANA_COLORS, "abilities": None}
FILTER_FLAGS = ("other", "token", "nontoken", "colorless", "multicolored")
WHOSE = ("you", "opponents")
CONDITION_KEYS = {"count", "at_least", "at_most", "your_turn", "you_control_source",
                  "graveyard_at_least"}
EFFECT_KEYS = {"id", "text", "source", "kind", "controller", "affects", "does", "duration",
               "condition", "cda", "timestamp", "granted_by", "card"}
COPY_VALUES = ("name", "mana_cost", "types", "subtypes", "supertypes", "colors", "abilities",
               "power", "toughness", "loyalty")
COPY_EXCEPT = {"set", "add_types", "add_subtypes", "add_supertypes", "add_abilities",
               "not_copied"}
MAX_EFFECTS = 500
MAX_OPS = 20
MAX_ITEMS = 50


def layer_of(op: dict, cda: bool = False) -> str:
    layer = LAYER[op["op"]]
    return "7a" if layer == "7b" and cda else layer


def _strs(v: Validator, d: dict, key: str, path: str, allowed=None, what: str = "valore") -> list:
    out = v.str_list(d, key, path, allowed, what)
    if len(out) > MAX_ITEMS:
        v.err(f"{path}.{key}", f"troppi elementi (limite {MAX_ITEMS})")
        return out[:MAX_ITEMS]
    return out


def _ability_list(v: Validator, d: dict, key: str, path: str) -> list[str]:
    """Abilities: a keyword the engine knows (saved in English), a static ability given by
    another effect of the file ("@id"), or any other text (shown, not automated)."""
    out = []
    for text in _strs(v, d, key, path):
        inst = keywords.instance(text) if not text.startswith("@") else None
        out.append(inst.text if inst is not None else text.strip())
    return out


def _int(v: Validator, d: dict, key: str, path: str, required: bool = False) -> int | None:
    return v.typed(d, key, path, "int", None, required=required, nullable=not required)


def _op(v: Validator, d: Any, path: str) -> dict | None:
    if not isinstance(d, dict):
        v.err(path, "atteso un oggetto (un'operazione, per esempio {\"op\": \"modify_pt\", "
                    "\"power\": 1, \"toughness\": 1})")
        return None
    name = d.get("op")
    if not isinstance(name, str) or name not in LAYER:
        v.err(f"{path}.op", f'operazione sconosciuta "{str(name)[:40]}" (ammesse: '
                            f'{", ".join(LAYER)})')
        return None
    out: dict[str, Any] = {"op": name}
    keys = {"op"}
    if name == "copy":
        keys |= {"of", "values", "except"}
        out["of"] = v.typed(d, "of", path, "str", None, nullable=True)
        if "values" in d:
            out["values"] = copy_values(v, d, "values", path)
        if out["of"] is None and "values" not in out:
            v.err(f"{path}.of", "indica l'oggetto copiato (of) o i valori copiati (values)")
        exc = v.typed(d, "except", path, "dict", None, nullable=True)
        if exc:
            out["except"] = _copy_except(v, exc, f"{path}.except")
    elif name == "control":
        keys.add("player")
        out["player"] = v.typed(d, "player", path, "str", required=True)
    elif name == "change_text":
        keys |= {"from", "to"}
        for k in ("from", "to"):
            out[k] = v.typed(d, k, path, "str", required=True)
    elif name in ("set_types", "add_types", "remove_types"):
        keys.add("types")
        out["types"] = _strs(v, d, "types", path, CARD_TYPES, "tipo")
    elif name.endswith("_subtypes"):
        keys.add("subtypes")
        out["subtypes"] = _strs(v, d, "subtypes", path)
        if name == "set_subtypes":
            keys.add("category")
            cat = v.typed(d, "category", path, "str", None, nullable=True)
            if cat is not None:
                out["category"] = cat
    elif name.endswith("_supertypes"):
        keys.add("supertypes")
        out["supertypes"] = _strs(v, d, "supertypes", path, SUPERTYPES, "supertipo")
    elif name in ("set_colors", "add_colors"):
        keys.add("colors")
        out["colors"] = _strs(v, d, "colors", path, MANA_COLORS, "colore")
    elif name in ("add_abilities", "remove_abilities", "cant_have_abilities"):
        keys.add("abilities")
        out["abilities"] = _ability_list(v, d, "abilities", path)
    elif name == "set_pt":
        keys |= {"power", "toughness", "from", "count"}
        src = v.typed(d, "from", path, "str", None, nullable=True)
        if "count" in d:
            out["count"] = _filter(v, d["count"], f"{path}.count")
        elif src is not None:
            if src != "mana_value":
                v.err(f"{path}.from", 'atteso "mana_value" (forza e costituzione pari al valore '
                                      'di mana)')
            out["from"] = "mana_value"
        else:
            for k in ("power", "toughness"):
                n = _int(v, d, k, path)
                if n is not None:
                    out[k] = n
            if "power" not in out and "toughness" not in out:
                v.err(path, "indica power, toughness o entrambe (oppure from: mana_value, o count: "
                            "un insieme da contare)")
    elif name == "modify_pt":
        keys |= {"power", "toughness"}
        out["power"] = _int(v, d, "power", path) or 0
        out["toughness"] = _int(v, d, "toughness", path) or 0
    elif name == "max_hand_size":
        keys |= {"value", "delta"}
        if "delta" in d:
            out["delta"] = _int(v, d, "delta", path) or 0
        else:
            out["value"] = v.typed(d, "value", path, "int", None, nullable=True)
            v.nonneg(out["value"], f"{path}.value")
    v.unknown_keys(d, keys, path)
    return out


def copy_values(v: Validator, d: dict, key: str, path: str) -> dict:
    """The copiable values a copy effect gives (707.2), as the engine froze them."""
    raw = v.typed(d, key, path, "dict", {})
    p = f"{path}.{key}"
    v.unknown_keys(raw, set(COPY_VALUES), p)
    out: dict[str, Any] = {}
    for k in COPY_VALUES:
        if k not in raw:
            continue
        if k in ("name", "mana_cost"):
            out[k] = v.typed(raw, k, p, "str", None, nullable=True)
        elif k in ("power", "toughness", "loyalty"):
            out[k] = _int(v, raw, k, p)
        elif k == "abilities":
            out[k] = _ability_list(v, raw, k, p)
        else:
            allowed = {"types": CARD_TYPES, "supertypes": SUPERTYPES, "colors": MANA_COLORS}.get(k)
            out[k] = _strs(v, raw, k, p, allowed)
    return out


def _copy_except(v: Validator, exc: dict, path: str) -> dict:
    """707.9: what the copy effect changes while copying."""
    v.unknown_keys(exc, COPY_EXCEPT, path)
    out: dict[str, Any] = {}
    if "set" in exc:
        out["set"] = copy_values(v, exc, "set", path)
    for k, allowed in (("add_types", CARD_TYPES), ("add_subtypes", None),
                       ("add_supertypes", SUPERTYPES)):
        if k in exc:
            out[k] = _strs(v, exc, k, path, allowed)
    if "add_abilities" in exc:
        out["add_abilities"] = _ability_list(v, exc, "add_abilities", path)
    if "not_copied" in exc:
        out["not_copied"] = _strs(v, exc, "not_copied", path, COPY_VALUES, "caratteristica")
    return out


def _filter(v: Validator, f: Any, path: str) -> dict:
    if not isinstance(f, dict):
        v.err(path, EXPECTED["dict"])
        return {}
    v.unknown_keys(f, set(FILTER_LISTS) | set(FILTER_FLAGS) | {"controller", "owner", "zones",
                                                                   "name"}, path)
    out: dict[str, Any] = {}
    for k, allowed in FILTER_LISTS.items():
        if k in f:
            out[k] = (_ability_list(v, f, k, path) if k == "abilities"
                      else _strs(v, f, k, path, allowed))
    for k in FILTER_FLAGS:
        if v.typed(f, k, path, "bool", False):
            out[k] = True
    for k in ("controller", "owner"):
        who = v.typed(f, k, path, "str", None, nullable=True)
        if who is not None:
            out[k] = who
    name = v.typed(f, "name", path, "str", None, nullable=True)
    if name is not None:
        out["name"] = name
    zones = f.get("zones")
    if zones == "all":
        out["zones"] = list(ZONE_NAMES)
    elif zones is not None:
        out["zones"] = _strs(v, f, "zones", path, ZONE_NAMES, "zona")
    return out


def _affects(v: Validator, a: Any, path: str) -> Any:
    if a in ("self", "attached", "game"):
        return a
    if isinstance(a, dict) and set(a) == {"objects", "described"}:
        a = {"objects": a["objects"], "described": a["described"]}
    elif not isinstance(a, dict) or len(a) != 1 or next(iter(a)) not in ("objects", "filter",
                                                                          "players"):
        v.err(path, 'atteso "self", "attached", "game" oppure un oggetto con una sola chiave tra '
                    'objects (id), filter (un insieme descritto), players')
        return "self"
    key, val = next(iter(a.items()))
    if key == "objects":
        out: dict[str, Any] = {"objects": _strs(v, a, "objects", path)}
        if "described" in a:                # the set it was fixed from (611.2c), for people
            out["described"] = _filter(v, a["described"], f"{path}.described")
        return out
    if key == "players":
        if val in ("you", "opponents", "each"):
            return {"players": val}
        return {"players": _strs(v, a, "players", path)}
    return {"filter": _filter(v, val, f"{path}.filter")}


def _condition(v: Validator, c: dict, path: str) -> dict:
    v.unknown_keys(c, CONDITION_KEYS, path)
    out: dict[str, Any] = {}
    if "count" in c:
        out["count"] = _filter(v, c["count"], f"{path}.count")
        for k in ("at_least", "at_most"):
            n = _int(v, c, k, path)
            if n is not None:
                out[k] = n
        if "at_least" not in out and "at_most" not in out:
            v.err(path, "con count indica at_least o at_most")
    for k in ("your_turn", "you_control_source"):
        if k in c:
            b = v.typed(c, k, path, "bool")
            if b is not None:
                out[k] = b
    if "graveyard_at_least" in c:
        out["graveyard_at_least"] = _int(v, c, "graveyard_at_least", path) or 0
    if not out:
        v.err(path, f"condizione vuota (chiavi: {', '.join(sorted(CONDITION_KEYS))})")
    return out


def read(v: Validator, d: Any, path: str) -> Effect | None:
    """One effect record of a file or a judge action, checked; None if unusable."""
    if not isinstance(d, dict):
        v.err(path, "atteso un oggetto (un effetto continuo)")
        return None
    v.unknown_keys(d, EFFECT_KEYS, path)
    eid = v.typed(d, "id", path, "str", required=True)
    kind = v.typed(d, "kind", path, "str", "static") or "static"
    if kind not in KINDS:
        v.err(f"{path}.kind", 'atteso "static" (abilità statica, 611.3) o "resolved" (magia o '
                              'abilità risolta, 611.2)')
        kind = "static"
    raw_ops = v.typed(d, "does", path, "list", [], required=True)
    if len(raw_ops) > MAX_OPS:
        v.err(f"{path}.does", f"troppe operazioni (limite {MAX_OPS})")
        raw_ops = []
    ops = [op for i, raw in enumerate(raw_ops)
           if (op := _op(v, raw, f"{path}.does[{i}]")) is not None]
    if not raw_ops and "does" in d:
        v.err(f"{path}.does", "indica almeno un'operazione")
    duration = v.typed(d, "duration", path, "str", "game") or "game"
    if duration not in DURATIONS:
        v.err(f"{path}.duration", f'durata sconosciuta "{duration[:40]}" (ammesse: '
                                  f'{", ".join(DURATIONS)})')
        duration = "game"
    cond = v.typed(d, "condition", path, "dict", None, nullable=True)
    eff = Effect(
        id=eid or "?", text=v.typed(d, "text", path, "str", "") or "",
        source=v.typed(d, "source", path, "str", None, nullable=True), kind=kind,
        controller=v.typed(d, "controller", path, "str", None, nullable=True),
        affects=_affects(v, d.get("affects", "self"), f"{path}.affects"), does=ops,
        duration=duration if kind == "resolved" else "game",
        condition=_condition(v, cond, f"{path}.condition") if cond else None,
        cda=v.typed(d, "cda", path, "bool", False),
        timestamp=v.typed(d, "timestamp", path, "int", None, nullable=True),
        granted_by=v.typed(d, "granted_by", path, "str", None, nullable=True),
        card=v.typed(d, "card", path, "str", None, nullable=True))
    _coherent(v, eff, path)
    return eff


def _coherent(v: Validator, e: Effect, path: str) -> None:
    """What the fields say together: a static ability has a source, players' operations affect
    players, a characteristic-defining ability defines a characteristic of its own object."""
    if e.kind == "static" and e.source is None and e.granted_by is None:
        v.err(f"{path}.source", "un'abilità statica ha la sua fonte: l'oggetto su cui è scritta "
                                "(611.3)")
    on_players = [o["op"] for o in e.does if o["op"] in PLAYER_OPS]
    if on_players and len(on_players) != len(e.does):
        v.err(f"{path}.does", "un effetto su giocatori o regole (613.10, 613.11) non cambia "
                              "anche caratteristiche di oggetti: scrivine due")
    players = isinstance(e.affects, dict) and "players" in e.affects
    if on_players and not (players or e.affects == "game"):
        v.err(f"{path}.affects", 'queste operazioni riguardano giocatori (affects: {"players": '
                                 '…}) o le regole del gioco ("game")')
    if not on_players and (players or e.affects == "game"):
        v.err(f"{path}.affects", "queste operazioni cambiano oggetti: affects indica oggetti")
    if e.cda and (e.kind != "static" or e.affects != "self"):
        v.err(f"{path}.cda", "un'abilità che definisce caratteristiche è un'abilità statica che "
                             "riguarda l'oggetto stesso (604.3a)")
    if e.cda and any(layer_of(o) not in ("4", "5", "7b") for o in e.does):
        v.err(f"{path}.cda", "un'abilità che definisce caratteristiche definisce colori, sottotipi, "
                             "forza o costituzione (604.3a)")
    if e.kind == "resolved" and e.granted_by is not None:
        v.err(f"{path}.granted_by", "solo un'abilità statica può essere conferita (613.7a)")
    for i, o in enumerate(e.does):
        if o["op"] == "copy" and e.kind == "static" and e.affects != "self":
            v.err(f"{path}.does[{i}]", "un'abilità che fa diventare copia riguarda l'oggetto stesso")


def check_refs(v: Validator, st: State, path_of=lambda i: f"effects[{i}]") -> None:
    """The objects, players and effects an effect names exist, and ids are unique."""
    ids = st.all_ids()
    players = {p.id for p in st.players}
    seen: set[str] = set()
    effect_ids = {e.id for e in st.effects}
    for i, e in enumerate(st.effects):
        p = path_of(i)
        if e.id in seen or e.id in ids:
            v.err(f"{p}.id", f'id duplicato "{e.id}"')
        seen.add(e.id)
        if e.source is not None and e.source not in ids:
            v.err(f"{p}.source", f'oggetto sconosciuto "{e.source}"')
        if e.controller is not None and e.controller not in players:
            v.err(f"{p}.controller", f'giocatore sconosciuto "{e.controller}"')
        if e.granted_by is not None and e.granted_by not in effect_ids:
            v.err(f"{p}.granted_by", f'effetto sconosciuto "{e.granted_by}"')
        if isinstance(e.affects, dict):
            for oid in e.affects.get("objects", []):
                if oid not in ids:
                    v.err(f"{p}.affects.objects", f'oggetto sconosciuto "{oid}"')
            whom = e.affects.get("players")
            if isinstance(whom, list):
                for pid in whom:
                    if pid not in players:
                        v.err(f"{p}.affects.players", f'giocatore sconosciuto "{pid}"')
            f = e.affects.get("filter") or {}
            for k in ("controller", "owner"):
                if k in f and f[k] not in WHOSE and f[k] not in players:
                    v.err(f"{p}.affects.filter.{k}", f'atteso "you", "opponents" o l\'id di un '
                                                     f'giocatore, trovato "{f[k][:40]}"')
        for j, o in enumerate(e.does):
            if o["op"] == "control" and o.get("player") not in ("you", *players):
                v.err(f"{p}.does[{j}].player", f'giocatore sconosciuto "{str(o.get("player"))[:40]}"')
            if o["op"] == "copy" and o.get("of") is not None and o["of"] not in ids:
                v.err(f"{p}.does[{j}].of", f'oggetto sconosciuto "{o["of"][:40]}"')
            for a in o.get("abilities", ()):
                if a.startswith("@") and a[1:] not in effect_ids:
                    v.err(f"{p}.does[{j}].abilities", f'effetto sconosciuto "{a[:40]}"')


def to_json(e: Effect) -> dict:
    """The record as the format writes it (only what differs from the defaults, plus id,
    kind, affects and does)."""
    d: dict[str, Any] = {"id": e.id}
    if e.text:
        d["text"] = e.text
    if e.source is not None:
        d["source"] = e.source
    d["kind"] = e.kind
    if e.controller is not None:
        d["controller"] = e.controller
    d["affects"] = _plain(e.affects)
    d["does"] = _plain(e.does)
    if e.kind == "resolved":
        d["duration"] = e.duration
    if e.condition:
        d["condition"] = _plain(e.condition)
    if e.cda:
        d["cda"] = True
    if e.timestamp is not None:
        d["timestamp"] = e.timestamp
    if e.granted_by is not None:
        d["granted_by"] = e.granted_by
    if e.card is not None:
        d["card"] = e.card
    return d


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def parse_one(raw: Any, path: str = "effect", reader=None) -> tuple[Effect | None, list[tuple[str, str]]]:
    """An effect given outside a scenario file (a judge action): (effect, errors).  ``reader``:
    the schema's ``read`` (default this one's; the replacement schema passes its own)."""
    v = Validator()
    if isinstance(raw, dict) and "id" not in raw:
        raw = {**raw, "id": "?"}
    e = (reader or read)(v, raw, path)
    return e, v.errors

