"""Derived characteristics and game relations (pure functions of the state), and the variants'
rules they depend on (starting life, shared team turns)."""

from __future__ import annotations

import re

from judge.engine import keywords
from judge.engine.state import Card, Permanent, Player, State

_PT_COUNTER = re.compile(r"^([+-]\d+)/([+-]\d+)$")


def starting_life(variant: str, n_players: int, archenemy: bool = False) -> int:
    """Starting life total (119.1, 119.1a–e) for one player (or team in 2HG)."""
    if variant == "commander":
        return 40
    if variant == "two-headed-giant":
        extra = max(0, n_players // 2 - 2)     # 810.11: +15 per player beyond the second
        return 30 + 15 * extra
    if variant == "brawl":
        return 25 if n_players == 2 else 30
    if variant == "archenemy":
        return 40 if archenemy else 20
    return 20


def shared_team_turns(variant: str) -> bool:
    """805.1: used in Two-Headed Giant and Archenemy games."""
    return variant in ("two-headed-giant", "archenemy")


def counter_pt(counters: dict[str, int]) -> tuple[int, int]:
    """Power/toughness change from +X/+Y and -X/-Y counters (122.1a, 613.4c)."""
    dp = dt = 0
    for kind, n in counters.items():
        m = _PT_COUNTER.match(kind)
        if m and n:
            dp += int(m.group(1)) * n
            dt += int(m.group(2)) * n
    return dp, dt


def power(c: Card) -> int:
    base = c.power or 0
    if isinstance(c, Permanent):
        dp, _ = counter_pt(c.counters)
        return base + dp + int(c.until_end_of_turn.get("power", 0) or 0)
    return base


def toughness(c: Card) -> int:
    base = c.toughness or 0
    if isinstance(c, Permanent):
        _, dt = counter_pt(c.counters)
        return base + dt + int(c.until_end_of_turn.get("toughness", 0) or 0)
    return base


def has_kw(c: Card, kw: str) -> bool:
    """``c`` has the keyword named ``kw`` (any instance: "protection" for "protection from red";
    "hexproof" also for "hexproof from …", 702.11e), printed, from an effect until end of turn,
    or from a keyword counter (122.1b)."""
    if kw in c.keywords:
        return True
    if kw in _PARAMETRIC:
        return any(i.name == kw for i in kw_instances(c))
    if isinstance(c, Permanent):
        if kw in c.until_end_of_turn.get("keywords", ()):
            return True
        if kw in keywords.COUNTER_KEYWORDS and c.counters.get(kw, 0) > 0:     # 122.1b
            return True
    return False


_PARAMETRIC = frozenset(s.name for s in keywords.REGISTRY if s.param)


def kw_instances(c: Card, name: str | None = None) -> list[keywords.Instance]:
    """Every keyword instance of ``c`` (of the keyword ``name`` only, if given): printed, until
    end of turn, and one per keyword counter (122.1b).  Instances of a triggered keyword each
    trigger (702.45b, 702.23c, …)."""
    texts = list(c.keywords)
    if isinstance(c, Permanent):
        texts += c.until_end_of_turn.get("keywords", ())
        for kind, n in c.counters.items():               # "hexproof from …": a variant, 122.1b
            if n > 0 and (kind in keywords.COUNTER_KEYWORDS or kind.startswith("hexproof from")):
                texts += [kind] * n
    out = []
    for t in texts:
        inst = keywords.instance(t)
        if inst is not None and (name is None or inst.name == name):
            out.append(inst)
    return out


def kw_count(c: Card, name: str) -> int:
    """How many instances of a keyword ``c`` has (each instance of a trigger triggers)."""
    return len(kw_instances(c, name))


def colors(c: Card) -> tuple[str, ...]:
    """The object's colours as mana symbols (105.1, 202.2); colourless: []."""
    return c.colors


def is_creature(c: Card) -> bool:
    return "creature" in c.types


def loyalty(p: Permanent) -> int:
    return p.counters.get("loyalty", 0)


def defense(p: Permanent) -> int:
    return p.counters.get("defense", 0)


def is_multiplayer(st: State) -> bool:
    return len(st.players) > 2


def teammates(st: State, pid: str) -> list[Player]:
    team = st.player(pid).team
    return [p for p in st.players if p.team == team]


def opponents(st: State, pid: str) -> list[Player]:
    """Players still in the game not on ``pid``'s team (102.2, 102.3)."""
    team = st.player(pid).team
    return [p for p in st.players if p.team != team and not p.lost]


def active_players(st: State) -> list[Player]:
    """The active player, or the whole active team with shared team turns (805.4a)."""
    ap = st.player(st.turn.active_player)
    if shared_team_turns(st.variant):
        return [p for p in st.players if p.team == ap.team and not p.lost]
    return [ap] if not ap.lost else []


def turn_order_from(st: State, pid: str) -> list[Player]:
    """Players still in the game in turn order starting with ``pid`` (101.4)."""
    ids = [p.id for p in st.players]
    i = ids.index(pid)
    ordered = st.players[i:] + st.players[:i]
    return [p for p in ordered if not p.lost]


def apnap(st: State) -> list[Player]:
    """APNAP order (101.4): active player(s) first, then the others in turn order."""
    act = active_players(st)
    act_ids = {p.id for p in act}
    rest = [p for p in turn_order_from(st, st.turn.active_player) if p.id not in act_ids]
    return act + rest


def next_active_player(st: State) -> str:
    """Who takes the next turn: the next player (or team, 805.4) in turn order."""
    ap = st.player(st.turn.active_player)
    ids = [p.id for p in st.players]
    i = ids.index(ap.id)
    n = len(ids)
    for k in range(1, n + 1):
        cand = st.players[(i + k) % n]
        if cand.lost:
            continue
        if shared_team_turns(st.variant) and cand.team == ap.team:
            continue
        return cand.id
    return ap.id


def planar_controller(st: State) -> str | None:
    """Planechase: the planar controller, normally the active player (901.6)."""
    if not st.options.get("planechase"):
        return None
    return st.planar_controller or st.turn.active_player


def poison_limit(st: State) -> int:
    """15 poison counters for a Two-Headed Giant team, +5 per extra member (704.6b, 810.11)."""
    size = max(len(teammates(st, p.id)) for p in st.players) if st.players else 2
    return 15 + 5 * max(0, size - 2)


def describe_pt(c: Card) -> str:
    return f"{power(c)}/{toughness(c)}"
