"""Combat damage: the turn-based actions 703.4k (assigning) and 703.4m (dealing), 510.

Assignments are pending decisions with a default; the validator refuses illegal answers with an
Italian message citing the rule, and never changes the state.
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.combat.attackers import in_combat_creatures
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import damage, triggers
from judge.engine.registry import decision, tba
from judge.engine.state import Permanent, State


def _dealers(st: State) -> list[Permanent]:
    cb = st.combat
    creatures = in_combat_creatures(st)
    if st.turn.step == "first_strike_damage":
        fs = set(cb.first_strikers or [])
        return [p for p in creatures if p.id in fs]
    if cb.first_strikers is None:
        return creatures
    fs = set(cb.first_strikers)
    return [p for p in creatures if p.id not in fs or derived.has_kw(st, p, "double strike")]


def lethal_for(st: State, blocker: Permanent, source: Permanent) -> int:
    """Lethal damage still needed (702.19b); 1 is lethal from deathtouch (702.2c)."""
    need = max(0, derived.toughness(st, blocker) - blocker.damage)
    if need > 0 and derived.has_kw(st, source, "deathtouch"):
        return 1
    return need


def lethal_reason(st: State, blocker: Permanent, source: Permanent) -> dict:
    """Why ``lethal_for`` is what it is, in Italian, with the rule: the judge sees the figure's reason."""
    toughness, marked = derived.toughness(st, blocker), blocker.damage
    need = max(0, toughness - marked)
    if need > 0 and derived.has_kw(st, source, "deathtouch"):
        return {"text": f"{source.name} ha tocco letale: 1 danno è letale", "rules": ["702.2c"]}
    already = f" meno {ops.danni(marked)} già segnat{'o' if marked == 1 else 'i'}" if marked else ""
    return {"text": f"costituzione {toughness}{already}", "rules": ["120.6"]}


def _deathtouch_lethal(st: State, source: Permanent, assignment: dict[str, int]) -> bool:
    """Whether 1 damage was assigned as lethal to a creature it would not kill but for the source's
    deathtouch (702.2c): the log says why the figure is 1."""
    if not derived.has_kw(st, source, "deathtouch"):
        return False
    for t, n in assignment.items():
        p = st.perm(t)
        if p is not None and derived.is_creature(st, p) and n == 1 \
                and derived.toughness(st, p) - p.damage > 1:
            return True
    return False


def _target_alive(st: State, target: str | None) -> bool:
    if target is None:
        return False
    if st.has_player(target):
        return not st.player(target).lost
    p = st.perm(target)
    return (p is not None and not p.phased_out
            and bool({"planeswalker", "battle"} & set(derived.types(st, p))))


def _no_damage(st: State, p: Permanent, target: str | None, rule: str, why: str) -> dict:
    """A creature that assigns no combat damage, and the rule that says why."""
    if target is not None and st.has_player(target) and st.player(target).lost:
        rule, why = "800.4e", f"{st.name_of(target)} ha lasciato la partita e il danno che gli " \
                              "sarebbe assegnato non viene assegnato"
    return {"fixed": {}, "none": (["703.4k", rule], f"{p.name} non assegna danno da "
                                  f"combattimento: {why}.")}


