"""Primitive game operations shared by turn-based actions, state-based actions
and judge actions: moving objects, drawing, life, counters, tokens (damage: damage.py).

Every one of them is an event that replacement and prevention effects may change before it
happens (614–616): it goes through one path, :func:`happen` — the event described
(``happening.Happening``), changed by ``replacement.modify``, then performed here (or by the
performer its module registers in ``PERFORM``).

These functions do not decide *why* something happens; the caller passes the
rule numbers that govern it, so each rule number lives with the code that
applies it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable

from judge.engine import seats, terms
from judge.engine.characteristics import continuous, derived, keywords, layers
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import identity, replacement, triggers
from judge.engine.mechanics.happening import Happening
from judge.engine.state import CARD_LISTS, Card, Effect, Permanent, Player

_CARD_FIELDS = [f.name for f in fields(Card)]
MAX_REPLACED_DRAWS = 1000       # draws replaced one by one in a single call (614.11a)
MAX_TOKENS = 1000               # tokens one event may create, doublings included


# --- the one path of events (614–616) ----------------------------------------------------------

# What performs each kind of event once replacement effects are done with it.
PERFORM: dict[str, Callable[[Ctx, Happening], Any]] = {}


def happen(ctx: Ctx, events: list[Happening]) -> list[tuple[Happening, Any]]:
    """Simultaneous events, as replacement and prevention effects change them, performed:
    (the event that happened, what its performer returned) for each."""
    return [(h, PERFORM[h.kind](ctx, h)) for h in replacement.modify(ctx, events)]


def performer(kind: str):
    def deco(fn):
        PERFORM[kind] = fn
        return fn
    return deco


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
         bottom: bool = False, cause: str | None = None, by_effect: bool = True
         ) -> tuple[Card, str]:
    """Move an object to a zone (the new object keeps its id), through the one path of events:
    a replacement effect may send it elsewhere or keep it where it is (614).  ``cause``:
    "destroy" (701.8a; ``by_effect`` False for 704.5g–h, 122.1c), "sacrifice", "discard",
    "mill", … .  Returns (the object where it is now, where it was)."""
    found = ctx.s.find_card(oid)
    src = found[1] if found else ""
    h = Happening("zone", obj=oid, origin=src, dest=zone, cause=cause, by_effect=by_effect,
                  controller=controller if zone == "battlefield" else None,
                  position="bottom" if bottom else None)
    return _now(ctx, oid, happen(ctx, [h]), found[2] if found else None), src


def arrive(ctx: Ctx, obj: Card, zone: str, *, origin: str | None,
           controller: str | None = None, cause: str | None = None) -> Card:
    """An object already out of its zone (a spell that finished resolving, ``origin``
    "stack"; a token being created, ``origin`` None) is put into ``zone`` through the one
    path of events.  Returns the object where it ends up."""
    h = Happening("zone", obj=obj.id, origin=origin, dest=zone, cause=cause,
                  controller=controller if zone == "battlefield" else None,
                  extra={"card": obj})
    return _now(ctx, obj.id, happen(ctx, [h]), obj)


def _now(ctx: Ctx, oid: str, done: list[tuple[Happening, Any]], before: Card | None) -> Card:
    for h, new in done:
        if h.kind == "zone" and h.obj == oid and new is not None:
            return new
    found = ctx.s.find_card(oid)
    return found[2] if found else before


@performer("zone")
def _perform_move(ctx: Ctx, h: Happening) -> Card | None:
    card = h.extra.get("card")
    if card is None:
        if ctx.s.find_card(h.obj) is None:
            return None                        # 614.6: an instruction that can't be carried out
        card, _, _ = take(ctx, h.obj)
    if h.dest == "battlefield":
        return _enter(ctx, card, h)
    new = put(ctx, card, h.dest, bottom=h.position == "bottom")
    if h.dest == "library" and h.position == "shuffle":
        owner = ctx.s.player(new.owner) if ctx.s.has_player(new.owner) else None
        if owner is not None:
            ctx.rng().shuffle(owner.library)
    return new


def _enter(ctx: Ctx, card: Card, h: Happening) -> Permanent:
    """Entering the battlefield as the replacement effects modified it (614.1c–d): tapped, with
    counters (each kind put on as it enters, 122.6: an event within this one, 616.1g), as a
    copy (707, layer 1)."""
    st = ctx.s
    printed = {k: v for k, v in to_permanent(card, h.controller or card.owner).counters.items()}
    wanted = {**printed}
    for k, n in h.enter_counters.items():
        wanted[k] = wanted.get(k, 0) + n
    final: dict[str, int] = {}
    if wanted:
        events = [Happening("counters", obj=card.id, counter=k, amount=n, rules=["122.6"],
                            applied=list(h.applied), extra={"entering": h, "card": card})
                  for k, n in wanted.items()]
        for c in replacement.modify(ctx, events):
            if c.kind == "counters":
                final[c.counter] = final.get(c.counter, 0) + c.amount
    perm = put(ctx, card, "battlefield", controller=h.controller,
               created=h.origin is None)      # a token is created there (111.2), not moved
    for k in printed:
        perm.counters.pop(k, None)
    for k, n in final.items():
        if n > 0:
            perm.counters[k] = perm.counters.get(k, 0) + n
    if h.tapped:
        perm.tapped = True
    if h.copy_of:
        continuous.add_effect(st, Effect(id="?", text=f"Entra come copia di {st.name_of(h.copy_of)}",
                                         source=perm.id, kind="static", affects="self",
                                         does=[{"op": "copy", "of": h.copy_of}]))
    st.touch()
    return perm


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
    """One card draw (121.1), through the one path of events: a replacement effect applies
    even when the library is empty (614.11)."""
    happen(ctx, [Happening("draw", player=pl.id, amount=1, rules=list(rules))])


@performer("draw")
def _perform_draw(ctx: Ctx, h: Happening) -> None:
    pl = ctx.s.player(h.player)
    for _ in range(h.amount):
        _draw_one(ctx, pl, h.rules or ["121.1"])


def _draw_one(ctx: Ctx, pl: Player, rules: list[str]) -> None:
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
    it is empty, one event records every further attempt (121.4; 704.5b needs one) — unless a
    replacement effect may change draws: then each one goes through the one path (614.11a)."""
    if any(e.event == "draw" for e in ctx.s.effects):
        if count > MAX_REPLACED_DRAWS:
            raise IllegalAction(f"al massimo {MAX_REPLACED_DRAWS} carte alla volta quando un "
                                "effetto di sostituzione può cambiare le pescate", ["614.11a"])
        for _ in range(count):
            draw(ctx, pl, rules)
        return
    n = min(count, len(pl.library))
    for _ in range(n):
        _draw_one(ctx, pl, rules)
    attempts = count - n
    if attempts == 1:
        _draw_one(ctx, pl, rules)
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
    """Gain (delta > 0) or lose life, through the one path of events (119.10: a gain of 0 is
    no event); returns the change actually applied.  A player who can't gain or lose life
    doesn't (119.7, 119.8), and such an event is replaced by nothing else (614.17c)."""
    if delta == 0:
        return 0
    who = pl.name
    if delta > 0 and not can_gain_life(ctx, pl):
        ctx.emit(rules + ["119.7"], f"{who} non può guadagnare punti vita{cause}.",
                 "life_prevented", players=[pl.id])
        return 0
    if delta < 0 and not can_lose_life(ctx, pl):
        ctx.emit(rules + ["119.8"], f"{who} non può perdere punti vita{cause}.",
                 "life_prevented", players=[pl.id])
        return 0
    done = happen(ctx, [Happening("life", player=pl.id, amount=delta, rules=list(rules),
                                  extra={"cause": cause})])
    return sum(n for h, n in done if h.kind == "life")


