"""The judge actions of the mechanics that live in the command zone: venturing into a dungeon
(701.49, 309) and planeswalking (701.31, 901).  What they do is in the mechanics' own modules
(judge.engine.mechanics.dungeon, judge.engine.mechanics.planechase)."""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.actions.general import player_arg
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics.dungeon import venture
from judge.engine.mechanics.planechase import planeswalk
from judge.engine.registry import action
from judge.engine.scenario.scenario_fields import parse_rooms
from judge.engine.state import Card


@action("venture", cites=("701.49a", "701.49b", "701.49c", "701.49d", "309.4a", "309.5a",
                          "309.4c", "309.7"),
        summary=f"Un giocatore {terms.verb(terms.VENTURE)} (o, con l'iniziativa, Undercity)")
def venture_action(ctx: Ctx, player: str, room: str | None = None, dungeon: dict | None = None,
                   undercity: bool = False) -> None:
    pl = player_arg(ctx, player)
    if room is not None and not isinstance(room, str):
        raise IllegalAction("room: atteso il nome di una stanza")
    new = None
    if dungeon is not None:
        if not isinstance(dungeon, dict) or not isinstance(dungeon.get("name"), str) \
                or not dungeon["name"] or len(dungeon["name"]) > 200:
            raise IllegalAction('dungeon: atteso {"name": …, "rooms": [{"name", "text", "to"}]}',
                                ["309.4"])
        rooms, errors = parse_rooms(dungeon.get("rooms"))
        if errors or not rooms:
            raise IllegalAction("dungeon non valido: " + ("; ".join(f"{p}: {m}" for p, m in errors)
                                                          or "nessuna stanza"), ["309.4"])
        new = Card(id=ctx.s.new_id("dungeon"), name=dungeon["name"], types=["dungeon"],
                   owner=pl.id, rooms=rooms)
    venture(ctx, pl, bool(undercity), new, room)


@action("planeswalk", cites=("701.31a", "701.31b", "312.5"),
        summary="Planechase: il controllore planare viaggia tra i piani")
def planeswalk_action(ctx: Ctx) -> None:
    st = ctx.s
    if not st.options.get("planechase"):
        raise IllegalAction("si viaggia tra i piani solo in una partita Planechase", ["701.31a"])
    planeswalk(ctx, seats.planar_controller(st), ["701.31a"])
