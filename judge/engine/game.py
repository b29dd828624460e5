"""The Game: load a scenario, step it, answer decisions, act, undo and redo.

Every public operation is a transaction: it either completes and is added to
the history (so it can be undone), or raises and leaves the state unchanged.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
from pathlib import Path
from typing import Any, Callable

from judge.engine import chars, combat, scenario, state_actions, turn_actions  # noqa: F401
from judge.engine import actions as _actions  # noqa: F401  (registers judge actions)
from judge.engine.context import Ctx, NeedDecision
from judge.engine.errors import IllegalAction
from judge.engine.events import Event
from judge.engine.registry import ACTIONS, DECISIONS, TBAS
from judge.engine.state import State
from judge.engine.steps import STEP_NAMES, following, step_def

MAX_STEPS_PER_CALL = 10_000


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
        return cls(scenario.load_file(path))

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        return cls(scenario.parse(data))

    @classmethod
    def from_json(cls, text: str) -> "Game":
        return cls(scenario.loads(text))

    @classmethod
    def new(cls, variant: str = "two-player", players: int | None = None) -> "Game":
        return cls.from_dict(scenario.new_scenario(variant, players))

    def to_dict(self) -> dict:
        return scenario.to_dict(self.state)

    def to_json(self) -> str:
        return scenario.dumps(self.state)

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
        return self._run(f"passo da {self.state.turn.step}", self._step)

    def step_to(self, target: str, max_steps: int = 500, defaults: bool = False) -> list[Event]:
        """Step until the turn is at ``target`` (at least one step), a decision is
        pending (unless ``defaults``: then take each decision's default) or the game ends."""
        if target not in STEP_NAMES:
            raise IllegalAction(f'sottofase sconosciuta "{target}" (ammesse: {", ".join(STEP_NAMES)})')
        out: list[Event] = []
        for _ in range(max_steps):
            out += self.step()
            s = self.state
            while defaults and s.pending is not None:
                out += self.decide()
                s = self.state
            if s.pending is not None or s.result is not None or (s.turn.step == target and not s.stack):
                return out
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
        validator = DECISIONS[pending["kind"]]
        norm = validator(s, pending, pending["default"] if answer is None else answer)

        def go(ctx: Ctx) -> None:
            ctx.s.answers[pending["id"]] = norm
            ctx.s.pending = None
            self._continue(ctx)
        return self._run(f"decisione {pending['kind']}", go)

    def act(self, name: str, /, **params: Any) -> list[Event]:
        """A judge action outside the turn structure (see ``ACTIONS`` and docs/engine.md)."""
        self._guard()
        entry = ACTIONS.get(name)
        if entry is None:
            raise IllegalAction(f'azione sconosciuta "{name}" (ammesse: {", ".join(sorted(ACTIONS))})')
        check_sba = params.pop("check_sba", True)

        def go(ctx: Ctx) -> None:
            try:
                entry.func(ctx, **params)
            except TypeError as e:
                raise IllegalAction(f"parametri non validi per {name}: {e}") from None
            if check_sba and ctx.s.turn.step != "untap" and ctx.s.result is None:
                self._sba_after_action(ctx)
        return self._run(f"azione {name}", go)

    # --- internals -----------------------------------------------------------------------
    def _sba_after_action(self, ctx: Ctx) -> None:
        s = ctx.s
        s.procedure = ["sba_action"]
        self._continue(ctx)

    def _continue(self, ctx: Ctx) -> None:
        s = ctx.s
        while s.procedure and s.result is None:
            task = s.procedure[0]
            try:
                self._task(ctx, task)
            except NeedDecision:
                return
            s.procedure.pop(0)
            s.answers.clear()
        if s.result is not None:
            s.procedure = []
            s.pending = None
            s.answers.clear()

    def _task(self, ctx: Ctx, task: str) -> None:
        s = ctx.s
        if task.startswith("tba:"):
            TBAS[task[4:]].func(ctx)
        elif task == "sba":
            state_actions.check_and_perform(ctx)
        elif task == "sba_action":
            if state_actions.check_and_perform(ctx) and s.turn.step == "cleanup":
                s.turn.cleanup_again = True
                ctx.emit(["514.3a"], "Sono state eseguite azioni di stato nella sottofase di "
                         "cancellazione: il giocatore attivo riceve priorità e seguirà un'altra "
                         "sottofase di cancellazione.", "priority", players=[s.turn.active_player])
        elif task == "priority":
            sd = step_def(s.turn.step)
            ap = s.player(s.turn.active_player)
            ctx.emit([sd.priority, "117.3a"], f"{ap.name} riceve priorità.", "priority",
                     players=[ap.id])
        elif task == "priority_after_resolve":
            ap = s.player(s.turn.active_player)
            ctx.emit(["117.3b"], f"{ap.name} riceve priorità dopo la risoluzione.", "priority",
                     players=[ap.id])
        elif task == "no_priority":
            ctx.emit(["502.4"], "Nessun giocatore riceve priorità durante la sottofase di STAP.",
                     "no_priority")
        elif task == "cleanup_check":
            if state_actions.check_and_perform(ctx):
                s.turn.cleanup_again = True
                ctx.emit(["514.3a"], "Sono state eseguite azioni di stato: il giocatore attivo "
                         "riceve priorità; dopo, inizierà un'altra sottofase di cancellazione.",
                         "priority", players=[s.turn.active_player])
            else:
                ctx.emit(["514.3"], "Nessun giocatore riceve priorità: la sottofase di "
                         "cancellazione finisce.", "no_priority")
        else:
            raise IllegalAction(f"compito sconosciuto nella procedura: {task}")

    def _step(self, ctx: Ctx) -> None:
        s = ctx.s
        if s.procedure:                     # an interrupted procedure (no pending): finish it
            self._continue(ctx)
            return
        if s.stack:
            self._resolve_top(ctx)
            return
        cur = s.turn.step
        TBAS["703.4q"].func(ctx)            # 500.5: mana empties as the step ends
        if cur == "end_of_combat":
            self._end_combat(ctx)
        nxt = self._next_step(ctx, cur)
        self._begin(ctx, nxt)
        self._continue(ctx)

    def _resolve_top(self, ctx: Ctx) -> None:
        s = ctx.s
        item = s.stack.pop()
        ctl = s.name_of(item.controller)
        if item.kind == "spell" and item.card is not None:
            card = item.card
            if {"creature", "land", "artifact", "enchantment", "planeswalker", "battle"} & set(card.types):
                from judge.engine import ops
                perm = ops.put(ctx, card, "battlefield", controller=item.controller)
                ctx.emit(["405.5", "608.3a"], f"{card.name} si risolve ed entra nel campo di "
                         f"battaglia sotto il controllo di {ctl}.", "resolve",
                         objects=[perm.id], players=[item.controller])
            else:
                from judge.engine import ops
                ops.put(ctx, card, "graveyard")
                ctx.emit(["405.5", "608.2n"], f"{card.name} si risolve (il giudice ne applica "
                         "l'effetto) e va nel cimitero del suo proprietario.", "resolve",
                         objects=[card.id], players=[item.controller])
        else:
            ctx.emit(["405.5", "608.2n"], f"{item.text or 'L’abilità'} si risolve (il giudice ne "
                     "applica l'effetto) e cessa di esistere.", "resolve",
                     objects=[item.id] + ([item.source] if item.source else []),
                     players=[item.controller])
        s.procedure = ["sba", "priority_after_resolve"]
        self._continue(ctx)

    def _end_combat(self, ctx: Ctx) -> None:
        s = ctx.s
        if s.combat is not None and (s.combat.attackers or s.combat.blockers):
            ctx.emit(["511.3"], "Finisce la sottofase di fine combattimento: tutte le creature "
                     "sono rimosse dal combattimento.", "end_combat")
        s.combat = None

    def _skip_first_draw(self, s: State) -> str | None:
        if s.turn.number != 1:
            return None
        if s.variant == "two-headed-giant":
            return "103.8b"
        if len(s.players) == 2:
            return "103.8a"
        return None

    def _next_step(self, ctx: Ctx, cur: str) -> str:
        s = ctx.s
        if cur == "cleanup":
            if s.turn.cleanup_again:
                s.turn.cleanup_again = False
                ctx.emit(["514.3a"], "Tutti i giocatori passano con la pila vuota: inizia "
                         "un'altra sottofase di cancellazione.", "skip_step")
                return "cleanup"
            self._new_turn(ctx)
            return "untap"
        if cur == "upkeep":
            rule = self._skip_first_draw(s)
            if rule:
                ap = s.player(s.turn.active_player)
                ctx.emit([rule], f"{ap.name} gioca per primo e salta la sottofase di acquisizione "
                         "del suo primo turno.", "skip_step", players=[ap.id])
                return "precombat_main"
            return "draw"
        if cur in ("beginning_of_combat",):
            return "declare_attackers"
        if cur in ("declare_attackers", "declare_blockers"):
            if s.combat is None or not s.combat.attackers:
                ctx.emit(["508.8"], "Nessuna creatura attacca: si saltano le sottofasi di "
                         "dichiarazione dei bloccanti e del danno da combattimento.", "skip_step")
                return "end_of_combat"
            if cur == "declare_attackers":
                return "declare_blockers"
            if combat.has_first_strike_step(s):
                s.combat.first_strikers = [p.id for p in combat.in_combat_creatures(s)
                                           if chars.has_kw(p, "first strike")
                                           or chars.has_kw(p, "double strike")]
                return "first_strike_damage"
            s.combat.first_strikers = None
            return "combat_damage"
        if cur == "first_strike_damage":
            return "combat_damage"
        if cur == "combat_damage":
            return "end_of_combat"
        nxt = following(cur)
        assert nxt is not None
        return nxt

    def _new_turn(self, ctx: Ctx) -> None:
        s = ctx.s
        t = s.turn
        t.last_turn = {"active_player": t.active_player, "spells_cast": dict(t.spells_cast)}
        t.spells_cast = {}
        t.number += 1
        t.active_player = chars.next_active_player(s)
        t.step = "untap"
        s.combat = None
        act = chars.active_players(s)
        names = " e ".join(p.name for p in act)
        ctx.emit(["500.1"], f"Inizia il turno {t.number}: giocatore attivo {names}.", "turn",
                 players=[p.id for p in act])
        ids = {p.id for p in act}
        sick = [p for p in s.battlefield if p.controller in ids and p.summoning_sick]
        for p in sick:
            p.summoning_sick = False
        if sick:
            ctx.emit(["302.6"], f"{names} controlla ininterrottamente dall'inizio del turno: "
                     f"{', '.join(p.name for p in sick)} possono attaccare.", "summoning_sickness",
                     objects=[p.id for p in sick], players=list(ids))

    def _begin(self, ctx: Ctx, name: str) -> None:
        s = ctx.s
        s.turn.step = name
        sd = step_def(name)
        ap = s.player(s.turn.active_player)
        ctx.emit([sd.order_rule], f"Inizia la {sd.label} (turno {s.turn.number}, "
                 f"giocatore attivo {ap.name}).", "step", players=[ap.id])
        procedure = [f"tba:{n}" for n in sd.tbas]
        if name == "untap":
            procedure.append("no_priority")
        elif name == "cleanup":
            procedure.append("cleanup_check")
        else:
            procedure += ["sba", "priority"]
        s.procedure = procedure


def _freeze(state: State) -> bytes:
    return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)


def _thaw(data: bytes) -> State:
    return pickle.loads(data)


class _SnapshotLoader(pickle.Unpickler):
    """Unpickles states only: the engine's data classes and nothing else."""

    ALLOWED = {"judge.engine.state": {"State", "Player", "Card", "Permanent", "Turn", "Combat",
                                      "StackItem"}}

    def find_class(self, module: str, name: str):
        if name in self.ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} non ammesso in un'istantanea")


def dumps_events(events: list[Event]) -> str:
    return json.dumps([e.to_dict() for e in events], ensure_ascii=False, indent=2)
