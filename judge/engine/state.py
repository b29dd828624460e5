"""Plain data classes for a game state (no behaviour beyond look-ups).

The JSON form of these classes is the scenario format (see the scenario package and
docs/scenario-format.md); ``scenario.scenario_json.to_dict`` writes it, ``scenario.parse.parse``
reads and validates it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

CARD_TYPES = ("creature", "land", "artifact", "enchantment", "planeswalker", "scheme",
              "battle", "instant", "sorcery", "kindred", "dungeon", "plane", "phenomenon")
PERMANENT_TYPES = ("creature", "land", "artifact", "enchantment", "planeswalker", "battle")
SUPERTYPES = ("legendary", "world", "basic", "snow")
ZONES = ("hand", "library", "graveyard", "exile", "command")
# Every per-player card list: the five zones plus the face-down decks of variants
# (Archenemy's scheme deck, Planechase's planar deck).
CARD_LISTS = ZONES + ("scheme_deck", "planar_deck")
COPY_KINDS = ("spell", "card")            # 704.5e: a copy of a spell, a copy of a card
SECTORS = ("alpha", "beta", "gamma")      # 702.158b
VARIANTS = ("two-player", "free-for-all", "commander", "two-headed-giant",
            "brawl", "archenemy", "vanguard")
MANA = ("W", "U", "B", "R", "G", "C")
MANA_COLORS = ("W", "U", "B", "R", "G")  # the five colours, by their mana symbols (105.1)


def object_key(oid: str, incarnation: int) -> str:
    """The identity of one object (400.7): a card keeps its id across zones, and each time it
    moves it becomes a new object, «orso», then «orso#2», «orso#3» …"""
    return oid if incarnation <= 1 else f"{oid}#{incarnation}"


def split_key(ref: str) -> tuple[str, int]:
    """«orso#2» → ("orso", 2); an id without a number is the first object (1)."""
    base, sep, n = ref.rpartition("#")
    if sep and base and n.isdigit() and int(n) >= 2:
        return base, int(n)
    return ref, 1


@dataclass
class Card:
    """A card (or token) in any zone; on the battlefield see :class:`Permanent`."""

    id: str
    name: str
    types: list[str] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    supertypes: list[str] = field(default_factory=list)
    power: int | None = None
    toughness: int | None = None
    loyalty: int | None = None        # printed loyalty (306.5a)
    defense: int | None = None        # printed defense (310.4a)
    token: bool = False
    owner: str = ""
    keywords: list[str] = field(default_factory=list)   # canonical texts, see keywords.py
    # Tuples, not lists: empty on most objects, and an empty tuple costs nothing to snapshot.
    colors: tuple[str, ...] = ()      # "W", "U", "B", "R", "G" (105.1, 202.2)
    chapters: int | None = None       # Saga final chapter number (714.2d)
    enchant: str | None = None        # Aura: "creature", "land", "permanent", "player", …
    commander: bool = False
    ongoing: bool = False             # scheme cards (Archenemy)
    notes: str | None = None
    copy: str | None = None           # "spell" or "card": a copy that ceases to exist (704.5e)
    rooms: list[dict] = field(default_factory=list)   # dungeon rooms, top first (309.4)
    venture_marker: str | None = None                  # the room the marker is on (309.4)
    moved_since_sba: bool = False     # put into its zone since the last SBA check (704.6d)
    card: str | None = None           # the card of the table it is (English name; judge.cards)
    mana_cost: str | None = None      # "{1}{G}" (202.1)
    incarnation: int = 1              # 1 + the zone changes it made: each made a new object (400.7)

    @property
    def key(self) -> str:
        """This object's identity, for what the engine holds about it: «orso», «orso#2»."""
        return object_key(self.id, self.incarnation)


