"""Declaring blockers: the turn-based action 703.4j and the checks of 509.1a–c on a declaration.

Each defending player, in APNAP order (802.4), declares blocks as a pending decision.  The
validator refuses an illegal declaration with an Italian message citing the rule, and never
changes the state: a creature that can't block (509.1a–b), a block an evasion ability or
protection forbids (evasion.py), more blocks than a creature may make (509.1a), menace
(702.111b), fewer requirements obeyed than possible (509.1c, combat_requirements.py).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.combat import combat_requirements as reqs
from judge.engine.combat import combat_triggers, evasion
from judge.engine.combat.attackers import attackers_of_defender
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.registry import decision, tba
from judge.engine.state import Permanent, State


def block_problem(st: State, p: Permanent) -> tuple[str, list[str]] | None:
    """Why ``p`` can't block at all, or None."""
    if not derived.is_type(st, p, "creature"):
        return "non è una creatura", ["506.3"]
    if p.phased_out:
        return "è scomparsa per intermittenza", ["702.26b"]
    if p.tapped:
        return "è TAPpata", ["509.1a"]
    if derived.is_type(st, p, "battle"):
        return "è anche una battaglia", ["509.1a"]
    prob = evasion.blocker_problem(st, p)
    if prob is not None:
        return prob[0].removeprefix(p.name + " "), prob[1]
    return None


def _attackers(st: State, pid: str) -> list[Permanent]:
    idx = st.perm_index()
    return [idx[a["id"]] for a in attackers_of_defender(st, pid) if a["id"] in idx]


def _blockers(st: State, pid: str) -> list[Permanent]:
    return [p for p in st.battlefield if derived.controller(st, p) == pid
            and derived.is_creature(st, p) and not p.phased_out and block_problem(st, p) is None]


def block_options(st: State, pid: str) -> tuple[list[dict], list[dict]]:
    attackers = _attackers(st, pid)
    able, unable = [], []
    for p in st.battlefield:
        if derived.controller(st, p) != pid or not derived.is_type(st, p, "creature") or p.phased_out:
            continue
        prob = block_problem(st, p)
        if prob is not None:
            unable.append({"id": p.id, "name": p.name, "reason": prob[0], "rules": prob[1]})
            continue
        problems = [evasion.pair_problem(st, p, a) for a in attackers]
        can = [a.id for a, why in zip(attackers, problems) if why is None]
        if can:
            opt = {"id": p.id, "name": p.name, "power": derived.power(st, p),
                   "toughness": derived.toughness(st, p), "can_block": can}
            cannot = [{"id": a.id, "name": st.name_of(a.id), "reason": why[0], "rules": list(why[1])}
                      for a, why in zip(attackers, problems) if why is not None]
            if cannot:  # the attackers it can't block, and why (702.9b, 509.1b…)
                opt["cannot_block"] = cannot
            cap = evasion.capacity(st, p)
            if cap > 1:
                opt["max_blocks"] = None if cap == float("inf") else int(cap)
            must = reqs.block_requirements(st, p)
            if must:
                opt["requirements"] = [{"text": r.text, "rules": list(r.rules)} for r in must]
            able.append(opt)
        else:
            why = next((w for w in problems if w is not None), None)
            unable.append({"id": p.id, "name": p.name,
                           "reason": "non può bloccare nessuno degli attaccanti"
                                     + (f" ({why[0]})" if why else ""),
                           "rules": why[1] if why else ["509.1a"]})
    return able, unable


def _board(st: State, pid: str) -> reqs.BlockBoard:
    return reqs.block_board(st, _blockers(st, pid), _attackers(st, pid))


def default_blocks(st: State, pid: str) -> list[dict]:
    """No blocks, unless requirements say otherwise: then the most of them (509.1c)."""
    board = _board(st, pid)
    if not board.reqs:
        return []
    found = reqs.best_blocks(board)
    if not found:
        return []
    return [{"id": b, "blocking": list(a)} for b, a in found[1].items()]


@tba("703.4j", cites=("509.1", "509.1a", "509.1g", "509.1h", "101.1", "802.4", "805.10d"),
     summary="I giocatori in difesa dichiarano i bloccanti")
