"""The turn's phases in a scenario file once an effect has added phases or steps (500.8–500.10):
``turn.phases``, ``turn.phase_at``, ``turn.step_at`` (mechanics/turn_plan.py says what they
hold), read and checked with Italian errors and written back; and the records of ``effects``
that add phases or steps (``addition_schema``), which the file holds as effects that have just
resolved and reading applies to the turn (``mechanics.adding``).  docs/scenario-format.md,
«Turno» and «Fasi e sottofasi aggiuntive»."""

from __future__ import annotations

import json
from typing import Any

from judge.engine.mechanics import adding, addition_schema
from judge.engine.mechanics import turn_plan as tp
from judge.engine.registry import ACTIONS
from judge.engine.state import State
from judge.engine.steps import step_def
from judge.engine.validation import EXPECTED, MAX_TEXT, Validator

KEYS = ("phases", "phase_at", "step_at", "after_skip")
AFTER_SKIP_KEYS = {"act", "params", "by", "skipped", "player"}
MAX_PHASES = 60
MAX_STEPS = 30
MAX_AFTER_SKIP = 20


def read(v: Validator, rt: dict, st: State) -> None:
    """``turn.phases`` and the position in it, into ``st.turn`` (its step already read)."""
    t = st.turn
    raw = v.typed(rt, "phases", "turn", "list", None, nullable=True)
    at = v.typed(rt, "phase_at", "turn", "int", None, nullable=True)
    step_at = v.typed(rt, "step_at", "turn", "int", None, nullable=True)
    if raw is None:
        if at is not None or step_at is not None:
            v.err("turn.phase_at" if at is not None else "turn.step_at",
                  "senza turn.phases il turno ha le sue fasi (500.1): togli il campo")
        return
    start = len(v.errors)
    if not 5 <= len(raw) <= MAX_PHASES:
        v.err("turn.phases", f"attesa una lista da 5 a {MAX_PHASES} fasi, tutte quelle del turno")
        return
    plan = [_phase(v, e, f"turn.phases[{i}]") for i, e in enumerate(raw)]
    if len(v.errors) > start:
        return
    own = [e["phase"] for e in plan if not e.get("by")]
    if own != list(tp.PHASES) or plan[0].get("by") or plan[-1].get("by"):
        v.err("turn.phases", "le fasi del turno (quelle senza by) sono, nell'ordine, "
                             f"{', '.join(tp.PHASES)} (500.1); le aggiunte stanno fra la prima "
                             "e l'ultima (500.8)")
        return
    if at is None or not 0 <= at < len(plan):
        v.err("turn.phase_at", f"l'indice della fase attuale in turn.phases, da 0 a {len(plan) - 1}")
        return
    if plan[at]["phase"] != step_def(t.step).phase:
        v.err("turn.phase_at", f'la fase {at} è "{plan[at]["phase"]}", ma turn.step "{t.step}" è '
                               f'della fase "{step_def(t.step).phase}"')
        return
    if "steps" in plan[at]:
        names = [tp.step_name(x) for x in plan[at]["steps"]]
        if step_at is None or not 0 <= step_at < len(names) or names[step_at] != t.step:
            v.err("turn.step_at", f'l\'indice di turn.step ("{t.step}") fra le sottofasi della fase '
                                  f"attuale: {names}")
            return
    elif step_at is not None:
        v.err("turn.step_at", "la fase attuale non elenca le sue sottofasi: togli il campo")
        return
    t.phases, t.phase_at, t.step_at = plan, at, step_at


def read_after_skip(v: Validator, rt: dict, st: State) -> None:
    """``turn.after_skip``: what skip effects do after skipping, waiting for the next step to
    occur (614.10b); the action's name is checked here, its parameters when it is done."""
    raw = v.typed(rt, "after_skip", "turn", "list", [])
    if len(raw) > MAX_AFTER_SKIP:
        v.err("turn.after_skip", f"al massimo {MAX_AFTER_SKIP} azioni")
        raw = []
    out = []
    for i, d in enumerate(raw):
        p = f"turn.after_skip[{i}]"
        if not isinstance(d, dict):
            v.err(p, EXPECTED["dict"])
            continue
        v.unknown_keys(d, AFTER_SKIP_KEYS, p)
        act = v.typed(d, "act", p, "str", required=True)
        if act is not None and act not in ACTIONS:
            v.err(f"{p}.act", f'azione del giudice sconosciuta "{act[:40]}"')
        out.append({"act": act or "?", "params": v.typed(d, "params", p, "dict", {}),
                    **{k: v.typed(d, k, p, "str", "") or "" for k in ("by", "skipped", "player")}})
    st.turn.after_skip = out


