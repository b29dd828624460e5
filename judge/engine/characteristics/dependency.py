"""Dependency between effects (613.8): which effect of a layer applies next.

613.8a: an effect depends on another of the same layer or sublayer if applying the other would
change the first one's existence, what it applies to, or what it does to those things; a
characteristic-defining ability's effect never depends on another kind (613.8a(c)).  An effect
that depends on others waits until they have applied (613.8b); effects in a dependency loop
apply in timestamp order (613.8b); after each effect the order is worked out again (613.8c).

``probe`` is what an effect would do now (whether it exists, the objects, its parameters for
each); ``depends`` applies the other effect to copies of the objects it changes and probes
again.  Only the pairs where the other effect may write what the first one reads are tried.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from judge.engine.characteristics import layer_ops, selectors
from judge.engine.characteristics.instances import Catalog, Inst
from judge.engine.characteristics.layer_work import Work
from judge.engine.characteristics.subtypes import mana_value

# What changed, in the words of 613.8a(b)
EXISTENCE, APPLIES_TO, DOES = "existence", "applies_to", "does"


@dataclass
class Probe:
    exists: bool
    targets: tuple[str, ...]
    params: tuple


def targets_of(cat: Catalog, inst: Inst, works: dict[str, Work]) -> list[str]:
    if inst.locked is not None:
        return [t for t in inst.locked if t in works]
    return selectors.affected(inst.affects, inst.obj, cat.you(inst, works), works, cat.st)


def exists(cat: Catalog, inst: Inst, works: dict[str, Work]) -> bool:
    """It exists now: started already (613.6), or its object still has the ability (static)
    and its condition holds."""
    if inst.started_in is not None:
        return True
    if not cat.has_ability(inst, works):
        return False
    return selectors.holds(inst.condition, inst.obj, cat.you(inst, works), works, cat.st)


def count_for(cat: Catalog, op: dict, inst: Inst, works: dict[str, Work]) -> int:
    f = op.get("count")
    if f is None:
        return 0
    you = cat.you(inst, works)
    return sum(1 for w in works.values() if selectors.matches(w, f, inst.obj, you, cat.st))


def params(cat: Catalog, inst: Inst, layer: str, w: Work, works: dict[str, Work]) -> tuple:
    """What the effect does to ``w`` in this layer, with its variable parts worked out."""
    out = []
    for op in inst.ops.get(layer, ()):
        if op["op"] == "control" and op["player"] == "you":
            out.append(("control", cat.you(inst, works)))
        elif op["op"] == "set_pt" and op.get("from") == "mana_value":
            out.append(("set_pt", mana_value(w.mana_cost)))
        elif op["op"] == "set_pt" and "count" in op:
            out.append(("set_pt", count_for(cat, op, inst, works)))
        else:
            out.append(repr(op))
    return tuple(out)


def probe(cat: Catalog, inst: Inst, layer: str, works: dict[str, Work]) -> Probe:
    if not exists(cat, inst, works):
        return Probe(False, (), ())
    targets = tuple(targets_of(cat, inst, works))
    return Probe(True, targets, tuple(params(cat, inst, layer, works[t], works) for t in targets))


def reads(inst: Inst, layer: str) -> set[str]:
    """What decides the effect's existence, its objects and its parameters."""
    out: set[str] = set()
    ops = inst.ops.get(layer, ())
    if any(o["op"] == "control" and o["player"] == "you" for o in ops):
        out.add("you")
    if any(o["op"] == "set_pt" and o.get("from") == "mana_value" for o in ops):
        out.add("copiable")
    for o in ops:
        if o["op"] == "set_pt" and "count" in o:
            out |= selectors.filter_reads(o["count"])
    if inst.static:
        out.add("text")
    if inst.started_in is None:
        out |= selectors.reads(inst.affects, inst.condition)
        if inst.static:
            out.add("abilities")
    if "you" in out:
        out.add("controller")
    return out


def writes(inst: Inst, layer: str) -> set[str]:
    out: set[str] = set()
    for op in inst.ops.get(layer, ()):
        out |= layer_ops.writes(layer, op)
    return out


def simulate(cat: Catalog, inst: Inst, layer: str, works: dict[str, Work],
             apply: Callable[[Inst, str, Work, dict[str, Work]], None]) -> dict[str, Work]:
    """The objects ``inst`` would change if it applied now, as copies changed by it."""
    if not exists(cat, inst, works):
        return {}
    changed = {}
    for t in targets_of(cat, inst, works):
        w = works[t].clone()
        apply(inst, layer, w, works)
        changed[t] = w
    return changed