def _plan(st: State, p: Permanent) -> dict:
    """How ``p`` assigns its combat damage: fixed (with the rules beyond 510.1 that fix
    it), or a choice with its default; ``none`` says why it assigns nothing."""
    cb = st.combat
    idx = st.perm_index()
    amount = derived.power(st, p)
    if amount <= 0:
        return {"fixed": {}}                                          # 510.1a
    att = next((a for a in cb.attackers if a["id"] == p.id), None)
    if att is not None:
        if not att["blocked"]:
            if _target_alive(st, att["target"]):
                return {"fixed": {att["target"]: amount}}             # 510.1b
            return _no_damage(st, p, att["target"], "510.1b", "non sta attaccando niente")
        blockers = [idx[b["id"]] for b in cb.blockers
                    if p.id in b["blocking"] and b["id"] in idx and not idx[b["id"]].phased_out]
        trample = derived.has_kw(st, p, "trample")
        if not blockers:
            if trample and _target_alive(st, att["target"]):
                return {"fixed": {att["target"]: amount}, "rules": ["702.19d"]}
            if trample:
                return _no_damage(st, p, att["target"], "702.19d", "è bloccata, nessuna creatura "
                                  "la blocca più e non sta attaccando niente")
            return _no_damage(st, p, None, "510.1c", "è bloccata ma nessuna creatura la blocca "
                              "più")
        if len(blockers) == 1 and not trample:
            return {"fixed": {blockers[0].id: amount}}                # 510.1c
        default: dict[str, int] = {}
        left = amount
        lethal = {b.id: lethal_for(st, b, p) for b in blockers}
        for b in blockers:
            n = min(left, lethal[b.id])
            if n:
                default[b.id] = n
            left -= n
        if left:
            dest = att["target"] if trample and _target_alive(st, att["target"]) else blockers[0].id
            default[dest] = default.get(dest, 0) + left
        recipients = [b.id for b in blockers]
        if trample and _target_alive(st, att["target"]):
            recipients.append(att["target"])
        if len(blockers) == 1 and trample and left == 0:
            return {"fixed": default}                 # nothing to choose: all lethal to the blocker
        return {"choice": {"id": p.id, "name": p.name, "power": amount, "trample": trample,
                           "recipients": recipients, "lethal": lethal,
                           "lethal_why": {b.id: lethal_reason(st, b, p) for b in blockers},
                           "target": att["target"]}, "default": default}
    blk = next((b for b in cb.blockers if b["id"] == p.id), None)
    if blk is None:
        return {"fixed": {}}
    blocked = [idx[x] for x in blk["blocking"] if x in idx and not idx[x].phased_out]
    if not blocked:
        return _no_damage(st, p, None, "510.1d", "non sta più bloccando nessuna creatura")
    if len(blocked) == 1:
        return {"fixed": {blocked[0].id: amount}}
    return {"choice": {"id": p.id, "name": p.name, "power": amount, "trample": False,
                       "recipients": [x.id for x in blocked],
                       "lethal": {x.id: lethal_for(st, x, p) for x in blocked},
                       "lethal_why": {x.id: lethal_reason(st, x, p) for x in blocked}, "target": None},
            "default": {blocked[0].id: amount}}


@tba("703.4k", cites=("510.1", "510.1a", "510.1b", "510.1c", "510.1d", "702.19b", "702.19d",
                      "510.4", "800.4e"),
     summary="Ogni giocatore annuncia come le sue creature assegnano il danno da combattimento")
def assign_combat_damage(ctx: Ctx) -> None:
    st = ctx.s
    cb = st.combat
    if cb is None or not cb.attackers:
        return
    dealers = _dealers(st)
    plans = {p.id: _plan(st, p) for p in dealers}
    assignments: dict[str, dict[str, int]] = {}
    # 510.1: the active player announces first, then the defending players (APNAP).
    for pl in seats.apnap(st):
        mine = [p for p in dealers if derived.controller(st, p) == pl.id]
        choices = [plans[p.id] for p in mine if "choice" in plans[p.id]]
        if choices:
            ans = ctx.ask({
                "id": f"combat_damage:{st.turn.step}:{pl.id}", "kind": "combat_damage_assignment",
                "player": pl.id, "rules": ["703.4k", "510.1"],
                "prompt": f"{pl.name} divide il danno da combattimento delle sue creature.",
                "options": {"creatures": [c["choice"] for c in choices]},
                "default": {"assignments": {c["choice"]["id"]: c["default"] for c in choices}},
            })
            assignments.update(ans["assignments"])
        for p in mine:
            if "fixed" in plans[p.id]:
                assignments[p.id] = plans[p.id]["fixed"]
    # Every choice is made: now the log (a resumed step must not repeat it).
    if st.turn.step == "first_strike_damage":
        ctx.emit(["510.4"], "Solo le creature con attacco improvviso o doppio attacco assegnano "
                 "danno in questa sottofase.", "first_strike")
    for p in dealers:
        if "none" in plans[p.id]:
            rules, text = plans[p.id]["none"]
            ctx.emit(rules, text, "no_combat_damage", objects=[p.id], players=[derived.controller(st, p)])
    cb.assignments = {k: v for k, v in assignments.items() if v}
    for src, asg in cb.assignments.items():
        sp = st.perm(src)
        parts = [f"{ops.danni(n)} a {st.name_of(t)}" for t, n in asg.items()]
        touched = _deathtouch_lethal(st, sp, asg)
        why = f" (1 danno è letale: {sp.name} ha tocco letale)" if touched else ""
        rules = ["703.4k", "510.1"] + plans.get(src, {}).get("rules", []) + (["702.2c"] if touched else [])
        ctx.emit(rules, f"{sp.name} assegna {' e '.join(parts) if len(parts) == 2 else ', '.join(parts)}{why}.",
                 "assign", objects=[src, *asg.keys()], assignment=dict(asg))


