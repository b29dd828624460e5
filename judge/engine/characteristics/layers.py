"""The layer system (613): every object's characteristics, computed once per state version, with
how each came to be.

613.1: start from the object's own values, then apply the continuous effects layer by layer:
1a copy (613.2a), 1b face-down (613.2b), copiable values (613.2c), 2 control, 3 text, 4 types,
5 colours, 6 abilities (with keyword counters), 7a–7d power and toughness (613.4, with +X/+Y
counters in 7c).  In layers 2–6 the characteristic-defining abilities' effects go first (613.3),
then the others in timestamp order (613.7), dependency first (613.8, see dependency.py); an
effect keeps applying, to the same objects, in the later layers it has parts in (613.6).  Then
the effects on players (613.10) and on the rules of the game (613.11).

``board(st)`` gives the :class:`Board` of a state, cached on it until ``st.touch()`` says it may
have changed (``Ctx.emit`` does for every event, the engine's primitive operations for the
changes they make); ``chars(st, obj)`` one object's characteristics.  With ``VERIFY`` on (the
engine's tests), a cached board is checked against a fingerprint of everything it was computed
from, so a change that forgot to touch the state fails loudly instead of reading stale values.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from judge.engine.characteristics import dependency as dep
from judge.engine.characteristics import layer_ops, player_effects
from judge.engine.characteristics.effect_schema import OBJECT_LAYERS
from judge.engine.characteristics.instances import _PT_COUNTER, Catalog, Inst, counter_pt
from judge.engine.characteristics.keywords import COUNTER_KEYWORDS
from judge.engine.characteristics.layer_work import Chars, Work, face_down, start
from judge.engine.characteristics.subtypes import BASIC_LAND_MANA, mana_value
from judge.engine.state import CARD_LISTS, Card, Effect, Permanent, State

VERIFY = os.environ.get("JUDGE_LAYERS_VERIFY") == "1"
# Off: every read computes the whole board afresh (no cache, no quick path) — the reference a
# property test checks the cache against (tests/engine/test_layers_cache_off.py); never in use.
CACHE = True

# The rule of each layer or sublayer.
LAYER_RULE = {"1a": "613.2a", "1b": "613.2b", "2": "613.1b", "3": "613.1c", "4": "613.1d",
              "5": "613.1e", "6": "613.1f", "7a": "613.4a", "7b": "613.4b", "7c": "613.4c",
              "7d": "613.4d"}
SHOWN = {"1a": ("name", "mana_cost", "types", "subtypes", "supertypes", "colors", "abilities",
                "power", "toughness"), "1b": ("name", "mana_cost", "types", "subtypes",
                                              "supertypes", "colors", "abilities", "power",
                                              "toughness"),
         "2": ("controller",), "3": ("abilities",), "4": ("types", "subtypes", "supertypes",
                                                          "abilities"),
         "5": ("colors",), "6": ("abilities",), "7a": ("power", "toughness"),
         "7b": ("power", "toughness"), "7c": ("power", "toughness"), "7d": ("power", "toughness")}


@dataclass
class Step:
    """One effect applied to one object: the explanation's row."""

    seq: int                        # order of application on the whole board
    layer: str
    key: str                        # the instance ("e1", "e1@clone", "counters:x:pt", "face_down")
    effect: str | None              # the effect's id in the file
    source: str | None
    text: str
    changes: list[tuple[str, Any, Any]]     # (characteristic, before, after)
    rules: list[str]                # the layer's rule and those the operation followed
    why: str                        # "cda" | "timestamp" | "dependency" | "loop" | "rule"
    why_rules: list[str]
    after: dict[str, str] = field(default_factory=dict)   # effects it waited for → 613.8a reason
    loop: list[str] = field(default_factory=list)          # a loop's effects (613.8b)
    ts: int | None = None
    ts_rule: str | None = None
    continues: str | None = None    # 613.6: first applied in that layer


@dataclass
class Note:
    """An effect that did not apply, and why."""

    key: str
    effect: str | None
    source: str | None
    layer: str
    reason: str                     # "no_ability" | "condition" | "no_objects"
    rules: list[str]
    after: dict[str, str] = field(default_factory=dict)   # waited for (613.8a reason), if any


