"""Planechase (901): the planar controller, planeswalking (701.31) and 704.6f.

Face-up plane and phenomenon cards sit in their owners' command zones; each
player's planar deck is ``planar_deck`` (top first).  The planar controller is
normally the active player (901.6, ``State.planar_controller`` = None).  When a
phenomenon is face up and none of its abilities is waiting or on the stack, the
planar controller planeswalks (704.6f); turning a phenomenon face up makes its
"when you encounter" ability trigger (312.5).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.context import Ctx
from judge.engine.mechanics import triggers
from judge.engine.mechanics.sba_acts import Act
from judge.engine.registry import sba
from judge.engine.state import Card, State


def face_up(st: State) -> list[Card]:
    return [c for pl in st.players for c in pl.command if {"plane", "phenomenon"} & set(c.types)]


def _describe(st: State, pid: str) -> str:
    away = ", ".join(c.name for c in face_up(st)) or "nessun piano"
    deck = st.player(pid).planar_deck
    top = f"gira a faccia in su {deck[0].name}" if deck else "il suo mazzo planare è vuoto"
    return (f"{st.name_of(pid)} viaggia tra i piani: {away} va a faccia in giù in fondo al mazzo "
            f"planare del proprietario; {top}.")


def planeswalk(ctx: Ctx, pid: str | None, rules: list[str], log: bool = True) -> None:
    """701.31b: every face-up plane and phenomenon goes face down to the bottom of its
    owner's planar deck, then ``pid`` turns the top card of their planar deck face up."""
    st = ctx.s
    if pid is None or st.player(pid).lost:
        return
    pl = st.player(pid)
    away = face_up(st)
    text = _describe(st, pid)
    for c in away:
        owner = st.player(c.owner)
        owner.command.remove(c)
        owner.planar_deck.append(c)
    new = pl.planar_deck.pop(0) if pl.planar_deck else None
    if new is not None:
        pl.command.append(new)
    if log:
        ctx.emit(rules + ["701.31b"], text, "planeswalk",
                 objects=[c.id for c in away] + ([new.id] if new else []), players=[pid])
    if new is not None and "phenomenon" in new.types:
        triggers.queue(ctx, pid, f"Abilità «quando incontri» di {new.name}", ["312.5"],
                       source=new.id)


@sba("704.6f", cites=("312.7", "701.31b", "701.31c", "901.6"),
     summary="Planechase: con un fenomeno a faccia in su e nessuna sua abilità in attesa o in "
             "pila, il controllore planare viaggia tra i piani")
def phenomenon_done(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if not st.options.get("planechase"):
        return []
    pid = seats.planar_controller(st)
    acts = []
    for c in face_up(st):
        if "phenomenon" in c.types and not triggers.is_source_of_pending(st, c.key):
            def apply(ctx: Ctx) -> None:
                planeswalk(ctx, pid, ["704.6f"], log=False)
            acts.append(Act(["704.6f", "701.31b"], f"Il fenomeno {c.name} è a faccia in su e "
                            "nessuna sua abilità è in attesa o in pila: il controllore planare "
                            f"viaggia tra i piani. {_describe(st, pid)}", "planeswalk",
                            objects=[c.id], players=[pid], apply=apply, moves=c.id))
            break                                       # one planeswalk moves every face-up card
    return acts
