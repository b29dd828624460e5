"""When the combat keywords trigger: as attackers are declared (508.1m) and as blockers are
declared (509.1i).  Each instance of a keyword triggers separately (702.45b, 702.23c, …); the
abilities wait and go on the stack in APNAP order (triggers.py, 603.3b) before the active
player receives priority.  What they do as they resolve is in combat_effects.py; delayed
abilities "at end of combat" (myriad's tokens, decayed) trigger as that step begins (511.2).

A creature put onto the battlefield attacking never "attacked" (508.4): only declared
attackers trigger these abilities.
"""

from __future__ import annotations

from judge.engine.characteristics import derived, keywords
from judge.engine.combat.attack_scope import defender_of
from judge.engine.context import Ctx
from judge.engine.mechanics import triggers
from judge.engine.state import Permanent, State


def _it(name: str) -> str:
    it = keywords.KEYWORD_IT[name]
    return it[:1].upper() + it[1:]


def _queue(ctx: Ctx, src: Permanent, name: str, what: str, effect: dict, rules: list[str],
           n: int = 0) -> None:
    label = _it(name) + (f" {n}" if n else "")
    triggers.queue(ctx, derived.controller(ctx.s, src), f"{label} di {src.name}: {what}", rules,
                   source=src.key, effect=effect)


def attackers_declared(ctx: Ctx, ids: list[str]) -> None:
    """508.1m: abilities that trigger on attackers being declared trigger."""
    st = ctx.s
    cb = st.combat
    attackers = [p for p in (st.perm(i) for i in ids) if p is not None]
    targets = {a["id"]: a["target"] for a in cb.attackers}
    if len(attackers) == 1:                                   # 506.5: attacks alone
        _exalted(ctx, attackers[0])
    for a in attackers:
        target = targets.get(a.id)
        d = defender_of(st, target)
        for inst in derived.kw_instances(st, a):
            name = inst.name
            if name == "battle cry":
                _queue(ctx, a, name, "ogni altra creatura attaccante prende +1/+0 fino alla fine "
                       "del turno", {"kind": "battle_cry"}, ["702.91a"])
            elif name == "annihilator" and d is not None:
                _queue(ctx, a, name, f"{st.name_of(d)}, il giocatore in difesa, sacrifica "
                       f"{inst.n} permanent{'e' if inst.n == 1 else 'i'}",
                       {"kind": "annihilator", "player": d, "amount": inst.n}, ["702.86a", "802.2a"]
                       if len(cb.defending_players) > 1 else ["702.86a"], inst.n)
            elif name == "melee":
                n = len(_opponents_attacked(st, derived.controller(st, a), attackers, targets))
                _queue(ctx, a, name, f"prende +1/+1 fino alla fine del turno per ogni avversario "
                       f"attaccato in questo combattimento ({n})", {"kind": "melee", "amount": n},
                       ["702.121a"])
            elif name == "myriad" and d is not None:
                _queue(ctx, a, name, "per ogni avversario diverso dal giocatore in difesa, può "
                       "creare una pedina copia TAPpata e attaccante",
                       {"kind": "myriad", "player": d}, ["702.116a"])
            elif name == "training" and any(derived.power(st, o) > derived.power(st, a)
                                             for o in attackers if o.id != a.id):
                _queue(ctx, a, name, "attacca con una creatura di forza maggiore: un segnalino "
                       "+1/+1 su di essa", {"kind": "counter_on_source"}, ["702.149a"])
            elif name == "dethrone" and d is not None and target == d and _most_life(st, d):
                _queue(ctx, a, name, f"attacca {st.name_of(d)}, che ha più punti vita o è a pari "
                       "merito: un segnalino +1/+1 su di essa", {"kind": "counter_on_source"},
                       ["702.105a"])
            elif name == "mentor":
                _queue(ctx, a, name, "un segnalino +1/+1 su una creatura attaccante bersaglio con "
                       "forza minore", {"kind": "mentor"}, ["702.134a"])
            elif name == "provoke" and d is not None:
                _queue(ctx, a, name, f"una creatura bersaglio di {st.name_of(d)} la blocca se può "
                       "e si STAPpa", {"kind": "provoke", "player": d}, ["702.39a"])
            elif name == "decayed":
                _queue(ctx, a, name, "sarà sacrificata alla fine del combattimento",
                       {"kind": "decayed"}, ["702.147a"])


