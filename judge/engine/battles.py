"""Battles (310): defense, protectors and the Siege's intrinsic ability.

State-based actions 704.5v (defense 0), 704.5w (no protector in the game) and
704.5x (a Siege protected by its own controller); the Siege's "when the last
defense counter is removed" ability (310.11b) triggers in triggers.py and
resolves here.  While that ability waits or is on the stack, 704.5v does not
put the Siege into the graveyard.
"""

from __future__ import annotations

from judge.engine import chars, ops
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.registry import decision, effect, sba
from judge.engine.sba_acts import Act, ask_in_apnap_order, live, to_graveyard
from judge.engine.state import Permanent, StackItem, State
from judge.engine.triggers import is_source_of_pending


def is_siege(p: Permanent) -> bool:
    return "battle" in p.types and "Siege" in p.subtypes


def _candidates(st: State, p: Permanent) -> list[str]:
    """Who may protect it: an opponent of its controller for a Siege (310.11a), its
    controller for a battle without battle types (310.8a)."""
    if is_siege(p):
        opponents = {o.id for o in chars.opponents(st, p.controller)}
        return [o.id for o in chars.turn_order_from(st, p.controller) if o.id in opponents]
    return [p.controller] if not st.player(p.controller).lost else []


def _attacked(st: State, p: Permanent) -> bool:
    return st.combat is not None and any(a["target"] == p.id for a in st.combat.attackers)


@sba("704.5v", cites=("310.7",), summary="Una battaglia con difesa 0 va nel cimitero")
def zero_defense(ctx: Ctx) -> list[Act]:
    st = ctx.s
    return [Act(["704.5v"], f"La battaglia {p.name} ha difesa 0 ed è messa nel cimitero del suo "
                "proprietario.", "graveyard", objects=[p.id], apply=to_graveyard(p.id), moves=p.id)
            for p in live(ctx) if "battle" in p.types and chars.defense(p) <= 0
            and not is_source_of_pending(st, p.id)]


def _protector_acts(ctx: Ctx, todo: list[tuple[Permanent, str, str]]) -> list[Act]:
    """Choose protectors: (battle, rule, why) each; controllers choose in APNAP order."""
    st = ctx.s
    choosers = ask_in_apnap_order(ctx, sorted({p.controller for p, _, _ in todo}))
    apnap = ["101.4"] if len(choosers) > 1 else []
    acts = []
    for p, rule, why in sorted(todo, key=lambda t: choosers.index(t[0].controller)):
        cands = _candidates(st, p)
        rules = [rule, "310.11a" if is_siege(p) else "310.8a"]
        if not cands:
            acts.append(Act([rule], f"{p.name} {why} e nessun giocatore può esserne il protettore: "
                            "va nel cimitero del suo proprietario.", "graveyard", objects=[p.id],
                            apply=to_graveyard(p.id), moves=p.id))
            continue
        chosen = cands[0]
        if len(cands) > 1:
            chosen = ctx.ask({
                "id": f"choose_protector:{p.id}", "kind": "choose_protector",
                "player": p.controller, "rules": rules + apnap,
                "prompt": f"{p.name} {why}: {st.name_of(p.controller)} sceglie chi ne diventa il "
                          "protettore.",
                "options": {"battle": {"id": p.id, "name": p.name},
                            "players": [{"id": c, "name": st.name_of(c)} for c in cands]},
                "default": {"player": cands[0]},
            })["player"]

        def apply(ctx: Ctx, p=p, chosen=chosen) -> None:
            p.protector = chosen
        acts.append(Act(rules, f"{p.name} {why}: {st.name_of(p.controller)} sceglie "
                        f"{st.name_of(chosen)} come suo protettore.", "protector",
                        objects=[p.id], players=[chosen], apply=apply))
    return acts


@sba("704.5w", cites=("310.10", "310.8a", "310.11a", "101.4"),
     summary="Una battaglia senza protettore nella partita e non attaccata riceve un protettore "
             "scelto dal suo controllore, o va nel cimitero")
def no_protector(ctx: Ctx) -> list[Act]:
    st = ctx.s
    todo = []
    for p in live(ctx):
        if "battle" not in p.types or _attacked(st, p):
            continue
        if p.protector is None or not st.has_player(p.protector) or st.player(p.protector).lost:
            todo.append((p, "704.5w", "non ha un protettore nella partita"))
    return _protector_acts(ctx, todo)


@sba("704.5x", cites=("310.11a", "101.4"),
     summary="Un Assedio protetto dal suo controllore riceve come protettore un avversario, o va "
             "nel cimitero")
def siege_protected_by_controller(ctx: Ctx) -> list[Act]:
    todo = [(p, "704.5x", "è un Assedio protetto dal suo stesso controllore")
            for p in live(ctx) if is_siege(p) and p.protector == p.controller]
    return _protector_acts(ctx, todo)


@decision("choose_protector")
def _validate_protector(st: State, pending: dict, answer) -> dict:
    allowed = [p["id"] for p in pending["options"]["players"]]
    if not isinstance(answer, dict) or answer.get("player") not in allowed:
        raise IllegalAction("il protettore dev'essere uno dei giocatori ammessi "
                            f"({', '.join(allowed)})", list(pending["rules"]))
    return {"player": answer["player"]}


@effect("siege", cites=("310.11b", "400.7"),
        summary="Un Assedio senza più segnalini difesa viene esiliato; il controllore può "
                "lanciarlo trasformato")
def siege_defeated(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    p = st.perm(item.source) if item.source else None
    if p is None:
        ctx.emit(["310.11b", "400.7"], f"{st.name_of(item.source)} non è più sul campo di "
                 "battaglia: l'abilità non può esiliarla.", "siege", objects=[item.source or ""],
                 players=[item.controller])
        return
    ops.move(ctx, p.id, "exile")
    ctx.emit(["310.11b"], f"{p.name} viene esiliata; {st.name_of(item.controller)} può lanciarla "
             "trasformata senza pagarne il costo di mana (se lo fa, il giudice usa cast_spell).",
             "siege", objects=[p.id], players=[item.controller])