@dataclass
class Board:
    chars: dict[str, Chars]
    objects: dict[str, Card]                 # the object each entry is (an id may move zones)
    steps: dict[str, list[Step]]
    notes: list[Note]
    copiable: dict[str, Chars]
    players: dict[str, dict[str, Any]]
    rules: dict[str, list[str]]              # game rules changed (613.11) → effects
    order: list[Step]                        # the first step of each application, in order
    works: dict[str, Work] = field(default_factory=dict)   # the objects as the layers left them
    static_of: dict[str, list[Effect]] = field(default_factory=dict)
    version: int = -1
    fingerprint: Any = None
    shape: tuple = ()
    quick = False


    def holders(self, ability: str) -> frozenset[str]:
        """The objects whose abilities, as the layers left them, include ``ability`` (an
        "@id" static ability): indexed once per board."""
        index = self.__dict__.get("_holders")
        if index is None:
            index = {}
            for oid, w in self.works.items():
                for a in w.abilities:
                    if a[:1] == "@":
                        index.setdefault(a, set()).add(oid)
            index = self._holders = {a: frozenset(o) for a, o in index.items()}
        return index.get(ability, frozenset())

    def affected_by(self, effect_id: str) -> list[str]:
        """The objects an effect of the file changed (any of its instances)."""
        return [oid for oid, steps in self.steps.items()
                if any(s.effect == effect_id for s in steps)]


# --- the cache ----------------------------------------------------------------------------------

class Quick:
    """The layers of a state where no effect applies in the layers (no record with operations
    there: none at all, or only replacement and prevention records, 614–616, whose ``does`` is
    empty).  Then no object's values depend on another's: each object's are its own, with its
    counters and its static abilities, worked out when read — a permanent's by ``own``, the
    layers' objects (``works``, any zone) each by a computation of that object alone.  What
    else a board has (the explanation of counters, copiable values, every object at once)
    comes from a full computation, done once if asked.  It is read only while the state has
    the version it was made for (``board``); ``VERIFY`` checks that it is."""

    players: dict = {}
    rules: dict = {}
    quick = True

    def __init__(self, st: State):
        self.st = st
        self._chars: dict[int, Chars] = {}
        self._seen: list[Card] = []          # held, so no id in ``_chars`` is reused meanwhile
        self._full: Board | None = None
        self.static_of = static_of(st) if st.effects else {}
        self.works = _OwnWorks(self)
        self._printed: dict[str, set[str]] | None = None      # "@id" → who has it printed
        self._holders: dict[str, frozenset[str]] = {}
        self.version = -1
        self.fingerprint: Any = None
        self.shape: tuple = ()

    def chars_of(self, obj: Card) -> Chars:
        c = self._chars.get(id(obj))
        if c is None:
            entry = None if isinstance(obj, Permanent) else self.works.entry(obj.id)
            if entry is not None and entry[0] is obj:
                c = self.works[obj.id].chars()       # its zone's values (a spell's controller)
            else:
                c = own(obj, getattr(obj, "controller", None) or None, self.static_of)
            self._chars[id(obj)] = c
            self._seen.append(obj)
        return c

    def holders(self, ability: str) -> frozenset[str]:
        """As :meth:`Board.holders`: without effects in the layers an object has an "@id"
        ability only if printed (among its keywords, or as the source the record names)."""
        if self._printed is None:
            self._printed = {}
            for oid, effs in self.static_of.items():
                for e in effs:
                    self._printed.setdefault(f"@{e.id}", set()).add(oid)
            for oid, (c, *_) in self.works.entries().items():
                for a in c.keywords:
                    if a[:1] == "@":
                        self._printed.setdefault(a, set()).add(oid)
        found = self._holders.get(ability)
        if found is None:
            found = self._holders[ability] = frozenset(
                oid for oid in self._printed.get(ability, ())
                if oid in self.works and ability in self.works[oid].abilities)
        return found

    def full(self) -> Board:
        if self._full is None:
            self.check()
            self._full = compute(self.st)
        return self._full

    def check(self) -> None:
        """VERIFY: computing now for the state it was made for, not for a later one."""
        if VERIFY and getattr(self.st, "_version", 0) != self.version:
            raise AssertionError("caratteristiche calcolate per uno stato già cambiato "
                                 "(layers.Quick letto dopo st.touch())")

    def __getattr__(self, name: str):
        return getattr(self.full(), name)


