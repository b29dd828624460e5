"""What a state-based action does, as data, and what the state-based actions of every
mechanic share.

A state-based action function (of a 704.5 or 704.6 rule, registered with ``registry.sba``) only looks
at the state and returns :class:`Act` records; ``state_actions.check_and_perform`` applies
them all at once (704.3).  Mechanics with state-based actions of their own (battles,
dungeons, sectors, speed, Planechase, the variants) build the same records, so this module
depends on none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from judge.engine import seats
from judge.engine.context import Ctx
from judge.engine.mechanics import ops
from judge.engine.state import Permanent


@dataclass
class Act:
    rules: list[str]
    text: str
    kind: str
    objects: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    apply: Callable[[Ctx], None] | None = None
    moves: str | None = None          # id of the object this action moves (dedupe)
    loss: str | None = None           # id of the player who loses
    counts: bool = True               # False: applied and logged, but no SBA was performed


def to_graveyard(oid: str, cause: str | None = None):
    """Put a permanent into its owner's graveyard; ``cause`` "destroy" for 704.5g–h (701.8b:
    a destruction, not by an effect: 122.1c), which regeneration may replace (701.19a)."""
    def apply(ctx: Ctx) -> None:
        if ctx.s.perm(oid) is not None:
            ops.move(ctx, oid, "graveyard", cause=cause, by_effect=False)
    return apply


def live(ctx: Ctx) -> list[Permanent]:
    """Phased-in permanents: phased-out ones are treated as though they don't exist (702.26b).
    Computed once per check (the state-based action functions only look at the state)."""
    cached = getattr(ctx, "phased_in", None)
    if cached is not None:
        return cached
    return [p for p in ctx.s.battlefield if not p.phased_out]


def ask_in_apnap_order(ctx: Ctx, choosers: list[str]) -> list[str]:
    """Players who must choose at the same time, in APNAP order (101.4)."""
    order = [p.id for p in seats.apnap(ctx.s)]
    rest = [pid for pid in choosers if pid not in order]
    return [pid for pid in order if pid in choosers] + rest
