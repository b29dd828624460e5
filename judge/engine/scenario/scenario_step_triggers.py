"""The format's ``step_triggers``: abilities that trigger «at the beginning of» a step or main
phase (603.2b), or a delayed one at the next such step (603.7b); read, checked with Italian
errors and written back.  What they do as the step begins is mechanics.step_triggers."""

from __future__ import annotations

from typing import Any

from judge.engine.mechanics.step_triggers import WHOSE
from judge.engine.scenario import scenario_fields as sf
from judge.engine.state import State
from judge.engine.steps import STEP_NAMES
from judge.engine.validation import Validator

KEYS = {"id", "text", "controller", "source", "step", "whose", "next", "rules", "effect"}
# Nobody receives priority in the untap step (502.4) nor, normally, in the cleanup step (514.3).
STEPS = tuple(n for n in STEP_NAMES if n not in ("untap", "cleanup"))


def read(v: Validator, data: dict) -> list[dict]:
    raw = v.typed(data, "step_triggers", "", "list", [])
    out = []
    for p, t in sf._objects(v, raw, "step_triggers", sf.MAX_TRIGGERS, "un'abilità innescata",
                            KEYS):
        tid = v.typed(t, "id", p, "str", required=True)
        step = v.typed(t, "step", p, "str", required=True)
        if step is not None and step not in STEPS:
            v.err(f"{p}.step", f'sottofase o fase sconosciuta "{step[:40]}" (ammesse: '
                               f'{", ".join(STEPS)})')
            step = None
        whose: Any = t.get("whose", "each")
        listed = isinstance(whose, list) and all(isinstance(x, str) for x in whose)
        if not (listed or whose in WHOSE):
            v.err(f"{p}.whose", 'di chi è la sottofase: "you", "opponents", "each" o una lista '
                                'di id giocatore')
            whose = "each"
        ctl = v.typed(t, "controller", p, "str", None, nullable=True)
        src = v.typed(t, "source", p, "str", None, nullable=True)
        if ctl is None and src is None:
            v.err(p, "indica source (il permanente con l'abilità) o controller (chi controlla "
                     "l'abilità ritardata)")
        # kept even when wrong (the file is refused then): check_refs' paths are its indices
        out.append({"id": tid or "?", "text": v.typed(t, "text", p, "str", "") or "", "controller": ctl,
                    "source": src, "step": step, "whose": whose,
                    "next": v.typed(t, "next", p, "bool", False),
                    "rules": v.str_list(t, "rules", p), "effect": sf.effect(v, t, p)})
    return out


def check_refs(v: Validator, st: State) -> None:
    players = {p.id for p in st.players}
    ids = {p.id for p in st.battlefield}
    for i, t in enumerate(st.step_triggers):
        p = f"step_triggers[{i}]"
        if t["controller"] is not None and t["controller"] not in players:
            v.err(f"{p}.controller", f'giocatore sconosciuto "{t["controller"][:40]}"')
        if t["source"] is not None and t["source"] not in ids:
            v.err(f"{p}.source", f'permanente sconosciuto "{t["source"][:40]}"')
        if isinstance(t["whose"], list):
            for j, pid in enumerate(t["whose"]):
                if pid not in players:
                    v.err(f"{p}.whose[{j}]", f'giocatore sconosciuto "{pid[:40]}"')


def to_json(st: State) -> list[dict]:
    out = []
    for t in st.step_triggers:
        d = {k: t[k] for k in ("id", "text", "step") if t[k]}
        for k in ("controller", "source", "effect"):
            if t[k] is not None:
                d[k] = t[k]
        if t["whose"] != "each":
            d["whose"] = t["whose"]
        if t["next"]:
            d["next"] = True
        if t["rules"]:
            d["rules"] = list(t["rules"])
        out.append(d)
    return out
