"""Validation of the scenario fields for combat and its keywords: keyword texts (English or
Italian, stored in English, see keywords.py), colours, goaded creatures, the requirements and
delayed triggers of the current combat, the targets of a stack object, the range of influence.

Called by ``scenario.parse`` with its ``validation.Validator``; errors carry the field path and
an Italian message, like every other scenario error.
"""

from __future__ import annotations

from typing import Any

from judge.engine.characteristics import keywords
from judge.engine.mechanics import identity
from judge.engine.state import MANA_COLORS, State
from judge.engine.validation import Validator

REQUIREMENT_KEYS = {"blocker", "attacker", "rules"}
DELAYED_KEYS = {"controller", "text", "source", "rules", "effect"}
MAX_COMBAT_ENTRIES = 500


def keyword_list(v: Validator, d: dict, key: str, path: str) -> list[str]:
    """The keywords of ``d[key]`` in their stored form; each wrong one is an error at its path."""
    out: list[str] = []
    for i, k in enumerate(v.str_list(d, key, path)):
        try:
            out += keywords.canonical([k])
        except keywords.KeywordError as e:
            cited = f" (regola {', '.join(e.rules)})" if e.rules and "regola" not in e.message else ""
            v.err(f"{path}.{key}[{i}]", e.message + cited)
    return out


def colors(v: Validator, d: dict, path: str) -> tuple[str, ...]:
    """Colours as mana symbols (W, U, B, R, G); English and Italian names are accepted."""
    out = []
    for i, c in enumerate(v.str_list(d, "colors", path)):
        sym = keywords.color_symbol(c)
        if sym is None:
            v.err(f"{path}.colors[{i}]", f'colore sconosciuto "{c}" (ammessi: '
                                          f'{", ".join(MANA_COLORS)}, o il nome del colore)')
        elif sym not in out:
            out.append(sym)
    return tuple(out)


def counters(raw: dict[str, int]) -> dict[str, int]:
    """Keyword counters (122.1b) written in Italian or with an alias take their stored name."""
    out: dict[str, int] = {}
    for kind, n in raw.items():
        name = keywords.counter_keyword(kind) or kind
        out[name] = out.get(name, 0) + n
    return out


def goaded_by(v: Validator, d: dict, path: str) -> tuple[str, ...]:
    return tuple(v.str_list(d, "goaded_by", path))


def range_of_influence(v: Validator, opts: dict) -> int | None:
    n = v.typed(opts, "range_of_influence", "options", "int", None, nullable=True)
    if n is not None and n < 1:
        v.err("options.range_of_influence", "la portata d'influenza è di almeno 1 posto "
                                             "(regola 801.2a); null: illimitata")
        return None
    return n


def requirements(v: Validator, rc: dict) -> list[dict]:
    out = []
    for i, r in enumerate(_objects(v, rc, "requirements")):
        p = f"combat.requirements[{i}]"
        v.unknown_keys(r, REQUIREMENT_KEYS, p)
        blocker = v.typed(r, "blocker", p, "str", required=True)
        attacker = v.typed(r, "attacker", p, "str", required=True)
        if blocker and attacker:
            out.append({"blocker": blocker, "attacker": attacker,
                        "rules": v.str_list(r, "rules", p) or ["702.39a"]})
    return out


def delayed(v: Validator, rc: dict, effect_of) -> list[dict]:
    """Delayed triggered abilities "at end of combat"; ``effect_of(v, d, path)`` reads an effect
    (the registry of effects is scenario_fields')."""
    out = []
    for i, t in enumerate(_objects(v, rc, "delayed")):
        p = f"combat.delayed[{i}]"
        v.unknown_keys(t, DELAYED_KEYS, p)
        ctl = v.typed(t, "controller", p, "str", required=True)
        if ctl is None:
            continue
        out.append({"controller": ctl, "text": v.typed(t, "text", p, "str", "") or "",
                    "source": v.typed(t, "source", p, "str", None, nullable=True),
                    "rules": v.str_list(t, "rules", p), "effect": effect_of(v, t, p)})
    return out


def _objects(v: Validator, rc: dict, key: str) -> list[dict]:
    raw = v.typed(rc, key, "combat", "list", [])
    if len(raw) > MAX_COMBAT_ENTRIES:
        v.err(f"combat.{key}", f"troppi elementi (limite {MAX_COMBAT_ENTRIES})")
        return []
    good = []
    for i, r in enumerate(raw):
        if isinstance(r, dict):
            good.append(r)
        else:
            v.err(f"combat.{key}[{i}]", "atteso un oggetto")
    return good


def check_refs(v: Validator, st: State) -> None:
    """Players and objects these fields name exist."""
    players = {p.id for p in st.players}
    for i, p in enumerate(st.battlefield):
        for j, pid in enumerate(p.goaded_by):
            if pid not in players:
                v.err(f"battlefield[{i}].goaded_by[{j}]", f'giocatore sconosciuto "{pid}"')
        for j, text in enumerate(p.keywords):
            inst = keywords.instance(text)
            pid = inst.quality[len(keywords.PLAYER):] if inst and inst.quality.startswith(
                keywords.PLAYER) else None
            if pid is not None and pid not in players:
                v.err(f"battlefield[{i}].keywords[{j}]", f'giocatore sconosciuto "{pid}" '
                                                         "(protezione da un giocatore, 702.16k)")
    ids = {p.id for p in st.battlefield}
    cb = st.combat
    if cb is not None:
        for i, r in enumerate(cb.requirements):
            for key in ("blocker", "attacker"):
                if r[key] not in ids:
                    v.err(f"combat.requirements[{i}].{key}", f'permanente sconosciuto "{r[key]}"')
        for i, t in enumerate(cb.delayed):
            if t["controller"] not in players:
                v.err(f"combat.delayed[{i}].controller", f'giocatore sconosciuto "{t["controller"]}"')
    for i, s in enumerate(st.stack):
        for j, t in enumerate(s.targets):
            if t not in players and not identity.known(st, t) and not any(x.id == t for x in st.stack):
                v.err(f"stack[{i}].targets[{j}]", f'bersaglio sconosciuto "{t}"')


def to_json_combat(cb, ref=lambda r: r) -> dict[str, Any]:
    """The combat fields of this module, for ``scenario_json`` (only when present); ``ref``
    writes a reference to an object (``State.ref_out``)."""
    out: dict[str, Any] = {}
    if cb.requirements:
        out["requirements"] = [{"blocker": r["blocker"], "attacker": r["attacker"],
                                "rules": list(r["rules"])} for r in cb.requirements]
    if cb.delayed:
        out["delayed"] = [dict(t, rules=list(t["rules"]),
                               source=ref(t["source"]) if t["source"] else t["source"],
                               effect=identity.map_effect(t["effect"], ref) if t["effect"]
                               else None)
                          for t in cb.delayed]
    return out
