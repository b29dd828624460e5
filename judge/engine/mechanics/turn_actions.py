"""Turn-based actions (rule 703.4), one function each, registered by number.

Combat turn-based actions (703.4h–m) live in the combat package.
"""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.characteristics import continuous, derived, layers
from judge.engine.context import Ctx
from judge.engine.mechanics import ops, presence, triggers
from judge.engine.registry import decision, tba
from judge.engine.state import Permanent



def roman(n: int) -> str:
    out = ""
    for value, sym in ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out += sym
            n -= value
    return out


def _names(perms) -> str:
    return ", ".join(p.name for p in perms)


@tba("703.4a", cites=("502.1", "702.26a", "702.26g", "702.26h"),
     summary="Intermittenza: i permanenti del giocatore attivo con intermittenza scompaiono, "
             "quelli scomparsi ritornano")
def phasing(ctx: Ctx) -> None:
    st = ctx.s
    act = {p.id for p in seats.active_players(st)}
    going_out = [p for p in st.battlefield
                 if not p.phased_out and derived.controller(st, p) in act
                 and derived.has_kw(st, p, "phasing")]
    coming_in = [p for p in st.battlefield
                 if p.phased_out and not p.phased_out_indirectly and derived.controller(st, p) in act]
    indirect_in: list[Permanent] = []
    for p in coming_in:
        indirect_in += [a for a in presence.attached_chain(st, p) if a.phased_out and a.phased_out_indirectly]
    indirect_out: list[Permanent] = []
    for p in going_out:
        indirect_out += [a for a in presence.attached_chain(st, p) if not a.phased_out and a not in indirect_out]
    # 702.26h: what would phase out both directly and indirectly phases out indirectly only
    going_out = [p for p in going_out if p not in indirect_out]
    both = [p for p in indirect_out if derived.has_kw(st, p, "phasing")]
    # All simultaneous: compute first, then apply.
    for p in coming_in + indirect_in:
        p.phased_out = False
        p.phased_out_indirectly = False
    for p in going_out:
        p.phased_out = True
        ops.remove_from_combat(ctx, p.id)
    for p in indirect_out:
        p.phased_out = True
        p.phased_out_indirectly = True
        ops.remove_from_combat(ctx, p.id)
    if going_out:
        ctx.emit(["703.4a", "502.1", "702.26a"], f"Scompaiono per intermittenza: {_names(going_out)}.",
                 "phase_out", objects=[p.id for p in going_out])
    plain = [p for p in indirect_out if p not in both]
    if plain:
        ctx.emit(["703.4a", "702.26g"], f"Scompaiono indirettamente con ciò a cui sono assegnati: "
                 f"{_names(plain)}.", "phase_out", objects=[p.id for p in plain])
    if both:
        ctx.emit(["703.4a", "702.26g", "702.26h"], f"Hanno intermittenza ma sono assegnati a ciò "
                 f"che scompare: scompaiono solo indirettamente: {_names(both)}.", "phase_out",
                 objects=[p.id for p in both])
    if coming_in or indirect_in:
        ctx.emit(["703.4a", "502.1", "702.26a"],
                 f"Ritornano per intermittenza: {_names(coming_in + indirect_in)}.",
                 "phase_in", objects=[p.id for p in coming_in + indirect_in])


@tba("703.4b", cites=("502.2", "502.2a", "731.2a", "731.2b"),
     summary="Giorno e notte: si verifica se la designazione cambia")
def day_night(ctx: Ctx) -> None:
    st = ctx.s
    if st.day_night is None:
        return                                  # 731.2c: the check doesn't happen
    last = st.turn.last_turn or {}
    counts = last.get("spells_cast") or {}
    prev_ap = last.get("active_player")
    if prev_ap and st.has_player(prev_ap):
        if seats.shared_team_turns(st.variant):
            team = st.player(prev_ap).team
            casters = [p.id for p in st.players if p.team == team]
            step_rule = "502.2a"
        else:
            casters = [prev_ap]
            step_rule = "502.2"
    else:
        casters, step_rule = [], "502.2"
    spells = [counts.get(pid, 0) for pid in casters] or [0]
    who = st.name_of(prev_ap) if prev_ap else "il giocatore attivo del turno precedente"
    if st.day_night == "day" and sum(spells) == 0:
        st.day_night = "night"
        ctx.emit(["703.4b", step_rule, "731.2a"],
                 f"È giorno e {who} non ha lanciato magie nel turno precedente: diventa notte.",
                 "day_night", value="night")
    elif st.day_night == "night" and max(spells) >= 2:
        st.day_night = "day"
        ctx.emit(["703.4b", step_rule, "731.2b"],
                 f"È notte e {who} ha lanciato due o più magie nel turno precedente: diventa giorno.",
                 "day_night", value="day")


