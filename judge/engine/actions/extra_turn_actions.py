"""The judge action that gives a player extra turns (500.7): they are added directly after
this turn, the most recently created first.  The turn structure takes them (``play.procedure``),
and an effect that skips a turn (614.10) may skip one of them like any other."""

from __future__ import annotations

from judge.engine.actions.general import int_arg, player_arg
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
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
