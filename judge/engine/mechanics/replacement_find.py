"""Which replacement and prevention effects apply to an event about to happen (614, 615), and
which "can't" effects forbid it (614.17).

The effects are the file's records with an ``event`` (a static ability exists while an object in
a zone where it works has it, 611.3a, 113.6: the layers say which objects have "@id"; a resolved
effect while its duration lasts, 611.2a) and the rules' own: a shield counter's two effects
(122.1c), a finality counter's (122.1h), a commander's option (903.9b) and protection's
prevention (702.16e).  Each comes as a :class:`Candidate`: what it does, the rules its log
cites, and its place in 616.1's order (a self-replacement effect first, 616.1a; then one that
decides under whose control an object enters, 616.1b; then a copy effect, 616.1c).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.engine.characteristics import derived, layers, protection, selectors
from judge.engine.characteristics.continuous import copiable_values
from judge.engine.characteristics.layer_work import Work, start
from judge.engine.characteristics.replacement_schema import CANT_ONLY, family
from judge.engine.mechanics.happening import TURN_PARTS, Happening, find, subject, zone_of
from judge.engine.seats import opponents
from judge.engine.state import Effect, Permanent, State

COMMANDER_VARIANTS = ("commander", "brawl")
RULE_COUNTERS = ("shield", "finality")
CATEGORY_RULES = {"616.1a": ["616.1a", "614.15"], "616.1b": ["616.1b"], "616.1c": ["616.1c"],
                  "616.1e": ["616.1e"]}


@dataclass
class Candidate:
    """One replacement or prevention effect that would apply to an event."""

    key: str                          # "e1" or "e1@holder" (a copied or granted ability)
    label: str                        # for people: «Rest in Peace» [rip]
    ops: list[dict]
    rules: list[str] = field(default_factory=list)    # beyond its operations' (a rule's own)
    effect: Effect | None = None
    holder: str | None = None
    you: str | None = None
    category: str = "616.1e"
    optional: bool = False
    decider: str | None = None        # who says whether an optional one applies
    repeatable: bool = False          # 903.9b: an exception to 614.5
    order: tuple = ()
    blocked: str | None = None        # a regeneration shield a "can't be regenerated" stops

    @property
    def prevention(self) -> bool:
        return any(op["op"] == "prevent" for op in self.ops)


def records(st: State) -> list[Effect]:
    return [e for e in st.effects if e.event is not None]


def may_choose(st: State) -> bool:
    """Could an event now ask a player to choose among effects (616.1) or whether to apply
    one?  Cheap: the engine saves a point to go back to only then."""
    if any(e.event is not None for e in st.effects):
        return True
    if st.variant in COMMANDER_VARIANTS:
        return True
    return any(p.counters.get(k) for p in st.battlefield for k in RULE_COUNTERS)


# --- the objects as the effects see them ----------------------------------------------------------

class View:
    """The layers' objects, and an entering object as it would exist on the battlefield
    (614.12: its own abilities, the copy effects already applied to its entering).  The layers
    are read only when an effect needs them."""

    def __init__(self, st: State, h: Happening | None = None):
        self.st = st
        self._board: layers.Board | None = None
        self.entering: Work | None = None
        self.entering_obj = None
        enter = h if h is not None and h.kind == "zone" and h.dest == "battlefield" else (
            h.extra.get("entering") if h is not None else None)
        if enter is not None and enter.obj:
            obj = subject(st, enter)
            if obj is not None and not isinstance(obj, Permanent):
                self.entering = _as_entering(st, obj, enter, layers.static_of(st))
                self.entering_obj = obj

    def _layers(self) -> layers.Board:
        if self._board is None:
            self._board = layers.board(self.st)
        return self._board

    @property
    def works(self) -> dict[str, Work]:
        return self._layers().works

    def holders(self, effect_id: str) -> frozenset[str]:
        """The layers' objects that have the static ability of effect ``effect_id``."""
        return self._layers().holders(f"@{effect_id}")

    def work(self, oid: str | None) -> Work | None:
        if oid is None:
            return None
        if self.entering is not None and oid == self.entering.oid:
            return self.entering
        w = self.works.get(oid)
        if w is not None:
            return w
        obj = find(self.st, oid)
        if obj is None:
            return None
        zone = zone_of(self.st, oid) or ""
        ctl = derived.controller(self.st, obj) if isinstance(obj, Permanent) else None
        w = start(obj, zone, layers.static_of(self.st), ctl, getattr(obj, "timestamp", 0))
        w.abilities = list(layers.chars(self.st, obj).abilities)
        return w