@decision("combat_damage_assignment")
def _validate_assignment(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("assignments"), dict):
        raise IllegalAction('risposta attesa: {"assignments": {id creatura: {id destinatario: danno}}}',
                            ["510.1"])
    out = {}
    for c in pending["options"]["creatures"]:
        asg = answer["assignments"].get(c["id"], pending["default"]["assignments"][c["id"]])
        if not isinstance(asg, dict):
            raise IllegalAction(f"assegnazione di {c['name']} non valida", ["510.1"])
        total = 0
        for t, n in asg.items():
            if t not in c["recipients"]:
                raise IllegalAction(f"{c['name']} non può assegnare danno a {st.name_of(t)}",
                                    ["510.1c", "510.1d"] + (["702.19b"] if c["trample"] else []))
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise IllegalAction("il danno assegnato dev'essere un intero non negativo", ["510.1"])
            total += n
        if total != c["power"]:
            raise IllegalAction(f"{c['name']} deve assegnare esattamente {c['power']} danni "
                                f"(assegnati: {total})", ["510.1a", "510.1e"])
        if c["trample"] and c["target"] and asg.get(c["target"], 0) > 0:
            short = [b for b, need in c["lethal"].items() if asg.get(b, 0) < need]
            if short:
                raise IllegalAction(f"{c['name']} ha travolgere ma può assegnare danno a "
                                    f"{st.name_of(c['target'])} solo dopo aver assegnato danno "
                                    f"letale a tutti i bloccanti ({', '.join(st.name_of(b) for b in short)})",
                                    ["702.19b"])
        out[c["id"]] = {t: n for t, n in asg.items() if n}
    return {"assignments": out}


@tba("703.4m", cites=("510.2", "120.3a", "120.3b", "120.3c", "120.3d", "120.3e", "120.3f",
                      "120.3h", "702.2b", "702.15b", "702.15e", "119.9", "702.90b", "702.90c", "702.80a",
                      "903.10a", "119.7", "119.8", "800.4e", "725.2", "726.2", "310.12b"),
     summary="Tutto il danno da combattimento assegnato viene inflitto simultaneamente")
def deal_combat_damage(ctx: Ctx) -> None:
    st = ctx.s
    cb = st.combat
    if cb is None or not cb.assignments:
        if cb is not None and st.turn.step == "first_strike_damage":
            cb.dealt_first_strike = []
        return
    # Snapshot the sources first: all damage is dealt simultaneously (510.2), as one batch of
    # events: replacement and prevention effects apply to each, chosen in APNAP order (616.1).
    batch = [(st.perm(src), dict(asg)) for src, asg in cb.assignments.items()]
    items: list[tuple[Permanent, str, int]] = []
    for src, asg in batch:
        if src is None:
            continue
        for target, n in asg.items():
            if st.has_player(target) and st.player(target).lost:
                ctx.emit(["800.4e"], f"{st.name_of(target)} ha lasciato la partita: i {n} danni "
                         f"di {src.name} non gli sono assegnati.", "no_combat_damage",
                         objects=[src.id], players=[target])
                continue
            items.append((src, target, n))
    got = damage.deal_damage_batch(ctx, items, ["703.4m", "510.2"], combat=True, lifelink=False)
    dealt: list[tuple[Permanent, int, int]] = []  # (source, damage dealt, recipients)
    hits: list[tuple[Permanent, str]] = []
    for src, _ in batch:
        if src is None:
            continue
        mine = [(t, g) for (s_, t, _), g in zip(items, got) if s_ is src]
        total = sum(g for _, g in mine)
        dealt.append((src, total, sum(1 for _, g in mine if g > 0)))
        hits += [(src, t) for t, g in mine if g and st.has_player(t)]
    # Lifelink: one life gain event per source, however many it dealt damage to
    # (702.15b, 119.9: a life gain event is caused by a source); several sources with
    # lifelink make separate events (702.15e, which points to 119.9).
    lifelinkers = [(src, n, k) for src, n, k in dealt if n and derived.has_kw(st, src, "lifelink")]
    for src, n, recipients in lifelinkers:
        rules = ("702.15e", "119.9") if len(lifelinkers) > 1 else (("119.9",) if recipients > 1 else ())
        damage.gain_from_lifelink(ctx, src, n, rules=rules)
    triggers.combat_damage_to_players(ctx, hits)          # the monarch's and initiative's
    if st.turn.step == "first_strike_damage":
        cb.dealt_first_strike = [src.id for src, _ in batch if src is not None]
    cb.assignments = {}
