"""Subtypes by kind (205.3), the basic land types and their intrinsic mana abilities (305.6), and
mana value (202.3): what a type-changing effect needs to know to replace "the subtypes of the
appropriate set" (205.1a) or to take a land's rules text away (305.7).

The lists are those of the edition in force (tests/engine/test_layers_subtypes.py compares them
with 205.3g–q).  A subtype in none of them is a creature type (205.3m is the longest list, and
the one that grows).
"""

from __future__ import annotations

import re
from functools import lru_cache

ARTIFACT_TYPES = frozenset((
    "Attraction", "Blood", "Bobblehead", "Book", "Clue", "Contraption", "Equipment", "Food",
    "Fortification", "Gold", "Heartwood", "Incubator", "Infinity", "Junk", "Lander", "Map",
    "Mutagen", "Powerstone", "Spacecraft", "Stone", "Treasure", "Vehicle", "Vibranium"))
ENCHANTMENT_TYPES = frozenset((
    "Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Plan", "Role", "Room", "Rune",
    "Saga", "Shard", "Shrine"))
LAND_TYPES = frozenset((
    "Cave", "Desert", "Forest", "Gate", "Island", "Lair", "Locus", "Mine", "Mountain", "Plains",
    "Planet", "Power-Plant", "Sphere", "Swamp", "Tower", "Town", "Urza’s"))
SPELL_TYPES = frozenset(("Adventure", "Arcane", "Lesson", "Omen", "Trap"))
BATTLE_TYPES = frozenset(("Siege",))
PLANESWALKER_TYPES = frozenset((
    "Ajani", "Aminatou", "Angrath", "Arlinn", "Ashiok", "Bahamut", "Basri", "Bolas", "Calix",
    "Chandra", "Comet", "Dack", "Dakkon", "Daretti", "Davriel", "Dellian", "Dihada", "Domri",
    "Dovin", "Ellywick", "Elminster", "Elspeth", "Estrid", "Freyalise", "Garruk", "Gideon",
    "Grist", "Guff", "Huatli", "Jace", "Jared", "Jaya", "Jeska", "Kaito", "Karn", "Kasmina",
    "Kaya", "Kiora", "Koth", "Liliana", "Lolth", "Lukka", "Minsc", "Mordenkainen", "Nahiri",
    "Narset", "Niko", "Nissa", "Nixilis", "Oko", "Quintorius", "Ral", "Rowan", "Saheeli",
    "Samut", "Sarkhan", "Serra", "Sivitri", "Sorin", "Szat", "Tamiyo", "Tasha", "Teferi", "Teyo",
    "Tezzeret", "Tibalt", "Tyvar", "Ugin", "Urza", "Venser", "Vivien", "Vraska", "Vronos", "Will",
    "Windgrace", "Wrenn", "Xenagos", "Yanggu", "Yanling", "Zariel"))

# 305.6: the basic land types and the mana each one's intrinsic ability adds.
BASIC_LAND_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}

# Each kind of subtype with the card types that have it (205.3g–m, q): a subtype stays only on
# an object that has one of its card types (205.1a).
KINDS = {
    "artifact": (ARTIFACT_TYPES, ("artifact",)),
    "enchantment": (ENCHANTMENT_TYPES, ("enchantment",)),
    "land": (LAND_TYPES, ("land",)),
    "spell": (SPELL_TYPES, ("instant", "sorcery")),
    "battle": (BATTLE_TYPES, ("battle",)),
    "planeswalker": (PLANESWALKER_TYPES, ("planeswalker",)),
    "creature": (frozenset(), ("creature", "kindred")),
}


@lru_cache(maxsize=4096)
def kind_of(subtype: str) -> str:
    """The set a subtype belongs to (205.3); any other is a creature type (205.3m)."""
    for kind, (names, _) in KINDS.items():
        if subtype in names:
            return kind
    return "creature"


def card_types_of(kind: str) -> tuple[str, ...]:
    return KINDS[kind][1]


def intrinsic_ability(basic: str) -> str:
    """305.6: a land with a basic land type has "{T}: Add [its mana]." """
    return f"{{T}}: Add {{{BASIC_LAND_MANA[basic]}}}."


INTRINSIC_ABILITIES = frozenset(intrinsic_ability(b) for b in BASIC_LAND_MANA)

_SYMBOL = re.compile(r"\{([^}]*)\}")


@lru_cache(maxsize=4096)
def mana_value(cost: str | None) -> int:
    """202.3: the total amount of mana in a mana cost; X is 0 (202.3e), a hybrid symbol counts
    its largest part (202.3f), a Phyrexian symbol 1 (202.3g)."""
    total = 0
    for sym in _SYMBOL.findall(cost or ""):
        values = [int(part) if part.isdigit() else 0 if part.upper() in "XYZ" else 1
                  for part in sym.split("/") if part]
        total += max(values, default=0)
    return total
