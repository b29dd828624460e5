"""Stepping towards a step of the turn ("Avanza fino a" in the browser, ``--fino-a`` in the CLI).

The target is reached when the turn is at that step with an empty stack. A turn can also go past
it without entering it (no attackers: no combat damage step, 508.8; the starting player's draw
step, 103.8a): then stepping stops at that turn's cleanup step, and ``reason`` says why, instead
of running on into later turns.
"""

from __future__ import annotations

from judge.engine.events import Event
from judge.engine.state import State
from judge.engine.steps import STEP_NAMES, step_def


class StepTarget:
    def __init__(self, step: str):
        self.step = step
        self.index = STEP_NAMES.index(step)
        self.skipped_turn: int | None = None     # the turn that went past the step, once it has
        self.skip: Event | None = None           # the event that skipped it, if any
        self.rules: list[str] = []               # the rules that say why the step was not there

    def observe(self, before: tuple[int, str], state: State, events: list[Event]) -> None:
        """After one step from ``before`` (turn number, step name), with the events it produced."""
        turn, step = before
        if self.skipped_turn is None and state.turn.number == turn and \
                STEP_NAMES.index(step) < self.index < STEP_NAMES.index(state.turn.step):
            self.skipped_turn = turn
            self.skip = next((e for e in events if e.kind == "skip_step"), None)
            if self.skip is not None:
                self.rules = list(self.skip.rules)
            elif self.step == "first_strike_damage":
                self.rules = ["510.4"]

    def reached(self, state: State) -> bool:
        return state.turn.step == self.step and not state.stack

    def stop_at_turn_end(self, state: State) -> bool:
        return self.skipped_turn is not None and state.turn.step == "cleanup" and not state.stack

    def reason(self, state: State) -> str:
        """Why the step was not there, as a sentence: «La sottofase … non c'è stata nel turno 1: …»."""
        label = step_def(self.step).label
        if self.skip is not None:
            text = self.skip.text.rstrip(".")
            # mid-sentence: lower the first letter, unless the text starts with a name
            if not any(text.startswith(p.name) for p in state.players if p.name):
                text = text[:1].lower() + text[1:]
            why = f"{text} (regola {', '.join(self.rules)})"
        elif self.rules == ["510.4"]:
            why = ("nessuna creatura attaccante o bloccante ha attacco improvviso o doppio attacco "
                   "(regola 510.4)")
        else:
            why = "il turno non l'ha attraversata"
        return f"La {label} non c'è stata nel turno {self.skipped_turn}: {why}"
