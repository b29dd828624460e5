"""Targets: who can be the target of a spell or ability (shroud 702.18a, hexproof 702.11b–d,
protection 702.16b, range of influence 801.4), the choice of a target as a triggered ability is
put on the stack (603.3d), and ward's ability (702.21a) as it resolves.

The engine does not read card text, so it knows the targets only of what it puts on the stack
itself (mentor, provoke) and of spells the judge casts with ``targets``; wherever else a target
matters (a judge action applying an effect), the log says that targeting is not modelled.
"""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.characteristics import derived, keywords, protection
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import ops
from judge.engine.mechanics.triggers import short_name
from judge.engine.registry import decision, effect
from judge.engine.state import Card, StackItem, State

Problem = tuple[str, list[str]]


def is_opponent(st: State, a: str, b: str) -> bool:
    """102.2, 102.3: players on different teams are opponents."""
    return st.has_player(a) and st.has_player(b) and st.player(a).team != st.player(b).team


def problem(st: State, target_id: str, source: Card | None, controller: str,
            spell: bool) -> Problem | None:
    """Why ``target_id`` can't be the target of a spell (``spell``) or an ability from
    ``source`` controlled by ``controller``, or None (ignoring what the card's text asks)."""
    what = "magie" if spell else "abilità"
    if st.has_player(target_id):
        holder_ctl = target_id
        holder = None
    else:
        holder = st.perm(target_id)
        if holder is None:
            return f"{st.name_of(target_id)} non è sul campo di battaglia", ["115.2"]
        holder_ctl = derived.controller(st, holder)
    if not seats.in_range(st, controller, holder_ctl):
        return (f"{st.name_of(target_id)} è fuori dalla portata d'influenza di "
                f"{st.name_of(controller)}", ["801.4"])
    if holder is None:
        return None                              # players have no keywords in the format
    name = holder.name
    if derived.has_kw(st, holder, "shroud"):
        return f"{name} ha {keywords.KEYWORD_IT['shroud']}: non può essere bersaglio", ["702.18a"]
    if is_opponent(st, controller, holder_ctl):
        for inst in derived.kw_instances(st, holder, "hexproof"):
            if not inst.quality:
                return (f"{name} ha {keywords.KEYWORD_IT['hexproof']}: non può essere bersaglio di "
                        f"{what} controllate dagli avversari del suo controllore", ["702.11b"])
            if source is not None and protection.has_quality(st, inst.quality, source, controller):
                return (f"{name} ha {keywords.italian(inst.text, st.name_of)}: non può essere "
                        f"bersaglio di {what} di quella qualità dei suoi avversari", ["702.11d"])
    if source is not None:
        inst = protection.protection_from(st, holder, source, controller)
        if inst is not None:
            return (f"{name} ha {protection.describe(inst, st)}: non può essere bersaglio di {what} "
                    "con quella qualità", protection.variant_rule(inst, "702.16b"))
    return None


def untargeted_note(st: State, target_id: str, source: Card | None,
                    controller: str | None) -> tuple[str, list[str]] | None:
    """For a judge action on ``target_id`` from ``source`` whose targets the engine does not
    know: what hexproof, shroud, protection or ward would say if it targeted (text, rules)."""
    holder = st.perm(target_id)
    if holder is None or not any(derived.has_kw(st, holder, k) for k in ("hexproof", "shroud", "ward",
                                                                   "protection")):
        return None
    ctl = controller or (protection.controller_of(st, source) if source is not None else None)
    why = problem(st, target_id, source, ctl, spell=True) if ctl else None
    if why is None and derived.has_kw(st, holder, "shroud"):
        why = problem(st, target_id, None, derived.controller(st, holder), spell=True)
    ward = derived.has_kw(st, holder, "ward") and (
        ctl is None or is_opponent(st, ctl, derived.controller(st, holder)))
    if why is None and not ward:
        return None
    parts, rules = [], []
    if why is not None:
        parts.append(f"se la fonte lo bersagliasse, non potrebbe: {why[0]}")
        rules += why[1]
    if ward:
        parts.append(f"se una magia o abilità di un avversario del suo controllore lo bersagliasse, "
                     f"{terms.italian('ward')} si innescherebbe")
        rules.append("702.21a")
    return (f"Il motore non modella i bersagli di questa azione e non sa se bersaglia "
            f"{holder.name}: " + "; ".join(parts)), rules


# --- a target chosen as a triggered ability goes on the stack (603.3d) -------------------------

