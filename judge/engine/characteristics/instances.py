"""The effects that may apply in a layer, each as an :class:`Inst`: an effect of the file as it
applies now (a static ability on the object that has it, 611.3; a resolved effect, 611.2), or
one of the rules' own (keyword and +X/+Y counters, 613.1f and 613.4c; changeling, 702.73a).

A static ability's effect exists while an object has the ability ("@id" among its abilities,
as the layers have left them so far) in a zone where it works (611.3b, 604.3: everywhere for a
characteristic-defining ability), and its timestamp is that object's, or the timestamp of the
effect that granted the ability if later (613.7a).  A resolved effect has its own (613.7b); a
counter its own (613.7c).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from judge.engine.characteristics import keywords
from judge.engine.characteristics.effect_schema import layer_of
from judge.engine.characteristics.layer_ops import substitute
from judge.engine.characteristics.layer_work import Work
from judge.engine.state import Effect, Permanent, State

_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")


@dataclass
class Inst:
    key: str
    effect: Effect | None
    obj: str | None                   # the object generating it (None: no object)
    order: tuple                      # its place in timestamp order (613.7)
    ts: int | None                    # the timestamp shown
    ts_rule: str                      # where the timestamp comes from: 613.7a, b, c
    cda: bool
    ops: dict[str, list[dict]]        # layer → its operations there
    affects: Any = "self"
    condition: dict | None = None
    text: str = ""
    rules: tuple[str, ...] = ()       # the rule that makes it (counters, changeling)
    started_in: str | None = None     # 613.6: the first layer where it applied
    locked: list[str] | None = None   # the objects it applies to from then on
    you_fixed: str | None = None      # a resolved effect's controller

    @property
    def static(self) -> bool:
        return self.effect is not None and self.effect.kind == "static"

    def layers(self) -> list[str]:
        return list(self.ops)


def _ops_by_layer(e: Effect, changes: list[tuple[str, str]]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for op in e.does:
        if changes and op["op"] != "change_text":
            op = substitute(op, changes)
        out.setdefault(layer_of(op, e.cda), []).append(op)
    return out


def counter_pt(counters: dict[str, int]) -> tuple[int, int]:
    """Power/toughness change from +X/+Y and -X/-Y counters (122.1a, 613.4c)."""
    dp = dt = 0
    for kind, n in counters.items():
        m = _PT_COUNTER.match(kind)
        if m and n:
            dp += int(m.group(1)) * n
            dt += int(m.group(2)) * n
    return dp, dt


class Catalog:
    """Every effect of the state that could apply, and the instances built so far (an instance
    keeps its 613.6 bookkeeping across layers)."""

    def __init__(self, st: State, works: dict[str, Work]):
        self.st = st
        self.works = works
        self.by_id = {e.id: e for e in st.effects}
        self.index = {e.id: i for i, e in enumerate(st.effects)}
        self.insts: dict[str, Inst] = {}
        self.perms = {p.id: p for p in st.battlefield}
        # (kind, layer) → the effects of that kind with an operation in that layer, in order
        self._by_layer: dict[tuple[str, str], list[Effect]] = {}
        for e in st.effects:
            for op in e.does:
                effects = self._by_layer.setdefault((e.kind, layer_of(op, e.cda)), [])
                if not effects or effects[-1] is not e:
                    effects.append(e)

    # --- timestamps ------------------------------------------------------------------------
    def effect_ts(self, e: Effect) -> int:
        """The timestamp of an effect as a whole: a resolved one's own, a static one's object's."""
        if e.kind == "resolved" or e.source is None:
            return e.timestamp or 0
        w = self.works.get(e.source)
        return w.timestamp if w is not None else (e.timestamp or 0)

    def _static_order(self, e: Effect, w: Work) -> tuple[tuple, int]:
        grant = self.by_id.get(e.granted_by) if e.granted_by else None
        g = self.effect_ts(grant) if grant is not None else -1
        ts = max(w.timestamp, g)
        return (ts, g, 0, self.index[e.id]), ts

    # --- the instances of a layer --------------------------------------------------------
    def candidates(self, layer: str) -> list[Inst]:
        out: list[Inst] = []
        for e in self._by_layer.get(("resolved", layer), ()):
            if self.active(e):
                out.append(self._resolved(e))
        statics = self._by_layer.get(("static", layer), ())
        refs: dict[str, list[str]] = {}
        for oid, w in self.works.items() if statics else ():
            for a in w.abilities:
                if a.startswith("@"):
                    refs.setdefault(a[1:], []).append(oid)
        for e in statics:
            holders = set(refs.get(e.id, ()))
            holders |= {i.obj for k, i in self.insts.items()
                        if i.effect is e and i.started_in is not None}
            for oid in holders:
                w = self.works.get(oid)
                if w is not None and (w.zone in ("battlefield", "command") or e.cda):
                    out.append(self._static(e, w))
        if layer == "4":
            out += self._changelings()
        if layer in ("6", "7c"):
            out += self._counters(layer)
        return out

    def _static(self, e: Effect, w: Work) -> Inst:
        key = e.id if w.oid == e.source else f"{e.id}@{w.oid}"
        inst = self.insts.get(key)
        order, ts = self._static_order(e, w)
        ops = _ops_by_layer(e, w.text_changes)
        if inst is None:
            inst = Inst(key, e, w.oid, order, ts, "613.7a", e.cda, ops,
                        substitute(e.affects, w.text_changes),
                        substitute(e.condition, w.text_changes), e.text)
            self.insts[key] = inst
        else:
            inst.order, inst.ts = order, ts
            if inst.started_in is None:
                inst.ops = ops
                inst.affects = substitute(e.affects, w.text_changes)
        return inst

    def _resolved(self, e: Effect) -> Inst:
        inst = self.insts.get(e.id)
        if inst is None:
            ts = e.timestamp or 0
            inst = Inst(e.id, e, e.source, (ts, ts, 1, self.index[e.id]), ts, "613.7b", e.cda,
                        _ops_by_layer(e, []), e.affects, e.condition, e.text,
                        you_fixed=e.controller)
            self.insts[e.id] = inst
        return inst

    def active(self, e: Effect) -> bool:
        """A resolved effect still lasts (611.2a): "source" ends when its source leaves."""
        if e.duration == "source":
            p = self.perms.get(e.source) if e.source else None
            return p is not None and not p.phased_out
        return True

    def _changelings(self) -> list[Inst]:
        out = []
        for oid, w in self.works.items():
            if "changeling" in w.abilities:
                key = f"changeling:{oid}"
                inst = self.insts.get(key) or Inst(
                    key, None, oid, (w.timestamp, -1, 0, -1), w.timestamp, "613.7a", True,
                    {"4": [{"op": "all_creature_types"}]}, text="cangiante",
                    rules=("702.73a", "604.3"))
                self.insts[key] = inst
                out.append(inst)
        return out

    def _counters(self, layer: str) -> list[Inst]:
        out = []
        for oid, w in self.works.items():
            p = self.perms.get(oid)
            if not isinstance(p, Permanent) or not p.counters:
                continue
            if layer == "7c":
                dp, dt = counter_pt(p.counters)
                if dp or dt:
                    out.append(self._counter_inst(f"counters:{oid}:pt", oid, p.timestamp,
                                                  {"7c": [{"op": "modify_pt", "power": dp,
                                                           "toughness": dt}]},
                                                  "segnalini +X/+Y e -X/-Y", ("122.1a",)))
                continue
            for kind, n in p.counters.items():
                if n > 0 and (kind in keywords.COUNTER_KEYWORDS or kind.startswith("hexproof from")):
                    ts = p.counter_timestamps.get(kind, p.timestamp)
                    out.append(self._counter_inst(
                        f"counters:{oid}:{kind}", oid, ts,
                        {"6": [{"op": "add_abilities", "abilities": [kind] * n}]},
                        f"segnalini {kind}", ("122.1b",)))
        return out

    def _counter_inst(self, key, oid, ts, ops, text, rules) -> Inst:
        inst = self.insts.get(key)
        if inst is None:
            inst = Inst(key, None, oid, (ts, ts, 2, -1), ts, "613.7c", False, ops, "self",
                        text=text, rules=rules)
            self.insts[key] = inst
        return inst

    # --- who "you" is, whether it exists -----------------------------------------------------
    def you(self, inst: Inst, works: dict[str, Work] | None = None) -> str | None:
        works = self.works if works is None else works
        if inst.effect is not None and inst.effect.kind == "resolved":
            if inst.you_fixed is not None:
                return inst.you_fixed
            w = works.get(inst.obj) if inst.obj else None
            return w.controller if w is not None else None
        w = works.get(inst.obj) if inst.obj else None
        return w.controller if w is not None else None

    def has_ability(self, inst: Inst, works: dict[str, Work]) -> bool:
        if inst.effect is None or inst.effect.kind != "static":
            return True
        w = works.get(inst.obj) if inst.obj else None
        return w is not None and f"@{inst.effect.id}" in w.abilities
