"""Whom the active player may attack in a multiplayer game: the defending players chosen by the
attack options (802 attack multiple players, 803 attack left or right) and, where the scenario
sets one, the limited range of influence (801.3; seats and distances: judge.engine.seats).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.state import Player, State


def neighbour(st: State, pid: str, side: str) -> Player | None:
    """The player immediately to the left (the next in turn order) or to the right of ``pid``."""
    order = seats.turn_order_from(st, pid)
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
    if derived.is_type(st, p, "battle") and p.protector:
        return p.protector
    return derived.controller(st, p)