@tba("703.4c", cites=("502.3", "122.1d"),
     summary="Il giocatore attivo stappa i suoi permanenti")
def untap(ctx: Ctx) -> None:
    st = ctx.s
    for pl in seats.active_players(st):
        untapped, held, stunned = [], [], []
        for p in st.battlefield:
            if derived.controller(st, p) != pl.id or p.phased_out or not p.tapped:
                continue
            if p.doesnt_untap:
                held.append(p)
            elif ops.remove_stun(p):
                stunned.append(p)
            else:
                untapped.append(p)
        for p in untapped:
            p.tapped = False
        if untapped:
            ctx.emit(["703.4c", "502.3"], f"{pl.name} stappa {_names(untapped)}.", "untap",
                     objects=[p.id for p in untapped], players=[pl.id])
        if held:
            ctx.emit(["502.3"], f"Non si stappano per effetto di qualcosa: {_names(held)}.",
                     "doesnt_untap", objects=[p.id for p in held], players=[pl.id])
        if stunned:
            ctx.emit(["122.1d"], f"Invece di stapparsi, perdono un segnalino stordimento: "
                     f"{_names(stunned)}.", "stun", objects=[p.id for p in stunned], players=[pl.id])


@tba("703.4d", cites=("504.1", "805.4b", "121.4"),
     summary="Il giocatore attivo pesca una carta")
def draw_step_draw(ctx: Ctx) -> None:
    st = ctx.s
    act = seats.active_players(st)
    rules = ["703.4d", "504.1"] + (["805.4b"] if len(act) > 1 else [])
    for pl in act:
        ops.draw(ctx, pl, rules)


@tba("703.4e", cites=("505.3", "701.32b", "904.9", "603.3"),
     summary="Archenemy: l'arcinemico mette in moto l'intrigo in cima al suo mazzo")
def set_scheme_in_motion(ctx: Ctx) -> None:
    st = ctx.s
    if st.variant != "archenemy":
        return
    for pl in seats.active_players(st):
        if not pl.archenemy:
            continue
        if not pl.scheme_deck:
            ctx.emit(["703.4e", "505.3"], f"{pl.name} non ha intrighi {terms.zone('in', 'scheme_deck')}.",
                     "scheme", players=[pl.id])
            continue
        card = pl.scheme_deck.pop(0)
        pl.command.append(card)
        ctx.emit(["703.4e", "505.3", "701.32b"],
                 f"{pl.name} mette in moto l'intrigo {card.name}.", "scheme",
                 objects=[card.id], players=[pl.id])
        # 904.9: its "when you set this scheme in motion" abilities trigger (if it has any)
        triggers.queue(ctx, pl.id, f"Abilità «quando metti in moto questo intrigo» di {card.name}",
                       ["904.9"], source=card.id)


@tba("703.4f", cites=("505.4", "714.3c", "714.2b", "603.3"),
     summary="Si mette un segnalino sapere su ogni Saga del giocatore attivo")
def lore_counters(ctx: Ctx) -> None:
    st = ctx.s
    for pl in seats.active_players(st):
        sagas = [p for p in st.battlefield if derived.controller(st, p) == pl.id and not p.phased_out
                 and derived.has_subtype(st, p, "Saga") and (p.chapters or 0) > 0]
        for saga in sagas:
            before = saga.counters.get("lore", 0)
            saga.counters["lore"] = before + 1
            ctx.emit(["703.4f", "505.4", "714.3c"],
                     f"{pl.name} mette un segnalino sapere su {saga.name} ({before} → {before + 1}).",
                     "lore", objects=[saga.id], players=[pl.id])
            n = before + 1
            if n <= (saga.chapters or 0):
                triggers.queue(ctx, pl.id, f"Capitolo {roman(n)} di {saga.name}", ["714.2b"],
                               source=saga.id)


@tba("703.4g", cites=("505.5", "701.52a"),
     summary="Il giocatore attivo tira per visitare le sue Attrazioni")
def attractions(ctx: Ctx) -> None:
    st = ctx.s
    for pl in seats.active_players(st):
        attr = [p for p in st.battlefield if derived.controller(st, p) == pl.id and not p.phased_out
                and derived.has_subtype(st, p, "Attraction")]
        if not attr:
            continue
        roll = ctx.rng().randint(1, 6)
        ctx.emit(["703.4g", "505.5", "701.52a"],
                 f"{pl.name} tira un dado a sei facce per visitare le sue Attrazioni "
                 f"({_names(attr)}): esce {roll}.", "attractions",
                 objects=[p.id for p in attr], players=[pl.id], roll=roll)


@tba("703.4n", cites=("514.1", "402.2", "701.9a"),
     summary="Il giocatore attivo scarta fino al limite di carte in mano")
