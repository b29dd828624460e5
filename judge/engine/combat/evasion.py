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


def _kw(p: Permanent, name: str) -> bool:
    return derived.has_kw(p, name)


def blocker_problem(p: Permanent) -> Problem | None:
    """An ability that keeps ``p`` from blocking at all (509.1b)."""
    if _kw(p, "can't block"):
        return f"{p.name} non può bloccare", ["509.1b"]
    if _kw(p, "decayed"):
        return f"{p.name} ha {keywords.KEYWORD_IT['decayed']} e non può bloccare", ["702.147a"]
    return None


def capacity(p: Permanent) -> float:
    """How many attackers ``p`` may block (509.1a: one, unless its abilities say more)."""
    if _kw(p, "can block any number of creatures"):
        return math.inf
    return 1 + sum(1 for i in derived.kw_instances(p, "can block an additional creature each combat"))


def pair_problem(st: State, blocker: Permanent, attacker: Permanent) -> Problem | None:
    """Why ``blocker`` can't block ``attacker`` (its controller is the defending player), or None."""
    a, b = attacker.name, blocker.name
    if _kw(attacker, "can't be blocked"):
        return f"{a} non può essere bloccata", ["509.1b"]
    if _kw(attacker, "flying") and not (_kw(blocker, "flying") or _kw(blocker, "reach")):
        return f"{a} ha {_it('flying')} e {b} non ha né {_it('flying')} né {_it('reach')}", \
            ["702.9b", "509.1b"]
    if _kw(attacker, "horsemanship") and not _kw(blocker, "horsemanship"):
        return f"{a} ha {_it('horsemanship')} e {b} no", ["702.31b", "509.1b"]
    if _kw(attacker, "shadow") != _kw(blocker, "shadow"):
        who, other = (a, b) if _kw(attacker, "shadow") else (b, a)
        return f"{who} ha {_it('shadow')} e {other} no", ["702.28b", "509.1b"]
    artifact_creature = "artifact" in blocker.types
    if _kw(attacker, "fear") and not (artifact_creature or "B" in derived.colors(blocker)):
        return (f"{a} ha {_it('fear')}: la possono bloccare solo creature artefatto e/o creature "
                f"nere, e {b} non lo è", ["702.36b", "509.1b"])
    if _kw(attacker, "intimidate") and not (
            artifact_creature or set(derived.colors(blocker)) & set(derived.colors(attacker))):
        return (f"{a} ha {_it('intimidate')}: la possono bloccare solo creature artefatto e/o "
                f"creature che condividono un colore con essa, e {b} non lo è", ["702.13b", "509.1b"])
    if _kw(attacker, "skulk") and derived.power(blocker) > derived.power(attacker):
        return (f"{a} ha {_it('skulk')} e {b} ha forza maggiore ({derived.power(blocker)} contro "
                f"{derived.power(attacker)})", ["702.118b", "509.1b"])
    for inst in derived.kw_instances(attacker, "landwalk"):
        land = next((x for x in st.battlefield if not x.phased_out
                     and x.controller == blocker.controller and landwalk_land(inst.land, x)), None)
        if land is not None:
            return (f"{a} ha {keywords.italian(inst.text)} e {st.name_of(blocker.controller)}, il "
                    f"giocatore in difesa, controlla {land.name}", ["702.14c", "509.1b"])
    inst = protection.protection_from(attacker, blocker)
    if inst is not None:
        return (f"{a} ha {protection.describe(inst, st)} e {b} ha quella qualità",
                protection.variant_rule(inst, "702.16f") + ["509.1b"])
    if _kw(blocker, "can block only creatures with flying") and not _kw(attacker, "flying"):
        return f"{b} può bloccare solo creature con {_it('flying')}", ["509.1b"]
    return None


def landwalk_land(kind: str, land: Permanent) -> bool:
    """Is ``land`` a land of the kind a landwalk names (702.14c)?"""
    if "land" not in land.types:
        return False
    subtype, supertype, card_type, not_super = keywords.LANDWALKS[kind]
    return ((subtype is None or subtype in land.subtypes)
            and (supertype is None or supertype in land.supertypes)
            and (card_type is None or card_type in land.types)
            and (not_super is None or not_super not in land.supertypes))


def menace_problem(st: State, attacker: Permanent, n_blockers: int) -> Problem | None:
    """702.111b: a creature with menace can't be blocked except by two or more creatures."""
    if n_blockers == 1 and _kw(attacker, "menace"):
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
        cap = capacity(b)
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
