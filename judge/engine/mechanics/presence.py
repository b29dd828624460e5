"""Who controls a permanent and whether it takes part in the game: a change of control
(613.1b, layer 2) and what follows it (506.4, 302.6), and phasing (702.26) with what is
attached.  Shared by the turn-based actions (phasing 703.4a, the end of «until end of turn»
effects 514.2) and the judge actions (``change_control``, ``remove_from_combat``,
``phase_out``, ``phase_in``).
"""

from __future__ import annotations

from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.mechanics import ops
from judge.engine.state import Permanent, State


def in_combat(st: State, oid: str) -> bool:
    """An attacking or blocking creature, or a planeswalker or battle being attacked (506.4)."""
    cb = st.combat
    return cb is not None and (any(a["id"] == oid or a["target"] == oid for a in cb.attackers)
                               or any(b["id"] == oid for b in cb.blockers))


def controllers(st: State) -> dict[str, str]:
    """Each permanent's controller now (layer 2 applied)."""
    return {p.id: derived.controller(st, p) for p in st.battlefield}


def control_changed(ctx: Ctx, before: dict[str, str]) -> list[tuple[Permanent, str, list[str]]]:
    """The permanents whose controller differs from ``before``: each leaves combat (506.4) and
    gets summoning sickness, since its new controller has not controlled it continuously since
    their most recent turn began (302.6).  Returns (permanent, old controller, rules)."""
    st = ctx.s
    out = []
    for p in st.battlefield:
        old = before.get(p.id)
        if old is None or derived.controller(st, p) == old:
            continue
        rules = ["302.6"]
        if in_combat(st, p.id):
            ops.remove_from_combat(ctx, p.id)
            rules.insert(0, "506.4")
        p.summoning_sick = True
        out.append((p, old, rules))
    if out:
        st.touch()
    return out


def attached_chain(st: State, root: Permanent) -> list[Permanent]:
    """Auras, Equipment and Fortifications attached to ``root``, recursively (702.26g)."""
    out, frontier = [], [root.key]
    while frontier:
        cur = frontier.pop()
        for p in st.battlefield:
            if p.attached_to == cur and p not in out and p is not root:
                out.append(p)
                frontier.append(p.key)
    return out
