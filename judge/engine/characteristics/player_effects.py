"""Continuous effects on players (613.10) and on the rules of the game (613.11), applied after
every object's characteristics, in timestamp order: a player who can't gain or can't lose life,
a maximum hand size, no legend rule.  ``layers.player`` and ``layers.rule_off`` read the result.
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import selectors
from judge.engine.characteristics.effect_schema import PLAYER_OPS
from judge.engine.characteristics.instances import Catalog
from judge.engine.characteristics.layer_work import Work
from judge.engine.seats import opponents
from judge.engine.state import Effect, State


def _whom(st: State, e: Effect, you: str | None) -> list[str]:
    whom = e.affects.get("players") if isinstance(e.affects, dict) else None
    if whom is None or whom == "each":
        return [p.id for p in st.players]
    if whom == "you":
        return [you] if you else []
    if whom == "opponents":
        return [p.id for p in opponents(st, you)] if you and st.has_player(you) else []
    return list(whom)


def apply(st: State, works: dict[str, Work], cat: Catalog
          ) -> tuple[dict[str, dict[str, Any]], dict[str, list[str]]]:
    """The players as the effects leave them, and the rules the effects turn off."""
    players = {p.id: {"cant_gain_life": p.cant_gain_life, "cant_lose_life": p.cant_lose_life,
                      "max_hand_size": p.max_hand_size, "effects": []} for p in st.players}
    rules: dict[str, list[str]] = {}
    applied: list[tuple[tuple, Effect, str | None]] = []
    for e in st.effects:
        if not e.does or e.does[0]["op"] not in PLAYER_OPS:
            continue
        if e.kind == "static":        # while an object has the ability (611.3b)
            holders = [oid for oid, w in works.items() if f"@{e.id}" in w.abilities
                       and w.zone in ("battlefield", "command")]
        else:
            holders = [e.source] if cat.active(e) else []
        for oid in holders:
            w = works.get(oid) if oid else None
            you = e.controller or (w.controller if w is not None else None)
            if not selectors.holds(e.condition, oid, you, works, st):
                continue
            ts = w.timestamp if (e.kind == "static" and w is not None) else (e.timestamp or 0)
            applied.append(((ts, cat.index[e.id]), e, you))
    for _, e, you in sorted(applied, key=lambda x: x[0]):       # 613.10, 613.11: timestamps
        for op in e.does:
            if op["op"] == "no_legend_rule":
                rules.setdefault("no_legend_rule", []).append(e.id)
                continue
            for pid in _whom(st, e, you):
                view = players.get(pid)
                if view is None:
                    continue
                if op["op"] in ("cant_gain_life", "cant_lose_life"):
                    view[op["op"]] = True
                elif "delta" in op:
                    if view["max_hand_size"] is not None:
                        view["max_hand_size"] += op["delta"]
                else:
                    view["max_hand_size"] = op["value"]
                view["effects"].append(e.id)
    return players, rules
