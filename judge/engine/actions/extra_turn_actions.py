"""The judge actions that add turns, phases and steps: extra turns (500.7) are added directly
after this turn, the most recently created first, and the turn structure takes them
(``play.procedure``); an effect that adds phases or steps to this turn (500.8–500.10, 500.10a)
changes its list of phases as it resolves (``mechanics.adding``).  Effects that skip (614.10)
skip the added ones like any other."""

from __future__ import annotations

from judge.engine.actions.general import int_arg, player_arg
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction, effect_record, invalid_effect
from judge.engine.mechanics import adding, addition_schema
from judge.engine.registry import action

MAX_AT_ONCE = 20


@action("add_extra_turn", cites=("500.7",),
        summary="Un giocatore prende N turni extra dopo questo (il più recente si gioca per "
                "primo)")
def add_extra_turn(ctx: Ctx, player: str, count: int = 1) -> None:
    pl = player_arg(ctx, player)
    n = int_arg(count, "turni extra", 1)
    if n > MAX_AT_ONCE:
        raise IllegalAction(f"turni extra: al massimo {MAX_AT_ONCE} alla volta", ["500.7"])
    t = ctx.s.turn
    t.extra_turns[0:0] = [pl.id] * n
    who = ", poi ".join(ctx.s.name_of(p) for p in t.extra_turns)
    ctx.emit(["500.7"], f"{pl.name} prende {'un turno extra' if n == 1 else f'{n} turni extra'} "
             f"dopo questo turno: i turni extra aggiunti per ultimi si giocano per primi. "
             f"Turni extra in attesa: {who}.", "extra_turn", players=[pl.id])


@action("add_extra_phases", cites=("500.8", "500.9", "500.10", "500.10a", "500.11"),
        summary="Fasi o sottofasi aggiuntive in questo turno («dopo questa fase principale c'è "
                "una fase di combattimento aggiuntiva…»), come nel formato degli scenari")
def add_extra_phases(ctx: Ctx, effect: dict) -> None:
    effect = effect_record(effect, '{"controller": "p1", "adds": {"phases": ["combat", "postcombat_main"]}, '
                                   '"after": {"phase": "main"}}', "500.8")
    rec, errors = addition_schema.parse_one({"adds": None, **effect})
    if rec is not None and rec["controller"] not in {p.id for p in ctx.s.players}:
        errors = [("effect.controller", f'giocatore sconosciuto "{rec["controller"][:40]}"')]
    if errors or rec is None:
        raise invalid_effect(errors, "500.8")
    adding.add(ctx, rec)
