"""Whom the active player may attack in a multiplayer game: the defending players chosen by the
attack options (802 attack multiple players, 803 attack left or right) and, where the scenario
sets one, the limited range of influence (801.3).

Seats are counted among the players still in the game, in turn order: the next player in
turn order sits to the left (the format's convention, docs/scenario-format.md).
"""

from __future__ import annotations

from judge.engine import chars
from judge.engine.state import Player, State


def seat_distance(st: State, a: str, b: str) -> int:
    """Seats between two players still in the game, the shorter way round (801.2)."""
    order = [p.id for p in chars.turn_order_from(st, a)]
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


def neighbour(st: State, pid: str, side: str) -> Player | None:
    """The player immediately to the left (the next in turn order) or to the right of ``pid``."""
    order = chars.turn_order_from(st, pid)
    if len(order) < 2:
        return None
    return order[1] if side == "left" else order[-1]


def left_right_defender(st: State, pid: str, side: str) -> tuple[Player | None, Player | None]:
    """803.1a–b: (the opponent that may be attacked, or None; the player seated on that side).
    If the player immediately on that side is not an opponent, the nearest opponent that way is
    more than one seat away and the player can't attack."""
    nb = neighbour(st, pid, side)
    if nb is None:
        return None, None
    opponent = nb if nb.team != st.player(pid).team else None
    return opponent, nb


def defender_of(st: State, target: str | None) -> str | None:
    """The defending player a creature attacking ``target`` is attacking (508.5)."""
    if target is None:
        return None
    if st.has_player(target):
        return target
    p = st.perm(target)
    if p is None:
        return None
    if "battle" in p.types and p.protector:
        return p.protector
    return p.controller