def _global(inst: Inst, layer: str) -> bool:
    """Its existence or what it does depends on objects other than those it names or its
    source (a count, a condition): only a whole probe can say whether another effect changes it."""
    cond = inst.condition or {}
    return bool(cond) and inst.started_in is None or any("count" in o for o in inst.ops.get(layer, ()))


class Pool:
    """613.8 for one layer: what each effect would change if applied now and what it does now,
    each computed once and kept until an applied effect may have changed it (``applied``)."""

    def __init__(self, cat: Catalog, layer: str, works: dict[str, Work], apply):
        self.cat, self.layer, self.works, self.apply = cat, layer, works, apply
        self._changed: dict[str, dict[str, Work]] = {}
        self._probe: dict[str, Probe] = {}
        self._insts: dict[str, Inst] = {}

    def applied(self, inst: Inst, objects: set[str]) -> None:
        """``inst`` applied to ``objects`` (613.8c): forget what it may have changed."""
        w = writes(inst, self.layer)
        self._probe = {k: p for k, p in self._probe.items()
                       if not reads(self._insts[k], self.layer) & w}
        self._changed = {k: c for k, c in self._changed.items()
                         if k != inst.key and not set(c) & objects
                         and not reads(self._insts[k], self.layer) & w}

    def changed(self, f: Inst) -> dict[str, Work]:
        if f.key not in self._changed:
            self._insts[f.key] = f
            out = {}
            for t in self.probe(f).targets:           # what it applies to now, if it exists
                w = self.works[t].clone()
                self.apply(f, self.layer, w, self.works)
                out[t] = w
            self._changed[f.key] = out
        return self._changed[f.key]

    def targets(self, inst: Inst) -> list[str]:
        """What ``inst`` applies to now (its probe's, when still valid)."""
        return list(self.probe(inst).targets)

    def probe(self, e: Inst) -> Probe:
        if e.key not in self._probe:
            self._insts[e.key] = e
            self._probe[e.key] = probe(self.cat, e, self.layer, self.works)
        return self._probe[e.key]

    def graph(self, pool: list[Inst]) -> dict[str, dict[str, str]]:
        """e.key → {f.key: why} for every f of the pool that e depends on."""
        out: dict[str, dict[str, str]] = {e.key: {} for e in pool}
        if len(pool) < 2:
            return out
        for e in pool:
            for f in pool:
                if e is not f:
                    why = self.depends(e, f)
                    if why is not None:
                        out[e.key][f.key] = why
        return out

    def depends(self, e: Inst, f: Inst) -> str | None:
        """How applying ``f`` would change ``e`` (613.8a(b)), or None if ``e`` is independent."""
        if e.cda != f.cda:                      # 613.8a(c)
            return None
        if not reads(e, self.layer) & writes(f, self.layer):
            return None
        changed = self.changed(f)
        if not changed:
            return None
        before = self.probe(e)
        if _global(e, self.layer) or e.obj in changed:
            # its source changes (abilities, controller) or it reads the whole board: probe again
            after = probe(self.cat, e, self.layer, {**self.works, **changed})
            return _difference(before, after)
        if not before.exists:
            return None
        you = self.cat.you(e, self.works)
        if e.started_in is None and isinstance(e.affects, dict) and "filter" in e.affects:
            f_ = e.affects["filter"]
            for t, w in changed.items():
                if selectors.matches(self.works[t], f_, e.obj, you, self.cat.st) != \
                        selectors.matches(w, f_, e.obj, you, self.cat.st):
                    return APPLIES_TO
        for t in set(before.targets) & set(changed):
            if params(self.cat, e, self.layer, self.works[t], self.works) != \
                    params(self.cat, e, self.layer, changed[t], self.works):
                return DOES
        return None


def _difference(before: Probe, after: Probe) -> str | None:
    if before.exists != after.exists:
        return EXISTENCE
    if before.targets != after.targets:
        return APPLIES_TO
    if before.params != after.params:
        return DOES
    return None


def loop_to_break(pool: list[Inst], deps: dict[str, dict[str, str]]) -> tuple[Inst, list[Inst]]:
    """No effect is free: among the dependency loops that wait for nothing outside themselves,
    the one with the earliest effect; its earliest effect applies (613.8b)."""
    by_key = {i.key: i for i in pool}
    comps = _components({k: set(v) for k, v in deps.items()})
    comp_of = {k: n for n, comp in enumerate(comps) for k in comp}
    ready = [comp for n, comp in enumerate(comps)
             if all(comp_of[f] == n for k in comp for f in deps[k])]
    best = min(ready or comps, key=lambda comp: min(by_key[k].order for k in comp))
    members = sorted((by_key[k] for k in best), key=lambda i: i.order)
    return members[0], members


def _components(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(edges.get(nxt, ()))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                out.append(comp)
    return out
