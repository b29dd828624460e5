"""Judge actions that put objects on the stack: casting a spell, copying a spell or an
ability (707.10), and triggered abilities (603.3; several at once in APNAP order,
603.3b).  Registered with the other judge actions (see general.py).
"""

from __future__ import annotations

from typing import Any

from judge.engine import terms
from judge.engine.actions.general import player_arg, text_arg
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction, shown
from judge.engine.mechanics import ops, targeting, triggers
from judge.engine.registry import action
from judge.engine.state import Card, StackItem

MAX_ABILITIES = 50            # abilities triggering together in one ``trigger`` action


@action("cast_spell", cites=("601.2a", "731.2", "601.2c", "115.2", "702.11b", "702.11d",
                             "702.18a", "702.16b", "702.16j", "702.16k", "801.4", "702.21a"),
        summary=f"Un giocatore {terms.verb('cast')} una magia: la carta va in pila (conta per "
                "giorno/notte), con il suo bersaglio se ne ha uno")
def cast_spell(ctx: Ctx, player: str, card: str, target: str | None = None) -> None:
    st = ctx.s
    pl = player_arg(ctx, player)
    found = st.find_card(card) if isinstance(card, str) else None
    if found is None or found[1] in ("battlefield", "stack"):
        raise IllegalAction(f'"{card}" non è una carta che si possa lanciare da una zona', ["601.2a"])
    if target is not None:
        if not isinstance(target, str) or not (st.has_player(target) or st.perm(target)):
            raise IllegalAction(f'bersaglio sconosciuto "{shown(target)}"', ["601.2c", "115.2"])
        why = targeting.problem(st, target, found[2], pl.id, spell=True)
        if why is not None:
            raise IllegalAction(f"{found[2].name} non può bersagliare {st.name_of(target)}: "
                                f"{why[0]}", ["601.2c", *why[1]])
    obj, _, _ = ops.take(ctx, card)
    ops.became_new(ctx, obj.key, obj)                     # on the stack, a new object (400.7)
    item = StackItem(id=obj.id, kind="spell", controller=pl.id, text=obj.name, card=obj,
                     targets=[st.ref_in(target)] if target else [])
    st.stack.append(item)
    t = st.turn
    t.spells_cast[pl.id] = t.spells_cast.get(pl.id, 0) + 1
    aim = f", con bersaglio {st.name_of(target)}" if target else ""
    ctx.emit(["601.2a"] + (["601.2c"] if target else []), f"{pl.name} {terms.verb('cast')} "
             f"{obj.name}{aim}: la carta va in cima alla pila.", "cast",
             objects=[obj.id] + ([target] if target else []), players=[pl.id])
    triggers.became_target(ctx, item)                   # ward, 702.21a


@action("copy_spell", cites=("707.10", "707.10a", "707.10b"),
        summary="Copia una magia o un'abilità in pila: la copia va in cima alla pila")
def copy_spell(ctx: Ctx, spell: str, controller: str | None = None) -> None:
    st = ctx.s
    item = next((i for i in st.stack if i.id == spell), None) if isinstance(spell, str) else None
    if item is None:
        raise IllegalAction(f'"{shown(spell)}" non è una magia o un\'abilità in pila', ["707.10"])
    pl = player_arg(ctx, controller if controller is not None else item.controller)
    new_id = st.new_id("copia")
    card = None
    if item.card is not None:
        # 707.10: the copy is owned by the player under whose control it's put on the stack
        card = Card(**{**vars(ops.to_card(item.card)), "id": new_id, "owner": pl.id,
                       "copy": "spell", "moved_since_sba": False})
    st.stack.append(StackItem(id=new_id, kind=item.kind, controller=pl.id, text=item.text,
                              card=card, source=item.source, rules=list(item.rules),
                              effect=dict(item.effect) if item.effect else None))
    what = "della magia" if card is not None else "dell'abilità"
    rules = ["707.10"] if card is not None else ["707.10", "707.10b"]
    ctx.emit(rules, f"{pl.name} mette in pila una copia {what} {item.text or item.id}: non è "
             "lanciata né attivata.", "copy", objects=[new_id, item.id], players=[pl.id])


@action("trigger", cites=("603.3", "603.3b", "101.4", "805.7"),
        summary="Una o più abilità innescate vanno in pila (più giocatori: in ordine APNAP)")
def trigger(ctx: Ctx, controller: str | None = None, text: str | None = None,
            source: str | None = None, abilities: list | None = None) -> None:
    """One ability (``controller``, ``text``, ``source``) or several at once (``abilities``:
    a list of ``{controller, text, source, on_trigger}``).  They wait to be put on the
    stack the next time a player would receive priority: right after this action, when
    each player in APNAP order puts theirs in the order they choose (603.3b)."""
    if abilities is None:
        if controller is None and text is None:
            raise IllegalAction("indica controller e text, oppure abilities=[…]", ["603.3"])
        abilities = [{"controller": controller, "text": text, "source": source}]
    elif controller is not None or text is not None or source is not None:
        raise IllegalAction("usa controller/text/source oppure abilities, non entrambi", ["603.3"])
    if not isinstance(abilities, list) or not abilities or len(abilities) > MAX_ABILITIES:
        raise IllegalAction(f"abilities: attesa una lista da 1 a {MAX_ABILITIES} abilità", ["603.3"])
    todo = []
    for i, a in enumerate(abilities):
        try:
            todo.append(_ability(ctx, a))
        except IllegalAction as e:           # which one, when there are several
            if len(abilities) == 1:
                raise
            raise IllegalAction(f"abilità {i + 1} (abilities[{i}]): {e.message}", e.rules) from None
    for pid, text, src, on_trigger in todo:
        triggers.queue(ctx, pid, text, [], source=ctx.s.ref_in(src) if src else None,
                       on_trigger=on_trigger)


def _ability(ctx: Ctx, a: Any) -> tuple[str, str, str | None, bool]:
    """One ability of ``trigger``, checked: (controller, text, source, on_trigger)."""
    if not isinstance(a, dict) or set(a) - {"controller", "text", "source", "on_trigger"}:
        raise IllegalAction("atteso un oggetto con controller, text, source (e on_trigger per "
                            "603.3b, seconda parte)", ["603.3b"])
    pl = player_arg(ctx, a.get("controller"))
    text = text_arg(a.get("text"), "text")
    src = a.get("source")
    if src is not None and (not isinstance(src, str) or ctx.s.find_card(src) is None):
        raise IllegalAction(f'fonte sconosciuta "{shown(src)}"')
    on_trigger = a.get("on_trigger", False)
    if not isinstance(on_trigger, bool):
        raise IllegalAction("on_trigger: atteso true o false", ["603.3b"])
    return pl.id, text, src, on_trigger
