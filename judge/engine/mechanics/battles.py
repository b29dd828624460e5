"""Battles (310): defense, protectors and the Siege's intrinsic ability.

State-based actions (edition 20260925): 704.5v (a Siege with defense 0), 704.5w (a non-Siege
battle with defense 0), 704.5x (no protector in the game) and 704.5y (a protector who can't be
its protector: a Siege's own controller, or anyone but the controller of a battle without battle
types); the Siege's "when the last defense counter is removed" ability (310.12b) triggers in
triggers.py and resolves here. While that ability waits or is on the stack, 704.5v does not put
the Siege into the graveyard; nothing holds a non-Siege battle (310.8).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import identity, ops
from judge.engine.mechanics.sba_acts import Act, ask_in_apnap_order, live, to_graveyard
from judge.engine.mechanics.triggers import is_source_of_pending
from judge.engine.registry import decision, effect, sba
from judge.engine.state import Permanent, StackItem, State


def is_siege(st: State, p: Permanent) -> bool:
    """Siege is the only battle type (205.3q); a battle without it has no battle type."""
    return derived.is_type(st, p, "battle") and derived.has_subtype(st, p, "Siege")


def _candidates(st: State, p: Permanent) -> list[str]:
    """Who may protect it: an opponent of its controller for a Siege (310.12a), only its
    controller for a battle without battle types (310.9a)."""
    if is_siege(st, p):
        opponents = {o.id for o in seats.opponents(st, derived.controller(st, p))}
        return [o.id for o in seats.turn_order_from(st, derived.controller(st, p)) if o.id in opponents]
    return [derived.controller(st, p)] if not st.player(derived.controller(st, p)).lost else []


def _who_may_rule(st: State, p: Permanent) -> str:
    return "310.12a" if is_siege(st, p) else "310.9a"


def _attacked(st: State, p: Permanent) -> bool:
    return st.combat is not None and any(a["target"] == p.id for a in st.combat.attackers)


@sba("704.5v", cites=("310.7",), summary="Un Assedio con difesa 0 va nel cimitero")
def zero_defense_siege(ctx: Ctx) -> list[Act]:
    st = ctx.s
    return [Act(["704.5v"], f"L'Assedio {p.name} ha difesa 0 ed è messo nel cimitero del suo "
                "proprietario.", "graveyard", objects=[p.id], apply=to_graveyard(p.id), moves=p.id)
            for p in live(ctx) if is_siege(st, p) and derived.defense(p) <= 0
            and not is_source_of_pending(st, p.key)]


@sba("704.5w", cites=("310.8",), summary="Una battaglia non Assedio con difesa 0 va nel cimitero")
def zero_defense_other(ctx: Ctx) -> list[Act]:
    st = ctx.s
    return [Act(["704.5w"], f"La battaglia {p.name}, che non è un Assedio, ha difesa 0 ed è messa "
                "nel cimitero del suo proprietario.", "graveyard", objects=[p.id], apply=to_graveyard(p.id),
                moves=p.id)
            for p in live(ctx) if derived.is_type(st, p, "battle") and not is_siege(st, p)
            and derived.defense(p) <= 0]


def _protector_acts(ctx: Ctx, todo: list[tuple[Permanent, str, str]]) -> list[Act]:
    """Choose protectors: (battle, rule, why) each; controllers choose in APNAP order."""
    st = ctx.s
    choosers = ask_in_apnap_order(ctx, sorted({derived.controller(st, p) for p, _, _ in todo}))
    apnap = ["101.4"] if len(choosers) > 1 else []
    acts = []
    for p, rule, why in sorted(todo, key=lambda t: choosers.index(t[0].controller)):
        cands = _candidates(st, p)
        rules = [rule, _who_may_rule(st, p)]
        if not cands:
            acts.append(Act([rule], f"{p.name} {why} e nessun giocatore può esserne il protettore: "
                            "va nel cimitero del suo proprietario.", "graveyard", objects=[p.id],
                            apply=to_graveyard(p.id), moves=p.id))
            continue
        chosen = cands[0]
        if len(cands) > 1:
            chosen = ctx.ask({
                "id": f"choose_protector:{p.id}", "kind": "choose_protector",
                "player": derived.controller(st, p), "rules": rules + apnap,
                "prompt": f"{p.name} {why}: {st.name_of(derived.controller(st, p))} sceglie chi ne diventa il "
                          "protettore.",
                "options": {"battle": {"id": p.id, "name": p.name},
                            "players": [{"id": c, "name": st.name_of(c)} for c in cands]},
                "default": {"player": cands[0]},
            })["player"]
        attacked = _attacked(st, p)

        def apply(ctx: Ctx, p=p, chosen=chosen, attacked=attacked) -> None:
            p.protector = chosen
            if attacked:
                ops.remove_from_combat(ctx, p.id)  # 506.4: its protector changed
        leaves = (" Il protettore è cambiato: la battaglia esce dal combattimento e non è più attaccata."
                  if attacked else "")
        acts.append(Act(rules + (["506.4"] if attacked else []),
                        f"{p.name} {why}: {st.name_of(derived.controller(st, p))} sceglie {st.name_of(chosen)} come suo "
                        f"protettore.{leaves}", "protector", objects=[p.id], players=[chosen], apply=apply))
    return acts


@sba("704.5x", cites=("310.11", "310.9a", "310.12a", "101.4"),
     summary="Una battaglia senza protettore nella partita e non attaccata riceve un protettore "
             "scelto dal suo controllore, o va nel cimitero")
def no_protector(ctx: Ctx) -> list[Act]:
    st = ctx.s
    todo = []
    for p in live(ctx):
        if not derived.is_type(st, p, "battle") or _attacked(st, p):
            continue
        if p.protector is None or not st.has_player(p.protector) or st.player(p.protector).lost:
            todo.append((p, "704.5x", "non ha un protettore nella partita"))
    return _protector_acts(ctx, todo)


@sba("704.5y", cites=("310.11", "310.9a", "310.12a", "506.4", "101.4"),
     summary="Una battaglia il cui protettore non può esserlo (il controllore di un Assedio, o chiunque "
             "non sia il controllore di una battaglia senza tipo) riceve un protettore ammesso, o va "
             "nel cimitero")
def protector_who_cannot_be(ctx: Ctx) -> list[Act]:
    st = ctx.s
    todo = []
    for p in live(ctx):
        if not derived.is_type(st, p, "battle") or p.protector is None or not st.has_player(p.protector) \
                or st.player(p.protector).lost or p.protector in _candidates(st, p):
            continue  # no protector in the game is 704.5x
        why = ("è un Assedio protetto dal suo stesso controllore" if is_siege(st, p)
               else f"non ha tipi di battaglia ed è protetta da {st.name_of(p.protector)}, che non la controlla")
        todo.append((p, "704.5y", why))
    return _protector_acts(ctx, todo)


@decision("choose_protector")
def _validate_protector(st: State, pending: dict, answer) -> dict:
    allowed = [p["id"] for p in pending["options"]["players"]]
    if not isinstance(answer, dict) or answer.get("player") not in allowed:
        raise IllegalAction("il protettore dev'essere uno dei giocatori ammessi "
                            f"({', '.join(allowed)})", list(pending["rules"]))
    return {"player": answer["player"]}


@effect("siege", cites=("310.12b", "400.7"),
        summary="Un Assedio senza più segnalini difesa viene esiliato; il controllore può "
                "lanciarlo trasformato")
def siege_defeated(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    p = st.live(item.source)
    if p is None:
        ctx.emit(["310.12b", "400.7"], f"{identity.gone(st, item.source or '')[0]}: l'abilità "
                 "non può esiliarla.", "siege", objects=[item.source or ""],
                 players=[item.controller])
        return
    ops.move(ctx, p.id, "exile")
    ctx.emit(["310.12b"], f"{p.name} viene esiliata; {st.name_of(item.controller)} può lanciarla "
             "trasformata senza pagarne il costo di mana (se lo fa, il giudice usa cast_spell).",
             "siege", objects=[p.id], players=[item.controller])
