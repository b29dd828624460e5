"""What a replacement or prevention effect does to the event it applies to (614.1, 615.1): each
operation of its ``instead`` turns the event into the modified one (614.6, 615.6), or into
other events that happen instead, and says so in Italian with its rules.

``apply(ctx, h, cand)`` returns an :class:`Applied`; it changes nothing in the state except
through the choices it may ask (a card to return, 616.2's example) — shields are used up by the
caller (``replacement``), which knows whether the effect did anything (609.7b).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.engine import terms
from judge.engine.characteristics import derived
from judge.engine.characteristics.replacement_schema import OPS
from judge.engine.context import Ctx
from judge.engine.mechanics import replacement_find
from judge.engine.mechanics.happening import Happening, find, result
from judge.engine.registry import decision, one_of
from judge.engine.state import State

DAMAGEABLE = ("creature", "planeswalker", "battle")


@dataclass
class Applied:
    main: Happening | None            # the modified event (None: it doesn't happen)
    extra: list[Happening] = field(default_factory=list)   # what happens instead, or as well
    texts: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    prevented: int = 0
    did_something: bool = True        # 609.7b: a shield that replaced nothing isn't used up
    base: Happening | None = None     # the event as it was before this effect

    @property
    def text(self) -> str:
        return "; ".join(self.texts)


def _n(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _scaled(h: Happening, amount: int) -> int:
    """A life loss is negative: doubling or adding keeps its sign."""
    return -amount if h.kind == "life" and h.amount < 0 else amount


def apply(ctx: Ctx, h: Happening, cand: replacement_find.Candidate, seq: str) -> Applied:
    out = Applied(main=h.but(), base=h)
    for op in cand.ops:
        if out.main is None and op["op"] != "remove_counters":
            continue                  # the event is gone; an additional effect still happens
        _OPS[op["op"]](ctx, out, op, cand, seq)
    # The event's own rules, then the effect's: a rule's own effect cites that rule (702.16e,
    # 122.1c, 903.9b), a record its operations' (614.1a, 615.1a, …); then what applying it
    # followed (615.6, 615.7, 701.19a, …).
    generic = [] if cand.effect is None else [r for op in cand.ops for r in OPS[op["op"]][1]]
    out.rules = list(dict.fromkeys([*h.rules, *cand.rules, *generic, *out.rules]))
    return out


# --- objects changing zones --------------------------------------------------------------------

def _to_zone(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    zone = "exile" if op["op"] == "exile" else op["zone"]
    out.main = out.main.but(dest=zone, position=op.get("position"))
    if zone != "battlefield":
        out.main.tapped, out.main.enter_counters, out.main.copy_of = False, {}, None
    out.texts.append(f"invece {result(ctx.s, out.main)}")


def _regenerate(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    rule = "701.19b" if cand.effect is not None and cand.effect.kind == "static" else "701.19a"
    out.rules.append(rule)
    out.extra.append(h.derived("regenerate", obj=h.obj, rules=["614.8", rule]))
    out.main = None
    out.texts.append(f"invece {find(ctx.s, h.obj).name if find(ctx.s, h.obj) else h.obj} si "
                     "rigenera: si rimuove tutto il danno segnato, il suo controllore lo "
                     f"{terms.verb('tap')} e, se attacca o blocca, è rimosso dal combattimento")


def _remove_counters(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main or out.base
    kind, n = op["kind"], op.get("count", 1)
    out.extra.append(h.derived("remove_counters", obj=h.obj, counter=kind, amount=n,
                               rules=list(cand.rules)))
    what = f"si rimuove {_n(n, 'segnalino', 'segnalini')} {terms.counter(kind)} da {ctx.s.name_of(h.obj)}"
    if h.kind == "zone":
        out.main = None
        out.texts.append(f"invece {what}")
    else:
        out.texts.append(f"e {what}")


# --- entering the battlefield (614.1c–d, 614.12) ------------------------------------------------

def _enter(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    st = ctx.s
    if op["op"] == "tapped":
        h.tapped = True
        out.texts.append(f"entra {terms.done('tap')}")
    elif op["op"] == "counters":
        h.enter_counters[op["kind"]] = h.enter_counters.get(op["kind"], 0) + op["count"]
        out.texts.append(f"entra con {_n(op['count'], 'segnalino', 'segnalini')} "
                         f"{terms.counter(op['kind'])}")
    elif op["op"] == "copy":
        if find(st, op["of"]) is None:
            out.did_something = False
            out.texts.append(f"dovrebbe entrare come copia di {st.name_of(op['of'])}, che non "
                             "c'è più: l'istruzione si ignora (614.6)")
            return
        h.copy_of = op["of"]
        out.texts.append(f"entra come copia di {st.name_of(op['of'])}")
    else:
        who = cand.you if op["player"] == "you" else op["player"]
        if who is None or not st.has_player(who) or st.player(who).lost:
            out.did_something = False
            out.texts.append("il giocatore che dovrebbe controllarlo non è in partita: "
                             "l'istruzione si ignora (800.4b)")
            return
        h.controller = who
        out.texts.append(f"entra sotto il controllo di {st.name_of(who)}")


# --- damage (615, 614.9) ------------------------------------------------------------------------

def _prevent(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    st = ctx.s
    e = cand.effect
    cant = replacement_find.cant(st, "prevent_damage", obj=h.obj, player=h.player, source=h.source,
                                 amount=h.amount, combat=h.combat, extra=h.extra)
    if cant:
        out.did_something = False
        out.rules += ["615.12"]
        out.texts.append(f"il danno non può essere prevenuto ({cant[0].label}): non ne previene "
                         "nessuno" + (" e lo scudo non si riduce" if e is not None and e.shield else ""))
        return
    limit = op.get("amount")
    if e is not None and e.shield is not None:
        limit = e.shield
        out.rules.append("615.7")
    elif e is not None and e.uses is not None:
        out.rules.append("615.8")
    elif limit is not None and e is not None and e.kind == "static":
        out.rules.append("615.10")
    n = h.amount if limit is None else min(limit, h.amount)
    out.prevented = n
    out.did_something = n > 0
    left = h.amount - n
    if left <= 0:
        out.main = None
        out.rules.append("615.6")
        out.texts.append(f"si previene tutto il danno ({n}): non viene inflitto")
    else:
        h.amount = left
        out.texts.append(f"{'si previene 1 danno' if n == 1 else f'si prevengono {n} danni'}: "
                         f"{'ne resta 1' if left == 1 else f'ne restano {left}'}")
    if e is not None and e.shield is not None:
        out.texts[-1] += f" (lo scudo passa da {e.shield} a {e.shield - n})"


def _redirect(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    st = ctx.s
    to = {"you": cand.you, "attached": _attached_to(st, cand.holder)}.get(op["to"], op["to"])
    name = st.name_of(to)
    if to is not None and st.has_player(to):
        if st.player(to).lost:
            out.did_something = False
            out.texts.append(f"{name} ha lasciato la partita: la redirezione non fa nulla")
            return
        out.main = h.but(player=to, obj=None)
    else:
        p = st.perm(to) if to else None
        if p is None or p.phased_out or not set(DAMAGEABLE) & set(derived.types(st, p)):
            out.did_something = False
            out.texts.append(f"{name} non è più sul campo di battaglia come creatura, planeswalker "
                             "o battaglia: la redirezione non fa nulla")
            return
        out.main = h.but(obj=to, player=None)
    out.texts.append(f"invece il danno è inflitto a {name}")


def _attached_to(st: State, holder: str | None) -> str | None:
    """«enchanted creature»: what the effect's object (an Aura) is attached to."""
    p = st.perm(holder) if holder else None
    return p.attached_to if p is not None else None


