"""Adding phases and steps to the turn (500.8, 500.9, 500.10, 500.10a): an effect's record
(``addition_schema``) changes the list of the turn's phases (``turn_plan``) as it resolves.

The phases are added directly after the phase named, the steps directly after or before the
step named, so that when several are added after the same phase or step the most recently
created comes first (500.8, 500.9); steps added after a phase come in the phase that normally
holds them, created for them with no other step (500.10).  An effect that says «you get» adds
nothing in a turn other than its controller's (500.10a; in Two-Headed Giant the team's turn,
805.8).  The log says where, by which effect, and the turn's phases from there on.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine import seats
from judge.engine.context import Ctx
from judge.engine.mechanics import turn_plan as tp
from judge.engine.mechanics.addition_schema import label
from judge.engine.mechanics.skipping import effect_words
from judge.engine.state import State
from judge.engine.steps import PHASE_LABELS, step_def
from judge.engine.validation import Validator


@dataclass
class Placed:
    """The turn's phases once the record is applied, and what the log says."""

    plan: list[dict]
    at: int
    step_at: int | None
    where: str                  # «dopo questa fase principale pre-combattimento»
    rules: list[str]
    after_newer: bool           # others were added at the same place before (newest first)


@dataclass
class NotAdded:
    why: str
    rules: list[str]


def their_turn(st: State, pid: str) -> bool:
    ap = st.turn.active_player
    if seats.shared_team_turns(st.variant) and st.has_player(pid):
        return ap in {p.id for p in seats.teammates(st, pid)}           # 805.8
    return pid == ap


def place(st: State, rec: dict) -> Placed | NotAdded:
    """Where ``rec`` adds its phases or steps in the turn, or why it adds nothing."""
    if rec["you_get"] and not their_turn(st, rec["controller"]):
        return NotAdded(f"l'effetto dice «ottieni» e questo è il turno di "
                        f"{st.name_of(st.turn.active_player)}, non di chi lo controlla "
                        f"({st.name_of(rec['controller'])})", ["500.10a"])
    plan, at, step_at = tp.plan_of(st.turn)
    anchor = rec["after"] or rec["before"]
    if "phase" in anchor:
        return _after_phase(st, rec, plan, at, step_at, anchor)
    if rec["after"] is not None:
        return _after_step(st, rec, plan, at, step_at, anchor["step"])
    return _before_step(st, rec, plan, at, step_at, anchor["step"])


def _after_phase(st: State, rec: dict, plan: list[dict], at: int, step_at: int | None,
                 anchor: dict) -> Placed | NotAdded:
    wanted, what = anchor["phase"], ("fase principale" if anchor["phase"] == "main" else
                                      PHASE_LABELS[anchor["phase"]])
    rules = ["500.8"] if rec["what"] == "phases" else ["500.10", "500.11"]
    if anchor.get("first"):
        i = next((i for i, e in enumerate(plan) if tp.matches(e["phase"], wanted)), None)
        if i is None or i < at:
            return NotAdded(f"la prima {what} di questo turno è già finita", rules)
        where = f"dopo la prima {what} del turno" + (" (questa)" if i == at else "")
    else:
        i = at
        if not tp.matches(plan[at]["phase"], wanted):
            return NotAdded(f"aggiunge dopo questa {what}, ma il turno è nella "
                            f"{PHASE_LABELS[plan[at]['phase']]}", rules)
        where = f"dopo questa {PHASE_LABELS[plan[at]['phase']]}"
    by = label(rec)
    if rec["what"] == "phases":
        new = [{"phase": p, "by": by} for p in rec["parts"]]
    else:                                                           # 500.10
        new = [{"phase": step_def(rec["parts"][0]).phase, "by": by,
                "steps": [{"step": s, "by": by} for s in rec["parts"]]}]
    newer = i + 1 < len(plan) and bool(plan[i + 1].get("by"))
    plan[i + 1:i + 1] = new
    return Placed(plan, at, step_at, where, rules, newer)


