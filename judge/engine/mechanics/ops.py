"""Primitive game operations shared by turn-based actions, state-based actions
and judge actions: moving objects, drawing, life, damage, losing the game.

These functions do not decide *why* something happens; the caller passes the
rule numbers that govern it, so each rule number lives with the code that
applies it.
"""

from __future__ import annotations

from dataclasses import fields

from judge.engine import seats, terms
from judge.engine.characteristics import continuous, derived, layers, protection
from judge.engine.context import Ctx
from judge.engine.mechanics import identity, triggers
from judge.engine.state import CARD_LISTS, Card, Permanent, Player

_CARD_FIELDS = [f.name for f in fields(Card)]


def danni(n: int) -> str:
    return "1 danno" if n == 1 else f"{n} danni"


def to_card(p: Permanent) -> Card:
    """The card a permanent becomes in another zone: a new object (400.7, 122.2)."""
    return Card(**{k: getattr(p, k) for k in _CARD_FIELDS})


def to_permanent(c: Card, controller: str) -> Permanent:
    """A card entering the battlefield: untapped and phased in (110.5b)."""
    perm = Permanent(**{k: getattr(c, k) for k in _CARD_FIELDS}, controller=controller,
                     summoning_sick=True)
    if "planeswalker" in perm.types and perm.loyalty is not None:
        perm.counters["loyalty"] = perm.loyalty          # 306.5b
    if "battle" in perm.types and perm.defense is not None:
        perm.counters["defense"] = perm.defense          # 310.4b
    if "Saga" in perm.subtypes and perm.chapters:
        perm.counters["lore"] = 1                        # 714.3a
    return perm


def left_battlefield(ctx: Ctx, oid: str) -> None:
    """A permanent leaves the battlefield: it leaves combat (506.4), the continuous effects
    that affect it by name forget it (611.2c), and the requirements of this combat that name
    it do not bind the new object it becomes (400.7)."""
    remove_from_combat(ctx, oid)
    continuous.object_left(ctx.s, oid)          # its effects forget it (611.2c)
    cb = ctx.s.combat
    if cb is not None and cb.requirements:
        cb.requirements = [r for r in cb.requirements if oid not in (r["blocker"], r["attacker"])]


def remove_from_combat(ctx: Ctx, oid: str) -> None:
    """506.4: a permanent leaving the battlefield or phasing out leaves combat."""
    cb = ctx.s.combat
    if cb is None:
        return
    gone = ctx.s.perm(oid)
    walker_of = derived.controller(ctx.s, gone) if gone is not None and derived.is_type(
        ctx.s, gone, "planeswalker") else None
    cb.attackers = [a for a in cb.attackers if a["id"] != oid]
    for a in cb.attackers:
        if a["target"] == oid:
            a["target"] = None                # 506.4c: still attacking, but nothing
            if walker_of is not None:
                a["defender"] = walker_of     # 702.19e: trample over planeswalkers still needs it
    cb.blockers = [b for b in cb.blockers if b["id"] != oid]
    for b in cb.blockers:
        b["blocking"] = [x for x in b["blocking"] if x != oid]
    cb.assignments.pop(oid, None)


def take(ctx: Ctx, oid: str) -> tuple[Card, str, Player | None]:
    """Remove an object from wherever it is; returns (object, zone, zone's player)."""
    s = ctx.s
    found = s.find_card(oid)
    if found is not None:
        ctx.leaving[found[2].key] = identity.lost(s, found[2], found[1])
    for i, p in enumerate(s.battlefield):
        if p.id == oid:
            left_battlefield(ctx, oid)
            del s.battlefield[i]
            s.touch()
            return p, "battlefield", None
    for pl in s.players:
        for z in CARD_LISTS:
            zone = pl.zone(z)
            for i, c in enumerate(zone):
                if c.id == oid:
                    del zone[i]
                    s.touch()
                    return c, z, pl
    for i, item in enumerate(s.stack):
        if item.id == oid or (item.card is not None and item.card.id == oid):
            del s.stack[i]
            s.touch()
            if item.card is not None:
                return item.card, "stack", None
    raise KeyError(oid)


