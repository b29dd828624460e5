"""Abilities that trigger «at the beginning of» a step or phase, as data of the scenario
(``State.step_triggers``; docs/scenario-format.md, «Abilità all'inizio di una sottofase»):
a permanent's triggered ability (Howling Mine: «all'inizio della sottofase di acquisizione di
ogni giocatore») or a delayed one «at the beginning of the next …» (603.7, 603.7b: it triggers
once, then it is gone).

They trigger as the step or phase begins (500.6, 603.2b): a skipped step never begins, so
nothing triggers (614.10a), and a delayed one waits for the first occurrence that is not
skipped.  The judge applies what they do, unless the record names an engine effect.
"""

from __future__ import annotations

from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.mechanics import triggers
from judge.engine.seats import opponents

WHOSE = ("you", "opponents", "each")


def _whose(ctx: Ctx, spec, controller: str) -> set[str]:
    st = ctx.s
    if spec == "each":
        return {p.id for p in st.players}
    if spec == "you":
        return {controller}
    if spec == "opponents":
        return {p.id for p in opponents(st, controller)}
    return set(spec)


def beginning(ctx: Ctx) -> None:
    """The step or phase that just began: the abilities that trigger at its beginning."""
    st = ctx.s
    if not st.step_triggers:
        return
    step, ap = st.turn.step, st.turn.active_player
    keep = []
    for t in st.step_triggers:
        ctl = t.get("controller")
        if t.get("source"):
            perm = st.perm(t["source"])
            if perm is None or perm.phased_out:
                keep.append(t)                      # no ability without its permanent (113.6)
                continue
            ctl = derived.controller(st, perm)
        if t["step"] != step or ctl is None or ap not in _whose(ctx, t["whose"], ctl):
            keep.append(t)
            continue
        rules = list(t["rules"]) or (["603.7b", "603.2b"] if t["next"] else ["603.2b"])
        triggers.queue(ctx, ctl, t["text"], rules, source=t.get("source"), effect=t.get("effect"))
        if not t["next"]:
            keep.append(t)
    st.step_triggers = keep
