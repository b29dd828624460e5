"""The judge actions that create replacement and prevention effects (614, 615) during a game:
any record of the scenario format (``add_replacement``), a regeneration shield (``regenerate``,
701.19a) and a prevention shield (``prevent_damage``, 615.7).  ``end_effect`` ends them like any
other effect.  What they do happens later, as events happen (mechanics.replacement).
"""

from __future__ import annotations

from judge.engine.actions.general import int_arg, perm_arg, player_arg
from judge.engine.characteristics import continuous, derived, effect_schema, replacement_schema
from judge.engine.context import Ctx
from judge.engine.errors import effect_record, invalid_effect
from judge.engine.mechanics import skip_schema
from judge.engine.registry import action
from judge.engine.state import Effect, State
from judge.engine.validation import Validator


def add(ctx: Ctx, e: Effect, rules: list[str], text: str) -> Effect:
    """Add a replacement record to the game: references checked, an id, a timestamp (613.7b)."""
    st = ctx.s
    if e.id in ("?", "") or any(x.id == e.id for x in st.effects) or e.id in st.all_ids():
        e.id = continuous.new_effect_id(st, "r")
    v = Validator()
    probe = State(players=st.players, battlefield=st.battlefield, stack=st.stack,
                  effects=[*st.effects, e])
    path_of = (lambda i: "effect" if i == len(st.effects) else f"effects[{i}]")
    effect_schema.check_refs(v, probe, path_of)
    replacement_schema.check_refs(v, probe, path_of)
    mine = [(p, m) for p, m in v.errors if p == "effect" or p.startswith("effect.")]
    if mine:
        raise invalid_effect(mine, "614.1")
    if e.kind == "resolved" and e.timestamp is None:
        e.timestamp = continuous.new_timestamp(st)
    st.effects.append(e)
    st.touch()
    ctx.emit(rules, text, "effect", objects=[x for x in (e.source,) if x], effect=e.id)
    return e


@action("add_replacement", cites=("614.1", "615.1", "614.3"),
        summary="Un effetto di sostituzione o di prevenzione («invece», «salta», «entra con», "
                "«previeni»), come nel formato degli scenari: si applica agli eventi da qui in poi")
def add_replacement(ctx: Ctx, effect: dict) -> None:
    effect = effect_record(effect, '{"event": "dealt_damage", "affects": {"players": ["p1"]}, '
                                   '"instead": [{"op": "prevent"}], "duration": "end_of_turn"}', "614.1")
    schema = skip_schema if skip_schema.is_skip(effect) else replacement_schema
    e, errors = schema.parse_one({"kind": "resolved", **effect})
    if errors or e is None:
        raise invalid_effect(errors, "614.1")
    prevention = any(op["op"] == "prevent" for op in e.instead)
    what = "di prevenzione" if prevention else ("«non può»" if e.cant else "di sostituzione")
    rules = ["615.1"] if prevention else (["614.17"] if e.cant else ["614.1"])
    if e.event in skip_schema.TURN_EVENTS:
        # 614.10: what has already started can't be skipped; the effect waits for the next one.
        add(ctx, e, ["614.10", "614.3"], f"Nuovo effetto di sostituzione: «{e.text or e.id}». "
            f"Fa saltare {skip_schema.TURN_EVENTS[e.event]} che non sono ancora iniziati: "
            "quelli già iniziati non si possono più saltare (614.10).")
        return
    add(ctx, e, rules + ["614.3"] * (not e.cant),
        f"Nuovo effetto {what}: «{e.text or e.id}». Si applica agli eventi da ora in poi "
        "(614.4), finché non è esaurito o non finisce la sua durata.")


@action("regenerate", cites=("701.19a", "614.8"),
        summary="Rigenera un permanente: la prossima volta che verrebbe distrutto in questo turno, "
                "invece si rimuove il suo danno, viene TAPpato e lascia il combattimento")
def regenerate(ctx: Ctx, object: str) -> None:
    p = perm_arg(ctx, object)
    ctl = derived.controller(ctx.s, p)
    e = Effect(id="?", text=f"Rigenera {p.name}", kind="resolved", controller=ctl,
               affects={"objects": [p.id]}, duration="end_of_turn", event="destroy",
               instead=[{"op": "regenerate"}], uses=1)
    add(ctx, e, ["701.19a", "614.8"], f"Scudo di rigenerazione su {p.name}: la prossima volta che "
        "verrebbe distrutto in questo turno, invece si rimuove tutto il suo danno, il suo "
        "controllore lo TAPpa e, se attacca o blocca, lascia il combattimento.")


@action("prevent_damage", cites=("615.7", "615.1", "615.3"),
        summary="Previeni i prossimi N danni che verrebbero inflitti a un giocatore o a un "
                "permanente in questo turno (senza N: tutto il danno in questo turno)")
def prevent_damage(ctx: Ctx, target: str, amount: int | None = None) -> None:
    st = ctx.s
    if isinstance(target, str) and st.has_player(target):
        name = player_arg(ctx, target).name
        affects: dict = {"players": [target]}
    else:
        p = perm_arg(ctx, target)
        name = p.name
        affects = {"objects": [p.id]}
    n = int_arg(amount, "danni da prevenire", 1) if amount is not None else None
    text = (f"Previeni i prossimi {n} danni che verrebbero inflitti a {name} in questo turno"
            if n is not None else f"Previeni tutto il danno che verrebbe inflitto a {name} in "
                                  "questo turno")
    e = Effect(id="?", text=text, kind="resolved", affects=affects, duration="end_of_turn",
               event="dealt_damage", instead=[{"op": "prevent"}], shield=n)
    add(ctx, e, ["615.7" if n is not None else "615.1", "615.3"], f"Nuovo effetto di "
        f"prevenzione: «{text}»" + (" (uno scudo, 615.7)." if n is not None else "."))