def put(ctx: Ctx, obj: Card, zone: str, *, controller: str | None = None,
        bottom: bool = False, player: str | None = None, created: bool = False) -> Card:
    """Put an object into a zone: the object it becomes there is a new one (400.7) unless it
    is ``created`` there (a token, 111.2).  Libraries, hands and graveyards are always the
    owner's (400.3); exile and command zone lists are kept per owner too."""
    s = ctx.s
    obj.moved_since_sba = False
    old_key = obj.key
    if zone == "battlefield":
        perm = obj if isinstance(obj, Permanent) else to_permanent(obj, controller or obj.owner)
        if controller is not None:
            perm.controller = controller
        perm.timestamp = continuous.new_timestamp(s)    # 613.7d
        s.battlefield.append(perm)
        if not created:
            became_new(ctx, old_key, perm)
        s.touch()
        return perm
    card = to_card(obj) if isinstance(obj, Permanent) else obj
    became_new(ctx, old_key, card)
    arrived(card, zone)
    owner = s.player(card.owner) if s.has_player(card.owner) else s.player(player or s.players[0].id)
    dest = owner.zone(zone)
    if zone == "library":
        if bottom:
            dest.append(card)
        else:
            dest.insert(0, card)
    else:
        dest.append(card)
    s.touch()
    return card


def move(ctx: Ctx, oid: str, zone: str, *, controller: str | None = None,
         bottom: bool = False) -> tuple[Card, str]:
    """Move an object to a zone (the new object keeps its id). Returns (new, from)."""
    obj, src, _ = take(ctx, oid)
    new = put(ctx, obj, zone, controller=controller, bottom=bottom)
    return new, src


def became_new(ctx: Ctx, old_key: str, new: Card) -> None:
    """400.7: ``new`` is a new object; the log says so when the engine held something about
    the old one (:func:`identity.lost`, noted as it left its zone)."""
    new.incarnation += 1
    identity.note_new_object(ctx, old_key, new, ctx.leaving.pop(old_key, []))


def arrived(card: Card, zone: str) -> None:
    """Note a commander put into a graveyard or exile, for 704.6d."""
    card.moved_since_sba = card.commander and zone in ("graveyard", "exile")


def clear_references(ctx: Ctx, key: str) -> None:
    """An object ceased to exist: nothing stays attached to it."""
    for p in ctx.s.battlefield:
        if p.attached_to == key:
            p.attached_to = None


def remove_stun(p: Permanent) -> bool:
    """122.1d: instead of untapping, a permanent with a stun counter loses one.  True if it did."""
    if p.counters.get("stun", 0) <= 0:
        return False
    p.counters["stun"] -= 1
    if not p.counters["stun"]:
        del p.counters["stun"]
    return True


def untap(ctx: Ctx, p: Permanent, rules: list[str]) -> bool:
    """Untap ``p`` as a game action would: with a stun counter it stays tapped and loses the
    counter instead (122.1d).  True if it untapped."""
    if remove_stun(p):
        left = p.counters.get("stun", 0)
        ctx.emit(rules + ["122.1d"], f"{p.name} ha un segnalino stordimento: invece di "
                 f"{terms.italian('untap')[:-1]}si perde il segnalino"
                 + (f" (ne restano {left})" if left else "") + " e resta TAPpato.", "stun",
                 objects=[p.id])
        return False
    p.tapped = False
    ctx.emit(rules, f"{p.name} viene {terms.done('untap')}.", "untap", objects=[p.id])
    return True


def draw(ctx: Ctx, pl: Player, rules: list[str]) -> None:
    """One card draw (121.1); from an empty library, 121.4 (then 704.5b)."""
    if not pl.library:
        pl.attempted_draw_from_empty_library = True
        ctx.emit(rules + ["121.4"], f"{pl.name} tenta di pescare da un grimorio vuoto: "
                 "perderà la partita alla prossima verifica delle azioni di stato.",
                 "draw_empty", players=[pl.id])
        return
    card = pl.library.pop(0)
    card.incarnation += 1                             # a new object in the hand (400.7)
    pl.hand.append(card)
    ctx.emit(rules, f"{pl.name} {terms.verb('draw')} una carta ({card.name}).", "draw",
             objects=[card.id], players=[pl.id])


def draw_cards(ctx: Ctx, pl: Player, count: int, rules: list[str]) -> None:
    """``count`` draws, one at a time (121.2).  The work is bounded by the library: once
    it is empty, one event records every further attempt (121.4; 704.5b needs one)."""
    n = min(count, len(pl.library))
    for _ in range(n):
        draw(ctx, pl, rules)
    attempts = count - n
    if attempts == 1:
        draw(ctx, pl, rules)
    elif attempts > 1:
        pl.attempted_draw_from_empty_library = True
        more = " in più" if n else ""
        ctx.emit(rules + ["121.4"], f"{pl.name} tenta di pescare {attempts} carte{more} da un "
                 "grimorio vuoto: perderà la partita alla prossima verifica delle azioni di "
                 "stato.", "draw_empty", players=[pl.id], attempts=attempts)