def _as_entering(st: State, obj, h: Happening, static_of) -> Work:
    w = start(obj, "battlefield", static_of, h.controller or obj.owner, 0)
    if h.copy_of:
        values = copiable_values(st, h.copy_of)
        for k, v in values.items():
            setattr(w, k, list(v) if isinstance(v, list) else v)
    return w


# --- matching an effect to an event --------------------------------------------------------------

def event_matches(event: str, h: Happening) -> bool:
    """Does ``h`` belong to the kind of event ``event`` watches?"""
    z = h.kind == "zone"
    return {
        "graveyard": z and h.dest == "graveyard",
        "die": z and h.origin == "battlefield" and h.dest == "graveyard",
        "destroy": z and h.cause == "destroy",
        "exile": z and h.dest == "exile",
        "discard": z and h.cause == "discard",
        "mill": z and h.cause == "mill",
        "enter": z and h.dest == "battlefield",
        "leave": z and h.origin == "battlefield" and h.dest != "battlefield",
        "zone_change": z,
        "dealt_damage": h.kind == "damage", "deal_damage": h.kind == "damage",
        "prevent_damage": h.kind == "damage",
        "draw": h.kind == "draw",
        "gain_life": h.kind == "life" and h.amount > 0,
        "lose_life": h.kind == "life" and h.amount < 0,
        "counters": h.kind == "counters" and h.amount > 0,
        "tokens": h.kind == "tokens",
        "regenerate": h.kind == "regenerate",
        "step": h.kind == "step", "phase": h.kind == "phase", "turn": h.kind == "turn",
    }.get(event, False)


def players_of(st: State, spec, you: str | None) -> set[str]:
    if spec == "each":
        return {p.id for p in st.players}
    if spec == "you":
        return {you} if you else set()
    if spec == "opponents":
        return {p.id for p in opponents(st, you)} if you and st.has_player(you) else set()
    return set(spec or [])


def selected(view: View, sel, what: str, ident: str | None, holder: str | None,
             you: str | None) -> bool:
    """Is the player or object ``ident`` in the set ``sel`` (a selector of the format) names?"""
    if ident is None:
        return False
    if sel == "game":
        return True
    if what == "player":
        return isinstance(sel, dict) and "players" in sel and ident in players_of(
            view.st, sel["players"], you)
    if sel == "self":
        return ident == holder
    if sel == "attached":
        w = view.work(holder)
        return w is not None and w.attached_to == ident
    if not isinstance(sel, dict):
        return False
    if "objects" in sel:
        return ident in sel["objects"]
    if "filter" in sel:
        w = view.work(ident)
        return w is not None and selectors.matches(w, sel["filter"], holder, you, view.st)
    return False


def _target(e: Effect, h: Happening) -> tuple[str, str | None]:
    """What of the event the effect's ``affects`` names."""
    if h.kind in TURN_PARTS:
        return "player", h.player
    if e.event == "deal_damage":
        return "object", h.source
    if family(e.event) == "damage" or h.kind == "counters":
        return ("player", h.player) if h.player is not None else ("object", h.obj)
    if family(e.event) == "player":
        return "player", h.player
    return "object", h.obj


def applies(view: View, e: Effect, holder: str | None, you: str | None, h: Happening) -> bool:
    if not event_matches(e.event or "", h):
        return False
    when = e.when or {}
    if "from" in when and h.origin not in when["from"]:
        return False
    if "to" in when and h.dest not in when["to"]:
        return False
    if "combat" in when and h.combat != when["combat"]:
        return False
    if "counter" in when and h.counter not in when["counter"]:
        return False
    if h.kind in TURN_PARTS:
        return _skips(view, e, holder, you, h)
    if "source" in when and not selected(view, when["source"], "object", h.source, holder, you):
        return False
    if "recipient" in when:
        what, ident = ("player", h.player) if h.player is not None else ("object", h.obj)
        if not selected(view, when["recipient"], what, ident, holder, you):
            return False
    what, ident = _target(e, h)
    if not selected(view, e.affects, what, ident, holder, you):
        return False
    return selectors.holds(e.condition, holder, you, view.works, view.st)


