"""The players around the table, pure functions of the state: teams and opponents (102), turn
order and APNAP order (101.4), the active player or team and the next one (805.4), seats and the
limited range of influence (801.2), the planar controller (901.6), and the variants' numbers per
player they depend on (starting life 119.1, shared team turns 805.1, the poison limit 704.6b).

Seats are counted among the players still in the game, in turn order: the next player in turn
order sits to the left (the format's convention, docs/scenario-format.md)."""

from __future__ import annotations

from judge.engine.state import Player, State


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


def next_active_player(st: State, after: str | None = None) -> str:
    """Who takes the next turn: the next player (or team, 805.4) in turn order after ``after``
    (default the active player)."""
    ap = st.player(after or st.turn.active_player)
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


def seat_distance(st: State, a: str, b: str) -> int:
    """Seats between two players still in the game, the shorter way round (801.2)."""
    order = [p.id for p in turn_order_from(st, a)]
    if b not in order:
        return len(st.players)
    i = order.index(b)
    return min(i, len(order) - i)


def range_of_influence(st: State) -> int | None:
    """The limited range of influence in seats (801.2), or None (not used)."""
    return st.options.get("range_of_influence")


def in_range(st: State, pid: str, other: str) -> bool:
    """801.2, 801.2b: within ``pid``'s range of influence (always, without the option)."""
    reach = range_of_influence(st)
    return reach is None or seat_distance(st, pid, other) <= reach
