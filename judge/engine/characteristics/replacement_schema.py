"""Replacement and prevention effects as JSON (614, 615): the vocabulary of the format (the
events they watch, what happens instead, the "can't" effects of 614.17), a record read and
checked with Italian errors and field paths, and written back.  docs/scenario-format.md
(«Effetti di sostituzione e prevenzione») documents it.

A replacement record is an effect record (``state.Effect``) with ``event`` set: it shares the
continuous effects' fields where they overlap (id, text, card, source, kind, controller,
affects with the same selectors, condition, duration, timestamp, granted_by) and lives in the
same ``effects`` list of the file; its ``does`` stays empty, so the layers never apply it,
while a static one is still an ability of its object ("@id"): removed, copied or granted by
the layers like any other (611.3a, 707.2).

``read(v, d, path)`` gives the ``Effect`` (or None); ``check_refs`` the objects and players its
replacement part names; ``to_json(effect)`` writes it (``read(to_json(e))`` is ``e``).
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import effect_schema
from judge.engine.characteristics.effect_schema import (DURATIONS, KINDS, ZONE_NAMES,
                                                        _affects, _condition, _plain)
from judge.engine.state import ZONES, Effect, State
from judge.engine.validation import Validator

# The events a replacement effect watches: what the affected thing "would" do, in Italian, and
# the family that says what it affects (an object changing zone, damage, a player).
EVENTS: dict[str, tuple[str, str]] = {
    "graveyard": ("essere messo in un cimitero", "zone"),
    "die": ("morire (andare dal campo di battaglia al cimitero, 700.4)", "zone"),
    "destroy": ("essere distrutto (701.8a)", "zone"),
    "exile": ("essere esiliato (701.13a)", "zone"),
    "discard": ("essere scartato (701.9a)", "zone"),
    "mill": ("essere macinato (701.17a)", "zone"),
    "enter": ("entrare nel campo di battaglia", "zone"),
    "leave": ("lasciare il campo di battaglia", "zone"),
    "zone_change": ("cambiare zona", "zone"),
    "dealt_damage": ("subire danno", "damage"),
    "deal_damage": ("infliggere danno", "damage"),
    "draw": ("pescare una carta", "player"),
    "gain_life": ("guadagnare punti vita", "player"),
    "lose_life": ("perdere punti vita", "player"),
    "counters": ("ricevere segnalini", "counters"),
    "tokens": ("creare pedine", "player"),
    "lose_game": ("perdere la partita", "player"),
    "regenerate": ("essere rigenerato (701.19)", "zone"),
    "prevent_damage": ("avere il danno prevenuto", "damage"),
}
# Events only a "can't" effect names (614.17): Platinum Angel's «non puoi perdere la partita»,
# «non può essere rigenerata» (701.19c), «il danno non può essere prevenuto» (615.12).
CANT_ONLY = ("lose_game", "regenerate", "prevent_damage")

# What happens instead: each operation, the events it may replace and the rules its log cites.
OPS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "exile": (("graveyard", "die", "destroy", "discard", "mill", "enter", "leave", "zone_change"),
              ("614.1a",)),
    "put": (("graveyard", "die", "destroy", "exile", "discard", "mill", "enter", "leave",
             "zone_change"), ("614.1a",)),
    "regenerate": (("destroy",), ("614.8",)),
    "remove_counters": (("destroy",), ("614.1a",)),
    "tapped": (("enter",), ("614.1d", "614.12")),
    "counters": (("enter",), ("614.1c", "614.12", "122.6")),
    "copy": (("enter",), ("614.1c", "614.12")),
    "control": (("enter",), ("614.12",)),
    "prevent": (("dealt_damage", "deal_damage"), ("615.1a",)),
    "redirect": (("dealt_damage", "deal_damage"), ("614.9",)),
    "double": (("dealt_damage", "deal_damage", "gain_life", "lose_life", "counters", "tokens",
                "draw"), ("614.1a",)),
    "add": (("dealt_damage", "deal_damage", "gain_life", "lose_life", "counters", "tokens",
             "draw"), ("614.1a",)),
    "draw": (("gain_life", "lose_life"), ("614.1a",)),
    "return_from_graveyard": (("draw",), ("614.1a", "614.11")),
    "skip": (tuple(e for e in EVENTS if e not in CANT_ONLY), ("614.1b", "614.10")),
}
WHEN_KEYS = {"from", "to", "source", "recipient", "combat", "counter"}
REPLACEMENT_KEYS = {"id", "text", "source", "kind", "controller", "affects", "duration",
                    "condition", "timestamp", "granted_by", "card", "event", "when", "instead",
                    "cant", "self_replacement", "optional", "uses", "shield", "functions_in"}
LIBRARY_POSITIONS = ("top", "bottom", "shuffle")
MAX_INSTEAD = 10


def is_replacement(d: Any) -> bool:
    """A record of the ``effects`` list that is a replacement or prevention effect."""
    return isinstance(d, dict) and "event" in d


def family(event: str) -> str:
    return EVENTS[event][1]


def _int(v: Validator, d: dict, key: str, path: str, minimum: int) -> int | None:
    n = v.typed(d, key, path, "int", None, nullable=True)
    if n is not None and n < minimum:
        v.err(f"{path}.{key}", f"atteso un intero non minore di {minimum}")
        return None
    return n


def _zones(v: Validator, d: dict, key: str, path: str, allowed=ZONE_NAMES) -> list[str]:
    raw = d.get(key)
    if raw == "all":
        return list(allowed)
    return v.str_list(d, key, path, tuple(allowed), "zona")


def _op(v: Validator, d: Any, event: str, path: str) -> dict | None:
    if not isinstance(d, dict):
        v.err(path, 'atteso un oggetto (un\'operazione, per esempio {"op": "exile"})')
        return None
    name = d.get("op")
    if name not in OPS:
        v.err(f"{path}.op", f'operazione sconosciuta "{str(name)[:40]}" (ammesse: '
                            f'{", ".join(OPS)})')
        return None
    if event not in OPS[name][0]:
        v.err(f"{path}.op", f'«{name}» non sostituisce l\'evento «{event}» (lo fa per: '
                            f'{", ".join(OPS[name][0])})')
        return None
    out: dict[str, Any] = {"op": name}
    keys = {"op"}
    if name == "put":
        keys |= {"zone", "position"}
        zone = v.typed(d, "zone", path, "str", required=True)
        if zone is not None and zone not in (*ZONES, "battlefield"):
            v.err(f"{path}.zone", f'zona sconosciuta "{zone[:40]}" (ammesse: hand, library, '
                                  'graveyard, exile, command, battlefield)')
        out["zone"] = zone
        pos = v.typed(d, "position", path, "str", None, nullable=True)
        if pos is not None:
            if pos not in LIBRARY_POSITIONS or zone != "library":
                v.err(f"{path}.position", "solo per il grimorio: top, bottom o shuffle")
            out["position"] = pos
    elif name in ("remove_counters", "counters"):
        keys |= {"kind", "count"}
        out["kind"] = v.typed(d, "kind", path, "str", required=True)
        out["count"] = _int(v, d, "count", path, 1) or 1
    elif name == "copy":
        keys.add("of")
        out["of"] = v.typed(d, "of", path, "str", required=True)
    elif name == "control":
        keys.add("player")
        out["player"] = v.typed(d, "player", path, "str", required=True)
    elif name == "prevent":
        keys.add("amount")
        n = _int(v, d, "amount", path, 1)
        if n is not None:
            out["amount"] = n
    elif name == "redirect":
        keys.add("to")
        out["to"] = v.typed(d, "to", path, "str", required=True)
    elif name == "add":
        keys.add("amount")
        n = v.typed(d, "amount", path, "int", required=True)
        out["amount"] = n if n is not None else 0
    elif name == "draw":
        keys.add("count")
        c = d.get("count", "amount")
        if c != "amount" and not (isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 100):
            v.err(f"{path}.count", '"amount" (tante carte quanti punti vita) o un intero da 1 a 100')
            c = "amount"
        out["count"] = c
    elif name == "return_from_graveyard":
        keys.add("card")
        card = v.typed(d, "card", path, "str", None, nullable=True)
        if card is not None:
            out["card"] = card
    v.unknown_keys(d, keys, path)
    return out


def _when(v: Validator, w: Any, event: str, path: str) -> dict | None:
    if w is None:
        return None
    if not isinstance(w, dict):
        v.err(path, "atteso un oggetto (from, to, source, recipient, combat, counter)")
        return None
    v.unknown_keys(w, WHEN_KEYS, path)
    fam = family(event)
    out: dict[str, Any] = {}
    for k in ("from", "to"):
        if k in w:
            if fam != "zone":
                v.err(f"{path}.{k}", "solo per gli eventi in cui un oggetto cambia zona")
            out[k] = _zones(v, w, k, path)
    for k in ("source", "recipient"):
        if k in w:
            if fam != "damage":
                v.err(f"{path}.{k}", "solo per gli eventi di danno")
            out[k] = _affects(v, w[k], f"{path}.{k}")
    if "combat" in w:
        if fam != "damage":
            v.err(f"{path}.combat", "solo per gli eventi di danno")
        b = v.typed(w, "combat", path, "bool")
        if b is not None:
            out["combat"] = b
    if "counter" in w:
        if event != "counters":
            v.err(f"{path}.counter", "solo per l'evento counters")
        out["counter"] = v.str_list(w, "counter", path)
    return out or None


def read(v: Validator, d: Any, path: str) -> Effect | None:
    """One replacement or prevention record of a file or a judge action, checked."""
    if not isinstance(d, dict):
        v.err(path, "atteso un oggetto (un effetto di sostituzione o prevenzione)")
        return None
    v.unknown_keys(d, REPLACEMENT_KEYS, path)
    eid = v.typed(d, "id", path, "str", required=True)
    event = v.typed(d, "event", path, "str", required=True)
    if event not in EVENTS:
        v.err(f"{path}.event", f'evento sconosciuto "{str(event)[:40]}" (ammessi: '
                               f'{", ".join(EVENTS)})')
        return None
    kind = v.typed(d, "kind", path, "str", "static") or "static"
    if kind not in KINDS:
        v.err(f"{path}.kind", 'atteso "static" (abilità statica) o "resolved" (magia o abilità '
                              'risolta)')
        kind = "static"
    duration = v.typed(d, "duration", path, "str", "game") or "game"
    if duration not in DURATIONS:
        v.err(f"{path}.duration", f'durata sconosciuta "{duration[:40]}" (ammesse: '
                                  f'{", ".join(DURATIONS)})')
        duration = "game"
    cant = v.typed(d, "cant", path, "bool", False)
    raw_ops = v.typed(d, "instead", path, "list", [])
    if len(raw_ops) > MAX_INSTEAD:
        v.err(f"{path}.instead", f"troppe operazioni (limite {MAX_INSTEAD})")
        raw_ops = []
    ops = [op for i, raw in enumerate(raw_ops)
           if (op := _op(v, raw, event, f"{path}.instead[{i}]")) is not None]
    cond = v.typed(d, "condition", path, "dict", None, nullable=True)
    fin = None
    if "functions_in" in d:
        fin = _zones(v, d, "functions_in", path)
    e = Effect(
        id=eid or "?", text=v.typed(d, "text", path, "str", "") or "",
        source=v.typed(d, "source", path, "str", None, nullable=True), kind=kind,
        controller=v.typed(d, "controller", path, "str", None, nullable=True),
        affects=_affects(v, d.get("affects", "self"), f"{path}.affects"), does=[],
        duration=duration if kind == "resolved" else "game",
        condition=_condition(v, cond, f"{path}.condition") if cond else None,
        timestamp=v.typed(d, "timestamp", path, "int", None, nullable=True),
        granted_by=v.typed(d, "granted_by", path, "str", None, nullable=True),
        card=v.typed(d, "card", path, "str", None, nullable=True),
        event=event, when=_when(v, d.get("when"), event, f"{path}.when"), instead=ops, cant=cant,
        self_replacement=v.typed(d, "self_replacement", path, "bool", False),
        optional=v.typed(d, "optional", path, "bool", False),
        uses=_int(v, d, "uses", path, 1), shield=_int(v, d, "shield", path, 1),
        functions_in=fin)
    _coherent(v, e, raw_ops, path)
    return e


def _coherent(v: Validator, e: Effect, raw_ops: list, path: str) -> None:
    """What the fields say together."""
    if e.kind == "static" and e.source is None and e.granted_by is None:
        v.err(f"{path}.source", "un'abilità statica ha la sua fonte: l'oggetto su cui è scritta "
                                "(611.3)")
    if e.cant and raw_ops:
        v.err(f"{path}.instead", "un effetto «non può» (614.17) non sostituisce l'evento: "
                                 "togli instead")
    if not e.cant and not raw_ops:
        v.err(f"{path}.instead", "indica che cosa succede invece (almeno un'operazione), "
                                 "oppure cant: true per un effetto «non può» (614.17)")
    if e.event in CANT_ONLY and not e.cant:
        v.err(f"{path}.cant", f"l'evento «{e.event}» si indica solo con cant: true (614.17)")
    names = [op["op"] for op in e.instead]
    if e.shield is not None and "prevent" not in names:
        v.err(f"{path}.shield", "uno scudo (615.7) è di un effetto di prevenzione (op prevent)")
    if e.shield is not None and any("amount" in op for op in e.instead if op["op"] == "prevent"):
        v.err(f"{path}.shield", "con shield la quantità da prevenire è lo scudo: togli amount")
    if e.functions_in is not None and e.kind != "static":
        v.err(f"{path}.functions_in", "solo un'abilità statica funziona in una zona (113.6b)")
    fam = family(e.event)
    players = isinstance(e.affects, dict) and "players" in e.affects
    if fam in ("player",) and not (players or e.affects == "game"):
        v.err(f"{path}.affects", 'questo evento riguarda giocatori: affects {"players": …} o '
                                 '"game"')
    if fam == "zone" and players:
        v.err(f"{path}.affects", "questo evento riguarda oggetti che cambiano zona: affects "
                                 "indica oggetti")
    if e.event == "deal_damage" and players:
        v.err(f"{path}.affects", "deal_damage riguarda la fonte del danno: affects indica "
                                 "oggetti (o recipient in when per chi lo subisce)")


def check_refs(v: Validator, st: State, path_of=lambda i: f"effects[{i}]") -> None:
    """The objects and players the replacement part of each record names exist (the shared
    fields are checked by ``effect_schema.check_refs``)."""
    ids = st.all_ids()
    players = {p.id for p in st.players}
    for i, e in enumerate(st.effects):
        if e.event is None:
            continue
        p = path_of(i)
        for j, op in enumerate(e.instead):
            q = f"{p}.instead[{j}]"
            if op["op"] == "copy" and op.get("of") not in ids:
                v.err(f"{q}.of", f'oggetto sconosciuto "{str(op.get("of"))[:40]}"')
            if op["op"] == "control" and op.get("player") not in players | {"you"}:
                v.err(f"{q}.player", f'giocatore sconosciuto "{str(op.get("player"))[:40]}"')
            if op["op"] == "redirect" and op.get("to") not in ids | players | {"you", "attached"}:
                v.err(f"{q}.to", f'oggetto o giocatore sconosciuto "{str(op.get("to"))[:40]}"')
            if op["op"] == "return_from_graveyard" and "card" in op and op["card"] not in ids:
                v.err(f"{q}.card", f'carta sconosciuta "{op["card"][:40]}"')
        for k in ("source", "recipient"):
            sel = (e.when or {}).get(k)
            if not isinstance(sel, dict):
                continue
            for oid in sel.get("objects", []):
                if oid not in ids:
                    v.err(f"{p}.when.{k}.objects", f'oggetto sconosciuto "{oid[:40]}"')
            whom = sel.get("players")
            if isinstance(whom, list):
                for pid in whom:
                    if pid not in players:
                        v.err(f"{p}.when.{k}.players", f'giocatore sconosciuto "{pid[:40]}"')


def to_json(e: Effect) -> dict:
    """The record as the format writes it."""
    d: dict[str, Any] = {"id": e.id}
    if e.text:
        d["text"] = e.text
    if e.card is not None:
        d["card"] = e.card
    if e.source is not None:
        d["source"] = e.source
    d["kind"] = e.kind
    if e.controller is not None:
        d["controller"] = e.controller
    d["event"] = e.event
    if e.when:
        d["when"] = _plain(e.when)
    d["affects"] = _plain(e.affects)
    if e.cant:
        d["cant"] = True
    else:
        d["instead"] = _plain(e.instead)
    for key in ("self_replacement", "optional"):
        if getattr(e, key):
            d[key] = True
    for key in ("uses", "shield", "timestamp", "granted_by"):
        if getattr(e, key) is not None:
            d[key] = getattr(e, key)
    if e.functions_in is not None:
        d["functions_in"] = list(e.functions_in)
    if e.kind == "resolved":
        d["duration"] = e.duration
    if e.condition:
        d["condition"] = _plain(e.condition)
    return d


def parse_one(raw: Any, path: str = "effect") -> tuple[Effect | None, list[tuple[str, str]]]:
    """A record given outside a scenario file (a judge action): (effect, errors)."""
    return effect_schema.parse_one(raw, path, reader=read)

