"""The Game: load a scenario, step it, answer decisions, act, undo and redo.

Every public operation is a transaction: it either completes and is added to
the history (so it can be undone), or raises and leaves the state unchanged.
"""

from __future__ import annotations

import copy
import inspect
import io
import json
import pickle
from pathlib import Path
from typing import Any, Callable

from judge.engine import chars, combat, combat_damage, scenario, scenario_json, state_actions, templates, triggers, turn_actions  # noqa: F401
from judge.engine import actions as _actions  # noqa: F401  (registers judge actions)
# Modules that register state-based actions, effects, decisions and judge actions:
from judge.engine import battles, designations, dungeon, planechase, sectors  # noqa: F401
from judge.engine import stack_actions, variants  # noqa: F401
from judge.engine import resolve as _resolve
from judge.engine.context import Ctx, NeedDecision
from judge.engine.errors import IllegalAction
from judge.engine.events import Event
from judge.engine.registry import ACTIONS, DECISIONS, TBAS
from judge.engine.state import StackItem, State
from judge.engine.step_target import StepTarget
from judge.engine.steps import STEP_NAMES, following, step_def
from judge.engine.validation import json_depth_ok

MAX_STEPS_PER_CALL = 10_000
MAX_PARAM_DEPTH = 20          # nesting of a judge action's parameters or of an answer
MAX_SETTLE_ROUNDS = 1000      # state-based actions and triggers before priority (704.3)
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
        return cls(scenario.parse(data))

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
            self._continue(ctx)
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
            tasks = entry.func(ctx, **params) or []
            if s.result is not None:
                return
            if item is not None and not any(i.id == item.id for i in s.stack):
                resumed = self._resolving_left(ctx, item, resumed[:at] + resumed[at + 1:],
                                               interrupting)
            if check_sba and s.turn.step != "untap" and not interrupting:
                tasks = tasks + ["sba_action"]
            # The action's own tasks first (choices it needs, then state-based actions
            # and triggers, 704.3); then whatever procedure was under way.
            s.procedure = tasks
            self._continue(ctx)
            if s.result is None:
                s.procedure += resumed
                if interrupting and s.pending is None:
                    self._continue(ctx)             # the interrupted choices, asked anew
        return self._run(f"azione {name}", go)

    # --- internals -----------------------------------------------------------------------
    def _resolving_left(self, ctx: Ctx, item: StackItem, rest: list[str],
                        interrupting: bool) -> list[str]:
        """A judge action took off the stack the object whose resolution is under way: what
        is left of the procedure (``rest``: the procedure without its ``resolve`` task).

        A player leaving the game is the one way this happens at the table (104.3a: a player
        may concede even during a choice): the object went with them, ceasing to exist with
        its controller or leaving the game with its owner (800.4a).  This keeps what the
        engine did before: it does not resolve, the pending choice is dropped (a player who
        left makes no more choices), nothing resolves in its place, and priority follows the
        step's rule instead of 117.3b, since nothing resolved (nobody's in the untap step,
        502.4).  Any other action is refused: the object already started resolving, and
        608.2m has it finish resolving even if it leaves the stack, which the engine cannot
        do without the object.  A judge expects to be told that rather than see a resolution
        silently vanish; they let it finish first (a step), or discard the procedure in the
        builder."""
        s = ctx.s
        if not any(e.kind == "leave_game" for e in ctx.events):
            raise IllegalAction(f"{item.text or item.id} si sta risolvendo: anche se lascia la "
                                "pila finisce di risolversi; completa prima la risoluzione con un "
                                "passo", ["608.2m"])
        dropped = ", e la scelta in sospeso è annullata" if interrupting else ""
        ctx.emit(["800.4a"], f"{item.text or item.id} ha lasciato la pila mentre si risolveva: la "
                 f"risoluzione si interrompe{dropped} e nessun altro oggetto si risolve al suo "
                 "posto.", "resolve_stopped", objects=[item.id], players=[item.controller])
        after = "no_priority" if s.turn.step == "untap" else "priority"
        return [after if t == "priority_after_resolve" else t for t in rest]

    def _settle(self, ctx: Ctx) -> bool:
        """704.3, 117.5: state-based actions until none, then waiting triggered abilities
        onto the stack, repeated until neither happens. True if anything happened."""
        s = ctx.s
        happened = False
        for _ in range(MAX_SETTLE_ROUNDS):
            if s.result is not None:
                break
            if state_actions.check_and_perform(ctx):
                happened = True
            if s.result is not None or not triggers.put_on_stack(ctx):
                break
            happened = True
        return happened

    def _priority(self, ctx: Ctx, rules: list[str], text: str) -> None:
        """The active player receives priority; without one (they left the game during
        their turn), the next player in turn order does (800.4j).

        In the cleanup step, players who get priority, whatever the path (state-based
        actions or triggers there, abilities waiting, an object on the stack, a resolution
        stopped by a player leaving), get another cleanup step once the stack is empty and
        all pass in succession (514.3a); the first such priority notes it and says so."""
        s = ctx.s
        act = chars.active_players(s)
        heir = None if act else next(iter(chars.turn_order_from(s, s.turn.active_player)), None)
        who = act[0] if act else heir
        if who is None:
            return
        again = instead = ""
        if s.turn.step == "cleanup" and not s.turn.cleanup_again:
            s.turn.cleanup_again = True
            rules = rules if "514.3a" in rules else rules + ["514.3a"]
            again = (". Quando la pila sarà vuota e tutti i giocatori passeranno in successione, "
                     "inizierà un'altra sottofase di cancellazione")
        if heir is not None:
            rules = rules + ["800.4j"]
            instead = ", al posto del giocatore attivo che ha lasciato la partita"
        ctx.emit(rules, f"{who.name} {text}{instead}{again}.", "priority", players=[who.id])

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
        name, _, arg = task.partition(":")
        if name == "tba":
            TBAS[arg].func(ctx)
        elif name == "sba":
            self._settle(ctx)
        elif name in ("sba_action", "cleanup_check"):
            if self._settle(ctx) and s.turn.step == "cleanup":
                # 514.3a: actions performed or abilities put on the stack in the cleanup step
                # (_priority notes that another cleanup step follows)
                self._priority(ctx, ["514.3a"], "riceve priorità (azioni di stato o abilità "
                               "innescate nella sottofase di cancellazione)")
            elif name == "cleanup_check":
                ctx.emit(["514.3"], "Nessun giocatore riceve priorità: la sottofase di "
                         "cancellazione finisce.", "no_priority")
        elif name == "priority":
            rule = step_def(s.turn.step).priority
            # No step rule gives priority in the cleanup step: only 514.3a does (and
            # _priority notes that another cleanup step follows).
            self._priority(ctx, [rule, "117.3a"] if rule else ["514.3a"], "riceve priorità")
        elif name == "priority_after_resolve":
            self._priority(ctx, ["117.3b"], "riceve priorità dopo la risoluzione")
        elif name == "no_priority":
            ctx.emit(["502.4"], "Nessun giocatore riceve priorità durante la sottofase di STAP.",
                     "no_priority")
        elif name == "step_triggers":
            triggers.beginning_of_step(ctx)
        elif name == _resolve.TASK:
            _resolve.resolve(ctx, arg)
        elif name == "each_discard":
            _actions.each_player_discards_now(ctx, int(arg))
        else:
            raise IllegalAction(f"compito sconosciuto nella procedura: {task}")

    def _step(self, ctx: Ctx) -> None:
        s = ctx.s
        if s.procedure:                     # an interrupted procedure (no pending): finish it
            self._continue(ctx)
            return
        if s.waiting_triggers and s.turn.step != "untap":
            # Abilities that triggered go on the stack before anyone can pass (603.3).
            s.procedure = ["sba", "priority"]
            self._continue(ctx)
            return
        if s.stack:
            s.procedure = [_resolve.task(s.stack[-1].id), "sba", "priority_after_resolve"]
            self._continue(ctx)
            return
        cur = s.turn.step
        TBAS["703.4q"].func(ctx)            # 500.5: mana empties as the step ends
        if cur == "end_of_combat":
            self._end_combat(ctx)
        nxt = self._next_step(ctx, cur)
        self._begin(ctx, nxt)
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
        t.speed_triggered = []
        t.number += 1
        t.active_player = chars.next_active_player(s)
        t.step = "untap"
        s.combat = None
        s.planar_controller = None          # 901.6: the new active player
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
        if ap.lost:
            ctx.emit([sd.order_rule, "800.4j"], f"Inizia la {sd.label} (turno {s.turn.number}): "
                     f"{ap.name} ha lasciato la partita e il turno continua senza giocatore "
                     "attivo.", "step", players=[ap.id])
        else:
            ctx.emit([sd.order_rule], f"Inizia la {sd.label} (turno {s.turn.number}, "
                     f"giocatore attivo {ap.name}).", "step", players=[ap.id])
        procedure = [f"tba:{n}" for n in sd.tbas]
        if name == "untap":
            procedure.append("no_priority")
        elif name == "cleanup":
            procedure.append("cleanup_check")
        else:
            # 117.3a: abilities that trigger as the step begins go on the stack first.
            procedure += ["step_triggers", "sba", "priority"]
        s.procedure = procedure


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
                                      "StackItem"}}

    def find_class(self, module: str, name: str):
        if name in self.ALLOWED.get(module, ()):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} non ammesso in un'istantanea")


def dumps_events(events: list[Event]) -> str:
    return json.dumps([e.to_dict() for e in events], ensure_ascii=False, indent=2)