def life_group(ctx: Ctx, pl: Player) -> list[Player]:
    """Players whose life total moves together: the team in Two-Headed Giant (810.9)."""
    if ctx.s.variant == "two-headed-giant":
        return seats.teammates(ctx.s, pl.id)
    return [pl]


def can_gain_life(ctx: Ctx, pl: Player) -> bool:
    return not any(layers.player(ctx.s, p.id)["cant_gain_life"]       # 119.7, 810.9g, 613.10
                   for p in life_group(ctx, pl))


def can_lose_life(ctx: Ctx, pl: Player) -> bool:
    return not any(layers.player(ctx.s, p.id)["cant_lose_life"]       # 119.8, 810.9h, 613.10
                   for p in life_group(ctx, pl))


def change_life(ctx: Ctx, pl: Player, delta: int, rules: list[str], cause: str = "") -> int:
    """Gain (delta > 0) or lose life; returns the change actually applied."""
    if delta == 0:
        return 0
    who = pl.name
    group = life_group(ctx, pl)
    team_note = " (totale della squadra)" if len(group) > 1 else ""
    if delta > 0 and not can_gain_life(ctx, pl):
        ctx.emit(rules + ["119.7"], f"{who} non può guadagnare punti vita{cause}.",
                 "life_prevented", players=[pl.id])
        return 0
    if delta < 0 and not can_lose_life(ctx, pl):
        ctx.emit(rules + ["119.8"], f"{who} non può perdere punti vita{cause}.",
                 "life_prevented", players=[pl.id])
        return 0
    before = pl.life
    after = before + delta
    for p in group:
        p.life = after
    verb = "guadagna" if delta > 0 else "perde"
    ctx.emit(rules, f"{who} {verb} {abs(delta)} punti vita{cause}: {before} → {after}{team_note}.",
             "life", players=[p.id for p in group], delta=delta, life=after)
    if delta < 0:
        triggers.life_lost(ctx, group)
    return delta


def add_poison(ctx: Ctx, pl: Player, n: int, rules: list[str], cause: str = "") -> None:
    group = life_group(ctx, pl)                       # 810.10: shared by the team
    before = pl.poison
    for p in group:
        p.poison = before + n
    ctx.emit(rules, f"{pl.name} riceve {n} segnalini veleno{cause}: {before} → {before + n}.",
             "poison", players=[p.id for p in group], delta=n, poison=before + n)


def source_controller(ctx: Ctx, source: Card | None, default: str | None) -> str | None:
    if isinstance(source, Permanent):
        return derived.controller(ctx.s, source)
    if source is not None and source.owner:
        return source.owner
    return default


