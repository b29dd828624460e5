"""The working context passed to every rule function: state, events, choices."""

from __future__ import annotations

import random

from judge.engine.events import Event
from judge.engine.state import State


class NeedDecision(Exception):
    """Raised inside a rule function to stop the engine on a pending decision."""


class Ctx:
    def __init__(self, state: State):
        self.s = state
        self.events: list[Event] = []

    def emit(self, rules: list[str], text: str, kind: str, objects=(), players=(),
             **data) -> Event:
        ev = Event(rules=list(rules), text=text, kind=kind, objects=list(objects),
                   players=list(players), turn=self.s.turn.number, step=self.s.turn.step,
                   data=data)
        self.events.append(ev)
        return ev

    def ask(self, decision: dict):
        """Return the answer to ``decision`` if given, else stop with it pending."""
        if decision["id"] in self.s.answers:
            return self.s.answers[decision["id"]]
        self.s.pending = decision
        raise NeedDecision(decision["id"])

    def rng(self) -> random.Random:
        """A deterministic random generator (seed + number of draws so far)."""
        r = random.Random(f"{self.s.seed}:{self.s.random_calls}")
        self.s.random_calls += 1
        return r

    def name(self, oid: str | None) -> str:
        return self.s.name_of(oid)
