"""The phases of a turn once an effect has added a phase or a step to it (500.8–500.10).

A turn is the five phases of 500.1, each with its steps (501.1, 506.1, 512.1; a main phase has
none, 505.2): ``Turn.phases`` is None and the turn structure follows the table (``steps.py``).
When an effect adds a phase or a step (``mechanics.adding``), the turn's phases become a list,
``Turn.phases``, whole from the beginning phase to the ending phase, with the position of the
current one (``phase_at``, and ``step_at`` when that phase lists its steps).  Each phase is a
dict: ``{"phase": "combat"}`` one of the turn's own, ``{"phase": "combat", "by": "Relentless
Assault"}`` one an effect added (500.8).  A beginning or ending phase may list its steps:
``"steps": ["untap", "upkeep", {"step": "upkeep", "by": "Paradox Haze"}, "draw"]`` (a step
added, 500.9), or, for a phase an effect created to hold the steps it added after a phase,
only those (500.10: its other steps are skipped, 500.11).  A combat phase never lists its
steps: they follow from what happens in it (506.1, 508.8, 510.4).

:func:`following` walks the list; ``play.procedure`` asks it for the step that comes next when
the turn has such a list, and the skip effects (614.10) apply to what it gives as to any other
step or phase.  The list ends with the turn (``Turn.phases`` is None again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from judge.engine.context import Ctx
from judge.engine.state import Turn
from judge.engine.steps import PHASE_LABELS, step_def

PHASES = ("beginning", "precombat_main", "combat", "postcombat_main", "ending")   # 500.1
# The steps of each phase in their order (501.1, 505.2, 506.1, 512.1); a combat phase's steps
# are computed as it goes (508.8, 510.4): its first is the beginning of combat step.
PHASE_STEPS = {"beginning": ("untap", "upkeep", "draw"), "precombat_main": ("precombat_main",),
               "combat": ("beginning_of_combat",), "postcombat_main": ("postcombat_main",),
               "ending": ("end", "cleanup")}
LISTED = ("beginning", "ending")          # the phases whose steps a plan may list


@dataclass
class Part:
    """A step about to begin: ``begins`` the phase it begins (None: it goes on with the
    current phase), ``by`` the effect that added it or its phase, ``rule`` the rule that adds
    it (500.8, 500.9, 500.10), ``at`` its position in ``Turn.phases`` (phase index, step index
    or None), ``without`` the steps of a phase created by 500.10 that it does not have."""

    step: str
    begins: str | None = None
    by: str | None = None
    rule: str | None = None
    at: tuple[int, int | None] | None = None
    without: tuple[str, ...] = ()


def normal_plan() -> list[dict]:
    return [{"phase": p} for p in PHASES]


def step_name(x) -> str:
    return x if isinstance(x, str) else x["step"]


def step_by(x) -> str | None:
    return None if isinstance(x, str) else x.get("by")


def missing_steps(entry: dict) -> tuple[str, ...]:
    """The steps a phase created by 500.10 does not have (they are skipped, 500.11)."""
    if not entry.get("by") or "steps" not in entry:
        return ()
    present = {step_name(x) for x in entry["steps"]}
    return tuple(n for n in PHASE_STEPS[entry["phase"]] if n not in present)


def step_rule(entry: dict) -> str:
    """The rule that added a step listed in ``entry``."""
    return "500.10" if missing_steps(entry) else "500.9"


def plan_of(t: Turn) -> tuple[list[dict], int, int | None]:
    """The turn's phases as a list (a new one for a turn that has none yet), the current
    phase's index and the current step's: what ``mechanics.adding`` changes."""
    if t.phases is not None:
        return [dict(e, **({"steps": list(e["steps"])} if "steps" in e else {}))
                for e in t.phases], t.phase_at, t.step_at
    return normal_plan(), PHASES.index(step_def(t.step).phase), None


def list_steps(plan: list[dict], i: int) -> list:
    """Phase ``i``'s steps, written out if they were not."""
    e = plan[i]
    if "steps" not in e:
        e["steps"] = list(PHASE_STEPS[e["phase"]])
    return e["steps"]


def matches(phase: str, wanted: str) -> bool:
    """Is ``phase`` a ``wanted`` one («main»: either main phase, 505.1)?"""
    return phase == wanted or (wanted == "main" and phase in ("precombat_main", "postcombat_main"))


# --- walking the list ----------------------------------------------------------------------

NextStep = Callable[[Ctx, str], str]


