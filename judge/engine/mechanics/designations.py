"""Player designations with triggered abilities of their own: the monarch (725), the
initiative (726) and speed (702.179).

When their abilities trigger is in triggers.py; here is what they do as they
resolve, and speed's state-based action (704.5aa).  How they pass when a player
leaves the game is in leaving.py (725.4, 726.4).
"""

from __future__ import annotations

from judge.engine import terms
from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.mechanics import dungeon, ops
from judge.engine.mechanics.sba_acts import Act, live
from judge.engine.registry import effect, sba
from judge.engine.state import StackItem

ENGINES = terms.italian("start your engines!")


@effect("monarch_draw", cites=("725.2", "121.1"), summary=f"Il monarca {terms.verb('draw')} una carta")
def monarch_draw(ctx: Ctx, item: StackItem, _choice) -> None:
    pl = ctx.s.player(item.controller)
    ops.draw(ctx, pl, ["725.2", "121.1"])


@effect("monarch_steal", cites=("725.2", "725.3"), params=("creature", "player"),
        summary="Il controllore della creatura che ha inflitto danno da combattimento al monarca "
                "diventa il monarca")
def monarch_steal(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    creature = st.live(item.effect["creature"])     # 400.7: not a new object it became
    # "its controller": now, or as it last existed on the battlefield (last known information)
    pid = derived.controller(st, creature) if creature is not None else item.effect["player"]
    pl = st.player(pid)
    if pl.lost:
        ctx.emit(["725.2"], f"{pl.name} ha lasciato la partita e non può diventare il "
                 "monarca.", "monarch", players=[pid])
    elif st.monarch == pid:
        ctx.emit(["725.2"], f"{pl.name} è già il monarca.", "monarch", players=[pid])
    else:
        st.monarch = pid
        ctx.emit(["725.2", "725.3"], f"{pl.name} diventa il monarca.", "monarch", players=[pid])


def _venture_choice(ctx: Ctx, item: StackItem):
    return dungeon.ask_room(ctx, item.controller, item.id, ["726.2", "701.49b", "309.5a"])


@effect("initiative_venture", cites=("726.2", "701.49d", "701.49b", "701.49c", "309.4a",
                                     "309.5a", "309.7"),
        summary="Chi ha preso l'iniziativa (o la ha all'inizio del mantenimento) "
                f"{terms.verb(terms.VENTURE)} Undercity", choose=_venture_choice)
def initiative_venture(ctx: Ctx, item: StackItem, choice) -> None:
    dungeon.venture(ctx, ctx.s.player(item.controller), True, choice=choice, cause=["726.2"])


@effect("initiative_steal", cites=("726.2", "726.3"), params=("player",),
        summary="Il controllore delle creature che hanno inflitto danno da combattimento a chi ha "
                "l'iniziativa prende l'iniziativa")
def initiative_steal(ctx: Ctx, item: StackItem, _choice) -> None:
    from judge.engine.mechanics.triggers import took_initiative
    st = ctx.s
    pl = st.player(item.effect["player"])
    if pl.lost:
        ctx.emit(["726.2"], f"{pl.name} ha lasciato la partita e non può prendere "
                 "l'iniziativa.", "initiative", players=[pl.id])
        return
    st.initiative = pl.id
    ctx.emit(["726.2", "726.3"], f"{pl.name} prende l'iniziativa.", "initiative", players=[pl.id])
    took_initiative(ctx, pl.id)


@effect("speed", cites=("702.179d", "603.4"), summary="La velocità del giocatore aumenta di 1")
def speed_up(ctx: Ctx, item: StackItem, _choice) -> None:
    pl = ctx.s.player(item.controller)
    if pl.speed is None or pl.speed >= 4:
        # 603.4: the intervening "if" is checked again as the ability resolves
        ctx.emit(["702.179d", "603.4"], f"La velocità di {pl.name} non è più inferiore a 4: "
                 "l'abilità non fa nulla.", "speed", players=[pl.id])
        return
    pl.speed += 1
    top = f" ({terms.italian('max speed')}, 702.179e)" if pl.speed == 4 else ""
    ctx.emit(["702.179d"], f"La velocità di {pl.name} aumenta di 1: ora è {pl.speed}{top}.",
             "speed", players=[pl.id], speed=pl.speed)


@sba("704.5aa", cites=("702.179a",),
     summary=f"Chi controlla un permanente con «{ENGINES}» e non ha velocità passa a velocità 1")
def start_your_engines(ctx: Ctx) -> list[Act]:
    st = ctx.s
    without = {p.id for p in st.in_game() if p.speed is None}
    engines = {derived.controller(st, p) for p in live(ctx)
               if derived.controller(st, p) in without
               and derived.has_kw(st, p, "start your engines!")} if without else ()
    acts = []
    for pl in st.in_game():
        if pl.id in engines:
            def apply(ctx: Ctx, pl=pl) -> None:
                pl.speed = 1
            acts.append(Act(["704.5aa"], f"{pl.name} controlla un permanente con «{ENGINES}» "
                            "e non ha velocità: la sua velocità diventa 1.", "speed",
                            players=[pl.id], apply=apply))
    return acts
