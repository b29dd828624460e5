"""The turn's procedure: how the game advances within a step and from one step to the next.

``State.procedure`` lists what is left to do before a player can act (``registry.TASKS``:
turn-based actions, state-based actions and triggers, priority, a resolution); :func:`run`
performs it in order until it is done, a decision is pending or the game ends.  When all
players pass (:func:`step`), waiting abilities go on the stack (603.3), or the top object
resolves (405.5), or the step ends and the next one begins (500, 514.3a).

``Game`` (game.py) wraps these in transactions; they change the ``State`` in place.
"""

from __future__ import annotations

import json

from judge.engine import seats
from judge.engine.actions import general as _actions
from judge.engine.actions import permanent_actions
from judge.engine.characteristics import derived
from judge.engine.combat import attackers, combat_triggers
from judge.engine.context import Ctx, NeedDecision
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import replacement_find
from judge.engine.mechanics import resolve as _resolve
from judge.engine.mechanics import skipping, state_actions, step_triggers, triggers, turn_plan
from judge.engine.mechanics.turn_plan import Part
from judge.engine.mechanics.skip_schema import SKIPPABLE_STEPS
from judge.engine.registry import ACTIONS, TBAS
from judge.engine.state import StackItem
from judge.engine.steps import PHASE_LABELS, following, last_of_phase, step_def

MAX_SETTLE_ROUNDS = 1000      # state-based actions and triggers before priority (704.3)
MAX_SKIPPED = 200             # turns, phases and steps skipped in a row (614.10) before 104.4b


def run(ctx: Ctx) -> None:
    """Perform the procedure's tasks in order until none is left, a decision is pending
    (the task stays, to run again once answered) or the game ends."""
    s = ctx.s
    while s.procedure and s.result is None:
        task = s.procedure[0]
        # A replacement effect's choice may come halfway through a task (616.1): then the
        # task goes back to where it started, to run again once the choice is made.
        ctx.replay_ok = False
        mark = ctx.savepoint() if replacement_find.may_choose(s) else None
        try:
            _task(ctx, task)
        except NeedDecision as stop:
            if stop.replay and mark is not None:
                ctx.rollback(mark)
            return
        s.procedure.pop(0)
        s.answers.clear()
    if s.result is not None:
        s.procedure = []
        s.pending = None
        s.answers.clear()


def step(ctx: Ctx) -> None:
    """All players pass priority in succession (see ``Game.step``)."""
    s = ctx.s
    if s.procedure:                     # an interrupted procedure (no pending): finish it
        run(ctx)
        return
    if s.waiting_triggers and s.turn.step != "untap":
        # Abilities that triggered go on the stack before anyone can pass (603.3).
        s.procedure = ["sba", "priority"]
        run(ctx)
        return
    if s.stack:
        s.procedure = [_resolve.task(s.stack[-1].id), "sba", "priority_after_resolve"]
        run(ctx)
        return
    # The step ends and the next begins: a task, so that a choice among skip effects (616.1)
    # asked on the way goes back to the end of this step once it is answered.
    s.procedure = ["advance"]
    run(ctx)