@dataclass
class Permanent(Card):
    """A card or token on the battlefield."""

    controller: str = ""
    tapped: bool = False
    damage: int = 0
    damaged_by_deathtouch: bool = False
    counters: dict[str, int] = field(default_factory=dict)
    summoning_sick: bool = False
    phased_out: bool = False
    phased_out_indirectly: bool = False
    doesnt_untap: bool = False
    attached_to: str | None = None
    protector: str | None = None
    max_counters: dict[str, int] = field(default_factory=dict)
    sector: str | None = None         # space sculptor's sector designation (702.158b)
    control_effect: bool = False      # controlled through an effect, not by default (110.2, 800.4a)
    goaded_by: tuple[str, ...] = ()   # players who goaded it (701.15)
    # Its timestamp (613.7d, 613.7e): the order in which continuous effects apply (613.7).  A file
    # without timestamps numbers the battlefield in its order, 1, 2, 3… (scenario.scenario_effects).
    timestamp: int = 0
    face_down: bool = False           # 708.2a: a 2/2 creature with no name, text, subtypes, cost
    # Keyword counters' timestamps (613.7c: each counter of a kind shares the newest one); a kind
    # not listed has the permanent's own timestamp.
    counter_timestamps: dict[str, int] = field(default_factory=dict)


@dataclass
class Effect:
    """A continuous effect (611) as data: docs/scenario-format.md («Effetti continui»), checked by
    ``effect_schema``, applied by ``characteristics.layers`` in the layers of 613.

    ``kind`` "static": generated by a static ability (611.3) of ``source``, which has it printed
    (or, with ``granted_by``, gets it from that other effect); it exists while an object on the
    battlefield has the ability, and its timestamp is that object's (613.7a).  ``kind``
    "resolved": generated by a spell or ability that resolved (611.2), with its own timestamp
    (613.7b) and ``duration``.  ``affects`` says which objects or players (a selector), ``does``
    what happens to them (operations, each in its layer), ``condition`` an "as long as"."""

    id: str
    text: str = ""
    source: str | None = None
    kind: str = "static"                     # "static" | "resolved"
    controller: str | None = None            # resolved: who controlled the spell or ability
    affects: Any = "self"                    # "self" | "attached" | {"objects"|"filter"|"players"}
    does: list[dict] = field(default_factory=list)
    duration: str = "game"                   # resolved: "end_of_turn" | "game" | "source"
    condition: dict | None = None
    cda: bool = False                        # a characteristic-defining ability (604.3)
    timestamp: int | None = None             # resolved: 613.7b; static: None = its object's
    granted_by: str | None = None            # static: the effect that grants the ability
    card: str | None = None                  # the card of the table whose text it is
    # --- replacement and prevention effects (614, 615; checked by replacement_schema) -----------
    # With ``event`` set the record is one: ``does`` stays empty (the layers never see it), and
    # it watches that event (``when`` narrows it) and replaces it with ``instead`` — or, with
    # ``cant``, says the event can't happen (614.17).  ``uses``: how many more times it applies
    # ("the next time": 1; None: always); ``shield``: the damage it may still prevent (615.7).
    event: str | None = None
    when: dict | None = None
    instead: list[dict] = field(default_factory=list)
    cant: bool = False
    self_replacement: bool = False           # 614.15: applied before the others (616.1a)
    optional: bool = False                   # "you may": its affected player chooses (616.1)
    uses: int | None = None
    shield: int | None = None
    functions_in: list[str] | None = None    # 113.6b: zones where a static one works
    # 614.10b: a skip's «then …»: a judge action ({"act": name, …params}) done as the first
    # thing of the next step, phase or turn that occurs (mechanics.skipping, skip_schema).
    then: dict | None = None


@dataclass
class Player:
    id: str
    name: str
    team: str = ""
    life: int = 20
    poison: int = 0
    max_hand_size: int | None = 7
    hand: list[Card] = field(default_factory=list)
    library: list[Card] = field(default_factory=list)   # top first
    graveyard: list[Card] = field(default_factory=list)  # top last
    exile: list[Card] = field(default_factory=list)
    command: list[Card] = field(default_factory=list)
    mana_pool: dict[str, int] = field(default_factory=dict)
    commander_damage: dict[str, int] = field(default_factory=dict)
    cant_gain_life: bool = False
    cant_lose_life: bool = False
    lost: bool = False
    attempted_draw_from_empty_library: bool = False
    archenemy: bool = False
    scheme_deck: list[Card] = field(default_factory=list)  # top first
    planar_deck: list[Card] = field(default_factory=list)  # top first (Planechase, 901.3)
    speed: int | None = None          # None: no speed (702.179b)
    completed_dungeons: list[str] = field(default_factory=list)   # 309.7

    def zone(self, name: str) -> list[Card]:
        return getattr(self, name)


