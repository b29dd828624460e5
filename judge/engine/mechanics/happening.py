"""An event about to happen, as replacement and prevention effects see it (614.1, 615.1): a
:class:`Happening`.  The engine's primitive operations (``ops``) describe what they are about to
do as one, ``replacement.modify`` turns it into what happens instead, and ``ops`` performs that.

Also here: who is affected (616.1: the affected object's controller, or its owner if it has
none, or the affected player) and the Italian sentences of the log, for the event that would
happen and for the one that does.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from judge.engine import terms
from judge.engine.characteristics import derived
from judge.engine.state import Card, Permanent, State
from judge.engine.steps import PHASE_LABELS, step_def

KINDS = ("zone", "damage", "draw", "life", "counters", "tokens", "regenerate",
         "remove_counters", "step", "phase", "turn")
# A step, phase or turn about to begin (614.10): ``part`` names the step or phase, ``player``
# is whose turn it is (``extra["team"]``: the whole team with shared team turns, 805.8).
TURN_PARTS = ("step", "phase", "turn")


@dataclass
class Happening:
    kind: str
    obj: str | None = None          # zone: the object; damage, counters: the permanent
    player: str | None = None       # damage, counters: the player; draw, life, tokens
    amount: int = 0                 # damage, draws, life (+ gained, - lost), counters, tokens
    rules: list[str] = field(default_factory=list)    # what makes it happen (the caller's)
    # zone changes
    origin: str | None = None       # where the object is ("battlefield", "hand", …; None: created)
    dest: str | None = None
    cause: str | None = None        # "destroy", "sacrifice", "discard", "mill", …
    by_effect: bool = True          # a destruction caused by an effect, not by 704.5g (122.1c)
    position: str | None = None     # into a library: "top" (default), "bottom", "shuffle"
    # entering the battlefield (614.1c–d, 614.12)
    controller: str | None = None
    tapped: bool = False
    enter_counters: dict[str, int] = field(default_factory=dict)
    copy_of: str | None = None
    # damage
    source: str | None = None
    combat: bool = False
    counter: str | None = None      # counters, remove_counters: the kind
    part: str | None = None         # step, phase: which one ("draw", "combat")
    # what the engine needs to perform it (not part of the event)
    extra: dict[str, Any] = field(default_factory=dict)
    applied: list[str] = field(default_factory=list)    # effects applied to it (614.5)

    def but(self, **changes) -> "Happening":
        """The same event, modified (the effects applied so far go with it, 614.5)."""
        new = copy.copy(self)
        new.enter_counters = dict(self.enter_counters)
        new.applied = list(self.applied)
        new.rules = list(self.rules)
        for k, v in changes.items():
            setattr(new, k, v)
        return new

    def derived(self, kind: str, **fields) -> "Happening":
        """Another event that happens instead, carrying the effects already applied (614.5)."""
        return Happening(kind, applied=list(self.applied), **fields)


def find(st: State, oid: str | None) -> Card | None:
    found = st.find_card(oid) if oid else None
    return found[2] if found else None


def subject(st: State, h: Happening) -> Card | None:
    """The object the event is about: where it is, or the one out of any zone (a spell that
    finished resolving, a token being created)."""
    return h.extra.get("card") or find(st, h.obj)


def zone_of(st: State, oid: str) -> str | None:
    found = st.find_card(oid)
    return found[1] if found else None


def affected(st: State, h: Happening) -> tuple[str, str | None]:
    """What the event affects (616.1): ("player", id) or ("object", id)."""
    if h.kind in ("draw", "life", "tokens", *TURN_PARTS):
        return "player", h.player
    if h.kind in ("damage", "counters") and h.player is not None:
        return "player", h.player
    return "object", h.obj


def chooser(st: State, h: Happening) -> tuple[str | None, str]:
    """Who chooses the order of the effects (616.1) and why, in Italian."""
    what, ident = affected(st, h)
    if what == "player":
        return ident, "il giocatore interessato"
    enter = h if h.kind == "zone" and h.dest == "battlefield" else h.extra.get("entering")
    if enter is not None and ident == enter.obj:
        obj = subject(st, enter)
        who = enter.controller or (obj.owner if obj is not None else None)
        return who, f"chi controllerà {obj.name if obj is not None else ident}"
    obj = subject(st, h) if ident == h.obj else find(st, ident)
    if obj is None:
        return None, ""
    if isinstance(obj, Permanent):
        ctl = derived.controller(st, obj)
        return ctl, f"controllore di {obj.name}, l'oggetto interessato"
    return obj.owner or None, f"proprietario di {obj.name}, che non ha un controllore"


# --- the log's sentences ------------------------------------------------------------------------

def _dest(st: State, h: Happening, obj: Card | None, prep: str = "in") -> str:
    if h.dest == "battlefield":
        ctl = f" sotto il controllo di {st.name_of(h.controller)}" if h.controller else ""
        return "nel campo di battaglia" + ctl
    owner = f" di {st.name_of(obj.owner)}" if obj is not None and obj.owner else ""
    if h.dest == "library":
        return {"bottom": f"in fondo al grimorio{owner}",
                "shuffle": f"nel grimorio{owner}, che viene rimescolato"}.get(
            h.position or "", f"in cima al grimorio{owner}")
    if h.dest == "exile":
        return "in esilio" if prep == "in" else "all'esilio"
    return terms.zone(prep, h.dest or "graveyard") + owner


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def would(st: State, h: Happening) -> str:
    """The event that would happen: «Orso Runeartigli sta per essere distrutto …»."""
    obj = subject(st, h)
    name = obj.name if obj is not None else st.name_of(h.obj)
    if h.kind == "zone":
        route = (f"{terms.zone('da', h.origin)} {_dest(st, h, obj, 'a')}" if h.origin
                 else _dest(st, h, obj))
        if h.cause == "destroy":
            return f"si sta per distruggere {name} ({route})"
        if h.cause == "discard":
            return f"{st.name_of(obj.owner if obj else None)} sta per scartare {name} ({route})"
        if h.cause == "mill":
            return f"si sta per macinare {name} ({route})"
        if h.cause == "sacrifice":
            return f"si sta per sacrificare {name} ({route})"
        if h.dest == "battlefield":
            return f"{name} sta per entrare {_dest(st, h, obj)}"
        if h.origin == "battlefield" and h.dest == "graveyard" and obj is not None \
                and derived.is_creature(st, obj):
            return f"{name} sta per morire ({route})"
        return f"{name} sta per andare {route}"
    if h.kind == "damage":
        return (f"{st.name_of(h.source) if h.source else 'Una fonte'} sta per infliggere "
                f"{_n(h.amount, 'danno', 'danni')}{' da combattimento' if h.combat else ''} a "
                f"{st.name_of(h.player or h.obj)}")
    if h.kind == "draw":
        return f"{st.name_of(h.player)} sta per pescare {_n(h.amount, 'carta', 'carte')}"
    if h.kind == "life":
        verb = "guadagnare" if h.amount > 0 else "perdere"
        return f"{st.name_of(h.player)} sta per {verb} {_n(abs(h.amount), 'punto vita', 'punti vita')}"
    if h.kind == "counters":
        return (f"si stanno per mettere {_n(h.amount, 'segnalino', 'segnalini')} "
                f"{terms.counter(h.counter or '')} su {st.name_of(h.player) if h.player else name}")
    if h.kind == "tokens":
        return f"{st.name_of(h.player)} sta per creare {_n(h.amount, 'pedina', 'pedine')}"
    if h.kind in TURN_PARTS:
        return f"sta per iniziare {turn_part(st, h)}"
    return result(st, h)


def turn_part(st: State, h: Happening) -> str:
    """«la sottofase di acquisizione di Alice», «il turno di Bruno»."""
    return f"{part_label(h)} di {st.name_of(h.player)}"


def part_label(h: Happening) -> str:
    """«la sottofase di acquisizione», «la fase di combattimento», «il turno»."""
    if h.kind == "turn":
        return "il turno"
    label = PHASE_LABELS[h.part or ""] if h.kind == "phase" else step_def(h.part or "").label
    return f"la {label}"


def result(st: State, h: Happening | None) -> str:
    """The event that happens: «Orso Runeartigli va in esilio»."""
    if h is None:
        return "non succede nulla"
    obj = subject(st, h)
    name = obj.name if obj is not None else st.name_of(h.obj)
    if h.kind == "zone":
        extra = []
        if h.dest == "battlefield":
            if h.tapped:
                extra.append(terms.done("tap"))
            for k, n in h.enter_counters.items():
                extra.append(f"con {_n(n, 'segnalino', 'segnalini')} {terms.counter(k)}")
            if h.copy_of:
                extra.append(f"come copia di {st.name_of(h.copy_of)}")
        return f"{name} va {_dest(st, h, obj)}" + (f" ({', '.join(extra)})" if extra else "")
    if h.kind == "damage":
        return (f"{st.name_of(h.source) if h.source else 'una fonte'} infligge "
                f"{_n(h.amount, 'danno', 'danni')} a {st.name_of(h.player or h.obj)}")
    if h.kind == "draw":
        return f"{st.name_of(h.player)} pesca {_n(h.amount, 'carta', 'carte')}"
    if h.kind == "life":
        verb = "guadagna" if h.amount > 0 else "perde"
        return f"{st.name_of(h.player)} {verb} {_n(abs(h.amount), 'punto vita', 'punti vita')}"
    if h.kind == "counters":
        return (f"{_n(h.amount, 'segnalino', 'segnalini')} {terms.counter(h.counter or '')} su "
                f"{st.name_of(h.player) if h.player else name}")
    if h.kind == "tokens":
        return f"{st.name_of(h.player)} crea {_n(h.amount, 'pedina', 'pedine')}"
    if h.kind == "regenerate":
        return f"{name} si rigenera"
    if h.kind in TURN_PARTS:
        return f"inizia {turn_part(st, h)}"
    if h.kind == "remove_counters":
        return f"si rimuove {_n(h.amount, 'segnalino', 'segnalini')} {terms.counter(h.counter or '')} da {name}"
    return "non succede nulla"


def to_json(h: Happening | None) -> dict | None:
    """The event for the JSON of the log."""
    if h is None:
        return None
    out: dict[str, Any] = {"kind": h.kind}
    for k in ("obj", "player", "source", "origin", "dest", "cause", "position", "controller",
              "copy_of", "counter", "part"):
        v = getattr(h, k)
        if v is not None:
            out[k] = v
    if h.kind not in ("zone", "regenerate", *TURN_PARTS):
        out["amount"] = h.amount
    if h.combat:
        out["combat"] = True
    if h.tapped:
        out["tapped"] = True
    if h.enter_counters:
        out["enter_counters"] = dict(h.enter_counters)
    return out

