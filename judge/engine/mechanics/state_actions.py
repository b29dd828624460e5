"""State-based actions (rules 704.5 and 704.6), one function each, registered
by number.

Each function only *looks* at the state and returns the actions it would
perform; ``check_and_perform`` performs all of them simultaneously as a single
event and repeats the check until nothing happens (704.3).  The state-based
actions of a mechanic with more rules of its own live with it: battles
(battles.py), dungeons (dungeon.py), sectors (sectors.py), speed
(designations.py), Planechase (planechase.py) and the variants' 704.6
(variants.py).
"""

from __future__ import annotations

import re

from judge.engine import terms
from judge.engine.characteristics import derived, layers
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import attachment, leaving, ops
from judge.engine.mechanics.sba_acts import Act, ask_in_apnap_order, live, to_graveyard
from judge.engine.mechanics.triggers import is_source_of_pending
from judge.engine.registry import SBAS, decision, sba
from judge.engine.state import CARD_LISTS, Permanent, State


# --- players ---------------------------------------------------------------------

@sba("704.5a", cites=("104.3b",), summary="Un giocatore con 0 o meno punti vita perde la partita")
def zero_life(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant == "two-headed-giant":
        return []                                   # 704.6a instead
    return [Act(["704.5a"], f"ha {p.life} punti vita", "lose", players=[p.id], loss=p.id)
            for p in st.in_game() if p.life <= 0]


@sba("704.5b", cites=("104.3c", "121.4"),
     summary="Un giocatore che ha tentato di pescare da un grimorio vuoto perde la partita")
def empty_library_draw(ctx: Ctx) -> list[Act]:
    return [Act(["704.5b"], "ha tentato di pescare da un grimorio vuoto", "lose",
                players=[p.id], loss=p.id)
            for p in ctx.s.in_game() if p.attempted_draw_from_empty_library]


@sba("704.5c", cites=("104.3d",), summary="Un giocatore con dieci o più segnalini veleno perde")
def poison(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant == "two-headed-giant":
        return []                                   # 704.6b instead
    return [Act(["704.5c"], f"ha {p.poison} segnalini veleno", "lose", players=[p.id],
                loss=p.id) for p in st.in_game() if p.poison >= 10]


# --- objects -----------------------------------------------------------------------

@sba("704.5d", cites=("111.7",), summary="Una pedina fuori dal campo di battaglia cessa di esistere")
def token_outside_battlefield(ctx: Ctx) -> list[Act]:
    acts = []
    for pl in ctx.s.players:
        for z in ("hand", "library", "graveyard", "exile", "command"):
            for c in pl.zone(z):
                if c.token:
                    acts.append(Act(["704.5d"], f"La pedina {c.name}, {terms.zone('in', z)} di "
                                    f"{pl.name}, cessa di esistere.", "cease_to_exist",
                                    objects=[c.id], apply=_cease_to_exist(c.id), moves=c.id))
    return acts


def _cease_to_exist(cid: str):
    def apply(ctx: Ctx) -> None:
        obj, _, _ = ops.take(ctx, cid)
        ops.clear_references(ctx, obj.key)
    return apply


@sba("704.5e", cites=("707.10a",),
     summary="Una copia di una magia fuori dalla pila o di una carta fuori da pila e campo di "
             "battaglia cessa di esistere")
def copies_outside(ctx: Ctx) -> list[Act]:
    st = ctx.s
    found = [(c, z, pl.name) for pl in st.players for z in CARD_LISTS for c in pl.zone(z) if c.copy]
    found += [(p, "battlefield", None) for p in st.battlefield if p.copy == "spell"]
    acts = []
    for c, z, owner in found:
        what = "di una magia" if c.copy == "spell" else "di una carta"
        where = terms.zone("in", z) + (f" di {owner}" if owner else "")
        acts.append(Act(["704.5e"], f"{c.name} è la copia {what} e si trova fuori dalla pila "
                        f"({where}): cessa di esistere.", "cease_to_exist", objects=[c.id],
                        apply=_cease_to_exist(c.id), moves=c.id))
    return acts


@sba("704.5f", summary="Una creatura con costituzione 0 o meno va nel cimitero del proprietario")
def zero_toughness(ctx: Ctx) -> list[Act]:
    st = ctx.s
    return [Act(["704.5f"], f"La creatura {p.name} ha costituzione {derived.toughness(st, p)} ed è messa nel "
                "cimitero del suo proprietario.", "graveyard", objects=[p.id],
                apply=to_graveyard(p.id), moves=p.id)
            for p in live(ctx) if derived.is_creature(st, p) and derived.toughness(st, p) <= 0]


@sba("704.5g", cites=("702.12b", "120.6"),
     summary="Una creatura con danno letale è distrutta")
def lethal_damage(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        t = derived.toughness(st, p)
        if derived.is_creature(st, p) and t > 0 and p.damage >= t:
            if derived.has_kw(st, p, "indestructible"):
                acts.append(Act(["704.5g", "702.12b"], f"La creatura {p.name} ha danno letale ({p.damage} su "
                                f"costituzione {t}) ma è indistruttibile: resta sul campo di battaglia.",
                                "indestructible", objects=[p.id]))
            else:
                acts.append(Act(["704.5g"], f"La creatura {p.name} ha danno letale ({p.damage} su costituzione "
                                f"{t}) ed è distrutta.", "destroy", objects=[p.id],
                                apply=to_graveyard(p.id, "destroy"), moves=p.id))
    return acts


@sba("704.5h", cites=("702.2b", "702.12b"),
     summary="Una creatura che ha subito danno da una fonte con tocco letale è distrutta")
def deathtouch_damage(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        if derived.is_creature(st, p) and derived.toughness(st, p) > 0 and p.damaged_by_deathtouch:
            if derived.has_kw(st, p, "indestructible"):
                acts.append(Act(["704.5h", "702.12b"], f"La creatura {p.name} ha subito danno da una fonte con "
                                "tocco letale ma è indistruttibile.", "indestructible",
                                objects=[p.id]))
            else:
                acts.append(Act(["704.5h", "702.2b"], f"La creatura {p.name} ha subito danno da una fonte con "
                                "tocco letale ed è distrutta.", "destroy", objects=[p.id],
                                apply=to_graveyard(p.id, "destroy"), moves=p.id))
    return acts


@sba("704.5i", cites=("306.9",), summary="Un planeswalker con fedeltà 0 va nel cimitero")
def zero_loyalty(ctx: Ctx) -> list[Act]:
    st = ctx.s
    return [Act(["704.5i"], f"Il planeswalker {p.name} ha fedeltà 0 ed è messo nel cimitero del suo proprietario.",
                "graveyard", objects=[p.id], apply=to_graveyard(p.id), moves=p.id)
            for p in live(ctx) if derived.is_type(st, p, "planeswalker") and derived.loyalty(p) <= 0]


@sba("704.5j", summary="Regola delle leggende")
def legend_rule(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if layers.rule_off(st, "no_legend_rule"):           # 613.11: an effect turns it off
        return []
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in sorted(live(ctx), key=lambda x: x.timestamp):   # newest last (613.7d)
        name = derived.name(st, p)
        if "legendary" in derived.supertypes(st, p) and name:
            groups.setdefault((derived.controller(st, p), name), []).append(p)
    groups = {k: perms for k, perms in groups.items() if len(perms) > 1}
    choosers = ask_in_apnap_order(ctx, sorted({pid for pid, _ in groups}))
    apnap = ["101.4"] if len(choosers) > 1 else []    # several players choose at once
    acts = []
    for (pid, name), perms in sorted(groups.items(), key=lambda kv: choosers.index(kv[0][0])):
        ids = [p.id for p in perms]
        ans = ctx.ask({
            "id": f"legend_rule:{pid}:{','.join(ids)}", "kind": "legend_rule", "player": pid,
            "rules": ["704.5j"] + apnap,
            "prompt": f"{st.name_of(pid)} controlla {len(perms)} permanenti leggendari di nome "
                      f"{name}: ne sceglie uno da tenere, gli altri vanno nel cimitero.",
            "options": {"name": name, "permanents": [{"id": p.id, "name": p.name} for p in perms]},
            "default": {"keep": ids[-1]},
        })
        for p in perms:
            if p.id != ans["keep"]:
                acts.append(Act(["704.5j"], f"Regola delle leggende: {st.name_of(pid)} tiene "
                                f"{name} ({ans['keep']}); {p.name} ({p.id}) va nel cimitero del "
                                "suo proprietario.", "graveyard", objects=[p.id, ans["keep"]],
                                players=[pid], apply=to_graveyard(p.id), moves=p.id))
    return acts


@decision("legend_rule")
def _validate_legend(st: State, pending: dict, answer) -> dict:
    allowed = [p["id"] for p in pending["options"]["permanents"]]
    if not isinstance(answer, dict) or answer.get("keep") not in allowed:
        raise IllegalAction("bisogna scegliere quale permanente leggendario tenere "
                            f"(uno fra: {', '.join(allowed)})", ["704.5j"])
    return {"keep": answer["keep"]}


@sba("704.5k", summary="Regola dei mondi")
def world_rule(ctx: Ctx) -> list[Act]:
    st = ctx.s
    worlds = sorted((p for p in live(ctx) if "world" in derived.supertypes(st, p)),
                    key=lambda p: p.timestamp)
    if len(worlds) < 2:
        return []
    # The newest timestamp has been a world the shortest time (a tie cannot be expressed in
    # the format; the sort keeps battlefield order).
    keep = worlds[-1]
    return [Act(["704.5k"], f"Regola dei mondi: resta {keep.name}; {p.name} va nel cimitero del "
                "suo proprietario.", "graveyard", objects=[p.id], apply=to_graveyard(p.id),
                moves=p.id) for p in worlds[:-1]]


@sba("704.5m", cites=("303.4c", "303.4d", "702.16c", "702.16j", "702.16k", "400.7"),
     summary="Un'Aura assegnata illegalmente o non assegnata va nel cimitero")
def illegal_aura(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        if derived.has_subtype(st, p, "Aura") and derived.is_type(st, p, "enchantment"):
            prob = attachment.aura_problem(st, p, p.attached_to)
            if prob:
                why, rules = prob
                acts.append(Act(["704.5m", *rules], f"L'Aura {p.name} {why}: va nel cimitero del "
                                "suo proprietario.", "graveyard", objects=[p.id],
                                apply=to_graveyard(p.id), moves=p.id))
    return acts


def _unattach(oid: str):
    def apply(ctx: Ctx) -> None:
        p = ctx.s.perm(oid)
        if p is not None:
            p.attached_to = None
    return apply


@sba("704.5n", cites=("301.5c", "301.6", "702.16d", "702.16j", "702.16k", "400.7"),
     summary="Un Equipaggiamento o una Fortificazione assegnati illegalmente si staccano")
def illegal_equipment(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        if p.attached_to is None or derived.has_subtype(st, p, "Aura"):
            continue
        if attachment.kind(st, p) not in ("Equipment", "Fortification"):
            continue
        if derived.is_creature(st, p) or derived.is_type(st, p, "battle"):
            continue                                    # 704.5p
        prob = attachment.equipment_problem(st, p, p.attached_to)
        if prob:
            why, rules = prob
            acts.append(Act(["704.5n", *rules], f"{p.name} è assegnato illegalmente ({why}): si "
                            "stacca e resta sul campo di battaglia.", "unattach", objects=[p.id],
                            apply=_unattach(p.id)))
    return acts


@sba("704.5p", cites=("310.10",),
     summary="Una creatura, una battaglia o un altro permanente che non può esserlo si stacca")
def illegal_attachment(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        if p.attached_to is None:
            continue
        is_attacher = bool({"Aura", "Equipment", "Fortification"} & set(derived.subtypes(st, p)))
        if derived.is_creature(st, p) or derived.is_type(st, p, "battle") or not is_attacher:
            if derived.has_subtype(st, p, "Aura") and derived.is_type(st, p, "enchantment"):
                continue                                # 704.5m puts it into the graveyard
            acts.append(Act(["704.5p"], f"{p.name} non può essere assegnato a "
                            f"{ctx.name(p.attached_to)}: si stacca e resta sul campo di battaglia.",
                            "unattach", objects=[p.id], apply=_unattach(p.id)))
    return acts


@sba("704.5q", cites=("122.3",), summary="Segnalini +1/+1 e -1/-1 si annullano a coppie")
def plus_minus_counters(ctx: Ctx) -> list[Act]:
    acts = []
    for p in ctx.s.battlefield:
        if p.phased_out:
            continue
        plus, minus = p.counters.get("+1/+1", 0), p.counters.get("-1/-1", 0)
        n = min(plus, minus)
        if n > 0:
            def apply(ctx: Ctx, pp=p, n=n) -> None:
                for k in ("+1/+1", "-1/-1"):
                    pp.counters[k] -= n
                    if not pp.counters[k]:
                        del pp.counters[k]
            acts.append(Act(["704.5q"], f"Si rimuovono {n} segnalini +1/+1 e {n} segnalini -1/-1 "
                            f"da {p.name}.", "counters", objects=[p.id], apply=apply))
    return acts


@sba("704.5r", cites=("122.4",), summary="Segnalini oltre il massimo consentito si rimuovono")
def counter_limit(ctx: Ctx) -> list[Act]:
    acts = []
    for p in live(ctx):
        for kind, limit in p.max_counters.items():
            have = p.counters.get(kind, 0)
            if have > limit:
                def apply(ctx: Ctx, pp=p, kind=kind, limit=limit) -> None:
                    pp.counters[kind] = limit
                acts.append(Act(["704.5r"], f"{p.name} non può avere più di {limit} segnalini "
                                f"{kind}: se ne rimuovono {have - limit}.", "counters",
                                objects=[p.id], apply=apply))
    return acts


@sba("704.5s", cites=("714.4",), summary="Una Saga all'ultimo capitolo viene sacrificata")
def saga_done(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for p in live(ctx):
        if derived.has_subtype(st, p, "Saga") and (p.chapters or 0) > 0 \
                and p.counters.get("lore", 0) >= p.chapters and not is_source_of_pending(st, p.key):
            acts.append(Act(["704.5s", "714.4"], f"{p.name} ha {p.counters.get('lore', 0)} "
                            f"segnalini sapere (capitolo finale {p.chapters}) e nessun capitolo in "
                            f"pila: {st.name_of(derived.controller(st, p))} la {terms.verb('sacrifice')}.", "sacrifice",
                            objects=[p.id], players=[derived.controller(st, p)], apply=to_graveyard(p.id),
                            moves=p.id))
    return acts


@sba("704.5z", cites=("303.7a",),
     summary="Più Ruoli dello stesso giocatore su un permanente: resta solo il più recente")
def roles(ctx: Ctx) -> list[Act]:
    st = ctx.s
    groups: dict[tuple[str, str], list[Permanent]] = {}
    for p in sorted(live(ctx), key=lambda x: x.timestamp):     # the last is the newest
        if derived.has_subtype(st, p, "Role") and p.attached_to is not None:
            groups.setdefault((p.attached_to, derived.controller(st, p)), []).append(p)
    acts = []
    for (target, pid), perms in groups.items():
        newest = perms[-1]
        for p in perms[:-1]:
            acts.append(Act(["704.5z"], f"{ctx.name(target)} ha più Ruoli controllati da "
                            f"{ctx.name(pid)}: resta {newest.name}, il più recente; {p.name} va "
                            "nel cimitero del suo proprietario.", "graveyard",
                            objects=[p.id, newest.id], players=[pid],
                            apply=to_graveyard(p.id), moves=p.id))
    return acts


# --- the check ----------------------------------------------------------------------

MAX_ITERATIONS = 1000
_RULE_KEY = re.compile(r"(\d+)\.(\d+)([a-z]{0,2})")


def _rule_order(number: str) -> tuple:
    a, b, c = _RULE_KEY.fullmatch(number).groups()
    return int(a), int(b), len(c), c  # 704.5z before 704.5aa


_ORDER: list = []


def _in_rule_order() -> list:
    if len(_ORDER) != len(SBAS):
        _ORDER[:] = [SBAS[n] for n in sorted(SBAS, key=_rule_order)]
    return _ORDER


def check_once(ctx: Ctx, report_idle: bool = True) -> bool:
    """One check: perform every applicable SBA simultaneously. True if any was performed."""
    st = ctx.s
    acts: list[Act] = []
    ctx.phased_in = live(ctx)
    try:
        for entry in _in_rule_order():
            acts.extend(entry.func(ctx))      # may stop on a pending choice (legend rule)
    finally:
        ctx.phased_in = None
    # "since the last time state-based actions were checked" (704.5b, 704.5h, 704.6d)
    for p in st.players:
        p.attempted_draw_from_empty_library = False
        for z in ("graveyard", "exile"):
            for c in p.zone(z):
                c.moved_since_sba = False
    for p in st.battlefield:
        p.damaged_by_deathtouch = False
    # Simultaneous: an object another action moves out of its zone gets nothing else
    # (its counters, attachments, … cease to matter as it becomes a new object, 400.7).
    moving = {a.moves for a in acts if a.moves is not None}
    performed = False
    moved: set[str] = set()
    losses = []
    for a in acts:
        if a.loss is not None:
            stop = leaving.cant_lose(st, a.loss)
            if stop:                  # 101.2, 614.17: "can't lose the game" wins over the rule
                _note(ctx, Act(a.rules + ["101.2", "614.17"], f"{st.name_of(a.loss)} {a.text} e "
                               f"perderebbe la partita, ma non può perderla: {stop[0].label}.",
                               "cant", players=[a.loss]))
                continue
            losses.append((a.loss, a.rules, a.text))
            performed = True
            continue
        if a.apply is None:                   # informative only (e.g. indestructible)
            if report_idle:
                _note(ctx, a)
            continue
        if a.moves is not None:
            if a.moves in moved:
                continue
            moved.add(a.moves)
        elif a.objects and a.objects[0] in moving:
            continue
        # The action first, then what it does: a replacement effect's explanation follows it.
        ctx.emit(a.rules, a.text, a.kind, a.objects, a.players)
        a.apply(ctx)
        performed = performed or a.counts
    if losses:
        leaving.lose(ctx, losses)
    return performed


def _note(ctx: Ctx, a: Act) -> None:
    """Log an informative note once per step of the procedure, even when the step starts
    again after a decision (the notes logged so far are kept with its answers)."""
    done = ctx.s.answers.setdefault(NOTES_KEY, [])
    if a.text not in done:
        done.append(a.text)
        ctx.emit(a.rules, a.text, a.kind, a.objects, a.players)


NOTES_KEY = "sba_notes"


def check_and_perform(ctx: Ctx) -> bool:
    """704.3: check, perform all simultaneously, repeat until none. True if any performed.
    Informative notes (an indestructible creature with lethal damage) are logged on the
    first check."""
    any_performed = False
    for i in range(MAX_ITERATIONS):
        if ctx.s.result is not None:
            break
        if not check_once(ctx, report_idle=(i == 0)):
            break
        any_performed = True
    return any_performed
