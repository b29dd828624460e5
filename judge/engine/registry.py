"""Registries of rule implementations, keyed by the rule number.

Every turn-based action (rule 703.4), state-based action (rules 704.5 and 704.6) and
judge action is registered here with the numbers it may cite, so that
``grep -rn '"704.5g"' judge/engine`` finds the one function implementing it
and tests can walk them all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from judge.engine.errors import IllegalAction


@dataclass
class RuleFn:
    number: str            # the rule implemented (for actions: the action name)
    func: Callable
    cites: list[str] = field(default_factory=list)   # every rule number it may emit
    summary: str = ""      # Italian, for help texts
    params: tuple[str, ...] = ()      # effects: the keys of their data ("key", "key:int", "key?")
    choose: Callable | None = None    # effects: the choice made before resolving, if any
    target: Callable | None = None    # effects: the target chosen as it goes on the stack (603.3d)


TBAS: dict[str, RuleFn] = {}
SBAS: dict[str, RuleFn] = {}
ACTIONS: dict[str, RuleFn] = {}
# What the engine does when one of the rules' own triggered abilities resolves
# (the monarch's draw, the initiative's venture, …), keyed by the effect's kind.
EFFECTS: dict[str, RuleFn] = {}

# The steps of a procedure (State.procedure, run by procedure.py): "tba:703.4d", or one of these.
TASKS = ("sba", "sba_action", "priority", "priority_after_resolve", "no_priority",
         "cleanup_check", "step_triggers", "resolve", "each_discard", "act", "advance",
         "after_skip")


def tba(number: str, cites: tuple[str, ...] = (), summary: str = ""):
    def deco(fn):
        TBAS[number] = RuleFn(number, fn, [number, *cites], summary)
        return fn
    return deco


def sba(number: str, cites: tuple[str, ...] = (), summary: str = ""):
    def deco(fn):
        SBAS[number] = RuleFn(number, fn, [number, *cites], summary)
        return fn
    return deco


# Judge actions that are raw edits of the state, not game actions: no rule governs them, so
# they cite none, and their summary and log say so ("Modifica diretta …").
RAW_EDITS: set[str] = set()


def action(name: str, cites: tuple[str, ...] = (), summary: str = "", raw: bool = False):
    def deco(fn):
        ACTIONS[name] = RuleFn(name, fn, list(cites), summary)
        if raw:
            RAW_EDITS.add(name)
        return fn
    return deco


def effect(kind: str, cites: tuple[str, ...], summary: str, params: tuple[str, ...] = (),
           choose: Callable | None = None, target: Callable | None = None):
    """Register ``fn(ctx, item, choice)``, applied as a rules trigger of this kind resolves.
    ``choose(ctx, item)`` (optional) asks the controller's choice first; it may stop on a
    pending decision and must not change the state.  ``target(ctx, trigger)`` (optional)
    chooses the ability's target as it is put on the stack (603.3d): it returns the target's
    id, or None when there is no legal target (the ability is then removed, 603.3d); it may
    stop on a pending decision and must not change the state."""
    def deco(fn):
        EFFECTS[kind] = RuleFn(kind, fn, list(cites), summary, tuple(params), choose, target)
        return fn
    return deco


# Validators for answers to pending decisions, by decision kind.  A validator
# gets (state, pending decision, answer) and returns the normalised answer or
# raises IllegalAction (Italian message, rule cited); it never changes state.
DECISIONS: dict[str, Callable] = {}


def decision(kind: str):
    def deco(fn):
        DECISIONS[kind] = fn
        return fn
    return deco


def one_of(answer, key: str, allowed: list[str], what: str, rules: list[str]) -> dict:
    """The answer ``{key: one of allowed}`` of a decision with one choice among ids, or an Italian
    ``IllegalAction`` saying what is expected (``what``) and the ids allowed."""
    chosen = answer.get(key) if isinstance(answer, dict) else None
    if chosen not in allowed:
        raise IllegalAction(f'risposta attesa: {{"{key}": {what}, fra: {", ".join(allowed)}}}', rules)
    return {key: chosen}