@dataclass
class Turn:
    number: int = 1
    active_player: str = ""
    step: str = "precombat_main"
    spells_cast: dict[str, int] = field(default_factory=dict)
    last_turn: dict[str, Any] | None = None   # {"active_player", "spells_cast"}
    cleanup_again: bool = False               # 514.3a: another cleanup step follows
    speed_triggered: list[str] = field(default_factory=list)   # 702.179d: once each turn
    # 500.7: extra turns after this one, the next first (the most recently created is first);
    # ``extra_after``: this is an extra turn, taken after that player's turn (the turn order
    # goes on from their seat).
    extra_turns: list[str] = field(default_factory=list)
    extra_after: str | None = None
    # 500.8–500.10: the phases of this turn once an effect has added a phase or a step to it
    # (None: the five of 500.1, each with its steps); ``phase_at`` the current one's index,
    # ``step_at`` the current step's index in that phase's ``steps`` when it lists them.
    # mechanics/turn_plan.py reads and changes them; docs/scenario-format.md («Turno»).
    phases: list[dict] | None = None
    phase_at: int = 0
    step_at: int | None = None
    # 614.10b: what skip effects do after skipping, waiting for the next step, phase or turn
    # to actually occur: {"act", "params", "by", "skipped", "player"}.
    after_skip: list[dict] = field(default_factory=list)


@dataclass
class Combat:
    defending_players: list[str] = field(default_factory=list)
    attackers: list[dict] = field(default_factory=list)   # {"id", "target", "blocked"}
    blockers: list[dict] = field(default_factory=list)    # {"id", "blocking": [ids]}
    attackers_declared: bool = False
    blockers_declared_by: list[str] = field(default_factory=list)
    first_strikers: list[str] | None = None   # creatures with first/double strike as 510.4 began
    dealt_first_strike: list[str] = field(default_factory=list)
    assignments: dict[str, dict[str, int]] = field(default_factory=dict)
    assigned_by: list[str] = field(default_factory=list)
    # Blocking requirements created this combat (provoke, 702.39a): {"blocker", "attacker", "rules"}
    requirements: list[dict] = field(default_factory=list)
    # Delayed triggered abilities "at end of combat" (603.7, 511.2): the triggers to queue then
    delayed: list[dict] = field(default_factory=list)


@dataclass
class StackItem:
    id: str
    kind: str            # "spell" | "ability"
    controller: str
    text: str = ""
    card: Card | None = None     # for spells
    source: str | None = None    # for abilities (permanent id)
    rules: list[str] = field(default_factory=list)   # the rule that makes it trigger
    effect: dict | None = None   # what the engine does as it resolves (registry EFFECTS)
    targets: list[str] = field(default_factory=list)   # chosen as it was put on the stack (601.2c)