# --- amounts ------------------------------------------------------------------------------------

def _double(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    before = abs(h.amount)
    h.amount = h.amount * 2
    out.texts.append(f"invece il doppio: {before} → {abs(h.amount)}")


def _add(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    before = abs(h.amount)
    after = max(0, before + op["amount"])
    h.amount = _scaled(h, after)
    out.texts.append(f"invece {before} {'+' if op['amount'] >= 0 else '−'} {abs(op['amount'])}"
                     f" = {after}")
    if after == 0:
        out.main = None


def _skip(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    out.main = None
    out.texts.append("invece non succede nulla")


def _draw(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    n = abs(h.amount) if op["count"] == "amount" else op["count"]
    out.extra.append(h.derived("draw", player=h.player, amount=n, rules=["121.1"]))
    out.main = None
    out.texts.append(f"invece {ctx.s.name_of(h.player)} pesca {_n(n, 'carta', 'carte')}")


def _return(ctx: Ctx, out: Applied, op: dict, cand, seq) -> None:
    h = out.main
    st = ctx.s
    pl = st.player(h.player)
    cards = [c for c in pl.graveyard]
    out.main = None
    if not cards:
        out.did_something = True
        out.texts.append(f"invece {pl.name} dovrebbe riprendere in mano una carta dal suo "
                         "cimitero, che è vuoto: non succede nulla (614.6)")
        return
    wanted = op.get("card")
    if wanted is None or not any(c.id == wanted for c in cards):
        wanted = cards[-1].id
        if len(cards) > 1 and ctx.replay_ok:
            wanted = ctx.ask({
                "id": f"replace:{seq}:card", "kind": "replacement_card", "player": pl.id,
                "rules": ["616.2"], "options": {"cards": [{"id": c.id, "name": c.name}
                                                          for c in cards]},
                "prompt": f"{pl.name} sceglie la carta del suo cimitero da riprendere in mano "
                          "invece di pescare.",
                "default": {"card": cards[-1].id}}, replay=True)["card"]
    out.extra.append(h.derived("zone", obj=wanted, origin="graveyard", dest="hand",
                               rules=["614.11"]))
    out.texts.append(f"invece {pl.name} riprende in mano {st.name_of(wanted)} dal suo cimitero")


_OPS = {"exile": _to_zone, "put": _to_zone, "regenerate": _regenerate,
        "remove_counters": _remove_counters, "tapped": _enter, "counters": _enter, "copy": _enter,
        "control": _enter, "prevent": _prevent, "redirect": _redirect, "double": _double,
        "add": _add, "skip": _skip, "draw": _draw, "return_from_graveyard": _return}


@decision("replacement_card")
def _validate_card(st: State, pending: dict, answer) -> dict:
    return one_of(answer, "card", [c["id"] for c in pending["options"]["cards"]],
                  "id di una carta del cimitero", ["616.2"])