class _OwnWorks(Mapping):
    """The layers' objects of a :class:`Quick` state: each computed alone when asked (the same
    as a full computation gives it: no effect there reaches from one object to another), all of
    them by the full computation when iterated."""

    def __init__(self, q: Quick):
        self.q = q
        self._entries: dict[str, Entry] | None = None
        self._got: dict[str, Work] = {}

    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            self._entries = universe(self.q.st)
        return self._entries

    def entry(self, oid: str) -> Entry | None:
        return self.entries().get(oid)

    def __getitem__(self, oid: str) -> Work:
        w = self._got.get(oid)
        if w is None:
            if self.q._full is not None:
                return self.q._full.works[oid]
            e = self.entries()[oid]
            self.q.check()
            w = self._got[oid] = _Run(self.q.st, [e]).run().works[oid]
        return w

    def get(self, oid, default=None):
        return self[oid] if oid in self.entries() else default

    def __contains__(self, oid) -> bool:
        return oid in self.entries()

    def __iter__(self):
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self.entries())

    def items(self):
        return self.q.full().works.items()

    def values(self):
        return self.q.full().works.values()


def layered(st: State) -> bool:
    """Does any effect of the state apply in the layers (613)?  A replacement or prevention
    record (614, 615) has no operations there (``does`` is empty)."""
    return any(e.does for e in st.effects)


def board(st: State) -> Board:
    if not CACHE:
        return compute(st)
    version = getattr(st, "_version", 0)
    cached: Board | None = getattr(st, "_layers", None)
    shape = (len(st.battlefield), len(st.effects), len(st.stack))
    if cached is not None and cached.version == version and cached.shape == shape:
        if VERIFY and cached.fingerprint != (now := fingerprint(st)):
            diff = [(a, b) for a, b in zip(cached.fingerprint, now) if a != b]
            raise AssertionError("caratteristiche in cache non aggiornate: una modifica dello "
                                 f"stato non ha chiamato st.touch(): {str(diff)[:600]}")
        return cached
    b = compute(st) if layered(st) else Quick(st)
    b.version, b.shape = version, shape
    b.fingerprint = fingerprint(st) if VERIFY else None
    st._layers = b
    return b


def fingerprint(st: State) -> tuple:
    """Everything the layers read (VERIFY mode only)."""
    from judge.engine.characteristics.effect_schema import to_json
    shape = (len(st.battlefield), len(st.effects), len(st.stack))
    perms = tuple((p.id, id(p), p.controller, p.attached_to, p.phased_out, p.face_down,
                   p.timestamp, tuple(sorted((k, n) for k, n in p.counters.items()
                                             if k in COUNTER_KEYWORDS or _PT_COUNTER.match(k))),
                   tuple(sorted(p.counter_timestamps.items())),
                   p.name, tuple(p.types), tuple(p.subtypes), tuple(p.supertypes),
                   p.power, p.toughness, tuple(p.keywords), p.colors, p.mana_cost)
                  for p in st.battlefield)
    zones = tuple((pl.id, z, tuple(c.id for c in pl.zone(z))) for pl in st.players
                  for z in CARD_LISTS)
    return (shape, perms, zones, repr([to_json(e) for e in st.effects]),
            (st.turn.number, st.turn.active_player), tuple(s.id for s in st.stack),
            tuple((p.id, p.lost, p.max_hand_size, p.cant_gain_life, p.cant_lose_life)
                  for p in st.players))


def chars(st: State, obj: Card) -> Chars:
    """``obj``'s characteristics now (any zone).  Read thousands of times a turn: the cached
    board's checks are inlined."""
    d = st.__dict__
    b = d.get("_layers")
    if b is None or VERIFY or not CACHE or b.version != d.get("_version", 0):
        b = board(st)
    if b.quick:
        c = b._chars.get(id(obj))
        return c if c is not None else b.chars_of(obj)
    return _from_board(b, obj)