@performer("life")
def _perform_life(ctx: Ctx, h: Happening) -> int:
    pl = ctx.s.player(h.player)
    delta, rules, cause = h.amount, h.rules, h.extra.get("cause", "")
    if delta > 0 and not can_gain_life(ctx, pl) or delta < 0 and not can_lose_life(ctx, pl):
        return 0
    group = life_group(ctx, pl)
    team_note = " (totale della squadra)" if len(group) > 1 else ""
    who = pl.name
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




# --- counters, tokens, regeneration ----------------------------------------------------------------

def put_counters(ctx: Ctx, target: str, kind: str, n: int, rules: list[str],
                 cause: str = "") -> int:
    """Put ``n`` counters of ``kind`` on a permanent or a player (122.6), through the one path
    (614.16: counters an effect puts).  Returns how many were put."""
    on_player = ctx.s.has_player(target)
    h = Happening("counters", obj=None if on_player else target,
                  player=target if on_player else None, counter=kind, amount=n, rules=list(rules),
                  extra={"cause": cause})
    return sum(r or 0 for e, r in happen(ctx, [h]) if e.kind == "counters")


@performer("counters")
def _perform_counters(ctx: Ctx, h: Happening) -> int:
    st = ctx.s
    if h.player is not None:
        add_poison(ctx, st.player(h.player), h.amount, h.rules)
        return h.amount
    p = st.perm(h.obj)
    if p is None or h.amount <= 0:
        return 0
    before = p.counters.get(h.counter, 0)
    p.counters[h.counter] = before + h.amount
    if keywords.counter_keyword(h.counter) is not None:
        # 613.7c: every counter of that kind gets the new counter's timestamp
        p.counter_timestamps[h.counter] = continuous.new_timestamp(st)
    st.touch()
    one = h.amount == 1
    ctx.emit(h.rules, f"Si mett{'e' if one else 'ono'} {h.amount} segnalin{'o' if one else 'i'} "
             f"{terms.counter(h.counter)} su {p.name}{h.extra.get('cause', '')} ({before} → "
             f"{before + h.amount}).", "counters", objects=[p.id], counter=h.counter,
             delta=h.amount)
    return h.amount