def _after_step(st: State, rec: dict, plan: list[dict], at: int, step_at: int | None,
                name: str) -> Placed | NotAdded:
    label_s = step_def(name).label
    if st.turn.step != name:
        return NotAdded(f"aggiunge dopo questa {label_s}, ma il turno è nella "
                        f"{step_def(st.turn.step).label}", ["500.9"])
    steps = tp.list_steps(plan, at)
    if step_at is None:
        step_at = [tp.step_name(x) for x in steps].index(name)
    newer = step_at + 1 < len(steps) and bool(tp.step_by(steps[step_at + 1]))
    steps[step_at + 1:step_at + 1] = [{"step": s, "by": label(rec)} for s in rec["parts"]]
    return Placed(plan, at, step_at, f"dopo questa {label_s}", ["500.9"], newer)


def _before_step(st: State, rec: dict, plan: list[dict], at: int, step_at: int | None,
                 name: str) -> Placed | NotAdded:
    phase = step_def(name).phase
    for i in range(at, len(plan)):
        e = plan[i]
        if e["phase"] != phase:
            continue
        names = [tp.step_name(x) for x in e.get("steps", tp.PHASE_STEPS[phase])]
        if i == at and step_at is None:
            step_at = names.index(st.turn.step)
        first = step_at + 1 if i == at else 0
        j = next((j for j in range(first, len(names)) if names[j] == name), None)
        if j is not None:
            steps = tp.list_steps(plan, i)
            steps[j:j] = [{"step": s, "by": label(rec)} for s in rec["parts"]]
            return Placed(plan, at, step_at if "steps" in plan[at] else None,
                          f"prima della prossima {step_def(name).label}", ["500.9"], False)
    return NotAdded(f"in questo turno non c'è più una {step_def(name).label}", ["500.9"])


def add(ctx: Ctx, rec: dict) -> None:
    """The effect resolves: its phases or steps are added to the turn, and the log says so."""
    st = ctx.s
    placed = place(st, rec)
    words = effect_words(rec["card"], rec["text"], "" if rec["id"] == "?" else rec["id"])
    if isinstance(placed, NotAdded):
        ctx.emit(placed.rules, f"Per {words} non si aggiunge nulla: {placed.why}.", "extra_phase",
                 players=[rec["controller"]])
        return
    t = st.turn
    t.phases, t.phase_at, t.step_at = placed.plan, placed.at, placed.step_at
    names = [tp.PHASE_LABELS[p] if rec["what"] == "phases" else step_def(p).label
             for p in rec["parts"]]
    if placed.rules[0] == "500.10":
        phase = step_def(rec["parts"][0]).phase
        skipped = [step_def(n).label for n in tp.PHASE_STEPS[phase] if n not in rec["parts"]]
        what = (f"si crea una {PHASE_LABELS[phase]} con {tp.counted(names)}"
                + (f": le sue altre sottofasi ({', '.join(skipped)}) si saltano" if skipped
                   else ""))
    else:
        what = f"si {'aggiunge' if len(names) == 1 else 'aggiungono'} {tp.counted(names)}"
    newer = (" Fra quelle aggiunte nello stesso punto, la più recente si svolge per prima."
             if placed.after_newer else "")
    ctx.emit(placed.rules, f"Per {words}, {placed.where} {what}.{newer} Fasi del turno da qui: "
             f"{tp.describe(t.phases, t.phase_at)}.", "extra_phase", players=[rec["controller"]])


def apply_from_file(v: Validator, st: State, records: list[tuple[str, dict]]) -> None:
    """The records of a scenario file's ``effects``: effects that have just resolved, applied
    in their order; one that would add nothing is an error of the file."""
    for path, rec in records:
        placed = place(st, rec)
        if isinstance(placed, NotAdded):
            v.err(path, f"non aggiungerebbe nulla: {placed.why} ({', '.join(placed.rules)})")
            continue
        st.turn.phases, st.turn.phase_at, st.turn.step_at = (placed.plan, placed.at,
                                                             placed.step_at)