def _from_board(b: Board, obj: Card) -> Chars:
    """``obj``'s characteristics from a full computation: its entry if it is that object,
    else (an object no effect reaches, or one that has left) its own values."""
    c = b.chars.get(obj.id)
    if c is not None and b.objects.get(obj.id) is obj:
        return c
    return own(obj, getattr(obj, "controller", None) or None, b.static_of)


BASIC = frozenset(BASIC_LAND_MANA)


def _layer_counters(counters: dict[str, int]) -> bool:
    """Counters the layers read: +X/+Y (7c) and keyword counters (layer 6)."""
    return any(k in COUNTER_KEYWORDS or k[:1] in "+-" or k.startswith("hexproof from")
               for k in counters)


def own(c: Card, controller: str | None,
        static_of: dict[str, list[Effect]] | None = None) -> Chars:
    """An object's characteristics when no continuous effect reaches it (613.1): its own
    values, face down (708.2a), changeling (702.73a), the intrinsic mana abilities of its basic
    land types (305.6), its keyword counters (122.1b) and +X/+Y counters (122.1a) — what a full
    computation gives it without effects."""
    perm = isinstance(c, Permanent)
    if not (perm and (c.face_down or _layer_counters(c.counters))) \
            and not ("land" in c.types and not BASIC.isdisjoint(c.subtypes)) \
            and "changeling" not in c.keywords and not (static_of and c.id in static_of):
        # nothing to work out: its own values (208.3: no power or toughness on a noncreature
        # permanent)
        pt = not perm or "creature" in c.types
        return Chars(c.name, c.mana_cost, tuple(c.types), tuple(c.subtypes), tuple(c.supertypes),
                     tuple(c.colors), tuple(c.keywords), c.power if pt else None,
                     c.toughness if pt else None, c.loyalty, controller)
    w = start(c, "battlefield" if perm else "", static_of or {}, controller, 0)
    if w.face_down:
        face_down(w)
    if "changeling" in w.abilities:
        w.every_creature_type = True
    layer_ops.intrinsic(w)
    if perm and c.counters:
        kinds = sorted((k for k, n in c.counters.items() if n > 0 and
                        (k in COUNTER_KEYWORDS or k.startswith("hexproof from"))),
                       key=lambda k: c.counter_timestamps.get(k, c.timestamp))
        for k in kinds:
            w.abilities.extend([k] * c.counters[k])
        dp, dt = counter_pt(c.counters)
        if dp or dt:
            w.power, w.toughness = (w.power or 0) + dp, (w.toughness or 0) + dt
    return w.chars()


# --- the computation ----------------------------------------------------------------------------

def static_of(st: State) -> dict[str, list[Effect]]:
    out: dict[str, list[Effect]] = {}
    for e in st.effects:
        if e.kind == "static" and e.granted_by is None and e.source is not None:
            out.setdefault(e.source, []).append(e)
    return out


def _zones_named(st: State) -> set[str]:
    zones: set[str] = set()

    def add(f: dict | None) -> None:
        if f:
            zones.update(f.get("zones", ()))
    for e in st.effects:
        if isinstance(e.affects, dict):
            add(e.affects.get("filter"))
        if e.condition:
            add(e.condition.get("count"))
        for op in e.does:
            add(op.get("count"))
    return zones - {"battlefield"}


Entry = tuple[Card, str, "str | None", int]      # an object, its zone, controller, timestamp


def universe(st: State) -> dict[str, Entry]:
    """The objects the layers compute, by id (the first object of an id): the permanents phased
    in (702.26b: one phased out is treated as though it doesn't exist), the cards of the zones
    an effect names, the sources in the command zone, the spells on the stack if named."""
    out: dict[str, Entry] = {}
    for p in st.battlefield:
        if not p.phased_out and p.id not in out:
            out[p.id] = (p, "battlefield", p.controller, p.timestamp)
    zones = _zones_named(st)
    sources = {e.source for e in st.effects if e.source is not None}
    for pl in st.players:
        for z in CARD_LISTS:
            for c in pl.zone(z):
                if (z in zones or (z == "command" and c.id in sources)) and c.id not in out:
                    out[c.id] = (c, z if z in ("hand", "library", "graveyard", "exile",
                                               "command") else "command", None, 0)
    if "stack" in zones:
        for item in st.stack:
            if item.card is not None and item.card.id not in out:
                out[item.card.id] = (item.card, "stack", item.controller, 0)
    return out


