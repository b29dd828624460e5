"""An object on the stack resolves (405.5, 608).

All players passing makes the top object start resolving; the procedure then names it
(``resolve:<id>``, see :func:`task`), so that if the engine stops on its controller's
choice and the stack changes meanwhile, the object that started resolving is the one
that finishes (608.2).

The engine does not read card text: a spell's effect is up to the judge, then a
permanent spell enters the battlefield (608.3a; a copy becomes a token, 608.3f)
and an instant or sorcery goes to its owner's graveyard (608.2n).  A triggered
ability the rules themselves define (the monarch's draw, the initiative's
venture, …) carries an ``effect`` the engine applies (registry ``EFFECTS``).
"""

from __future__ import annotations

from judge.engine import italian
from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import identity, ops
from judge.engine.registry import EFFECTS
from judge.engine.state import PERMANENT_TYPES

TASK = "resolve"


def task(item_id: str) -> str:
    """The procedure's step in which the object ``item_id`` resolves."""
    return f"{TASK}:{item_id}"


def resolving(procedure: list[str]) -> tuple[int, str] | None:
    """Where in ``procedure`` an object resolves and which one: (index, id), or None.  (A plain
    ``resolve`` saved by older versions is named when the scenario is loaded, see
    ``scenario_fields``: a running game only has named ones.)"""
    for j, t in enumerate(procedure):
        name, _, arg = t.partition(":")
        if name == TASK and arg:
            return j, arg
    return None


def resolve(ctx: Ctx, item_id: str) -> None:
    """The object ``item_id`` resolves."""
    s = ctx.s
    at = next((i for i, it in enumerate(s.stack) if it.id == item_id), -1)
    if at < 0:
        # Loading and Game.act keep this from happening; never resolve another object.
        raise IllegalAction(f'l\'oggetto "{item_id}" che si stava risolvendo non è più in pila',
                            ["608.2m"])
    item = s.stack[at]
    entry = EFFECTS.get(item.effect["kind"]) if item.kind == "ability" and item.effect else None
    # A choice made as the ability resolves is asked before anything changes.
    choice = entry.choose(ctx, item) if entry is not None and entry.choose else None
    del s.stack[at]
    if item.kind == "spell" and item.card is not None:
        card = item.card
        illegal = [t for t in item.targets if not _legal_target(s, t)]
        if item.targets and len(illegal) == len(item.targets):
            _fizzle(ctx, item, illegal)
            return
        if illegal:
            ctx.emit(["608.2b"], f"{card.name}: {_why(s, illegal)}; la magia si risolve, ma non "
                     "lo influenza.", "note", objects=[item.id], players=[item.controller])
        if set(PERMANENT_TYPES) & set(derived.types(s, card)):
            rules = ["405.5", "608.3a"]
            note = ""
            if card.copy == "spell":
                card.copy, card.token = None, True
                rules.append("608.3f")
                note = " come pedina (era la copia di una magia)"
            perm = ops.arrive(ctx, card, "battlefield", origin="stack",
                              controller=item.controller)
            entered = s.perm(perm.id) is perm
            where = (f"ed entra nel campo di battaglia{note} sotto il controllo di "
                     f"{s.name_of(perm.controller)}" if entered else
                     "ma un effetto di sostituzione lo manda altrove (vedi sopra)")
            ctx.emit(rules, f"{card.name} si risolve {where}.", "resolve", objects=[perm.id],
                     players=[item.controller])
        else:
            new = ops.arrive(ctx, card, "graveyard", origin="stack")
            where = ("e va nel cimitero del suo proprietario" if _in_graveyard(s, new.id) else
                     "e un effetto di sostituzione lo manda altrove invece che nel cimitero "
                     "(vedi sopra)")
            ctx.emit(["405.5", "608.2n"], f"{card.name} si risolve (il giudice ne applica "
                     f"l'effetto) {where}.", "resolve", objects=[card.id],
                     players=[item.controller])
        return
    objects = [item.id] + ([item.source] if item.source else [])
    if entry is None:
        ctx.emit(["405.5", "608.2n"], f"{_named(item)} si risolve (il giudice ne applica "
                 "l'effetto) e cessa di esistere.", "resolve", objects=objects,
                 players=[item.controller])
        return
    ctx.emit(["405.5", "608.2n"], f"{_named(item)} si risolve e cessa di esistere.", "resolve",
             objects=objects, players=[item.controller])
    entry.func(ctx, item, choice)


def _in_graveyard(s, oid: str) -> bool:
    found = s.find_card(oid)
    return found is not None and found[1] == "graveyard"


def _legal_target(s, ref: str) -> bool:
    """608.2b, as far as the engine knows a target: a player still in the game, or the very
    object that was targeted, still on the battlefield and phased in (400.7)."""
    if s.has_player(ref):
        return not s.player(ref).lost
    p = s.live(ref)
    return p is not None and not p.phased_out


def _why(s, refs: list[str]) -> str:
    parts = []
    for ref in refs:
        if s.has_player(ref):
            parts.append(f"{s.name_of(ref)} ha lasciato la partita")
        else:
            parts.append(identity.gone(s, ref)[0])
    return "; ".join(parts) + (": non è più un bersaglio legale" if len(refs) == 1 else
                               ": non sono più bersagli legali")


def _fizzle(ctx: Ctx, item, illegal: list[str]) -> None:
    """608.2b: every target is illegal: the spell doesn't resolve; it is removed from the stack
    and put into its owner's graveyard (a copy then ceases to exist, 704.5e)."""
    s = ctx.s
    rules = ["608.2b"] + (["400.7"] if any(identity.gone(s, t)[1] for t in illegal
                                             if not s.has_player(t)) else [])
    new = ops.arrive(ctx, item.card, "graveyard", origin="stack")
    where = ("e va nel cimitero del suo proprietario" if _in_graveyard(s, new.id) else
             "e un effetto di sostituzione la manda altrove invece che nel cimitero (vedi sopra)")
    ctx.emit(rules, f"{item.card.name} non si risolve: {_why(s, illegal)}. È rimossa dalla pila "
             f"{where}.", "resolve", objects=[item.id], players=[item.controller])


def _named(item) -> str:
    """«L'abilità «…»», for the log."""
    text = (item.text or "").rstrip().rstrip(".")
    return f"L'abilità {italian.ability(text)}" if text else "L'abilità"