def _phase(v: Validator, e: Any, p: str) -> dict:
    if not isinstance(e, dict):
        v.err(p, 'atteso un oggetto ({"phase": …}, con "by" se l\'ha aggiunta un effetto)')
        return {"phase": "?"}
    v.unknown_keys(e, {"phase", "by", "steps"}, p)
    name = e.get("phase")
    if name not in tp.PHASES:
        v.err(f"{p}.phase", f'fase sconosciuta "{str(name)[:40]}" (ammesse: {", ".join(tp.PHASES)})')
        return {"phase": "?"}
    out: dict[str, Any] = {"phase": name}
    by = v.typed(e, "by", p, "str", None, nullable=True)
    if by is not None:
        if not by or name == "precombat_main":
            v.err(f"{p}.by", "l'effetto che ha aggiunto la fase (una fase principale aggiunta è "
                             "post-combattimento, 505.1a)" if by else "non può essere vuoto")
        out["by"] = by
    if "steps" in e:
        out["steps"] = _steps(v, e["steps"], name, bool(by), f"{p}.steps")
    return out


def _steps(v: Validator, raw: Any, phase: str, added: bool, p: str) -> list:
    if phase not in tp.LISTED:
        v.err(p, "solo la fase iniziale e la fase finale elencano le loro sottofasi (quelle "
                 "di combattimento dipendono da chi attacca, 508.8; una fase principale non ne "
                 "ha, 505.2)")
        return []
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_STEPS:
        v.err(p, f"attesa una lista da 1 a {MAX_STEPS} sottofasi")
        return []
    out: list = []
    for i, x in enumerate(raw):
        q = f"{p}[{i}]"
        if isinstance(x, str) and x in tp.PHASE_STEPS[phase]:
            out.append(x)
        elif isinstance(x, dict) and set(x) == {"step", "by"} and isinstance(x["by"], str) \
                and 0 < len(x["by"]) <= MAX_TEXT and x["step"] in addition_schema.ADDED_STEPS \
                and step_def(x["step"]).phase == phase:
            out.append({"step": x["step"], "by": x["by"]})
        else:
            v.err(q, f'una sottofase della fase: {", ".join(tp.PHASE_STEPS[phase])}, o '
                     '{"step": …, "by": …} per una aggiunta da un effetto (500.9)')
    own = [x for x in out if isinstance(x, str)]
    normal = list(tp.PHASE_STEPS[phase])
    if own != [n for n in normal if n in own] or len(set(own)) != len(own) or \
            (not added and own != normal):
        v.err(p, f"le sottofasi proprie della fase ({', '.join(normal)}) vi stanno una volta, "
                 "nel loro ordine; solo una fase creata per le sottofasi aggiunte (500.10) ne ha "
                 "meno")
    return out


def to_json(st: State) -> dict:
    t = st.turn
    out: dict[str, Any] = {}
    if t.after_skip:
        out["after_skip"] = json.loads(json.dumps(t.after_skip))
    if t.phases is None:
        return out
    out |= {"phases": [dict(e, **({"steps": [x if isinstance(x, str) else dict(x)
                                                            for x in e["steps"]]}
                                                 if "steps" in e else {})) for e in t.phases],
                           "phase_at": t.phase_at}
    if t.step_at is not None:
        out["step_at"] = t.step_at
    return out


# --- the records of ``effects`` that add phases or steps -------------------------------------

def read_additions(v: Validator, data: dict) -> list[tuple[str, dict]]:
    raw = data.get("effects")
    if not isinstance(raw, list):
        return []
    out = []
    for i, d in enumerate(raw):
        if addition_schema.is_addition(d):
            rec = addition_schema.read(v, d, f"effects[{i}]")
            if rec is not None:
                out.append((f"effects[{i}]", rec))
    return out


def apply_additions(v: Validator, st: State, records: list[tuple[str, dict]]) -> None:
    """Check the records' players, then apply them to the turn (a file with other errors is
    refused before: the turn they would change may not be what it says)."""
    players = {p.id for p in st.players}
    for path, rec in records:
        addition_schema.check_refs(v, rec, players, path)
    if not v.errors:
        adding.apply_from_file(v, st, records)
