"""How each creature assigns its combat damage (510.1), and the check of a player's assignment.

A creature's assignment is fixed by the rules (510.1a–d) or is its controller's choice, with a
default.  Trample (702.19b) lets an attacking creature assign damage to the player, planeswalker
or battle it attacks once every creature blocking it is assigned lethal damage; the lethal
damage counts the damage already marked on the blocker *and* the damage other creatures assign
to it in the same combat damage step (702.19b and its example: a 2/2 blocking a 1/1 and a 3/3
with trample takes 1 from each, and 2 tramples over).  Any nonzero damage assigned by a source
with deathtouch is lethal (702.2c), whichever creature assigns it.  Trample over planeswalkers
(702.19c) also lets the excess go to the controller of the planeswalker it attacks once that
planeswalker is assigned damage equal to its loyalty, counted the same way; if that
planeswalker left combat, to the defending player (702.19e).

:class:`Tally` is what the other creatures have assigned so far in the step; :func:`plan` is
what the rules fix for one creature and :func:`settle` turns an open plan into a fixed one or a
choice with its default, given the tally.
"""

from __future__ import annotations

from judge.engine.characteristics import derived, keywords
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import damage
from judge.engine.registry import decision
from judge.engine.state import Permanent, State

TOP = "trample over planeswalkers"


class Tally:
    """Combat damage assigned so far in this step to each creature or planeswalker, and which
    of them were assigned damage by a source with deathtouch (702.2c)."""

    def __init__(self) -> None:
        self.amount: dict[str, int] = {}
        self.touched: set[str] = set()

    def add(self, st: State, source: Permanent, assignment: dict[str, int]) -> None:
        deathtouch = derived.has_kw(st, source, "deathtouch")
        for rid, n in assignment.items():
            if n > 0:
                self.amount[rid] = self.amount.get(rid, 0) + n
                if deathtouch:
                    self.touched.add(rid)

    def copy(self) -> Tally:
        t = Tally()
        t.amount, t.touched = dict(self.amount), set(self.touched)
        return t


def still_needed(st: State, r: Permanent, tally: Tally) -> int:
    """Damage ``r`` still needs: for a blocking creature, lethal damage (702.19b: its toughness
    less the damage marked on it and assigned to it by other creatures; none once a deathtouch
    source assigned it any, 702.2c); for a planeswalker, its loyalty less the damage assigned
    to it (702.19c)."""
    if derived.is_creature(st, r):
        if r.id in tally.touched:
            return 0
        return max(0, derived.toughness(st, r) - r.damage - tally.amount.get(r.id, 0))
    return max(0, derived.loyalty(r) - tally.amount.get(r.id, 0))


def lethal_for(st: State, blocker: Permanent, source: Permanent, tally: Tally | None = None) -> int:
    """Lethal damage ``source`` must still assign to ``blocker`` (702.19b); 1 from deathtouch
    (702.2c)."""
    need = still_needed(st, blocker, tally or Tally())
    if need > 0 and derived.has_kw(st, source, "deathtouch"):
        return 1
    return need


def lethal_reason(st: State, blocker: Permanent, source: Permanent, tally: Tally | None = None) -> dict:
    """Why ``lethal_for`` is what it is, in Italian, with its rules: the judge sees the figure's reason
    (toughness, damage already marked, damage other creatures assign in this step, deathtouch)."""
    tally = tally or Tally()
    if still_needed(st, blocker, tally) > 0 and derived.has_kw(st, source, "deathtouch"):
        return {"text": f"{source.name} ha tocco letale: 1 danno è letale", "rules": ["702.2c"]}
    if blocker.id in tally.touched:
        return {"text": "un'altra creatura con tocco letale le assegna già danno", "rules": ["702.19b", "702.2c"]}
    toughness, marked, others = derived.toughness(st, blocker), blocker.damage, tally.amount.get(blocker.id, 0)
    text, rules = f"costituzione {toughness}", ["120.6"]
    if marked:
        text += f" meno {damage.danni(marked)} già segnat{'o' if marked == 1 else 'i'}"
    if others:
        text += f" meno {damage.danni(others)} assegnat{'o' if others == 1 else 'i'} da altre creature"
        rules.append("702.19b")
    return {"text": text, "rules": rules}


def deathtouch_lethal(st: State, source: Permanent, assignment: dict[str, int]) -> bool:
    """Whether 1 damage was assigned as lethal to a creature it would not kill but for the source's
    deathtouch (702.2c): the log says why the figure is 1."""
    if not derived.has_kw(st, source, "deathtouch"):
        return False
    for t, n in assignment.items():
        p = st.perm(t)
        if p is not None and derived.is_creature(st, p) and n == 1 and derived.toughness(st, p) - p.damage > 1:
            return True
    return False


