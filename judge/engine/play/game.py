"""The Game: load a scenario, step it, answer decisions, act, undo and redo.

Every public operation is a transaction: it either completes and is added to
the history (so it can be undone), or raises and leaves the state unchanged.
What a step does, within it and from one step to the next, is in procedure.py.
"""

from __future__ import annotations

import copy
import inspect
import io
import json
import pickle
from pathlib import Path
from typing import Any, Callable

# Modules that register turn-based and state-based actions, effects, decisions and judge
# actions: the registries are filled by importing them.
from judge.engine.actions import (control_actions, effect_actions,  # noqa: F401
                                  extra_turn_actions, general, mechanic_actions,
                                  permanent_actions, replacement_actions, stack_actions)
from judge.engine.combat import attackers, blocks, combat_damage, combat_effects  # noqa: F401
from judge.engine.context import Ctx, NeedDecision
from judge.engine.errors import IllegalAction
from judge.engine.events import Event
from judge.engine.mechanics import (battles, damage, designations, dungeon,  # noqa: F401
                                    planechase, replacement_ops, sectors)
from judge.engine.mechanics import replacement, replacement_find
from judge.engine.mechanics import resolve as _resolve
from judge.engine.mechanics import (state_actions, targeting, triggers, turn_actions, variants)  # noqa: F401
from judge.engine.play import procedure
from judge.engine.play.step_target import StepTarget
from judge.engine.registry import ACTIONS, DECISIONS
from judge.engine.scenario import scenario_json, templates
from judge.engine.scenario.parse import parse
from judge.engine.state import State
from judge.engine.steps import STEP_NAMES, step_def
from judge.engine.validation import MAX_PARAM_DEPTH, MAX_STEPS_PER_CALL, json_depth_ok

# A player may concede at any time (104.3a), even while another choice is pending.
ANYTIME_ACTIONS = ("concede",)


