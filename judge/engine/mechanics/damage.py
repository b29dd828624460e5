"""Damage (120): dealt through the one path of events (replacement and prevention effects,
614, 615: protection's prevention among them, 702.16e), then processed into its results
(120.3a–h, 702.2b, 702.15b, 903.10a).

``deal_damage`` deals one source's damage to one recipient; ``deal_damage_batch`` deals damage
that happens simultaneously (combat damage, 510.2: the affected players choose among the
effects in APNAP order, 616.1).
"""

from __future__ import annotations

from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.mechanics import ops, triggers
from judge.engine.mechanics.happening import Happening
from judge.engine.mechanics.ops import add_poison, can_lose_life, change_life
from judge.engine.state import Card, Permanent


def danni(n: int) -> str:
    return "1 danno" if n == 1 else f"{n} danni"


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
    damage dealt (by that source, wherever a redirection took it, 614.9).  ``lifelink=False``:
    the caller makes the life gain itself (combat damage: one life gain event per source,
    702.15b, 702.15e)."""
    return deal_damage_batch(ctx, [(source, target_id, amount)], rules, combat=combat,
                             source_controller_id=source_controller_id, lifelink=lifelink)[0]


def deal_damage_batch(ctx: Ctx, items: list[tuple[Card | None, str, int]], rules: list[str], *,
                      combat: bool = False, source_controller_id: str | None = None,
                      lifelink: bool = True) -> list[int]:
    """Simultaneous damage, (source, recipient, amount) each: the damage each item dealt."""
    st = ctx.s
    events = []
    for i, (source, target, amount) in enumerate(items):
        if amount <= 0:
            continue                                      # 120.8, 614.7a: no event at all
        player = st.has_player(target)
        events.append(Happening(
            "damage", obj=None if player else target, player=target if player else None,
            source=source.id if source is not None else None, amount=amount, combat=combat,
            rules=list(rules), extra={"index": i, "source_obj": source, "lifelink": lifelink,
                                      "source_controller": source_controller(
                                          ctx, source, source_controller_id)}))
    dealt = [0] * len(items)
    for h, n in ops.happen(ctx, events):
        if h.kind == "damage" and "index" in h.extra:
            dealt[h.extra["index"]] += n or 0
    return dealt


@ops.performer("damage")
def _perform(ctx: Ctx, h: Happening) -> int:
    s = ctx.s
    source: Card | None = h.extra.get("source_obj")
    target_id = h.player or h.obj
    amount, rules, combat = h.amount, h.rules, h.combat
    if amount <= 0 or target_id is None:
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
        for kind, counter, before, rule, label in (
                ("planeswalker", "loyalty", derived.loyalty, "120.3c", "fedeltà"),
                ("battle", "defense", derived.defense, "120.3h", "difesa")):
            if not derived.is_type(s, perm, kind):
                continue
            was = before(perm)
            perm.counters[counter] = max(0, was - amount)      # the counters damage removes
            ctx.emit(rules + [rule], f"{src_name} infligge {danni(amount)} a {perm.name}: "
                     f"{label} {was} → {perm.counters[counter]}.", "damage",
                     objects=[perm.id], amount=amount)
            parts.append(kind)
            if kind == "battle" and was > 0 and perm.counters[counter] == 0:
                triggers.last_defense_removed(ctx, perm)
        if not parts:
            return 0
    if h.extra.get("lifelink", True):
        gain_from_lifelink(ctx, source, amount, h.extra.get("source_controller"))
    return amount


def gain_from_lifelink(ctx: Ctx, source: Card | None, amount: int,
                       default_controller: str | None = None, rules: tuple = ()) -> None:
    """702.15b: damage from a source with lifelink makes its controller gain that much life."""
    if source is None or amount <= 0 or not derived.has_kw(ctx.s, source, "lifelink"):
        return
    ctrl_id = source_controller(ctx, source, default_controller)
    if ctrl_id is not None and ctx.s.has_player(ctrl_id):
        change_life(ctx, ctx.s.player(ctrl_id), amount, ["120.3f", "702.15b", *rules],
                    f" grazie al legame vitale di {source.name}")
