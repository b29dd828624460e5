"""The layer system (613): every object's characteristics, computed once per state version, with
how each came to be.

613.1: start from the object's own values, then apply the continuous effects layer by layer:
1a copy (613.2a), 1b face-down (613.2b), copiable values (613.2c), 2 control, 3 text, 4 types,
5 colours, 6 abilities (with keyword counters), 7a–7d power and toughness (613.4, with +X/+Y
counters in 7c).  In layers 2–6 the characteristic-defining abilities' effects go first (613.3),
then the others in timestamp order (613.7), dependency first (613.8, see dependency.py); an
effect keeps applying, to the same objects, in the later layers it has parts in (613.6).  Then
the effects on players (613.10) and on the rules of the game (613.11).

One computation is ``layer_run.compute``; this module keeps and reads it.  ``board(st)`` gives
the :class:`Board` of a state, cached on it until ``st.touch()`` says it may have changed
(``Ctx.emit`` does for every event but those of ``context.SAME_CHARACTERISTICS``, the engine's
primitive operations for the changes they make); ``chars(st, obj)`` one object's
characteristics.  A state without effects in the layers (none, or only replacement and
prevention records) gets a :class:`Quick` board: each object worked out alone, when read.
With ``VERIFY`` on (the engine's tests), a cached board is checked against a fingerprint of
everything it was computed from, so a change that forgot to touch the state fails loudly
instead of reading stale values; with ``CACHE`` off (a test's reference) every read computes
the whole board afresh.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from judge.engine.characteristics import layer_ops
from judge.engine.characteristics.instances import _PT_COUNTER, counter_pt
from judge.engine.characteristics.keywords import COUNTER_KEYWORDS
from judge.engine.characteristics.layer_run import (  # noqa: F401 (read as layers.X)
    Board, Entry, Note, Step, compute, compute_alone, static_of, universe)
from judge.engine.characteristics.layer_work import Chars, Work, face_down, start
from judge.engine.characteristics.subtypes import BASIC_LAND_MANA
from judge.engine.state import CARD_LISTS, Card, Effect, Permanent, State

VERIFY = os.environ.get("JUDGE_LAYERS_VERIFY") == "1"
# Off: ``board`` keeps nothing on the state, so every read of a state made and played with it off
# computes the whole board afresh (no cache, no quick path) — the reference a property test
# checks the cache against (tests/engine/test_layers_cache_off.py); never off in use.
CACHE = True

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
            # without effects only permanents are computed; with records, cards of the zones
            # they name too
            entry = None if isinstance(obj, Permanent) or not self.st.effects else \
                self.works.entry(obj.id)
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
            w = self._got[oid] = compute_alone(self.q.st, e)
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
    if b is None or VERIFY or b.version != d.get("_version", 0):
        b = board(st)
    if b.quick:
        c = b._chars.get(id(obj))
        return c if c is not None else b.chars_of(obj)
    c = b.chars.get(obj.id)                  # _from_board, inlined
    if c is not None and b.objects.get(obj.id) is obj:
        return c
    return own(obj, getattr(obj, "controller", None) or None, b.static_of)


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