class Game:
    """A game in progress.  See docs/engine.md."""

    def __init__(self, state: State):
        self.state = state
        self.events: list[Event] = []
        # Snapshots are pickled bytes: cheap to take, and invisible to the
        # garbage collector (live copies made long games quadratic).
        self._past: list[tuple[bytes, int, str]] = []
        self._future: list[tuple[bytes, list[Event], str]] = []

    # --- construction and serialisation ---------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> "Game":
        return cls(scenario_json.load_file(path))

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        return cls(parse(data))

    @classmethod
    def from_json(cls, text: str) -> "Game":
        return cls(scenario_json.loads(text))

    @classmethod
    def new(cls, variant: str = "two-player", players: int | None = None) -> "Game":
        return cls.from_dict(templates.new_scenario(variant, players))

    def to_dict(self) -> dict:
        return scenario_json.to_dict(self.state)

    def to_json(self) -> str:
        return scenario_json.dumps(self.state)

    def snapshot(self) -> bytes:
        """The current state as bytes, for a cache of states (history and events are not kept)."""
        return _freeze(self.state)

    @classmethod
    def from_snapshot(cls, data: bytes) -> "Game":
        """A game at a state saved by :meth:`snapshot` with this same engine code.  Only the
        engine's own data classes are rebuilt, so bytes from elsewhere cannot run code."""
        try:
            state = _SnapshotLoader(io.BytesIO(data)).load()
        except Exception as e:                  # truncated, foreign or from older code
            raise ValueError(f"istantanea non valida: {e}") from None
        if not isinstance(state, State):
            raise ValueError("istantanea non valida: non è uno stato di gioco")
        return cls(state)

    # --- read-only views ---------------------------------------------------------
    @property
    def pending(self) -> dict | None:
        """The decision the engine is waiting for (a JSON-serialisable dict) or None."""
        return copy.deepcopy(self.state.pending)

    @property
    def result(self) -> dict | None:
        return copy.deepcopy(self.state.result)

    @property
    def history(self) -> list[str]:
        """Labels of the operations that can be undone, oldest first."""
        return [label for _, _, label in self._past]

    def can_undo(self) -> bool:
        return bool(self._past)

    def can_redo(self) -> bool:
        return bool(self._future)

    # --- transactions -----------------------------------------------------------------
    def _run(self, label: str, fn: Callable[[Ctx], None]) -> list[Event]:
        before = _freeze(self.state)
        ctx = Ctx(self.state)
        try:
            fn(ctx)
            ctx.flush()
        except BaseException:
            self.state = _thaw(before)             # the state is unchanged
            raise
        self._past.append((before, len(self.events), label))
        self._future.clear()
        self.events.extend(ctx.events)
        return ctx.events

    def undo(self, n: int = 1) -> None:
        """Go back ``n`` operations (steps, decisions, actions)."""
        if n < 1 or n > len(self._past):
            raise IllegalAction(f"non si può annullare {n} operazioni (disponibili: {len(self._past)})")
        for _ in range(n):
            before, n_events, label = self._past.pop()
            self._future.append((_freeze(self.state), self.events[n_events:], label))
            del self.events[n_events:]
            self.state = _thaw(before)

    def redo(self, n: int = 1) -> None:
        if n < 1 or n > len(self._future):
            raise IllegalAction(f"non si può ripetere {n} operazioni (disponibili: {len(self._future)})")
        for _ in range(n):
            after, events, label = self._future.pop()
            self._past.append((_freeze(self.state), len(self.events), label))
            self.events.extend(events)
            self.state = _thaw(after)

    def undo_to(self, index: int) -> None:
        """Return to the state after the first ``index`` operations of the history."""
        if not 0 <= index <= len(self._past):
            raise IllegalAction(f"punto della storia inesistente: {index}")
        if index < len(self._past):
            self.undo(len(self._past) - index)

    # --- stepping ----------------------------------------------------------------------
    def _guard(self) -> None:
        s = self.state
        if s.result is not None:
            raise IllegalAction("la partita è finita", s.result.get("rules", []))
        if s.pending is not None:
            raise IllegalAction(f"c'è una decisione in sospeso ({s.pending.get('kind')}): "
                                "rispondi prima con decide()", s.pending.get("rules", []))

    def step(self) -> list[Event]:
        """All players pass priority: resolve the top of the stack, or go to the next
        step or phase and perform what the rules do there (see docs/engine.md)."""
        self._guard()
        return self._run(f"passo da {self.state.turn.step}", procedure.step)

    def step_to(self, target: str, max_steps: int = 500, defaults: bool = False,
                turn_end: bool = False) -> list[Event]:
        """Step until the turn is at ``target`` (at least one step), a decision is
        pending (unless ``defaults``: then take each decision's default) or the game ends.

        With ``turn_end``, a turn that goes past ``target`` without entering it (no attackers:
        no combat damage step, 508.8; the starting player's draw step, 103.8a) stops at its
        cleanup step instead of running on into later turns, with a ``step_to_stop`` event
        that says why.  Without it the old behaviour stays, so saved games replay alike."""
        if target not in STEP_NAMES:
            raise IllegalAction(f'sottofase sconosciuta "{target}" (ammesse: {", ".join(STEP_NAMES)})')
        goal = StepTarget(target)
        out: list[Event] = []
        for _ in range(max_steps):
            before = (self.state.turn.number, self.state.turn.step)
            new = self.step()
            s = self.state
            while defaults and s.pending is not None:
                new += self.decide()
                s = self.state
            out += new
            if turn_end:
                goal.observe(before, s, new)
            if s.pending is not None or s.result is not None or goal.reached(s):
                return out
            if goal.stop_at_turn_end(s):
                why = f" ({', '.join(goal.rules)})" if goal.rules else ""
                ev = Event(goal.rules, f"Avanza fino alla {step_def(target).label}: in questo turno non c'è{why}, "
                                       "quindi ci si ferma alla fine del turno invece di proseguire nei turni "
                                       "successivi.", "step_to_stop", turn=s.turn.number, step=s.turn.step)
                self.events.append(ev)
                return out + [ev]
        return out

    def next_turn(self, defaults: bool = False) -> list[Event]:
        """Step until the next turn's untap step has been performed."""
        start = self.state.turn.number
        out: list[Event] = []
        for _ in range(MAX_STEPS_PER_CALL):
            out += self.step()
            s = self.state
            while defaults and s.pending is not None:
                out += self.decide()
                s = self.state
            if s.pending is not None or s.result is not None or s.turn.number > start:
                return out
        return out

    def decide(self, answer: Any = None) -> list[Event]:
        """Answer the pending decision (None: take its default) and continue."""
        s = self.state
        if s.pending is None:
            raise IllegalAction("nessuna decisione in sospeso")
        pending = s.pending
        if not json_depth_ok(answer, MAX_PARAM_DEPTH):
            raise IllegalAction("risposta troppo annidata", pending.get("rules", []))
        validator = DECISIONS[pending["kind"]]
        try:
            norm = validator(s, pending, pending["default"] if answer is None else answer)
        except IllegalAction:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise IllegalAction("risposta non valida per questa decisione: "
                                f"usa la forma della risposta predefinita ({pending['kind']})",
                                pending.get("rules", [])) from None

        def go(ctx: Ctx) -> None:
            ctx.s.answers[pending["id"]] = norm
            ctx.s.pending = None
            procedure.run(ctx)
        return self._run(f"decisione {pending['kind']}", go)

    def act(self, name: str, /, **params: Any) -> list[Event]:
        """A judge action outside the turn structure (see ``ACTIONS`` and docs/engine.md).

        ``concede`` is allowed while a decision is pending (104.3a): the interrupted
        procedure then starts again, asking every choice of it anew."""
        interrupting = self.state.pending is not None and name in ANYTIME_ACTIONS
        if not interrupting:
            self._guard()
        elif self.state.result is not None:
            raise IllegalAction("la partita è finita", self.state.result.get("rules", []))
        entry = ACTIONS.get(name) if isinstance(name, str) else None
        if entry is None:
            raise IllegalAction(f'azione sconosciuta "{name}" (ammesse: {", ".join(sorted(ACTIONS))})')
        if not json_depth_ok(params, MAX_PARAM_DEPTH):
            raise IllegalAction(f"parametri troppo annidati per {name} "
                                f"(al massimo {MAX_PARAM_DEPTH} livelli)")
        check_sba = params.pop("check_sba", True)
        _check_params(name, entry.func, params)

        def go(ctx: Ctx) -> None:
            s = ctx.s
            resumed = list(s.procedure)
            at, resolving = _resolve.resolving(resumed) or (0, None)
            item = next((i for i in s.stack if i.id == resolving), None)
            if interrupting:
                s.pending, s.procedure = None, []
                s.answers.clear()
            ctx.replay_ok = False
            mark = ctx.savepoint() if replacement_find.may_choose(s) else None
            try:
                tasks = entry.func(ctx, **params) or []
            except NeedDecision as stop:
                if not (stop.replay and mark is not None) or interrupting:
                    raise
                # A replacement effect's choice halfway through (616.1): the action runs again,
                # as the procedure's first task, once it is answered.
                ctx.rollback(mark)
                again = json.dumps({"name": name, "params": params}, ensure_ascii=False)
                sba = ["sba_action"] if check_sba and s.turn.step != "untap" else []
                s.procedure = [f"act:{again}", *sba, *resumed]
                return
            s.answers.pop(replacement.SEQ_KEY, None)
            if s.result is not None:
                return
            if item is not None and not any(i.id == item.id for i in s.stack):
                resumed = procedure.resolving_left(ctx, item, resumed[:at] + resumed[at + 1:],
                                                   interrupting)
            if check_sba and s.turn.step != "untap" and not interrupting:
                tasks = tasks + ["sba_action"]
            # The action's own tasks first (choices it needs, then state-based actions
            # and triggers, 704.3); then whatever procedure was under way.
            s.procedure = tasks
            procedure.run(ctx)
            if s.result is None:
                s.procedure += resumed
                if interrupting and s.pending is None:
                    procedure.run(ctx)              # the interrupted choices, asked anew
        return self._run(f"azione {name}", go)


def _check_params(name: str, func: Callable, params: dict) -> None:
    """The parameter names of a judge action, checked with an Italian message."""
    sig = inspect.signature(func)
    known = list(sig.parameters)[1:]
    for k in params:
        if k not in known:
            raise IllegalAction(f'parametro sconosciuto "{str(k)[:40]}" per {name} '
                                f'(ammessi: {", ".join(known) or "nessuno"})')
    missing = [k for k in known if sig.parameters[k].default is inspect.Parameter.empty
               and k not in params]
    if missing:
        raise IllegalAction(f"mancano parametri obbligatori per {name}: {', '.join(missing)}")


def _freeze(state: State) -> bytes:
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def _thaw(data: bytes) -> State:
    return pickle.loads(data)


class _SnapshotLoader(pickle.Unpickler):
    """Unpickles states only: the engine's data classes and nothing else."""

    ALLOWED = {"judge.engine.state": {"State", "Player", "Card", "Permanent", "Turn", "Combat",
                                      "StackItem", "Effect"}}

    def find_class(self, module: str, name: str):
        if name in self.ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} non ammesso in un'istantanea")


def dumps_events(events: list[Event]) -> str:
    return json.dumps([e.to_dict() for e in events], ensure_ascii=False, indent=2)
