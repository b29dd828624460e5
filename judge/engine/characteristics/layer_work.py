"""An object's characteristics as the layers compute them: :class:`Work` while effects apply
(mutable, cheap to clone for the dependency test of 613.8a), :class:`Chars` once they are done.

613.1: the values start from the actual object: a card's printed values, a token's or a copy's
as the effect that made it defined them (``printed``).  Its static abilities are its keywords and
the effects of the file that name it as their source (``@id``, see state.Effect).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.engine.characteristics import subtypes as st_kinds
from judge.engine.state import Card, Effect, Permanent

CHARACTERISTICS = ("name", "mana_cost", "types", "subtypes", "supertypes", "colors",
                   "abilities", "power", "toughness", "loyalty")


@dataclass(frozen=True)
class Chars:
    """What an object is and has right now (the layers' result)."""

    name: str | None
    mana_cost: str | None
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    colors: tuple[str, ...]
    abilities: tuple[str, ...]       # keywords (English), "@id" static abilities, other texts
    power: int | None
    toughness: int | None
    loyalty: int | None
    controller: str | None
    every_creature_type: bool = False   # changeling and the like (702.73a)
    face_down: bool = False

    def has_subtype(self, name: str) -> bool:
        if name in self.subtypes:
            return True
        return (self.every_creature_type and st_kinds.kind_of(name) == "creature"
                and bool({"creature", "kindred"} & set(self.types)))

    @property
    def mana_value(self) -> int:
        return st_kinds.mana_value(self.mana_cost)

    def to_json(self) -> dict:
        return {"name": self.name, "mana_cost": self.mana_cost, "types": list(self.types),
                "subtypes": list(self.subtypes) + (["*"] if self.every_creature_type else []),
                "supertypes": list(self.supertypes), "colors": list(self.colors),
                "abilities": [a for a in self.abilities if not a.startswith("@")],
                "static_abilities": [a[1:] for a in self.abilities if a.startswith("@")],
                "power": self.power, "toughness": self.toughness, "controller": self.controller}


@dataclass
class Work:
    """One object while the layers are applied to it."""

    oid: str
    zone: str
    owner: str
    name: str | None
    mana_cost: str | None
    types: list[str]
    subtypes: list[str]
    supertypes: list[str]
    colors: list[str]
    abilities: list[str]
    power: int | None
    toughness: int | None
    loyalty: int | None
    controller: str | None
    token: bool = False
    attached_to: str | None = None
    timestamp: int = 0
    every_creature_type: bool = False
    face_down: bool = False
    text_changes: list[tuple[str, str]] = field(default_factory=list)   # layer 3, in order
    cant_have: set[str] = field(default_factory=set)                   # layer 6
    copiable: Chars | None = None        # its values after layer 1 (613.2c)
    rules_text_lost: bool = False        # 305.7

    def clone(self) -> "Work":
        w = Work(**{k: getattr(self, k) for k in self.__dataclass_fields__})
        for k in ("types", "subtypes", "supertypes", "colors", "abilities", "text_changes"):
            setattr(w, k, list(getattr(self, k)))
        w.cant_have = set(self.cant_have)
        return w

    def has_subtype(self, name: str) -> bool:
        if name in self.subtypes:
            return True
        return (self.every_creature_type and st_kinds.kind_of(name) == "creature"
                and bool({"creature", "kindred"} & set(self.types)))

    def chars(self, raw: bool = False) -> Chars:
        """The result; ``raw``: keep power and toughness on a noncreature permanent (its
        copiable values, 707.2), which otherwise has none (208.3)."""
        creature_or_card = raw or "creature" in self.types or self.zone != "battlefield"
        return Chars(
            name=self.name, mana_cost=self.mana_cost, types=tuple(self.types),
            subtypes=tuple(self.subtypes), supertypes=tuple(self.supertypes),
            colors=tuple(self.colors), abilities=tuple(self.abilities),
            # 208.3: a noncreature permanent has no power or toughness
            power=self.power if creature_or_card else None,
            toughness=self.toughness if creature_or_card else None,
            loyalty=self.loyalty, controller=self.controller,
            every_creature_type=self.every_creature_type, face_down=self.face_down)

    def value(self, what: str):
        """A characteristic, as shown in the explanation (lists as tuples)."""
        v = getattr(self, what)
        return tuple(v) if isinstance(v, list) else v


def printed_abilities(c: Card, static_of: dict[str, list[Effect]]) -> list[str]:
    """The abilities printed on ``c`` (613.1): its keywords, then its static abilities."""
    return list(c.keywords) + [f"@{e.id}" for e in static_of.get(c.id, ())]


def start(c: Card, zone: str, static_of: dict[str, list[Effect]], controller: str | None,
          timestamp: int) -> Work:
    """The object's values before any layer (613.1)."""
    perm = isinstance(c, Permanent)
    return Work(
        oid=c.id, zone=zone, owner=c.owner, name=c.name, mana_cost=c.mana_cost,
        types=list(c.types), subtypes=list(c.subtypes), supertypes=list(c.supertypes),
        colors=list(c.colors), abilities=printed_abilities(c, static_of), power=c.power,
        toughness=c.toughness, loyalty=c.loyalty, controller=controller, token=c.token,
        attached_to=c.attached_to if perm else None, timestamp=timestamp,
        face_down=bool(perm and c.face_down))


def plain(c: Card, static_of: dict[str, list[Effect]], controller: str | None = None) -> Chars:
    """The characteristics of an object no effect reaches: its own values (with its
    face-down status, 708.2a)."""
    w = start(c, "battlefield" if isinstance(c, Permanent) else "", static_of, controller, 0)
    if w.face_down:
        face_down(w)
    return w.chars()


def face_down(w: Work) -> None:
    """708.2a: a 2/2 face-down creature with no text, no name, no subtypes and no mana cost
    (and, having no characteristics other than those, no colour and no supertype: 708.2)."""
    w.name, w.mana_cost = None, None
    w.types, w.subtypes, w.supertypes, w.colors, w.abilities = ["creature"], [], [], [], []
    w.power, w.toughness, w.loyalty = 2, 2, None
    w.every_creature_type = False
    w.face_down = True