def trample_kind(st: State, p: Permanent) -> str | None:
    """"trample over planeswalkers" (702.19c), "trample" (702.19b) or None."""
    if derived.has_kw(st, p, TOP):
        return TOP
    return "trample" if derived.has_kw(st, p, "trample") else None


def target_alive(st: State, target: str | None) -> bool:
    if target is None:
        return False
    if st.has_player(target):
        return not st.player(target).lost
    p = st.perm(target)
    return p is not None and not p.phased_out and bool({"planeswalker", "battle"}
                                                       & set(derived.types(st, p)))


def _player_alive(st: State, pid: str | None) -> bool:
    return pid is not None and st.has_player(pid) and not st.player(pid).lost


def _no_damage(st: State, p: Permanent, target: str | None, rule: str, why: str) -> dict:
    """A creature that assigns no combat damage, and the rule that says why."""
    if target is not None and st.has_player(target) and st.player(target).lost:
        rule, why = "800.4e", f"{st.name_of(target)} ha lasciato la partita e il danno che gli " \
                              "sarebbe assegnato non viene assegnato"
    return {"fixed": {}, "none": (["703.4k", rule], f"{p.name} non assegna danno da "
                                  f"combattimento: {why}.")}


def plan(st: State, p: Permanent) -> dict:
    """What the rules fix of how ``p`` assigns its combat damage: ``fixed`` (with ``rules``
    beyond 510.1 that fix it; ``none`` says why it assigns nothing), an ``open`` attacker whose
    assignment depends on what the others assign (:func:`settle`), or a blocking creature's
    ``choice`` with its ``default``."""
    cb = st.combat
    idx = st.perm_index()
    amount = derived.power(st, p)
    if amount <= 0:
        return {"fixed": {}}                                          # 510.1a
    att = next((a for a in cb.attackers if a["id"] == p.id), None)
    if att is not None:
        return _attacker_plan(st, p, att, amount, idx)
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


def _attacker_plan(st: State, p: Permanent, att: dict, amount: int, idx: dict) -> dict:
    kind = trample_kind(st, p)
    target = att["target"] if target_alive(st, att["target"]) else None
    walker = idx.get(target) if target is not None and not st.has_player(target) else None
    walker = walker if walker is not None and derived.is_type(st, walker, "planeswalker") else None
    beyond, rules = None, []
    if kind == TOP and walker is not None:
        beyond, rules = derived.controller(st, walker), ["702.19c"]   # its controller
    elif kind == TOP and att["target"] is None and _player_alive(st, att.get("defender")):
        beyond, rules = att["defender"], ["702.19e"]                  # the walker left combat
    if beyond is not None and not _player_alive(st, beyond):
        beyond = None
    blockers = [idx[b["id"]] for b in st.combat.blockers
                if p.id in b["blocking"] and b["id"] in idx and not idx[b["id"]].phased_out]
    if att["blocked"] and not blockers:
        if kind is None:
            return _no_damage(st, p, None, "510.1c", "è bloccata ma nessuna creatura la blocca più")
        rules = ["702.19d", *rules]
    if not blockers:
        # unblocked (510.1b), or blocked with no blockers left and trample (702.19d)
        if walker is not None and beyond is not None:
            return {"open": {"blockers": [], "target": target, "walker": walker.id,
                             "beyond": beyond, "kind": kind, "rules": rules}}
        if beyond is not None:
            return {"fixed": {beyond: amount}, "rules": rules}        # 702.19e
        if target is not None:
            return {"fixed": {target: amount}, "rules": rules}
        if att["blocked"]:
            return _no_damage(st, p, att["target"], "702.19d", "è bloccata, nessuna creatura "
                              "la blocca più e non sta attaccando niente")
        return _no_damage(st, p, att["target"], "510.1b", "non sta attaccando niente")
    if len(blockers) == 1 and kind is None:
        return {"fixed": {blockers[0].id: amount}}                    # 510.1c
    return {"open": {"blockers": [b.id for b in blockers], "target": target if kind else None,
                     "walker": walker.id if walker is not None and beyond is not None else None,
                     "beyond": beyond, "kind": kind, "rules": rules}}


def needs_of(open_plan: dict) -> list[str]:
    """The creatures and planeswalker an open plan's lethal or loyalty checks are about."""
    return open_plan["blockers"] + ([open_plan["walker"]] if open_plan["walker"] else [])


