"""One computation of the layer system (613) for a state: which objects it computes
(``universe``), each layer in order with its effects (613.1–613.8), the board it gives
(``Board``: characteristics, the explanation's rows, notes, copiable values, the objects as the
layers leave them) and the effects on players and on the rules (613.10, 613.11).  Read through
``layers``, which caches the board for a state version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.engine.characteristics import dependency as dep
from judge.engine.characteristics import layer_ops, player_effects
from judge.engine.characteristics.effect_schema import OBJECT_LAYERS
from judge.engine.characteristics.instances import Catalog, Inst
from judge.engine.characteristics.layer_work import Chars, Work, face_down, start
from judge.engine.characteristics.subtypes import mana_value
from judge.engine.state import CARD_LISTS, Card, Effect, Permanent, State

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
    """Every object's characteristics, layer by layer, with how each came to be."""
    return _Run(st).run()


def compute_alone(st: State, entry: Entry) -> Work:
    """One object of ``universe(st)`` as the layers leave it, computed alone: what
    :func:`compute` gives it when no effect applies in the layers (then none reaches from one
    object to another)."""
    return _Run(st, [entry]).run().works[entry[0].id]
