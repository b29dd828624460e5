"""Restrictions on blocks (509.1a–b): which creature may block which, each with its rule.

A restriction may be an evasion ability of the attacker (flying 702.9b, menace 702.111b,
intimidate 702.13b, fear 702.36b, shadow 702.28b, horsemanship 702.31b, skulk 702.118b,
landwalk 702.14c), its protection (702.16f), or an ability of either creature that is not a
keyword ("can't block", "can block only creatures with flying", "can't be blocked": 509.1b).
Different evasion abilities are cumulative (509.1b): the first one broken is reported.
How many creatures one creature may block is 509.1a (one, unless an ability says more).
Menace restricts the whole declaration; ``declaration_problem`` checks it.
"""

from __future__ import annotations

import math

from judge.engine.characteristics import derived, keywords, protection
from judge.engine.state import Permanent, State

Problem = tuple[str, list[str]]


def _kw(st: State, p: Permanent, name: str) -> bool:
    return derived.has_kw(st, p, name)


def blocker_problem(st: State, p: Permanent) -> Problem | None:
    """An ability that keeps ``p`` from blocking at all (509.1b)."""
    if _kw(st, p, "can't block"):
        return f"{p.name} non può bloccare", ["509.1b"]
    if _kw(st, p, "decayed"):
        return f"{p.name} ha {keywords.KEYWORD_IT['decayed']} e non può bloccare", ["702.147a"]
    return None


def capacity(st: State, p: Permanent) -> float:
    """How many attackers ``p`` may block (509.1a: one, unless its abilities say more)."""
    if _kw(st, p, "can block any number of creatures"):
        return math.inf
    return 1 + sum(1 for i in derived.kw_instances(st, p, "can block an additional creature each combat"))


def pair_problem(st: State, blocker: Permanent, attacker: Permanent) -> Problem | None:
    """Why ``blocker`` can't block ``attacker`` (its controller is the defending player), or None."""
    a, b = attacker.name, blocker.name
    if _kw(st, attacker, "can't be blocked"):
        return f"{a} non può essere bloccata", ["509.1b"]
    if _kw(st, attacker, "flying") and not (_kw(st, blocker, "flying") or _kw(st, blocker, "reach")):
        return f"{a} ha {_it('flying')} e {b} non ha né {_it('flying')} né {_it('reach')}", \
            ["702.9b", "509.1b"]
    if _kw(st, attacker, "horsemanship") and not _kw(st, blocker, "horsemanship"):
        return f"{a} ha {_it('horsemanship')} e {b} no", ["702.31b", "509.1b"]
    if _kw(st, attacker, "shadow") != _kw(st, blocker, "shadow"):
        who, other = (a, b) if _kw(st, attacker, "shadow") else (b, a)
        return f"{who} ha {_it('shadow')} e {other} no", ["702.28b", "509.1b"]
    artifact_creature = derived.is_type(st, blocker, "artifact")
    if _kw(st, attacker, "fear") and not (artifact_creature or "B" in derived.colors(st, blocker)):
        return (f"{a} ha {_it('fear')}: la possono bloccare solo creature artefatto e/o creature "
                f"nere, e {b} non lo è", ["702.36b", "509.1b"])
    if _kw(st, attacker, "intimidate") and not (
            artifact_creature or set(derived.colors(st, blocker)) & set(derived.colors(st, attacker))):
        return (f"{a} ha {_it('intimidate')}: la possono bloccare solo creature artefatto e/o "
                f"creature che condividono un colore con essa, e {b} non lo è", ["702.13b", "509.1b"])
    if _kw(st, attacker, "skulk") and derived.power(st, blocker) > derived.power(st, attacker):
        return (f"{a} ha {_it('skulk')} e {b} ha forza maggiore ({derived.power(st, blocker)} contro "
                f"{derived.power(st, attacker)})", ["702.118b", "509.1b"])
    defender = derived.controller(st, blocker)
    for inst in derived.kw_instances(st, attacker, "landwalk"):
        land = next((x for x in st.battlefield if not x.phased_out
                     and derived.controller(st, x) == defender
                     and landwalk_land(st, inst.land, x)), None)
        if land is not None:
            return (f"{a} ha {keywords.italian(inst.text)} e {st.name_of(defender)}, il "
                    f"giocatore in difesa, controlla {land.name}", ["702.14c", "509.1b"])
    inst = protection.protection_from(st, attacker, blocker)
    if inst is not None:
        return (f"{a} ha {protection.describe(inst, st)} e {b} ha quella qualità",
                protection.variant_rule(inst, "702.16f") + ["509.1b"])
    if _kw(st, blocker, "can block only creatures with flying") and not _kw(st, attacker, "flying"):
        return f"{b} può bloccare solo creature con {_it('flying')}", ["509.1b"]
    return None


def landwalk_land(st: State, kind: str, land: Permanent) -> bool:
    """Is ``land`` a land of the kind a landwalk names (702.14c)?"""
    ch = derived.ch(st, land)
    if "land" not in ch.types:
        return False
    subtype, supertype, card_type, not_super = keywords.LANDWALKS[kind]
    return ((subtype is None or subtype in ch.subtypes)
            and (supertype is None or supertype in ch.supertypes)
            and (card_type is None or card_type in ch.types)
            and (not_super is None or not_super not in ch.supertypes))


def menace_problem(st: State, attacker: Permanent, n_blockers: int) -> Problem | None:
    """702.111b: a creature with menace can't be blocked except by two or more creatures."""
    if n_blockers == 1 and _kw(st, attacker, "menace"):
        return (f"{attacker.name} ha {_it('menace')}: non può essere bloccata tranne che da due o "
                "più creature", ["702.111b", "509.1b"])
    return None


def declaration_problem(st: State, blocks: dict[str, list[str]]) -> Problem | None:
    """Restrictions on the whole declaration of one defending player (``blocks``: blocker id →
    attacker ids): how many each blocks (509.1a), menace (702.111b)."""
    idx = st.perm_index()
    count: dict[str, int] = {}
    for bid, attackers in blocks.items():
        b = idx[bid]
        if len(attackers) != len(set(attackers)):
            return f"{b.name} non può bloccare due volte la stessa creatura", ["509.1a"]
        cap = capacity(st, b)
        if cap == 1 and len(attackers) > 1:
            return (f"{b.name} può bloccare una sola creatura: ogni creatura bloccante ne blocca "
                    "una, salvo abilità che le permettano di bloccarne altre", ["509.1a"])
        if len(attackers) > cap:
            return (f"{b.name} può bloccare al massimo {int(cap)} creature (un'abilità le permette "
                    "di bloccarne più di una)", ["509.1a", "101.1"])
        for a in attackers:
            count[a] = count.get(a, 0) + 1
    for aid, n in count.items():
        prob = menace_problem(st, idx[aid], n)
        if prob:
            return prob
    return None


def _it(name: str) -> str:
    return keywords.KEYWORD_IT[name]