@performer("remove_counters")
def _perform_remove_counters(ctx: Ctx, h: Happening) -> int:
    p = ctx.s.perm(h.obj)
    if p is None:
        return 0
    have = p.counters.get(h.counter, 0)
    n = min(have, h.amount)
    if n:
        p.counters[h.counter] = have - n
        if not p.counters[h.counter]:
            del p.counters[h.counter]
        ctx.s.touch()
        ctx.emit(h.rules, f"Si rimuove {'un segnalino' if n == 1 else f'{n} segnalini'} "
                 f"{terms.counter(h.counter)} da {p.name} ({have} → {have - n}).", "counters",
                 objects=[p.id], counter=h.counter, delta=-n)
    return n


def create_tokens(ctx: Ctx, controller: str, make: Callable[[], Card], count: int,
                  rules: list[str]) -> list[Card]:
    """``count`` tokens (111.2): how many is an event replacement effects may change (614.16),
    then each one enters the battlefield, an event within it (616.1g)."""
    h = Happening("tokens", player=controller, amount=count, rules=list(rules))
    made: list[Card] = []
    for final, _ in happen(ctx, [h]):
        if final.kind != "tokens":
            continue
        if final.amount > MAX_TOKENS:
            raise IllegalAction(f"troppe pedine da creare: {final.amount} (al massimo "
                                f"{MAX_TOKENS} alla volta)", ["111.2"])
        for _ in range(final.amount):
            made.append(arrive(ctx, make(), "battlefield", origin=None, controller=controller))
    return made


@performer("tokens")
def _perform_tokens(ctx: Ctx, h: Happening) -> int:
    return h.amount                     # the tokens are made by create_tokens, one by one


@performer("regenerate")
def _perform_regenerate(ctx: Ctx, h: Happening) -> None:
    """701.19a: all damage marked on it is removed, its controller taps it, and it is removed
    from combat."""
    p = ctx.s.perm(h.obj)
    if p is None:
        return
    damage = p.damage
    p.damage = 0
    p.damaged_by_deathtouch = False
    p.tapped = True
    fought = ctx.s.combat is not None and (
        any(a["id"] == p.id for a in ctx.s.combat.attackers)
        or any(b["id"] == p.id for b in ctx.s.combat.blockers))
    remove_from_combat(ctx, p.id)
    ctx.s.touch()
    ctx.emit(h.rules, f"{p.name} si rigenera: si rimuove il danno segnato ({damage}), viene "
             f"{terms.done('tap')}" + (" ed è rimosso dal combattimento" if fought else "") + ".",
             "regenerate", objects=[p.id], damage_removed=damage)
