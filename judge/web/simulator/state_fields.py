"""The builder's fields for the rest of a game state: mana pools, commander damage, teams and
the stack (see forms for the form's conventions: fields named after the scenario
path they edit, so the engine's errors land beside them)."""

from __future__ import annotations

import re
from typing import Any

from judge.engine.state import MANA
from judge.engine.terms import MANA_IT

MANA_NAMES = {"w": "W", "u": "U", "b": "B", "r": "R", "g": "G", "c": "C", "bianco": "W",
              "blu": "U", "nero": "B", "rosso": "R", "verde": "G", "incolore": "C",
              "white": "W", "blue": "U", "black": "B", "red": "R", "green": "G", "colorless": "C"}
STACK_KINDS = {"ability": "abilità", "spell": "magia"}


def mana_text(pool: dict | None) -> str:
    return ", ".join(f"{MANA_IT.get(k, k)}: {n}" for k, n in (pool or {}).items() if n)


def read_mana(r, name: str) -> dict[str, int] | None:
    """"rosso: 2, G 1" → {"R": 2, "G": 1}; Italian, English or one-letter names."""
    raw = r.form.get(name)
    if raw is None:
        return None
    out: dict[str, int] = {}
    for item in re.split(r"[,;\n]", str(raw)):
        item = item.strip()
        if not item:
            continue
        # "rosso: 2" or "2 rosso": which pattern matched says which part is the number (not
        # str.isdigit, for which "²" is a digit that int() refuses).
        if m := re.fullmatch(r"(\D+?)\s*[:=]?\s*(\d{1,9})", item):
            word, n = m[1], int(m[2])
        elif m := re.fullmatch(r"(\d{1,9})\s*(\D+)", item):
            word, n = m[2], int(m[1])
        else:
            r.errors.append((name, f'riserva di mana: scrivi "colore: numero" (es. "rosso: 2"), non "{item}"'))
            continue
        key = MANA_NAMES.get(word.strip().lower())
        if key is None:
            r.errors.append((name, f'mana sconosciuto "{word.strip()}" (ammessi: bianco, blu, nero, '
                                   'rosso, verde, incolore)'))
            continue
        if n:
            out[key] = out.get(key, 0) + n
    return {k: out[k] for k in MANA if k in out}


def commanders(d: dict) -> list[tuple[str, str]]:
    """``[(id, "name (owner)")]`` of every commander in the scenario, in any zone."""
    out = []
    names = {p.get("id"): p.get("name") for p in d.get("players") or [] if isinstance(p, dict)}
    for p in d.get("players") or []:
        if not isinstance(p, dict):
            continue
        for z in ("command", "hand", "library", "graveyard", "exile"):
            for c in p.get(z) or []:
                if isinstance(c, dict) and c.get("commander"):
                    out.append((str(c.get("id")), f"{c.get('name')} ({p.get('name')})"))
    for c in d.get("battlefield") or []:
        if isinstance(c, dict) and c.get("commander"):
            out.append((str(c.get("id")), f"{c.get('name')} ({names.get(c.get('owner') or c.get('controller'), '?')})"))
    return out


def apply_players(d: dict, r, before: dict) -> None:
    """Team, mana pool and commander damage of each player.  In Two-Headed Giant a life or
    poison total changed for one player (from ``before``, the draft) is the team's (810.4,
    810.10)."""
    cmds = commanders(d)
    players = [p for p in d.get("players") or [] if isinstance(p, dict)]
    for i, p in enumerate(d.get("players") or []):
        pre = f"players[{i}]"
        if not isinstance(p, dict) or not r.has(f"{pre}.name"):
            continue
        if r.has(f"{pre}.team"):
            p["team"] = r.text(f"{pre}.team") or str(p.get("id"))
        pool = read_mana(r, f"{pre}.mana_pool")
        if pool is not None:
            p["mana_pool"] = pool
        dmg = dict(p.get("commander_damage") or {})
        for k, (cid, _) in enumerate(cmds):
            name = f"{pre}.commander_damage[{k}]"
            if r.has(name):
                n = r.int(name, dmg.get(cid, 0), nullable=True, minimum=0)
                if n:
                    dmg[cid] = n
                else:
                    dmg.pop(cid, None)
        p["commander_damage"] = dmg
    old = [p for p in before.get("players") or [] if isinstance(p, dict)]
    if d.get("variant") == "two-headed-giant" and len(old) == len(players):
        for key in ("life", "poison"):
            for p, was in zip(players, old):
                if p.get(key) == was.get(key):
                    continue
                for mate in players:
                    if mate is not p and mate.get("team") == p.get("team"):
                        mate[key] = p.get(key)


def apply_stack(d: dict, r, used: set[str], new_id) -> str:
    """Edit, add and remove stack objects.  Returns a field to focus ("" if none)."""
    stack = [s for s in d.get("stack") or [] if isinstance(s, dict)]
    player_ids = [p.get("id") for p in d.get("players") or [] if isinstance(p, dict)]
    for i, s in enumerate(stack):
        pre = f"stack[{i}]"
        if not r.has(f"{pre}.text"):
            continue
        _edit_item(r, s, pre)
    focus = ""
    name = r.text("pila.text")
    if name:
        kind = r.text("pila.kind", "ability")
        if kind not in STACK_KINDS:
            r.errors.append(("pila.kind", "scelta non valida"))
        else:
            ctl = r.text("pila.controller") or (player_ids[0] if player_ids else "")
            item: dict[str, Any] = {"id": new_id("pila", used), "kind": kind, "controller": ctl, "text": name}
            if kind == "spell":
                item["card"] = {"id": new_id("magia", used), "name": name, "types": [], "owner": ctl}
            src = r.text("pila.source")
            if src:
                item["source"] = src
            stack.append(item)
            focus = "pila.text"
    m = re.fullmatch(r"rimuovi_pila:(\d{1,4})", r.text("azione"))
    if m and int(m.group(1)) < len(stack):
        stack.pop(int(m.group(1)))
        focus = "pila.text"
    if stack or "stack" in d:
        d["stack"] = stack
    return focus


def _edit_item(r, s: dict, pre: str) -> None:
    s["text"] = r.text(f"{pre}.text") or s.get("text", "")
    if s.get("card") is not None and isinstance(s["card"], dict):
        s["card"]["name"] = s["text"]
    if r.has(f"{pre}.controller"):
        s["controller"] = r.text(f"{pre}.controller")
        if isinstance(s.get("card"), dict):
            s["card"]["owner"] = s["card"].get("owner") or s["controller"]
    if r.has(f"{pre}.source"):
        src = r.text(f"{pre}.source")
        if src:
            s["source"] = src
        else:
            s.pop("source", None)