def _skips(view: View, e: Effect, holder: str | None, you: str | None, h: Happening) -> bool:
    """A skip record (614.10) and the step, phase or turn about to begin: the one it names
    (either combat damage step, 510.4), of a player it names (805.8: of their team)."""
    want = (e.when or {}).get(h.kind)
    part = "combat_damage" if h.part == "first_strike_damage" else h.part
    if want is not None and want != part:
        return False
    if not any(selected(view, e.affects, "player", pid, holder, you)
               for pid in h.extra.get("team") or [h.player]):
        return False
    return selectors.holds(e.condition, holder, you, view.works, view.st)


def instances(view: View, e: Effect, h: Happening) -> list[tuple[str | None, str | None]]:
    """(holder, you) for each instance of the effect that exists now."""
    st = view.st
    if e.kind == "resolved":
        if e.duration == "source":
            p = st.perm(e.source) if e.source else None
            if p is None or p.phased_out:
                return []
        w = view.work(e.source)
        return [(e.source, e.controller or (w.controller if w is not None else None))]
    holders = {e.source} if e.source else set()
    holders |= view.holders(e.id)
    if view.entering is not None:
        holders.add(view.entering.oid)
    out = []
    for oid in sorted(h for h in holders if h):
        w = view.work(oid)
        if w is None or f"@{e.id}" not in w.abilities:
            continue
        entering_self = view.entering is not None and oid == view.entering.oid
        zones = e.functions_in or ("battlefield", "command")
        if not entering_self and w.zone not in zones:
            continue                       # 611.3b, 113.6; 113.6h: as the object enters
        if entering_self and e.affects != "self":
            continue                       # 614.12: from the permanent itself only for itself
        out.append((oid, w.controller or w.owner))
    return out


def _label(view: View, e: Effect, holder: str | None) -> str:
    """How the log names an effect: its source (or card) and its id; its text otherwise."""
    st = view.st
    entering = view.entering_obj
    who = (entering.name if entering is not None and e.source == entering.id else
           st.name_of(e.source) if e.source and st.find_card(e.source) else (e.card or ""))
    if holder and holder != e.source:
        who = f"{who}, su {st.name_of(holder)}" if who else st.name_of(holder)
    return f"{who} [{e.id}]" if who else f"«{e.text or e.id}» [{e.id}]"


def _category(e: Effect) -> str:
    if e.self_replacement:
        return "616.1a"
    names = {op["op"] for op in e.instead}
    if "control" in names:
        return "616.1b"
    if "copy" in names:
        return "616.1c"
    return "616.1e"


def _ts(view: View, e: Effect, holder: str | None) -> int:
    if e.kind == "resolved" or holder is None:
        return e.timestamp or 0
    w = view.work(holder)
    return w.timestamp if w is not None else 0


def _from_records(view: View, h: Happening, cant: bool) -> list[Candidate]:
    st = view.st
    out = []
    for i, e in enumerate(st.effects):
        if e.event is None or e.cant != cant:
            continue
        for holder, you in instances(view, e, h):
            if not applies(view, e, holder, you, h):
                continue
            key = e.id if holder == e.source or e.kind == "resolved" else f"{e.id}@{holder}"
            out.append(Candidate(key, _label(view, e, holder), list(e.instead), effect=e,
                                 holder=holder, you=you, category=_category(e),
                                 optional=e.optional, order=(_ts(view, e, holder), i)))
    return out


# --- the rules' own ---------------------------------------------------------------------------------