@dataclass
class State:
    title: str = ""
    variant: str = "two-player"
    players: list[Player] = field(default_factory=list)
    battlefield: list[Permanent] = field(default_factory=list)
    stack: list[StackItem] = field(default_factory=list)   # bottom first
    turn: Turn = field(default_factory=Turn)
    day_night: str | None = None
    monarch: str | None = None
    initiative: str | None = None
    planar_controller: str | None = None    # None: the active player (901.6)
    waiting_triggers: list[dict] = field(default_factory=list)  # triggered, not yet on the stack
    # Abilities «at the beginning of» a step (603.2b), delayed ones too (603.7): step_triggers.py
    step_triggers: list[dict] = field(default_factory=list)
    combat: Combat | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    random_calls: int = 0
    result: dict | None = None
    pending: dict | None = None
    procedure: list[str] = field(default_factory=list)
    answers: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)    # description, rules, expected, …
    next_id: int = 1
    effects: list[Effect] = field(default_factory=list)    # continuous effects (611, 613)
    last_timestamp: int = 0      # the newest timestamp given (613.7); the next one is above it

    # --- the characteristics' cache (characteristics.layers) -------------------------------
    # ``version`` changes with every change that may change a characteristic; the layers'
    # result is cached for one version.  Neither is part of the state: not compared, not pickled.
    def touch(self) -> None:
        """Something that may change a characteristic has changed: the cached layers are stale."""
        self._version = getattr(self, "_version", 0) + 1

    def __getstate__(self) -> dict:
        d = dict(self.__dict__)
        d.pop("_layers", None)
        d.pop("_version", None)
        return d

    # --- look-ups -------------------------------------------------------
    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def has_player(self, pid: str) -> bool:
        return any(p.id == pid for p in self.players)

    def perm(self, oid: str) -> Permanent | None:
        """The permanent with id ``oid`` (whichever object it is now), or with key ``oid``."""
        for p in self.battlefield:
            if p.id == oid:
                return p
        base, n = split_key(oid)
        if n > 1:
            for p in self.battlefield:
                if p.id == base and p.incarnation == n:
                    return p
        return None

    def live(self, ref: str | None) -> Permanent | None:
        """The permanent that is exactly the object ``ref`` names (its key), or None: a
        reference to an object that changed zones finds nothing (400.7)."""
        p = self.perm(ref) if ref else None
        return p if p is not None and p.key == ref else None

    def resolve(self, ref: str | None) -> Card | None:
        """The object ``ref`` names, in any zone, if it is still that object (400.7)."""
        found = self.find_card(ref) if ref else None
        return found[2] if found is not None and found[2].key == ref else None

    def ref_in(self, text: str) -> str:
        """A reference as a judge or a scenario file writes it → the key the engine holds:
        an id names the object it is now, «orso#N» the N-th object that card has been."""
        if self.has_player(text):
            return text
        found = self._find_id(text)
        if found is not None:
            return found[2].key
        base, sep, n = text.rpartition("#")
        if sep and base and n.isdigit() and int(n) >= 1 and self._find_id(base) is not None:
            return object_key(base, int(n))
        return text          # unknown, or an object that no longer exists anywhere («pedina3#1»)

    def ref_out(self, key: str) -> str:
        """A key the engine holds → as a scenario file writes it: the id when it is the object
        that card is now, «orso#N» (from #1) when it is an earlier one."""
        if self.has_player(key):
            return key
        now = self.resolve(key)
        if now is not None:
            return now.id
        base, n = split_key(key)
        if n == 1 and "#" in key:
            return key                                   # already written so («pedina3#1»)
        return f"{base}#{n}"

    def perm_index(self) -> dict[str, Permanent]:
        return {p.id: p for p in self.battlefield}

    def in_game(self) -> list[Player]:
        return [p for p in self.players if not p.lost]

    def phased_in(self) -> Iterator[Permanent]:
        return (p for p in self.battlefield if not p.phased_out)

    def find_card(self, oid: str) -> tuple[Player | None, str, Card] | None:
        """Locate an object anywhere by its id (whichever object it is now) or its key:
        (zone owner or None, zone name, object)."""
        found = self._find_id(oid)
        if found is not None:
            return found
        base, n = split_key(oid)
        if n > 1:
            found = self._find_id(base)
            if found is not None and found[2].incarnation == n:
                return found
        return None

    def _find_id(self, oid: str) -> tuple[Player | None, str, Card] | None:
        p = self.perm(oid)
        if p is not None:
            return None, "battlefield", p
        for pl in self.players:
            for z in CARD_LISTS:
                for c in pl.zone(z):
                    if c.id == oid:
                        return pl, z, c
        for item in self.stack:
            if item.card is not None and item.card.id == oid:
                return None, "stack", item.card
        return None

    def all_ids(self) -> set[str]:
        ids = {p.id for p in self.players}
        ids.update(p.id for p in self.battlefield)
        for pl in self.players:
            for z in CARD_LISTS:
                ids.update(c.id for c in pl.zone(z))
        for item in self.stack:
            ids.add(item.id)
            if item.card is not None:
                ids.add(item.card.id)
        ids.update(t["id"] for t in self.waiting_triggers)
        return ids

    def new_id(self, prefix: str) -> str:
        ids = self.all_ids()
        while True:
            cand = f"{prefix}{self.next_id}"
            self.next_id += 1
            if cand not in ids:
                return cand

    def name_of(self, oid: str | None) -> str:
        if oid is None:
            return "?"
        if self.has_player(oid):
            return self.player(oid).name
        found = self.find_card(oid) or self._find_id(split_key(oid)[0])
        if found:
            return found[2].name
        for item in self.stack:
            if item.id == oid:
                return item.text or item.id
        return oid
