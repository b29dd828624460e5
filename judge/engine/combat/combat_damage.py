"""Combat damage: the turn-based actions 703.4k (assigning) and 703.4m (dealing), 510.

Assignments are pending decisions with a default (how each creature may assign, and the check
of an answer: damage_assignment.py); dealing applies each result of the damage (120.3), toxic's
poison counters among them (702.164c).
"""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.characteristics import derived
from judge.engine.combat import damage_assignment as assignment
from judge.engine.combat.attackers import in_combat_creatures
from judge.engine.context import Ctx
from judge.engine.mechanics import damage, ops, triggers
from judge.engine.registry import tba
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


@tba("703.4k", cites=("510.1", "510.1a", "510.1b", "510.1c", "510.1d", "702.19b", "702.19c",
                      "702.19d", "702.19e", "702.2c", "510.4", "800.4e"),
     summary="Ogni giocatore annuncia come le sue creature assegnano il danno da combattimento")
def assign_combat_damage(ctx: Ctx) -> None:
    st = ctx.s
    cb = st.combat
    if cb is None or not cb.attackers:
        return
    dealers = _dealers(st)
    by_id = {p.id: p for p in dealers}
    plans = {p.id: assignment.plan(st, p) for p in dealers}
    # 702.19b: the lethal checks count the damage other creatures assign in this step
    tally = assignment.Tally()
    for p in dealers:
        if "fixed" in plans[p.id]:
            tally.add(st, p, plans[p.id]["fixed"])
    assignments: dict[str, dict[str, int]] = {}
    # 510.1: the active player announces first, then the defending players (APNAP).
    for pl in seats.apnap(st):
        mine = [p for p in dealers if derived.controller(st, p) == pl.id]
        opened = [p for p in mine if "open" in plans[p.id]]
        seen: set[str] = set()
        shared: set[str] = set()
        for p in opened:
            for rid in assignment.needs_of(plans[p.id]["open"]):
                (shared if rid in seen else seen).add(rid)
        needed = {rid: assignment.still_needed(st, st.perm(rid), tally) for rid in sorted(seen)}
        running = tally.copy()
        for p in opened:
            plans[p.id] = assignment.settle(st, p, plans[p.id]["open"], tally, running, shared)
        choices = [plans[p.id] for p in mine if "choice" in plans[p.id]]
        if choices:
            ans = ctx.ask({
                "id": f"combat_damage:{st.turn.step}:{pl.id}", "kind": "combat_damage_assignment",
                "player": pl.id, "rules": ["703.4k", "510.1"],
                "prompt": f"{pl.name} divide il danno da combattimento delle sue creature.",
                "options": {"creatures": [c["choice"] for c in choices], "needed": needed},
                "default": {"assignments": {c["choice"]["id"]: c["default"] for c in choices}},
            })
            assignments.update(ans["assignments"])
            for cid, asg in ans["assignments"].items():
                tally.add(st, by_id[cid], asg)
        for p in mine:
            if "fixed" in plans[p.id]:
                assignments[p.id] = plans[p.id]["fixed"]
                if p in opened:
                    tally.add(st, p, plans[p.id]["fixed"])
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
        parts = [f"{damage.danni(n)} a {st.name_of(t)}" for t, n in asg.items()]
        touched = assignment.deathtouch_lethal(st, sp, asg)
        why = f" (1 danno è letale: {sp.name} ha tocco letale)" if touched else ""
        rules = ["703.4k", "510.1"] + plans.get(src, {}).get("rules", []) + (["702.2c"] if touched else [])
        ctx.emit(rules, f"{sp.name} assegna {' e '.join(parts) if len(parts) == 2 else ', '.join(parts)}{why}.",
                 "assign", objects=[src, *asg.keys()], assignment=dict(asg))


@tba("703.4m", cites=("510.2", "120.3a", "120.3b", "120.3c", "120.3d", "120.3e", "120.3f",
                      "120.3h", "702.2b", "702.15b", "702.15e", "119.9", "702.90b", "702.90c", "702.80a",
                      "903.10a", "119.7", "119.8", "800.4e", "725.2", "726.2", "310.12b",
                      "120.3g", "702.164b", "702.164c", "810.10"),
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
    for src, target in hits:
        _toxic(ctx, src, st.player(target))
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


def _toxic(ctx: Ctx, src: Permanent, pl) -> None:
    """120.3g, 702.164c: combat damage dealt to a player by a creature with toxic gives that
    player poison counters equal to its total toxic value (702.164b: the sum of every N), in
    addition to the damage's other results."""
    value = sum(i.n for i in derived.kw_instances(ctx.s, src, "toxic"))
    if value > 0:
        team = ["810.10"] if len(ops.life_group(ctx, pl)) > 1 else []
        ops.add_poison(ctx, pl, value, ["703.4m", "510.2", "120.3g", "702.164c", *team],
                       f" per {terms.italian('toxic')} {value} di {src.name}")