def choose(ctx: Ctx, trig: dict, candidates: list[str], source: Card | None,
           rules: list[str]) -> str | None:
    """Ask the ability's controller for a target among ``candidates`` (those the ability's text
    allows); the ones shroud, hexproof or protection forbid are shown with the reason.  None
    if there is no legal target (603.3d: the ability is removed from the stack)."""
    st = ctx.s
    ok, refused = [], []
    for c in candidates:
        why = problem(st, c, source, trig["controller"], spell=False)
        if why is None:
            ok.append({"id": c, "name": st.name_of(c)})
        else:
            refused.append({"id": c, "name": st.name_of(c), "reason": why[0], "rules": why[1]})
    if not ok:
        return None
    if len(ok) == 1 and not refused:
        return ok[0]["id"]
    ans = ctx.ask({
        "id": f"choose_target:{trig['id']}", "kind": "choose_target", "player": trig["controller"],
        "rules": ["603.3d", *rules],
        "prompt": f"{st.name_of(trig['controller'])} sceglie il bersaglio di «{trig['text']}».",
        "options": {"ability": trig["text"], "targets": ok, "cannot_target": refused},
        "default": {"target": ok[0]["id"]},
    })
    return ans["target"]


@decision("choose_target")
def _validate_target(st: State, pending: dict, answer) -> dict:
    allowed = [t["id"] for t in pending["options"]["targets"]]
    t = answer.get("target") if isinstance(answer, dict) else None
    if t not in allowed:
        refused = {r["id"]: r for r in pending["options"].get("cannot_target", [])}
        if t in refused:
            raise IllegalAction(f"{refused[t]['name']} non può essere il bersaglio: "
                                f"{refused[t]['reason']}", refused[t]["rules"])
        raise IllegalAction(f"bersaglio non valido (ammessi: {', '.join(allowed)})",
                            list(pending["rules"]))
    return {"target": t}


# --- ward (702.21a) ----------------------------------------------------------------------------

def _ward_choice(ctx: Ctx, item: StackItem):
    st = ctx.s
    eff = item.effect
    target = next((i for i in st.stack if i.id == eff["spell"]), None)
    if target is None:
        return None
    return ctx.ask({
        "id": f"ward_payment:{item.id}", "kind": "ward_payment", "player": eff["player"],
        "rules": ["702.21a"],
        "prompt": f"{st.name_of(eff['player'])} paga {eff['cost']} per {terms.italian('ward')}? "
                  f"Altrimenti «{short_name(target.text)}» è neutralizzata.",
        "options": {"cost": eff["cost"], "spell": target.text},
        "default": {"pay": False},
    })


@decision("ward_payment")
def _validate_ward(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("pay"), bool):
        raise IllegalAction('risposta attesa: {"pay": true} o {"pay": false}', ["702.21a"])
    return {"pay": answer["pay"]}


@effect("ward", cites=("702.21a", "701.6a"), params=("spell", "player", "cost"),
        summary=f"{terms.italian('ward')[:1].upper()}{terms.italian('ward')[1:]}: neutralizza la "
                "magia o l'abilità che bersaglia il permanente, a meno che il suo controllore paghi "
                "il costo", choose=_ward_choice)
def ward(ctx: Ctx, item: StackItem, choice) -> None:
    st = ctx.s
    eff = item.effect
    target = next((i for i in st.stack if i.id == eff["spell"]), None)
    payer = st.name_of(eff["player"])
    if target is None:
        ctx.emit(["702.21a"], f"La magia o l'abilità bersagliata non è più in pila: "
                 f"{terms.italian('ward')} non fa nulla.", "resolve", objects=[item.id])
        return
    if choice and choice.get("pay"):
        ctx.emit(["702.21a"], f"{payer} paga {eff['cost']} (il giudice applica il pagamento): "
                 f"«{short_name(target.text)}» resta in pila.", "resolve", objects=[target.id],
                 players=[eff["player"]])
        return
    st.stack.remove(target)
    where = ""
    if target.card is not None:                         # a copy then ceases to exist (704.5e)
        new = ops.arrive(ctx, target.card, "graveyard", origin="stack", cause="countered")
        found = st.find_card(new.id)
        where = (" e va nel cimitero del suo proprietario" if found and found[1] == "graveyard"
                 else " (un effetto di sostituzione la manda altrove: vedi sopra)")
    ctx.emit(["702.21a", "701.6a"], f"{payer} non paga {eff['cost']}: «{short_name(target.text)}» è "
             f"neutralizzata{where}.", "counter", objects=[target.id], players=[eff["player"]])