def declare_blockers(ctx: Ctx) -> None:
    st = ctx.s
    cb = st.combat
    if cb is None or not cb.attackers:
        return
    order = [p for p in seats.apnap(st) if p.id in cb.defending_players
             and p.id not in cb.blockers_declared_by]
    answers = []
    explained: dict[str, list[dict]] = {}     # players none of whose creatures can block
    for pl in order:
        able, unable = block_options(st, pl.id)
        if not able:
            answers.append((pl, {"blockers": []}))
            if unable:
                explained[pl.id] = unable
            continue
        ans = ctx.ask({
            "id": f"declare_blockers:{pl.id}", "kind": "declare_blockers", "player": pl.id,
            "rules": ["703.4j", "509.1"] + (["802.4"] if len(order) > 1 else []),
            "prompt": f"{pl.name} dichiara quali creature bloccano e quale attaccante blocca ciascuna.",
            "options": {"creatures": able, "cannot_block": unable,
                        "attackers": [{"id": a["id"], "name": st.name_of(a["id"]),
                                       "target": a["target"]}
                                      for a in attackers_of_defender(st, pl.id)]},
            "default": {"blockers": default_blocks(st, pl.id)},
        })
        answers.append((pl, ans))
    for pl, ans in answers:
        cb.blockers_declared_by.append(pl.id)
        if pl.id in explained:
            _nobody_can_block(ctx, pl, explained[pl.id])
            continue
        if not ans["blockers"]:
            if order:
                ctx.emit(["703.4j", "509.1"], f"{pl.name} non dichiara bloccanti.", "block",
                         players=[pl.id])
            continue
        for b in ans["blockers"]:
            bp = st.perm(b["id"])
            cb.blockers.append({"id": b["id"], "blocking": list(b["blocking"])})
            several = len(b["blocking"]) > 1
            ctx.emit(["703.4j", "509.1g"] + (["509.1a", "101.1"] if several else []),
                     f"{bp.name} ({derived.describe_pt(st, bp)}) blocca "
                     f"{' e '.join(st.name_of(x) for x in b['blocking'])}"
                     + (" (un'abilità le permette di bloccare più creature)." if several else "."),
                     "block", objects=[bp.id, *b["blocking"]], players=[pl.id])
    if len(cb.blockers_declared_by) >= len([d for d in cb.defending_players
                                            if not st.player(d).lost]):
        blocked_ids = {x for b in cb.blockers for x in b["blocking"]}
        for a in cb.attackers:
            a["blocked"] = a["id"] in blocked_ids
        unblocked = [a["id"] for a in cb.attackers if not a["blocked"]]
        blocked = [a["id"] for a in cb.attackers if a["blocked"]]
        if blocked:
            ctx.emit(["509.1h"], "Creature bloccate: " + ", ".join(st.name_of(i) for i in blocked)
                     + ".", "blocked", objects=blocked)
        if unblocked:
            ctx.emit(["509.1h"], "Creature non bloccate: "
                     + ", ".join(st.name_of(i) for i in unblocked) + ".", "unblocked",
                     objects=unblocked)
        combat_triggers.blockers_declared(ctx)                                     # 509.1i


def _nobody_can_block(ctx: Ctx, pl, unable: list[dict]) -> None:
    """The log says why none of a defending player's creatures can block, with the rules."""
    rules = ["703.4j", "509.1"]
    for u in unable:
        rules += [r for r in u["rules"] if r not in rules]
    why = "; ".join(f"{u['name']} {u['reason']}" for u in unable)
    ctx.emit(rules, f"Nessuna creatura di {pl.name} può bloccare: {why}.", "block",
             objects=[u["id"] for u in unable], players=[pl.id])


@decision("declare_blockers")
def _validate_blockers(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("blockers"), list):
        raise IllegalAction('risposta attesa: {"blockers": [{"id": …, "blocking": …}]}', ["509.1"])
    pid = pending["player"]
    attacking_me = {a["id"] for a in attackers_of_defender(st, pid)}
    seen = set()
    out = []
    for b in answer["blockers"]:
        if not isinstance(b, dict) or not isinstance(b.get("id"), str):
            raise IllegalAction("ogni bloccante è un oggetto con «id» e «blocking»", ["509.1a"])
        blocking = b.get("blocking")
        blocking = blocking if isinstance(blocking, list) else [blocking]
        p = st.perm(b["id"])
        if p is None:
            raise IllegalAction(f'"{b["id"]}" non è un permanente sul campo di battaglia', ["506.3"])
        if b["id"] in seen:
            raise IllegalAction(f"{p.name} è dichiarata due volte come bloccante", ["509.1a"])
        seen.add(b["id"])
        if derived.controller(st, p) != pid:
            raise IllegalAction(f"{p.name} non è controllata da {st.name_of(pid)}", ["509.1a"])
        prob = block_problem(st, p)
        if prob is not None:
            raise IllegalAction(f"{p.name} non può bloccare: {prob[0]}", prob[1])
        if not blocking:
            raise IllegalAction(f"{p.name}: indica quale creatura blocca", ["509.1a"])
        for x in blocking:
            if not isinstance(x, str) or x not in attacking_me:
                raise IllegalAction(f"{p.name} può bloccare solo una creatura che attacca "
                                    f"{st.name_of(pid)}, un suo planeswalker o una battaglia che "
                                    "protegge", ["509.1a"])
            prob = evasion.pair_problem(st, p, st.perm(x))
            if prob is not None:
                raise IllegalAction(f"{p.name} non può bloccare {st.name_of(x)}: {prob[0]}", prob[1])
        out.append({"id": p.id, "blocking": list(blocking)})
    declared = {b["id"]: b["blocking"] for b in out}
    prob = evasion.declaration_problem(st, declared)
    if prob is not None:
        raise IllegalAction(f"dichiarazione illegale: {prob[0]}", prob[1])
    short = reqs.block_shortfall(st, _board(st, pid), declared)
    if short is not None:
        raise IllegalAction(f"dichiarazione illegale: {short[0]}", short[1])
    return {"blockers": out}
