"""Helpers for engine tests: build small scenarios quickly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.engine import Game

ROOT = Path(__file__).resolve().parents[2]
RULES_FILE = sorted((ROOT / "rules_en").glob("MagicCompRules-*.txt"))[-1]  # the edition in force
_RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]{0,2})\.?\s")


def rule_numbers() -> set[str]:
    """Every numbered rule in the edition in force (lines starting NNN.N. / NNN.Nx)."""
    out = set()
    for line in RULES_FILE.read_text(encoding="utf-8-sig").splitlines():
        m = _RULE_LINE.match(line)
        if m:
            out.add(m.group(1))
    return out


RULES = rule_numbers()


def card(cid, name=None, types=("creature",), p=None, t=None, **kw):
    d = {"id": cid, "name": name or cid, "types": list(types)}
    if p is not None:
        d["power"] = p
    if t is not None:
        d["toughness"] = t
    d.update(kw)
    return d


def perm(cid, controller="p1", name=None, types=("creature",), p=None, t=None, **kw):
    if "creature" in types and p is None:
        p, t = 2, 2
    d = card(cid, name, types, p, t, **kw)
    d["controller"] = controller
    return d


def until_end_of_turn(st, oid: str) -> dict:
    """What the effects "until end of turn" do to an object (611.2a), as the old field said it:
    {"power": n, "toughness": n, "keywords": [...]}, without zeros."""
    out: dict = {}
    for e in st.effects:
        objects = e.affects.get("objects", ()) if isinstance(e.affects, dict) else ()
        if e.duration != "end_of_turn" or oid not in objects:
            continue
        for op in e.does:
            if op["op"] == "modify_pt":
                for k in ("power", "toughness"):
                    out[k] = out.get(k, 0) + op[k]
            elif op["op"] == "add_abilities":
                out.setdefault("keywords", []).extend(op["abilities"])
    return {k: v for k, v in out.items() if v}


def library(prefix, n):
    return [card(f"{prefix}{i}", f"Carta {prefix}{i}", ("land",)) for i in range(n)]


def scenario(battlefield=(), step="precombat_main", active="p1", number=3, variant="two-player",
             players=None, **top):
    if players is None:
        players = [{"id": "p1", "name": "Alice", "library": library("a", 5)},
                   {"id": "p2", "name": "Bruno", "library": library("b", 5)}]
    d = {"format": "judge-scenario", "version": 1, "title": "test", "variant": variant,
         "players": players, "battlefield": list(battlefield),
         "turn": {"number": number, "active_player": active, "step": step}}
    d.update(top)
    return d


def four_players(**extra):
    """Alice, Bruno, Carla and Dario with small libraries; ``extra``: fields per player id."""
    players = [{"id": f"p{i}", "name": n, "library": library(f"l{i}", 4)}
               for i, n in enumerate(["Alice", "Bruno", "Carla", "Dario"], 1)]
    for pid, fields in extra.items():
        next(p for p in players if p["id"] == pid).update(fields)
    return players


def game(*args, **kw) -> Game:
    return Game.from_dict(scenario(*args, **kw))


def rules_of(events) -> set[str]:
    return {r for e in events for r in e.rules}


def find(events, kind=None, rule=None):
    return [e for e in events if (kind is None or e.kind == kind) and (rule is None or rule in e.rules)]


def zone_ids(g, pid, zone):
    return [c.id for c in g.state.player(pid).zone(zone)]


def bf_ids(g):
    return [p.id for p in g.state.battlefield]



def _unused():
    return RULES