class _Run:
    """One computation of the layers for a state (for the objects of ``only``, when no effect
    applies in the layers: then each object's values are its own, computed alone)."""

    def __init__(self, st: State, only: list[Entry] | None = None):
        self.st = st
        self.static_of = static_of(st)
        self.works: dict[str, Work] = {}
        self.objects: dict[str, Card] = {}
        self.steps: dict[str, list[Step]] = {}
        self.notes: list[Note] = []
        self.order: list[Step] = []
        self.waited: dict[str, dict[str, str]] = {}      # instance → effects it depended on
        self.seq = 0
        for c, zone, controller, ts in (universe(st).values() if only is None else only):
            self.works[c.id] = start(c, zone, self.static_of, controller, ts)
            self.objects[c.id] = c
        self.cat = Catalog(st, self.works)

    # --- applying one instance ---------------------------------------------------------------
    def apply_ops(self, inst: Inst, layer: str, w: Work, works: dict[str, Work]) -> list[str]:
        rules: list[str] = []
        you = self.cat.you(inst, works)
        for op in inst.ops.get(layer, ()):
            count = dep.count_for(self.cat, op, inst, works) if "count" in op else 0
            rules += layer_ops.apply(op, w, you, mana_value(w.mana_cost), count)
        return rules

    def _record(self, w: Work, layer: str, before: dict, inst: Inst | None, key: str,
                rules: list[str], why: str, why_rules: list[str], **extra) -> Step:
        changes = [(k, before[k], w.value(k)) for k in before if before[k] != w.value(k)]
        self.seq += 1
        e = inst.effect if inst is not None else None
        step = Step(self.seq, layer, key, e.id if e is not None else None,
                    inst.obj if inst is not None else w.oid,
                    inst.text if inst is not None else "", changes,
                    [LAYER_RULE[layer], *dict.fromkeys(rules)], why, why_rules,
                    ts=inst.ts if inst is not None else None,
                    ts_rule=inst.ts_rule if inst is not None else None, **extra)
        self.steps.setdefault(w.oid, []).append(step)
        return step

    def apply(self, inst: Inst, layer: str, why: str, why_rules: list[str], after,
              loop, rounds: dep.Pool | None = None) -> set[str]:
        """Apply one effect in a layer, recording a step per object; the objects it changed."""
        works = self.works
        if not dep.exists(self.cat, inst, works):
            reason = "no_ability" if not self.cat.has_ability(inst, works) else "condition"
            rules = ["611.3a", "613.8a"] if reason == "no_ability" else ["611.3a"]
            if inst.effect is not None and inst.effect.kind == "resolved":
                rules = ["611.2b"]
            self.notes.append(Note(inst.key, inst.effect.id if inst.effect else None, inst.obj,
                                   layer, reason, rules, dict(after)))
            return set()
        continues = None
        if inst.started_in is None:
            inst.locked = (rounds.targets(inst) if rounds is not None
                           else dep.targets_of(self.cat, inst, works))
            inst.started_in = layer
            if not inst.locked and inst.effect is not None:
                self.notes.append(Note(inst.key, inst.effect.id, inst.obj, layer, "no_objects",
                                       ["611.3a"] if inst.static else ["611.2c"]))
        elif inst.started_in != layer:
            continues = inst.started_in
        first = None
        targets = dep.targets_of(self.cat, inst, works)
        for t in targets:
            w = works[t]
            before = {k: w.value(k) for k in SHOWN[layer]}
            rules = self.apply_ops(inst, layer, w, works) + list(inst.rules)
            step = self._record(w, layer, before, inst, inst.key, rules, why, why_rules,
                                after=dict(after), loop=list(loop), continues=continues)
            first = first or step
        if first is not None:
            self.order.append(first)
        return set(targets)

    # --- a layer -------------------------------------------------------------------------
    def layer(self, layer: str) -> None:
        done: set[str] = set()
        waited: dict[str, dict[str, str]] = {}
        rounds = dep.Pool(self.cat, layer, self.works,
                          lambda i, lay, w, works: self.apply_ops(i, lay, w, works))
        while True:
            pending = [i for i in self.cat.candidates(layer) if i.key not in done]
            pending = list({i.key: i for i in pending}.values())
            if not pending:
                return
            cdas = [i for i in pending if i.cda]
            pool = cdas or pending
            deps = rounds.graph(pool)
            for k, d in deps.items():
                waited.setdefault(k, {}).update(d)
                self.waited.setdefault(k, {}).update(d)
            ready = [i for i in pool if not deps[i.key]]
            loop: list[str] = []
            if ready:
                chosen = min(ready, key=lambda i: i.order)
            else:
                chosen, members = dep.loop_to_break(pool, deps)
                loop = [m.key for m in members]
            after = {k: r for k, r in waited.get(chosen.key, {}).items() if k in done}
            if layer == "7a" or (cdas and layer in ("2", "3", "4", "5", "6")):
                why, why_rules = "cda", ["613.4a" if layer == "7a" else "613.3"]
            elif loop:
                why, why_rules = "loop", ["613.8b"]
            elif after:
                why, why_rules = "dependency", ["613.8a", "613.8b"]
            else:
                why, why_rules = "timestamp", ["613.7", chosen.ts_rule]
            if layer.startswith("1") or layer.startswith("7"):
                why_rules = ["613.2" if layer.startswith("1") else "613.4", *why_rules]
            touched = self.apply(chosen, layer, why, why_rules, after, loop, rounds)
            rounds.applied(chosen, touched)
            done.add(chosen.key)

    def face_down(self) -> None:
        """613.2b: face-down permanents get the characteristics of 708.2a."""
        for w in self.works.values():
            p = self.objects[w.oid]
            if isinstance(p, Permanent) and p.face_down:
                before = {k: w.value(k) for k in SHOWN["1b"]}
                face_down(w)
                self._record(w, "1b", before, None, "face_down", ["708.2a"], "rule", ["613.2b"])

    def intrinsic(self) -> None:
        for w in self.works.values():
            before = {"abilities": w.value("abilities")}
            if layer_ops.intrinsic(w):
                self._record(w, "4", before, None, "intrinsic", ["305.6"], "rule", ["305.6"])

    def run(self) -> Board:
        for layer in OBJECT_LAYERS:
            if layer == "1b":
                self.face_down()
                for w in self.works.values():
                    w.copiable = w.chars(raw=True)    # 613.2c
                continue
            self.layer(layer)
            if layer == "4":
                self.intrinsic()
        self.never_applied()
        players, rules = player_effects.apply(self.st, self.works, self.cat)
        return Board({oid: w.chars() for oid, w in self.works.items()}, self.objects,
                     self.steps, self.notes,
                     {oid: w.copiable for oid, w in self.works.items() if w.copiable},
                     players, rules, self.order, self.works, self.static_of)

    def never_applied(self) -> None:
        """The effects of static abilities whose object lost the ability before they could
        apply (611.3a: an effect exists while its ability does; 613.8a: waiting for the effect
        that removed it): a note each."""
        noted = {n.key for n in self.notes}
        for inst in self.cat.insts.values():
            e = inst.effect
            if e is None or inst.started_in is not None or inst.key in noted:
                continue
            layer = min(inst.ops, key=OBJECT_LAYERS.index)
            reason = "no_ability" if not self.cat.has_ability(inst, self.works) else "condition"
            after = self.waited.get(inst.key, {})
            rules = ["611.3a"] + (["613.8a", "613.8b"] if after else [])
            self.notes.append(Note(inst.key, e.id, inst.obj, layer, reason, rules, dict(after)))

    # --- 613.10, 613.11 ----------------------------------------------------------------------


def compute(st: State) -> Board:
    return _Run(st).run()


# --- players and game rules --------------------------------------------------------------------

def player(st: State, pid: str) -> dict[str, Any]:
    """A player as the effects on players and on the rules leave them (613.10, 613.11)."""
    view = board(st).players.get(pid)
    if view is not None:
        return view
    p = st.player(pid)
    return {"cant_gain_life": p.cant_gain_life, "cant_lose_life": p.cant_lose_life,
            "max_hand_size": p.max_hand_size, "effects": []}


def rule_off(st: State, rule: str) -> list[str]:
    """The effects that make a rule of the game not apply (613.11), e.g. "no_legend_rule"."""
    return board(st).rules.get(rule, [])