def resolving_left(ctx: Ctx, item: StackItem, rest: list[str],
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


def _settle(ctx: Ctx) -> bool:
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


def _priority(ctx: Ctx, rules: list[str], text: str) -> None:
    """The active player receives priority; without one (they left the game during
    their turn), the next player in turn order does (800.4j).

    In the cleanup step, players who get priority, whatever the path (state-based
    actions or triggers there, abilities waiting, an object on the stack, a resolution
    stopped by a player leaving), get another cleanup step once the stack is empty and
    all pass in succession (514.3a); the first such priority notes it and says so."""
    s = ctx.s
    act = seats.active_players(s)
    heir = None if act else next(iter(seats.turn_order_from(s, s.turn.active_player)), None)
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


def _task(ctx: Ctx, task: str) -> None:
    s = ctx.s
    name, _, arg = task.partition(":")
    if name == "tba":
        TBAS[arg].func(ctx)
    elif name == "sba":
        _settle(ctx)
    elif name in ("sba_action", "cleanup_check"):
        if _settle(ctx) and s.turn.step == "cleanup":
            # 514.3a: actions performed or abilities put on the stack in the cleanup step
            # (_priority notes that another cleanup step follows)
            _priority(ctx, ["514.3a"], "riceve priorità (azioni di stato o abilità "
                      "innescate nella sottofase di cancellazione)")
        elif name == "cleanup_check":
            ctx.emit(["514.3"], "Nessun giocatore riceve priorità: la sottofase di "
                     "cancellazione finisce.", "no_priority")
    elif name == "priority":
        rule = step_def(s.turn.step).priority
        # No step rule gives priority in the cleanup step: only 514.3a does (and
        # _priority notes that another cleanup step follows).
        _priority(ctx, [rule, "117.3a"] if rule else ["514.3a"], "riceve priorità")
    elif name == "priority_after_resolve":
        _priority(ctx, ["117.3b"], "riceve priorità dopo la risoluzione")
    elif name == "no_priority":
        ctx.emit(["502.4"], "Nessun giocatore riceve priorità durante la sottofase di STAP.",
                 "no_priority")
    elif name == "step_triggers":
        triggers.beginning_of_step(ctx)
        step_triggers.beginning(ctx)                        # 603.2b, 603.7
        combat_triggers.end_of_combat(ctx)                  # 511.2
    elif name == "advance":
        s.procedure[1:1] = _advance(ctx)
    elif name == "after_skip":
        s.procedure[1:1] = _after_skip(ctx)
    elif name == _resolve.TASK:
        _resolve.resolve(ctx, arg)
    elif name == "each_discard":
        _actions.each_player_discards_now(ctx, int(arg))
    elif name == "act":
        # A judge action that stopped on a replacement effect's choice, run again (Game.act)
        act = json.loads(arg)
        tasks = ACTIONS[act["name"]].func(ctx, **act["params"]) or []
        s.procedure[1:1] = tasks
    else:
        raise IllegalAction(f"compito sconosciuto nella procedura: {task}")


def _advance(ctx: Ctx) -> list[str]:
    """The current step ends (500.5) and the next one that is not skipped begins (500.11,
    614.10: a turn, then a phase, then a step is asked about as it is about to begin): the
    tasks it starts with.  A turn with phases or steps added (500.8–500.10) walks its list
    (``turn_plan``)."""
    s = ctx.s
    cur = s.turn.step
    TBAS["703.4q"].func(ctx)            # 500.5: mana empties as the step ends
    if cur == "end_of_combat":
        _end_combat(ctx)
    turn_start = len(ctx.events)
    part = _following(ctx, Part(cur, at=(s.turn.phase_at, s.turn.step_at)))
    for _ in range(MAX_SKIPPED):
        ap = s.turn.active_player
        if part.begins and skipping.skipped(ctx, "phase", ap, part.begins):
            part = _following(ctx, part, whole_phase=True)
        elif part.step in SKIPPABLE_STEPS + ("first_strike_damage",) and \
                skipping.skipped(ctx, "step", ap, part.step):
            part = _following(ctx, part)
        else:
            tasks = _begin(ctx, part)
            _under_the_step_that_begins(ctx, turn_start)
            return tasks
    raise IllegalAction("ogni fase e sottofase viene saltata: un ciclo di azioni obbligatorie "
                        "senza fine (con 104.4b la partita sarebbe patta); il motore si ferma qui",
                        ["104.4b", "614.10"])


def _under_the_step_that_begins(ctx: Ctx, start: int) -> None:
    """What the log said since a new turn began (the turn, the steps and phases skipped in it)
    belongs under the first step that happens in it, not under an untap step that was skipped."""
    s = ctx.s
    began = next((i for i in range(start, len(ctx.events)) if ctx.events[i].kind == "turn"),
                 None)
    if began is not None:
        for e in ctx.events[began:]:
            e.step = s.turn.step


def _following(ctx: Ctx, part: Part, whole_phase: bool = False) -> Part:
    """The step after ``part`` (begun, or skipped; ``whole_phase``: its phase was skipped)."""
    s = ctx.s
    if s.turn.phases is not None:
        return turn_plan.following(ctx, part, whole_phase, _next_step, _first_draw_skipped)
    prev = last_of_phase(step_def(part.step).phase) if whole_phase else part.step
    if prev == "end_of_combat":
        s.combat = None                 # the combat phase is over (500.11: as if it didn't exist)
    nxt = _next_step(ctx, prev)
    begins = (prev == "cleanup" and nxt == "untap") or step_def(prev).phase != step_def(nxt).phase
    return Part(nxt, begins=step_def(nxt).phase if begins else None)


def _after_skip(ctx: Ctx) -> list[str]:
    """614.10b: what a skip effect does after skipping, as the first thing of the step that
    has just begun (the next one to actually occur).  An action that can't be done now is
    said in the log, and the game goes on."""
    s = ctx.s
    todo = s.turn.after_skip[0]
    ctx.emit(["614.10b"], f"Come prima cosa della {step_def(s.turn.step).label}: "
             f"{s.name_of(todo['player'])} ha saltato {todo['skipped']} per {todo['by']}, che "
             f"poi fa un'altra azione ({todo['act']}).", "after_skip", players=[todo["player"]])
    try:
        tasks = ACTIONS[todo["act"]].func(ctx, **todo["params"]) or []
    except IllegalAction as e:
        ctx.emit(["614.10b"], f"L'azione non si può fare: {e}.", "note")
        tasks = []
    s.turn.after_skip.pop(0)
    return tasks


def _end_combat(ctx: Ctx) -> None:
    s = ctx.s
    if s.combat is not None and (s.combat.attackers or s.combat.blockers):
        ctx.emit(["511.3"], "Finisce la sottofase di fine combattimento: tutte le creature "
                 "sono rimosse dal combattimento.", "end_combat")
    s.combat = None


def _first_draw_skipped(ctx: Ctx) -> bool:
    """The player who plays first skips the draw step of their first turn (103.8a, 103.8b)."""
    s = ctx.s
    rule = None
    if s.turn.number == 1:
        rule = ("103.8b" if s.variant == "two-headed-giant" else
                "103.8a" if len(s.players) == 2 else None)
    if rule:
        ap = s.player(s.turn.active_player)
        ctx.emit([rule], f"{ap.name} gioca per primo e salta la sottofase di acquisizione "
                 "del suo primo turno.", "skip_step", players=[ap.id])
    return rule is not None


def _next_step(ctx: Ctx, cur: str) -> str:
    s = ctx.s
    if cur == "cleanup":
        if s.turn.cleanup_again:
            s.turn.cleanup_again = False
            ctx.emit(["514.3a"], "Tutti i giocatori passano con la pila vuota: inizia "
                     "un'altra sottofase di cancellazione.", "skip_step")
            return "cleanup"
        _new_turn(ctx)
        return "untap"
    if cur == "upkeep":
        return "precombat_main" if _first_draw_skipped(ctx) else "draw"
    if cur in ("beginning_of_combat",):
        return "declare_attackers"
    if cur in ("declare_attackers", "declare_blockers"):
        if s.combat is None or not s.combat.attackers:
            ctx.emit(["508.8"], "Nessuna creatura attacca: si saltano le sottofasi di "
                     "dichiarazione dei bloccanti e del danno da combattimento.", "skip_step")
            return "end_of_combat"
        if cur == "declare_attackers":
            return "declare_blockers"
        if attackers.has_first_strike_step(s):
            s.combat.first_strikers = [p.id for p in attackers.in_combat_creatures(s)
                                       if derived.has_kw(s, p, "first strike")
                                       or derived.has_kw(s, p, "double strike")]
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


def _next_turn(ctx: Ctx) -> str:
    """Whose turn comes next: an extra turn first (500.7), else the next in turn order from
    the seat of the last turn that was not extra; a turn an effect skips is passed over
    (614.10)."""
    s = ctx.s
    t = s.turn
    base = t.extra_after or t.active_player
    for _ in range(MAX_SKIPPED):
        extra = bool(t.extra_turns)
        if extra:
            pid, t.extra_after = t.extra_turns.pop(0), base
        else:
            pid = base = seats.next_active_player(s, base)
            t.extra_after = None
        if s.player(pid).lost:
            continue                    # 800.4a: an extra turn of a player who left the game
        if not skipping.skipped(ctx, "turn", pid, extra_turn=extra):
            return pid
    raise IllegalAction("ogni turno viene saltato: un ciclo di azioni obbligatorie senza fine "
                        "(con 104.4b la partita sarebbe patta); il motore si ferma qui",
                        ["104.4b", "614.10"])


def _new_turn(ctx: Ctx) -> None:
    s = ctx.s
    t = s.turn
    t.last_turn = {"active_player": t.active_player, "spells_cast": dict(t.spells_cast)}
    t.spells_cast = {}
    t.speed_triggered = []
    t.active_player = _next_turn(ctx)
    t.number += 1
    t.step = "untap"
    t.phases, t.phase_at, t.step_at = None, 0, None     # the new turn's own phases (500.1)
    s.combat = None
    s.planar_controller = None          # 901.6: the new active player
    act = seats.active_players(s)
    names = " e ".join(p.name for p in act)
    extra = (f" (un turno extra, dopo il turno di {s.name_of(t.extra_after)})"
             if t.extra_after else "")
    ctx.emit(["500.1", *(["500.7"] if extra else [])], f"Inizia il turno {t.number}: "
             f"giocatore attivo {names}{extra}.", "turn", players=[p.id for p in act])
    permanent_actions.goad_ends(ctx)    # 701.15a
    ids = {p.id for p in act}
    sick = [p for p in s.battlefield if derived.controller(s, p) in ids and p.summoning_sick]
    for p in sick:
        p.summoning_sick = False
    if sick:
        ctx.emit(["302.6"], f"{names} controlla ininterrottamente dall'inizio del turno: "
                 f"{', '.join(p.name for p in sick)} possono attaccare.", "summoning_sickness",
                 objects=[p.id for p in sick], players=list(ids))


def _begin(ctx: Ctx, part: Part) -> list[str]:
    """The step of ``part`` begins: the log, and the tasks it starts with."""
    s = ctx.s
    name = part.step
    s.turn.step = name
    if s.turn.phases is not None and part.at is not None:
        s.turn.phase_at, s.turn.step_at = part.at
    sd = step_def(name)
    ap = s.player(s.turn.active_player)
    if part.without:
        ctx.emit(["500.10", "500.11"], f"La {PHASE_LABELS[part.begins or sd.phase]} creata da "
                 f"{part.by} ha solo le sottofasi aggiunte: si saltano le altre "
                 f"({', '.join(step_def(n).label for n in part.without)}).", "skip_step",
                 players=[ap.id])
    rules = [sd.order_rule, *([part.rule] if part.by and part.rule else [])]
    what, where = turn_plan.beginning_words(part), f"turno {s.turn.number}"
    if ap.lost:
        ctx.emit([*rules, "800.4j"], f"Inizia {what} ({where}): {ap.name} ha lasciato la "
                 "partita e il turno continua senza giocatore attivo.", "step", players=[ap.id])
    else:
        ctx.emit(rules, f"Inizia {what} ({where}, giocatore attivo {ap.name}).", "step",
                 players=[ap.id])
    procedure = ["after_skip"] * len(s.turn.after_skip) + [f"tba:{n}" for n in sd.tbas]
    if name == "untap":
        procedure.append("no_priority")
    elif name == "cleanup":
        procedure.append("cleanup_check")
    else:
        # 117.3a: abilities that trigger as the step begins go on the stack first.
        procedure += ["step_triggers", "sba", "priority"]
    return procedure
