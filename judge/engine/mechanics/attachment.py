"""What an Aura, an Equipment or a Fortification can be attached to, with the rule that says so.

One test serves the state-based actions that remove illegal attachments (704.5m for Auras,
704.5n for Equipment and Fortifications) and the judge action ``attach``, which obeys 701.3:
an attachment that can't be attached to an object doesn't move (701.3b).
"""

from __future__ import annotations

from judge.engine.characteristics import derived, protection
from judge.engine.mechanics import identity
from judge.engine.state import Permanent, State

ATTACHERS = ("Aura", "Equipment", "Fortification")

# (Italian reason, rules beyond the one that applies it: protection's, since the state-based
# action's own rule already says what is illegal for the rest)
Problem = tuple[str, list[str]]


def kind(st: State, p: Permanent) -> str | None:
    """"Aura", "Equipment" or "Fortification" (an Aura first: 704.5m governs it)."""
    if derived.has_subtype(st, p, "Aura") and derived.is_type(st, p, "enchantment"):
        return "Aura"
    for k in ("Equipment", "Fortification"):
        if derived.has_subtype(st, p, k):
            return k
    return None


def aura_problem(st: State, aura: Permanent, target_id: str | None) -> Problem | None:
    """Why ``aura`` can't enchant ``target_id`` (a player, or the key of an object: one that
    changed zones is another object, 400.7) (303.4c–d, 702.5, 702.16c), or None."""
    if target_id is None:
        return "non è assegnata a niente", []
    if derived.is_creature(st, aura):
        return "è anche una creatura e non può incantare", []
    if st.has_player(target_id):
        if st.player(target_id).lost:
            return "il giocatore che incantava ha lasciato la partita", []
        if aura.enchant not in (None, "player"):
            return "non può incantare un giocatore", []
        return None
    target = st.live(target_id)
    if target is None:
        return identity.gone(st, target_id)
    if target.id == aura.id:
        return "non può incantare se stessa", []
    if aura.enchant == "player":
        return "può incantare solo un giocatore", []
    if aura.enchant not in (None, "permanent") and not derived.is_type(st, target, aura.enchant) \
            and not derived.has_subtype(st, target, aura.enchant):
        return f"{target.name} non è un oggetto che può incantare ({aura.enchant})", []
    inst = protection.protection_from(st, target, aura)
    if inst is not None:
        return (f"{target.name} ha {protection.describe(inst, st)} e non può essere incantato "
                f"da {aura.name}", protection.variant_rule(inst, "702.16c"))
    return None


def equipment_problem(st: State, p: Permanent, target_id: str | None) -> Problem | None:
    """Why an Equipment or a Fortification can't be attached to ``target_id`` (301.5c, 301.6,
    702.16d), or None."""
    fort = kind(st, p) == "Fortification"
    need, what = ("land", "una terra") if fort else ("creature", "una creatura")
    if target_id is None:
        return None
    if st.has_player(target_id):
        return f"{st.name_of(target_id)} è un giocatore, non {what}", []
    target = st.live(target_id)
    if target is None:
        why, rules = identity.gone(st, target_id)
        if rules:
            return why, rules
    if target is None or target.phased_out or target.id == p.id \
            or not derived.is_type(st, target, need):
        return f"{st.name_of(target_id)} non è {what} sul campo di battaglia", []
    inst = protection.protection_from(st, target, p)
    if inst is not None:
        verb = "fortificata" if fort else "equipaggiata"
        return (f"{target.name} ha {protection.describe(inst, st)} e non può essere {verb} da "
                f"{p.name}", protection.variant_rule(inst, "702.16d"))
    return None


def problem(st: State, p: Permanent, target_id: str | None) -> Problem | None:
    k = kind(st, p)
    if k == "Aura":
        return aura_problem(st, p, target_id)
    if k is not None:
        return equipment_problem(st, p, target_id)
    return None