def deal_damage(ctx: Ctx, source: Card | None, target_id: str, amount: int,
                rules: list[str], *, combat: bool = False,
                source_controller_id: str | None = None, lifelink: bool = True) -> int:
    """Deal damage and process its results (120.3a–h, 702.2b, 702.15b).  Returns the
    damage dealt.  ``lifelink=False``: the caller makes the life gain itself (combat
    damage: one life gain event per source, 702.15b, 702.15e)."""
    s = ctx.s
    if amount <= 0:
        return 0                                         # 120.8
    if source is not None and prevented_by_protection(ctx, source, target_id, amount,
                                                      source_controller_id, rules):
        return 0
    src_name = source.name if source is not None else "una fonte"  # a capital at a sentence's start (italian.tidy)
    kw = (lambda k: derived.has_kw(s, source, k)) if source is not None else (lambda k: False)
    if s.has_player(target_id):
        pl = s.player(target_id)
        if kw("infect"):
            add_poison(ctx, pl, amount, rules + ["120.3b", "702.90b"],
                       f" per il danno inflitto da {src_name}")
        else:
            if can_lose_life(ctx, pl):
                change_life(ctx, pl, -amount, rules + ["120.3a"], f" per il danno inflitto da {src_name}")
            else:
                ctx.emit(rules + ["120.3a", "119.8"],
                         f"{src_name} infligge {danni(amount)} a {pl.name}, che però non può "
                         "perdere punti vita.", "damage", objects=[source.id] if source else [],
                         players=[pl.id])
        if combat and source is not None and source.commander:
            pl.commander_damage[source.id] = pl.commander_damage.get(source.id, 0) + amount
            ctx.emit(["903.10a"], f"{pl.name} ha subito in totale "
                     f"{pl.commander_damage[source.id]} danni da combattimento dal comandante "
                     f"{src_name}.", "commander_damage", objects=[source.id], players=[pl.id],
                     total=pl.commander_damage[source.id])
    else:
        perm = s.perm(target_id)
        if perm is None or perm.phased_out:
            return 0
        parts = []
        if derived.is_creature(s, perm):
            if kw("infect") or kw("wither"):
                perm.counters["-1/-1"] = perm.counters.get("-1/-1", 0) + amount
                s.touch()                                   # 613.4c: its toughness changes
                r = ["120.3d", "702.90c" if kw("infect") else "702.80a"]
                ctx.emit(rules + r, f"{src_name} infligge {danni(amount)} a {perm.name}: "
                         f"{amount} segnalin{'o' if amount == 1 else 'i'} -1/-1 su {perm.name}.", "damage",
                         objects=[perm.id] + ([source.id] if source else []), amount=amount)
            else:
                perm.damage += amount
                ctx.emit(rules + ["120.3e"], f"{src_name} infligge {danni(amount)} a {perm.name} "
                         f"(danno segnato: {perm.damage}).", "damage",
                         objects=[perm.id] + ([source.id] if source else []), amount=amount)
            if kw("deathtouch"):
                perm.damaged_by_deathtouch = True
                ctx.emit(["702.2b"], f"{perm.name} ha subito danno da una fonte con tocco letale.",
                         "deathtouch", objects=[perm.id])
            parts.append("creature")
        if derived.is_type(s, perm, "planeswalker"):
            before = derived.loyalty(perm)
            perm.counters["loyalty"] = max(0, before - amount)
            ctx.emit(rules + ["120.3c"], f"{src_name} infligge {danni(amount)} a {perm.name}: "
                     f"fedeltà {before} → {perm.counters['loyalty']}.", "damage",
                     objects=[perm.id], amount=amount)
            parts.append("planeswalker")
        if derived.is_type(s, perm, "battle"):
            before = derived.defense(perm)
            perm.counters["defense"] = max(0, before - amount)
            ctx.emit(rules + ["120.3h"], f"{src_name} infligge {danni(amount)} a {perm.name}: "
                     f"difesa {before} → {perm.counters['defense']}.", "damage",
                     objects=[perm.id], amount=amount)
            parts.append("battle")
            if before > 0 and perm.counters["defense"] == 0:
                triggers.last_defense_removed(ctx, perm)
        if not parts:
            return 0
    if lifelink:
        gain_from_lifelink(ctx, source, amount, source_controller_id)
    return amount


def prevented_by_protection(ctx: Ctx, source: Card, target_id: str, amount: int,
                            controller: str | None, rules: list[str]) -> bool:
    """702.16e: damage a source with the stated quality would deal to a permanent with
    protection is prevented; prevented damage never happens (615.6): no life is lost, no
    counters, no deathtouch, no lifelink."""
    perm = ctx.s.perm(target_id)
    if perm is None or perm.phased_out:
        return False
    inst = protection.protection_from(ctx.s, perm, source, controller)
    if inst is None:
        return False
    ctx.emit(rules + protection.variant_rule(inst, "702.16e") + ["615.6"],
             f"{perm.name} ha {protection.describe(inst, ctx.s)}: {danni(amount)} che "
             f"{source.name} gli infliggerebbe {'è prevenuto' if amount == 1 else 'sono prevenuti'}"
             " e non viene inflitto nulla.",
             "damage_prevented", objects=[perm.id, source.id], amount=amount)
    return True


def gain_from_lifelink(ctx: Ctx, source: Card | None, amount: int,
                       default_controller: str | None = None, rules: tuple = ()) -> None:
    """702.15b: damage from a source with lifelink makes its controller gain that much life."""
    if source is None or amount <= 0 or not derived.has_kw(ctx.s, source, "lifelink"):
        return
    ctrl_id = source_controller(ctx, source, default_controller)
    if ctrl_id is not None and ctx.s.has_player(ctrl_id):
        change_life(ctx, ctx.s.player(ctrl_id), amount, ["120.3f", "702.15b", *rules],
                    f" grazie al legame vitale di {source.name}")