def settle(st: State, p: Permanent, op: dict, tally: Tally, running: Tally,
           shared: set[str]) -> dict:
    """An open attacker's plan, given what the other creatures assign: ``tally`` (the fixed
    assignments and the choices already made, which the lethal and loyalty checks count) and
    ``running`` (that plus the defaults of the choices before this one, which its default
    counts; updated with its own).  It is fixed when it has no real choice: one recipient
    needing all its damage that no other open creature may assign to."""
    idx = st.perm_index()
    amount = derived.power(st, p)
    dt = derived.has_kw(st, p, "deathtouch")
    blockers = [idx[b] for b in op["blockers"]]
    walker = idx[op["walker"]] if op["walker"] else None
    trample = op["kind"] is not None
    default: dict[str, int] = {}
    left = amount

    def give(rid: str, n: int) -> None:
        nonlocal left
        if n > 0:
            default[rid] = default.get(rid, 0) + n
            left -= n

    for b in blockers:
        give(b.id, min(left, lethal_for(st, b, p, running)))
    if left and trample:
        if walker is not None:
            give(walker.id, min(left, still_needed(st, walker, running)))
            give(op["beyond"], left)
        elif op["target"] is not None:
            give(op["target"], left)
        elif op["beyond"] is not None:
            give(op["beyond"], left)
    if left:
        give(blockers[0].id, left)
    running.add(st, p, default)
    first = blockers[0] if blockers else walker
    if len(blockers) <= 1 and list(default) == [first.id] and first.id not in shared:
        return {"fixed": default, "rules": op["rules"]}
    recipients = [b.id for b in blockers]
    for rid in (op["target"], op["beyond"]):
        if trample and rid is not None and rid not in recipients:
            recipients.append(rid)
    choice = {"id": p.id, "name": p.name, "power": amount, "trample": trample,
              "recipients": recipients,
              "lethal": {b.id: lethal_for(st, b, p, tally) for b in blockers},
              "lethal_why": {b.id: lethal_reason(st, b, p, tally) for b in blockers},
              "target": op["target"], "deathtouch": dt}
    if op["kind"] is not None and op["beyond"] is not None:
        choice["trample_over_planeswalkers"] = True
        choice["beyond"] = op["beyond"]
        if walker is not None:
            choice["loyalty"] = {walker.id: still_needed(st, walker, tally)}
    return {"choice": choice, "default": default, "rules": op["rules"]}


# --- the check of a player's answer (510.1e: the total assignment) ---------------------------

@decision("combat_damage_assignment")
def validate(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("assignments"), dict):
        raise IllegalAction('risposta attesa: {"assignments": {id creatura: {id destinatario: danno}}}',
                            ["510.1"])
    creatures = pending["options"]["creatures"]
    out = {}
    for c in creatures:
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
        out[c["id"]] = {t: n for t, n in asg.items() if n}
    _check_trample(st, pending, creatures, out)
    return {"assignments": out}


def _check_trample(st: State, pending: dict, creatures: list[dict],
                   out: dict[str, dict[str, int]]) -> None:
    """702.19b, 702.19c: damage goes past the blockers (and past the planeswalker) only once
    they have lethal damage (its loyalty), counting what every creature of this assignment
    assigns to them (the other creatures' fixed assignments are already counted in
    ``needed``); 1 from a source with deathtouch is lethal (702.2c)."""
    needed = pending["options"].get("needed", {})
    totals: dict[str, int] = {}
    touched: set[str] = set()
    for c in creatures:
        for rid, n in out[c["id"]].items():
            totals[rid] = totals.get(rid, 0) + n
            if c.get("deathtouch"):
                touched.add(rid)
    dt_rules = ["702.2c"] if any(c.get("deathtouch") for c in creatures) else []
    for c in creatures:
        asg = out[c["id"]]
        past = [r for r in (c["target"], c.get("beyond")) if r is not None and asg.get(r, 0) > 0]
        if not c["trample"] or not past:
            continue
        short = [b for b, need in c["lethal"].items()
                 if b not in touched and totals.get(b, 0) < needed.get(b, need)]
        if short:
            others = " (contando il danno assegnato dalle altre creature)" if len(creatures) > 1 \
                else ""
            raise IllegalAction(f"{c['name']} ha {keywords.KEYWORD_IT['trample']} ma può assegnare danno a "
                                f"{st.name_of(past[0])} solo dopo aver assegnato danno "
                                f"letale a tutti i bloccanti{others} "
                                f"({', '.join(st.name_of(b) for b in short)})",
                                ["702.19b", *dt_rules])
        beyond = c.get("beyond")
        for walker, need in c.get("loyalty", {}).items():
            if beyond and asg.get(beyond, 0) > 0 and totals.get(walker, 0) < needed.get(walker, need):
                raise IllegalAction(f"{c['name']} ha {keywords.KEYWORD_IT[TOP]} ma può assegnare "
                                    f"danno a {st.name_of(beyond)} solo dopo aver assegnato a "
                                    f"{st.name_of(walker)} danno almeno pari alla sua fedeltà",
                                    ["702.19c"])