def _rule_made(view: View, h: Happening) -> list[Candidate]:
    st = view.st
    out = []
    obj = subject(st, h) if h.kind == "zone" else find(st, h.obj)
    perm = obj if isinstance(obj, Permanent) else None
    if h.kind == "zone" and perm is not None and h.origin == "battlefield":
        if h.cause == "destroy" and h.by_effect and perm.counters.get("shield"):
            out.append(Candidate(f"shield:{perm.id}", f"segnalino scudo su {perm.name}",
                                 [{"op": "remove_counters", "kind": "shield", "count": 1}],
                                 ["122.1c"], holder=perm.id, order=(perm.timestamp, -2)))
        if h.dest == "graveyard" and perm.counters.get("finality"):
            out.append(Candidate(f"finality:{perm.id}", f"segnalino finalità su {perm.name}",
                                 [{"op": "exile"}], ["122.1h"], holder=perm.id,
                                 order=(perm.timestamp, -2)))
    if (h.kind == "zone" and obj is not None and obj.commander and st.variant in COMMANDER_VARIANTS
            and h.dest in ("hand", "library")):
        out.append(Candidate(f"commander:{obj.id}", f"la regola del comandante per {obj.name}",
                             [{"op": "put", "zone": "command"}], ["903.9b"], holder=obj.id,
                             you=obj.owner, optional=True, decider=obj.owner, repeatable=True,
                             order=(0, -3)))
    if h.kind == "damage" and h.obj is not None:
        target = st.perm(h.obj)
        if target is not None and target.counters.get("shield"):
            out.append(Candidate(f"shield:{target.id}", f"segnalino scudo su {target.name}",
                                 [{"op": "prevent"}, {"op": "remove_counters", "kind": "shield",
                                                      "count": 1}],
                                 ["122.1c"], holder=target.id, order=(target.timestamp, -2)))
        source = h.extra.get("source_obj")
        if target is not None and source is not None:
            inst = protection.protection_from(st, target, source, h.extra.get("source_controller"))
            if inst is not None:
                out.append(Candidate(f"protection:{target.id}",
                                     f"{target.name} ({protection.describe(inst, st)})",
                                     [{"op": "prevent"}],
                                     protection.variant_rule(inst, "702.16e"),
                                     holder=target.id, order=(target.timestamp, -1)))
    return out


def holder_lost_it(st: State, h: Happening, c: Candidate) -> bool:
    """An entering object's own ability that it no longer has as it would enter (a copy
    effect applied first, 614.12, 616.1f's second example)."""
    view = View(st, h)
    return (c.effect is not None and c.effect.kind == "static" and view.entering is not None
            and c.holder == view.entering.oid and f"@{c.effect.id}" not in view.entering.abilities)


def applicable(st: State, h: Happening) -> list[Candidate]:
    """Every replacement and prevention effect that would apply to ``h`` now, oldest first.
    A regeneration effect that a "can't be regenerated" effect stops (701.19c) comes with
    ``blocked`` set: it is not applied."""
    view = View(st, h)
    found = _rule_made(view, h)
    if any(e.event is not None for e in st.effects):
        found = _from_records(view, h, cant=False) + found
    if any(op["op"] == "regenerate" for c in found for op in c.ops):
        stop = cant(st, "regenerate", obj=h.obj)
        if stop:
            for c in found:
                if any(op["op"] == "regenerate" for op in c.ops):
                    c.blocked = stop[0].label
    return sorted(found, key=lambda c: c.order)


def forbidding(st: State, h: Happening) -> list[Candidate]:
    """The "can't" effects (614.17) that say ``h`` can't happen (not those on losing the game,
    on regeneration or on prevention: ``cant`` asks for those)."""
    if not any(e.cant and e.event not in CANT_ONLY for e in st.effects):
        return []
    return [c for c in _from_records(View(st, h), h, cant=True)
            if c.effect is not None and c.effect.event not in CANT_ONLY]


def cant(st: State, event: str, **fields) -> list[Candidate]:
    """The "can't" effects on an event of kind ``event`` (``lose_game``: player=…,
    ``regenerate``: obj=…, ``prevent_damage``: a damage event's fields)."""
    if not any(e.cant and e.event == event for e in st.effects):
        return []
    kind = {"lose_game": "lose", "regenerate": "regenerate", "prevent_damage": "damage"}[event]
    h = Happening(kind, **fields)
    view = View(st, h)
    out = []
    for e in st.effects:
        if e.cant and e.event == event:
            for holder, you in instances(view, e, h):
                what, ident = ("player", h.player) if event == "lose_game" else _target(e, h)
                if event == "lose_game":
                    ok = selected(view, e.affects, what, ident, holder, you) and \
                        selectors.holds(e.condition, holder, you, view.works, st)
                else:
                    ok = applies(view, e, holder, you, h)
                if ok:
                    out.append(Candidate(e.id, _label(view, e, holder), [], effect=e, holder=holder,
                                         you=you))
    return out