def cleanup_discard(ctx: Ctx) -> None:
    st = ctx.s
    todo = []
    for pl in seats.active_players(st):
        limit = layers.player(st, pl.id)["max_hand_size"]       # 402.2, 613.11
        if limit is None or len(pl.hand) <= limit:
            continue
        n = len(pl.hand) - limit
        ans = ctx.ask({
            "id": f"discard:{pl.id}", "kind": "discard", "player": pl.id,
            "rules": ["703.4n", "514.1"],
            "prompt": f"{pl.name} ha {len(pl.hand)} carte in mano e un limite di "
                      f"{limit}: sceglie {n} carte da scartare.",
            "options": {"count": n, "cards": [{"id": c.id, "name": c.name} for c in pl.hand]},
            "default": {"cards": [c.id for c in pl.hand[-n:]]},
        })
        todo.append((pl, n, ans["cards"], limit))
    for pl, n, ids, limit in todo:
        ctx.emit(["703.4n", "514.1", "701.9a"],
                 f"{pl.name} {terms.verb('discard')} {n} carte per scendere a {limit}: "
                 f"{', '.join(map(st.name_of, ids))}.", "discard", objects=list(ids),
                 players=[pl.id])
        for cid in ids:
            ops.move(ctx, cid, "graveyard", cause="discard")     # 614: it may go elsewhere


@tba("703.4p", cites=("514.2", "613.1b", "302.6", "506.4"),
     summary="Si rimuove il danno dai permanenti e finiscono gli effetti «fino alla fine del turno»")
def cleanup_damage(ctx: Ctx) -> None:
    st = ctx.s
    damaged = [p for p in st.battlefield if p.damage]          # including phased-out ones
    before = layers.board(st)
    had = presence.controllers(st)
    effects = continuous.until_end_of_turn(st)
    touched = {oid for e in effects for oid in before.affected_by(e.id)}
    ended = [p for p in st.battlefield if p.id in touched]
    back = presence.control_changed(ctx, had)                 # 613.1b: layer 2 changed
    for p in damaged:
        p.damage = 0
    if damaged:
        ctx.emit(["703.4p", "514.2"], f"Si rimuove tutto il danno segnato: {_names(damaged)}.",
                 "damage_removed", objects=[p.id for p in damaged])
    if ended:
        ctx.emit(["703.4p", "514.2"], f"Finiscono gli effetti «fino alla fine del turno» su "
                 f"{_names(ended)}.", "end_of_turn_effects", objects=[p.id for p in ended],
                 effects=[e.id for e in effects])
    elif effects:
        ctx.emit(["703.4p", "514.2"], "Finiscono gli effetti «fino alla fine del turno»: "
                 + "; ".join(e.text or e.id for e in effects) + ".", "end_of_turn_effects",
                 effects=[e.id for e in effects])
    for p, old, rules in back:
        now = derived.controller(st, p)
        ctx.emit(["514.2", "613.1b", *rules], f"Finito l'effetto, {p.name} passa dal controllo "
                 f"di {ctx.name(old)} a quello di {ctx.name(now)}, che non lo controlla "
                 "ininterrottamente dall'inizio del suo ultimo turno.", "control", objects=[p.id],
                 players=[old, now])


@tba("703.4q", cites=("500.5", "106.4"),
     summary="Alla fine di ogni sottofase e fase la mana non spesa si svuota")
def empty_mana(ctx: Ctx) -> None:
    for pl in ctx.s.players:
        pool = {k: n for k, n in pl.mana_pool.items() if n}
        if not pool:
            continue
        pl.mana_pool = {}
        desc = ", ".join(f"{n} {terms.MANA_IT.get(k, k)}" for k, n in pool.items())
        ctx.emit(["703.4q", "500.5"], f"La riserva di mana di {pl.name} si svuota ({desc}); "
                 "non si perdono punti vita.", "mana_empty", players=[pl.id])


@decision("discard")
def _validate_discard(st, pending: dict, answer) -> dict:
    from judge.engine.errors import IllegalAction
    rule = "514.1" if "514.1" in pending["rules"] else "701.9a"
    if not isinstance(answer, dict) or not isinstance(answer.get("cards"), list):
        raise IllegalAction('risposta attesa: {"cards": [id delle carte da scartare]}', [rule])
    ids = answer["cards"]
    n = pending["options"]["count"]
    allowed = {c["id"] for c in pending["options"]["cards"]}
    for cid in ids:
        if not isinstance(cid, str) or cid not in allowed:
            raise IllegalAction(f'"{cid}" non è una carta nella mano di '
                                f'{st.name_of(pending["player"])}', ["701.9a"])
    if len(ids) != n or len(set(ids)) != n:
        raise IllegalAction(f"bisogna scartare esattamente {n} carte diverse", [rule])
    return {"cards": list(ids)}