def _exalted(ctx: Ctx, creature: Permanent) -> None:
    """702.83a: each instance of exalted on each permanent its controller controls triggers."""
    st = ctx.s
    for p in st.battlefield:
        if p.phased_out or derived.controller(st, p) != derived.controller(st, creature):
            continue
        for _ in range(derived.kw_count(st, p, "exalted")):
            _queue(ctx, p, "exalted", f"{creature.name} attacca da sola e prende +1/+1 fino alla "
                   "fine del turno", {"kind": "exalted", "creature": creature.key},
                   ["702.83a", "506.5"])


def _opponents_attacked(st: State, pid: str, attackers: list[Permanent],
                        targets: dict) -> set[str]:
    """702.121a: opponents the player attacked with creatures this combat (players attacked,
    not planeswalkers or battles)."""
    team = st.player(pid).team
    return {targets[a.id] for a in attackers if derived.controller(st, a) == pid and st.has_player(
        targets.get(a.id) or "") and st.player(targets[a.id]).team != team}


def _most_life(st: State, pid: str) -> bool:
    """702.105a: the player with the most life or tied for most life."""
    return st.player(pid).life >= max(p.life for p in st.in_game())


def blockers_declared(ctx: Ctx) -> None:
    """509.1i: abilities that trigger on blockers being declared trigger."""
    st = ctx.s
    cb = st.combat
    idx = st.perm_index()
    for b in cb.blockers:
        p = idx.get(b["id"])
        if p is None:
            continue
        for inst in derived.kw_instances(st, p, "bushido"):          # "blocks"
            _queue(ctx, p, "bushido", f"blocca e prende +{inst.n}/+{inst.n} fino alla fine del "
                   "turno", {"kind": "pump_source", "amount": inst.n}, ["702.45a"], inst.n)
    for att in cb.attackers:
        a = idx.get(att["id"])
        if a is None or not att["blocked"]:
            continue
        blockers = [idx[b["id"]] for b in cb.blockers if a.id in b["blocking"] and b["id"] in idx]
        d = defender_of(st, att["target"]) or (derived.controller(st, blockers[0]) if blockers else None)
        for inst in derived.kw_instances(st, a):
            n = inst.n
            if inst.name == "bushido":
                _queue(ctx, a, "bushido", f"è bloccata e prende +{n}/+{n} fino alla fine del turno",
                       {"kind": "pump_source", "amount": n}, ["702.45a"], n)
            elif inst.name == "rampage":
                _queue(ctx, a, "rampage", f"è bloccata e prende +{n}/+{n} fino alla fine del turno "
                       "per ogni creatura che la blocca oltre la prima",
                       {"kind": "rampage", "amount": n}, ["702.23a"], n)
            elif inst.name == "afflict" and d is not None:
                _queue(ctx, a, "afflict", f"è bloccata: {st.name_of(d)}, il giocatore in difesa, "
                       f"perde {n} punti vita", {"kind": "afflict", "player": d, "amount": n},
                       ["702.130a"], n)
            elif inst.name == "flanking":
                for blk in blockers:
                    if not derived.has_kw(st, blk, "flanking"):
                        _queue(ctx, a, "flanking", f"{blk.name}, che la blocca e non ha "
                               f"{keywords.KEYWORD_IT['flanking']}, prende -1/-1 fino alla fine "
                               "del turno", {"kind": "flanking", "creature": blk.key}, ["702.25a"])


def end_of_combat(ctx: Ctx) -> None:
    """511.2: delayed abilities "at end of combat" trigger as the end of combat step begins."""
    st = ctx.s
    cb = st.combat
    if st.turn.step != "end_of_combat" or cb is None or not cb.delayed:
        return
    for t in cb.delayed:
        triggers.queue(ctx, t["controller"], t["text"], t["rules"], source=t["source"],
                       effect=t["effect"])
    cb.delayed = []
