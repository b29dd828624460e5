"""The top object of the stack resolves (405.5, 608).

The engine does not read card text: a spell's effect is up to the judge, then a
permanent spell enters the battlefield (608.3a; a copy becomes a token, 608.3f)
and an instant or sorcery goes to its owner's graveyard (608.2n).  A triggered
ability the rules themselves define (the monarch's draw, the initiative's
venture, …) carries an ``effect`` the engine applies (registry ``EFFECTS``).
"""

from __future__ import annotations

from judge.engine import ops
from judge.engine.context import Ctx
from judge.engine.registry import EFFECTS
from judge.engine.state import PERMANENT_TYPES


def resolve_top(ctx: Ctx) -> None:
    s = ctx.s
    item = s.stack[-1]
    entry = EFFECTS.get(item.effect["kind"]) if item.kind == "ability" and item.effect else None
    # A choice made as the ability resolves is asked before anything changes.
    choice = entry.choose(ctx, item) if entry is not None and entry.choose else None
    s.stack.pop()
    ctl = s.name_of(item.controller)
    if item.kind == "spell" and item.card is not None:
        card = item.card
        if set(PERMANENT_TYPES) & set(card.types):
            rules = ["405.5", "608.3a"]
            note = ""
            if card.copy == "spell":
                card.copy, card.token = None, True
                rules.append("608.3f")
                note = " come pedina (era la copia di una magia)"
            perm = ops.put(ctx, card, "battlefield", controller=item.controller)
            ctx.emit(rules, f"{card.name} si risolve ed entra nel campo di battaglia{note} sotto "
                     f"il controllo di {ctl}.", "resolve", objects=[perm.id],
                     players=[item.controller])
        else:
            ops.put(ctx, card, "graveyard")
            ctx.emit(["405.5", "608.2n"], f"{card.name} si risolve (il giudice ne applica "
                     "l'effetto) e va nel cimitero del suo proprietario.", "resolve",
                     objects=[card.id], players=[item.controller])
        return
    objects = [item.id] + ([item.source] if item.source else [])
    if entry is None:
        ctx.emit(["405.5", "608.2n"], f"{item.text or 'L’abilità'} si risolve (il giudice ne "
                 "applica l'effetto) e cessa di esistere.", "resolve", objects=objects,
                 players=[item.controller])
        return
    ctx.emit(["405.5", "608.2n"], f"{item.text} si risolve e cessa di esistere.", "resolve",
             objects=objects, players=[item.controller])
    entry.func(ctx, item, choice)
