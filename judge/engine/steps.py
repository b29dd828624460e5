"""The turn structure as a table (rules 500–514).

Each row is one step or phase (a main phase has no steps, 505.2): its
phase, the rules that define it, the turn-based actions performed as it
begins (703.3, in order), and who receives priority (``priority`` holds
the rule that says so, or the rule that says nobody does).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StepDef:
    name: str
    phase: str
    label: str            # Italian
    order_rule: str       # the rule that puts this step in the turn
    tbas: tuple[str, ...]
    priority: str | None  # rule giving priority; None for untap (502.4) and cleanup (514.3)


STEPS: tuple[StepDef, ...] = (
    StepDef("untap", "beginning", "sottofase di STAP", "501.1",
            ("703.4a", "703.4b", "703.4c"), None),
    StepDef("upkeep", "beginning", "sottofase di mantenimento", "501.1", (), "503.1"),
    StepDef("draw", "beginning", "sottofase di acquisizione", "501.1", ("703.4d",), "504.2"),
    StepDef("precombat_main", "precombat_main", "prima fase principale", "505.1",
            ("703.4e", "703.4f", "703.4g"), "505.6"),
    StepDef("beginning_of_combat", "combat", "sottofase di inizio combattimento", "506.1",
            ("703.4h",), "507.2"),
    StepDef("declare_attackers", "combat", "sottofase di dichiarazione degli attaccanti", "506.1",
            ("703.4i",), "508.2"),
    StepDef("declare_blockers", "combat", "sottofase di dichiarazione dei bloccanti", "506.1",
            ("703.4j",), "509.2"),
    StepDef("first_strike_damage", "combat",
            "sottofase del danno da combattimento di attacco improvviso", "510.4",
            ("703.4k", "703.4m"), "510.3"),
    StepDef("combat_damage", "combat", "sottofase del danno da combattimento", "506.1",
            ("703.4k", "703.4m"), "510.3"),
    StepDef("end_of_combat", "combat", "sottofase di fine combattimento", "506.1", (), "511.1"),
    StepDef("postcombat_main", "postcombat_main", "seconda fase principale", "505.1", (), "505.6"),
    StepDef("end", "ending", "sottofase finale", "512.1", (), "513.1"),
    StepDef("cleanup", "ending", "sottofase di cancellazione", "512.1", ("703.4n", "703.4p"), None),
)

STEP_NAMES: tuple[str, ...] = tuple(s.name for s in STEPS)
BY_NAME: dict[str, StepDef] = {s.name: s for s in STEPS}
COMBAT_STEPS = frozenset(s.name for s in STEPS if s.phase == "combat")


def step_def(name: str) -> StepDef:
    return BY_NAME[name]


def following(name: str) -> str | None:
    """The step that normally follows ``name`` in the same turn (None after cleanup)."""
    i = STEP_NAMES.index(name)
    return STEP_NAMES[i + 1] if i + 1 < len(STEP_NAMES) else None
