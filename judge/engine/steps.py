"""The turn structure as a table (rules 500–514).

Each row is one step or phase (a main phase has no steps, 505.2): its
phase, the rules that define it, the turn-based actions performed as it
begins (703.3, in order), and who receives priority (``priority`` holds
the rule that says so, or the rule that says nobody does).
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.corpus.turn_names import FIRST_MAIN, SECOND_MAIN, turn_name


@dataclass(frozen=True)
class StepDef:
    name: str
    phase: str
    label: str            # Italian, from the terminology table (judge/corpus/turn_names.py)
    order_rule: str       # the rule that puts this step in the turn
    tbas: tuple[str, ...]
    priority: str | None  # rule giving priority; None for untap (502.4) and cleanup (514.3)


STEPS: tuple[StepDef, ...] = (
    StepDef("untap", "beginning", turn_name("untap step"), "501.1",
            ("703.4a", "703.4b", "703.4c"), None),
    StepDef("upkeep", "beginning", turn_name("upkeep step"), "501.1", (), "503.1"),
    StepDef("draw", "beginning", turn_name("draw step"), "501.1", ("703.4d",), "504.2"),
    StepDef("precombat_main", "precombat_main", turn_name(FIRST_MAIN), "505.1",
            ("703.4e", "703.4f", "703.4g"), "505.6"),
    StepDef("beginning_of_combat", "combat", turn_name("beginning of combat step"), "506.1",
            ("703.4h",), "507.2"),
    StepDef("declare_attackers", "combat", turn_name("declare attackers step"), "506.1",
            ("703.4i",), "508.2"),
    StepDef("declare_blockers", "combat", turn_name("declare blockers step"), "506.1",
            ("703.4j",), "509.2"),
    StepDef("first_strike_damage", "combat",
            turn_name("combat damage step") + " di attacco improvviso", "510.4",
            ("703.4k", "703.4m"), "510.3"),
    StepDef("combat_damage", "combat", turn_name("combat damage step"), "506.1",
            ("703.4k", "703.4m"), "510.3"),
    StepDef("end_of_combat", "combat", turn_name("end of combat step"), "506.1", (), "511.1"),
    StepDef("postcombat_main", "postcombat_main", turn_name(SECOND_MAIN), "505.1", (), "505.6"),
    StepDef("end", "ending", turn_name("end step"), "512.1", (), "513.1"),
    StepDef("cleanup", "ending", turn_name("cleanup step"), "512.1", ("703.4n", "703.4p"), None),
)

STEP_NAMES: tuple[str, ...] = tuple(s.name for s in STEPS)
BY_NAME: dict[str, StepDef] = {s.name: s for s in STEPS}
COMBAT_STEPS = frozenset(s.name for s in STEPS if s.phase == "combat")


# The five phases (500.1) and their Italian names; a phase's steps are the rows with its name.
PHASE_LABELS: dict[str, str] = {
    "beginning": turn_name("beginning phase"), "precombat_main": turn_name(FIRST_MAIN),
    "combat": turn_name("combat phase"), "postcombat_main": turn_name(SECOND_MAIN),
    "ending": turn_name("ending phase")}


def last_of_phase(phase: str) -> str:
    """The last step of ``phase`` (its only one for a main phase)."""
    return [s.name for s in STEPS if s.phase == phase][-1]


def step_def(name: str) -> StepDef:
    return BY_NAME[name]


def following(name: str) -> str | None:
    """The step that normally follows ``name`` in the same turn (None after cleanup)."""
    i = STEP_NAMES.index(name)
    return STEP_NAMES[i + 1] if i + 1 < len(STEP_NAMES) else None