def following(ctx: Ctx, part: Part, whole_phase: bool, next_step: NextStep,
              first_draw_skipped: Callable[[Ctx], bool]) -> Part:
    """The step after ``part`` (which began or was skipped; ``whole_phase``: its whole phase
    was skipped).  ``next_step`` is the turn structure's own (the combat phase's steps, 508.8,
    510.4; another cleanup step, 514.3a; the next turn); ``first_draw_skipped`` says whether
    the starting player's draw step is skipped (103.8a), logging it."""
    st = ctx.s
    t = st.turn
    assert t.phases is not None and part.at is not None
    pi, si = part.at
    entry = t.phases[pi]
    phase = entry["phase"]
    if not whole_phase:
        if part.step == "cleanup" and t.cleanup_again:
            return Part(next_step(ctx, "cleanup"), at=part.at)          # 514.3a
        if "steps" in entry:
            assert si is not None
            for j in range(si + 1, len(entry["steps"])):
                x = entry["steps"][j]
                if _own_draw(pi, x) and first_draw_skipped(ctx):
                    continue
                by = step_by(x)
                return Part(step_name(x), by=by, rule=step_rule(entry) if by else None,
                            at=(pi, j))
        elif phase == "combat" and part.step != "end_of_combat":
            return Part(next_step(ctx, part.step), at=(pi, None))
        elif phase in LISTED:
            normal = PHASE_STEPS[phase]
            for name in normal[normal.index(part.step) + 1:]:
                if _own_draw(pi, name) and first_draw_skipped(ctx):
                    continue
                return Part(name, at=(pi, None))
    if phase == "combat":
        st.combat = None                # the combat phase is over (511.3; 500.11 if skipped)
    if pi + 1 < len(t.phases):
        return first_of(t.phases, pi + 1)
    t.cleanup_again = False
    return Part(next_step(ctx, "cleanup"), begins="beginning")       # the next turn (500.1)


def _own_draw(pi: int, x) -> bool:
    """The turn's own draw step (103.8a skips it, not one an effect added): the first phase of
    the list is always the turn's own beginning phase."""
    return x == "draw" and pi == 0


def first_of(plan: list[dict], i: int) -> Part:
    """The first step of phase ``i`` of the list, which begins it."""
    e = plan[i]
    phase, by = e["phase"], e.get("by")
    rule = ("500.10" if missing_steps(e) else "500.8") if by else None
    if "steps" in e:
        x = e["steps"][0]
        return Part(step_name(x), begins=phase, by=by or step_by(x),
                    rule=rule or (step_rule(e) if step_by(x) else None), at=(i, 0),
                    without=missing_steps(e))
    return Part(PHASE_STEPS[phase][0], begins=phase, by=by, rule=rule, at=(i, None))


# --- words ---------------------------------------------------------------------------------

def plural(label: str, n: int) -> str:
    """«una fase di combattimento», «2 sottofasi di mantenimento»."""
    if n == 1:
        return f"una {label}"
    head, _, rest = label.partition(" ")
    return f"{n} {head[:-1]}i {rest}"


def counted(labels: list[str]) -> str:
    """The parts an effect adds, in order, runs of the same one counted."""
    runs: list[list] = []
    for lab in labels:
        if runs and runs[-1][0] == lab:
            runs[-1][1] += 1
        else:
            runs.append([lab, 1])
    words = [plural(lab, n) for lab, n in runs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " e " + words[-1]


def beginning_words(part: Part) -> str:
    """The step that begins, for the log: «la sottofase di mantenimento», «la fase di
    combattimento aggiunta da Relentless Assault, con la sottofase di inizio combattimento»."""
    label = step_def(part.step).label
    if not part.by:
        return f"la {label}"
    if not part.begins:
        return f"la {label} aggiunta da {part.by}"
    phase = PHASE_LABELS[part.begins]
    made = "creata" if part.rule == "500.10" else "aggiunta"
    return f"la {phase} {made} da {part.by}" + ("" if phase == label else f", con la {label}")


def describe(plan: list[dict], at: int) -> str:
    """The turn's phases from the current one on: «fase principale pre-combattimento (ora),
    fase di combattimento (aggiunta da Relentless Assault), …»."""
    out = []
    for i, e in enumerate(plan[at:], start=at):
        words = PHASE_LABELS[e["phase"]]
        if "steps" in e and (e.get("by") or any(step_by(x) for x in e["steps"])):
            words += " (sottofasi: " + ", ".join(
                step_def(step_name(x)).label.removeprefix("sottofase di ").removeprefix(
                    "sottofase ") + (" aggiunta" if step_by(x) else "") for x in e["steps"]) + ")"
        if e.get("by"):
            words += f" {'creata' if missing_steps(e) else 'aggiunta'} da {e['by']}"
        if i == at:
            words += " (ora)"
        out.append(words)
    return ", ".join(out)
