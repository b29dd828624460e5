"""What the combat keywords' triggered abilities do as they resolve (when they trigger:
combat_triggers.py).  Each effect cites the rule that defines its keyword; the choices they need
(the permanents annihilator sacrifices, myriad's tokens, provoke's "you may", the targets of
mentor and provoke) are pending decisions of the player who makes them.
"""

from __future__ import annotations

from judge.engine.characteristics import continuous, derived, keywords
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import identity, ops, targeting
from judge.engine.registry import decision, effect
from judge.engine.state import Card, Effect, Permanent, StackItem, State


def _live(st: State, key: str | None) -> Permanent | None:
    """The permanent ``key`` names, if it is still that object (400.7) and phased in."""
    p = st.live(key)
    return p if p is not None and not p.phased_out else None


def _affected(ctx: Ctx, item: StackItem, key: str | None, delayed: bool = False) -> Permanent | None:
    """The permanent the resolving ability affects; if it has left the battlefield, or came
    back as a new object (400.7: 608.2h for the source; 603.7c for a delayed ability), the log
    says the ability does nothing to it and None is returned."""
    p = _live(ctx.s, key)
    if p is None:
        why, rules = identity.gone(ctx.s, key or "")
        if rules:
            rules = rules + (["603.7c"] if delayed else ["608.2h"] if key == item.source else [])
        ctx.emit(item.rules[:1] + rules, f"{why}: l'abilità non fa nulla.", "effect",
                 objects=[item.id])
    return p


def pump(ctx: Ctx, p: Permanent, dp: int, dt: int, rules: list[str], why: str) -> None:
    """``p`` gets +dp/+dt until end of turn (611.2a; it ends in the cleanup step, 514.2)."""
    e = continuous.pump(ctx.s, p.id, dp, dt, text=f"{dp:+d}/{dt:+d} fino alla fine del turno ({why})")
    ctx.emit(rules, f"{p.name} prende {dp:+d}/{dt:+d} fino alla fine del turno ({why}): ora "
             f"{derived.describe_pt(ctx.s, p)}.", "effect", objects=[p.id], effect=e.id)


def _counter(ctx: Ctx, p: Permanent, rules: list[str], why: str) -> None:
    """A +1/+1 counter an ability puts (614.16: replacement effects may change how many)."""
    ops.put_counters(ctx, p.id, "+1/+1", 1, rules, cause=f" ({why})")


# --- pumps -------------------------------------------------------------------------------------

@effect("exalted", cites=("702.83a", "506.5", "400.7"), params=("creature",),
        summary="Esaltato: la creatura che attacca da sola prende +1/+1 fino alla fine del turno")
def exalted(ctx: Ctx, item: StackItem, _choice) -> None:
    c = _affected(ctx, item, item.effect["creature"])
    if c is None:
        return
    pump(ctx, c, 1, 1, ["702.83a"], f"esaltato di {ctx.name(item.source)}")


@effect("pump_source", cites=("702.45a", "400.7", "608.2h"), params=("amount:int",),
        summary="Bushido N: la creatura che blocca o è bloccata prende +N/+N fino alla fine del turno")
def pump_source(ctx: Ctx, item: StackItem, _choice) -> None:
    p = _affected(ctx, item, item.source)
    if p is None:
        return
    n = item.effect["amount"]
    pump(ctx, p, n, n, item.rules[:1] or ["702.45a"], f"bushido {n}")


@effect("rampage", cites=("702.23a", "702.23b", "400.7", "608.2h"), params=("amount:int",),
        summary="Furia N: +N/+N fino alla fine del turno per ogni creatura che la blocca oltre la prima")
def rampage(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    p = _affected(ctx, item, item.source)
    if p is None:
        return
    n = item.effect["amount"]
    blockers = [b for b in (st.combat.blockers if st.combat else ()) if p.id in b["blocking"]
                and st.perm(b["id"]) is not None and not st.perm(b["id"]).phased_out]
    extra = max(0, len(blockers) - 1)
    if not extra:
        ctx.emit(["702.23a", "702.23b"], f"{p.name} è bloccata da {len(blockers)} creatur"
                 f"{'a' if len(blockers) == 1 else 'e'}: nessuna oltre la prima, nessun bonus.",
                 "effect", objects=[p.id])
        return
    pump(ctx, p, n * extra, n * extra, ["702.23a", "702.23b"],
         f"furia {n}, {extra} bloccant{'e' if extra == 1 else 'i'} oltre il primo, contati ora")


@effect("melee", cites=("702.121a", "400.7", "608.2h"), params=("amount:int",),
        summary="Mischia: +1/+1 fino alla fine del turno per ogni avversario attaccato")
def melee(ctx: Ctx, item: StackItem, _choice) -> None:
    p = _affected(ctx, item, item.source)
    if p is None:
        return
    n = item.effect["amount"]
    pump(ctx, p, n, n, ["702.121a"], f"mischia, {n} avversari attaccati")


@effect("battle_cry", cites=("702.91a",),
        summary="Grido di guerra: ogni altra creatura attaccante prende +1/+0 fino alla fine del turno")
def battle_cry(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    others = [p for p in (st.perm(a["id"]) for a in (st.combat.attackers if st.combat else ()))
              if p is not None and not p.phased_out and p.key != item.source]
    if not others:
        ctx.emit(["702.91a"], "Nessun'altra creatura attaccante: l'abilità non fa nulla.",
                 "effect", objects=[item.id])
    for p in others:
        pump(ctx, p, 1, 0, ["702.91a"], f"grido di guerra di {ctx.name(item.source)}")


@effect("flanking", cites=("702.25a", "400.7"), params=("creature",),
        summary="Aggirare: la creatura senza aggirare che la blocca prende -1/-1 fino alla fine del turno")
def flanking(ctx: Ctx, item: StackItem, _choice) -> None:
    c = _affected(ctx, item, item.effect["creature"])
    if c is None:
        return
    pump(ctx, c, -1, -1, ["702.25a"], f"aggirare di {ctx.name(item.source)}")


# --- counters ----------------------------------------------------------------------------------

@effect("counter_on_source", cites=("702.149a", "702.105a", "400.7", "608.2h"),
        summary="Addestramento, detronizzare: un segnalino +1/+1 sulla creatura")
def counter_on_source(ctx: Ctx, item: StackItem, _choice) -> None:
    p = _affected(ctx, item, item.source)
    if p is None:
        return
    name = "addestramento" if "702.149a" in item.rules else "detronizzare"
    _counter(ctx, p, item.rules[:1], name)


def _mentor_candidates(st: State, src: Permanent) -> list[str]:
    cb = st.combat
    return [p.id for p in (st.perm(a["id"]) for a in (cb.attackers if cb else ()))
            if p is not None and not p.phased_out and derived.power(st, p) < derived.power(st, src)]


def _mentor_target(ctx: Ctx, trig: dict) -> str | None:
    src = _live(ctx.s, trig["source"])
    if src is None:
        return None
    return targeting.choose(ctx, trig, _mentor_candidates(ctx.s, src), src, ["702.134a"])


@effect("mentor", cites=("702.134a", "603.3d", "608.2b"), target=_mentor_target,
        summary="Mentore: un segnalino +1/+1 su una creatura attaccante bersaglio con forza minore")
def mentor(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    src = st.live(item.source)
    target = _live(st, item.targets[0]) if item.targets else None
    # 608.2b: the target must still be an attacking creature with less power (the source's
    # last known power if it left the battlefield: the engine keeps none, so it checks it here)
    if target is None or src is None or target.id not in _mentor_candidates(st, src):
        ctx.emit(["702.134a", "608.2b"], "Il bersaglio non è più legale (una creatura attaccante "
                 "con forza minore): l'abilità non si risolve.", "effect", objects=[item.id])
        return
    _counter(ctx, target, ["702.134a"], f"mentore di {src.name}")


# --- the defending player ---------------------------------------------------------------------

@effect("afflict", cites=("702.130a", "119.3"), params=("player", "amount:int"),
        summary="Affliggere N: il giocatore in difesa perde N punti vita")
def afflict(ctx: Ctx, item: StackItem, _choice) -> None:
    pl = ctx.s.player(item.effect["player"])
    if pl.lost:
        return
    ops.change_life(ctx, pl, -item.effect["amount"], ["702.130a"],
                    f" per affliggere di {ctx.name(item.source)}")


def _annihilator_choice(ctx: Ctx, item: StackItem):
    st = ctx.s
    pid, n = item.effect["player"], item.effect["amount"]
    if st.player(pid).lost:
        return None
    mine = [p for p in st.battlefield if derived.controller(st, p) == pid and not p.phased_out]
    if len(mine) <= n:
        return {"permanents": [p.id for p in mine]}
    return ctx.ask({
        "id": f"sacrifice:{item.id}", "kind": "sacrifice_permanents", "player": pid,
        "rules": ["702.86a", "701.21a"],
        "prompt": f"{st.name_of(pid)} sceglie {n} permanenti da sacrificare "
                  f"(annientatore {n} di {ctx.name(item.source)}).",
        "options": {"count": n, "permanents": [{"id": p.id, "name": p.name} for p in mine]},
        "default": {"permanents": [p.id for p in mine[-n:]]},
    })


@decision("sacrifice_permanents")
def _validate_sacrifice(st: State, pending: dict, answer) -> dict:
    allowed = [p["id"] for p in pending["options"]["permanents"]]
    chosen = answer.get("permanents") if isinstance(answer, dict) else None
    n = pending["options"]["count"]
    if not isinstance(chosen, list) or len(chosen) != n or len(set(map(str, chosen))) != n \
            or any(c not in allowed for c in chosen):
        raise IllegalAction(f"scegli esattamente {n} permanenti diversi che controlli",
                            ["701.21a"])
    return {"permanents": list(chosen)}


@effect("annihilator", cites=("702.86a", "701.21a"), params=("player", "amount:int"),
        summary="Annientatore N: il giocatore in difesa sacrifica N permanenti",
        choose=_annihilator_choice)
def annihilator(ctx: Ctx, item: StackItem, choice) -> None:
    st = ctx.s
    pid = item.effect["player"]
    if choice is None:
        ctx.emit(["702.86a"], f"{st.name_of(pid)} ha lasciato la partita: non sacrifica nulla.",
                 "effect", players=[pid])
        return
    if not choice["permanents"]:
        ctx.emit(["702.86a"], f"{st.name_of(pid)} non controlla permanenti da sacrificare.",
                 "effect", players=[pid])
    for oid in choice["permanents"]:
        p = st.perm(oid)
        if p is not None:
            ctx.emit(["702.86a", "701.21a"], f"{st.name_of(pid)} sacrifica {p.name} "
                     f"(annientatore di {ctx.name(item.source)}).", "sacrifice", objects=[oid],
                     players=[pid])
            ops.move(ctx, oid, "graveyard", cause="sacrifice")


# --- provoke --------------------------------------------------------------------------------------

def _provoke_target(ctx: Ctx, trig: dict) -> str | None:
    st = ctx.s
    src = st.live(trig["source"])
    pid = trig["effect"]["player"]
    creatures = [p.id for p in st.battlefield if derived.controller(st, p) == pid and not p.phased_out
                 and derived.is_creature(st, p)]
    return targeting.choose(ctx, trig, creatures, src, ["702.39a"])


def _provoke_choice(ctx: Ctx, item: StackItem):
    target = _live(ctx.s, item.targets[0]) if item.targets else None
    if target is None:
        return None
    return ctx.ask({
        "id": f"provoke:{item.id}", "kind": "may_apply", "player": item.controller,
        "rules": ["702.39a"],
        "prompt": f"{ctx.name(item.controller)} sceglie se {target.name} deve bloccare "
                  f"{ctx.name(item.source)} se può (e se si STAPpa).",
        "options": {"text": item.text},
        "default": {"apply": True},
    })


@decision("may_apply")
def _validate_may(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("apply"), bool):
        raise IllegalAction('risposta attesa: {"apply": true} o {"apply": false}',
                            list(pending["rules"]))
    return {"apply": answer["apply"]}


@effect("provoke", cites=("702.39a", "603.3d", "608.2b", "509.1c", "122.1d"), params=("player",),
        summary="Provocazione: una creatura bersaglio del giocatore in difesa blocca questa creatura "
                "se può, e si STAPpa", target=_provoke_target, choose=_provoke_choice)
def provoke(ctx: Ctx, item: StackItem, choice) -> None:
    st = ctx.s
    target = _live(st, item.targets[0]) if item.targets else None
    if target is None or derived.controller(st, target) != item.effect["player"] \
            or not derived.is_creature(st, target):
        ctx.emit(["702.39a", "608.2b"], "Il bersaglio non è più legale: l'abilità non si risolve.",
                 "effect", objects=[item.id])
        return
    if not choice or not choice["apply"]:
        ctx.emit(["702.39a"], f"{ctx.name(item.controller)} sceglie di non provocare "
                 f"{target.name}.", "effect", objects=[item.id, target.id])
        return
    attacker = st.live(item.source)
    if st.combat is not None and attacker is not None:    # combat names objects by id (506.4)
        st.combat.requirements.append({"blocker": target.id, "attacker": attacker.id,
                                       "rules": ["702.39a"]})
    ctx.emit(["702.39a", "509.1c"], f"{target.name} bloccherà {ctx.name(item.source)} se può, in "
             "questo combattimento.", "effect", objects=[target.id, item.source or item.id])
    if target.tapped:
        ops.untap(ctx, target, ["702.39a"])


# --- myriad and decayed: tokens and delayed abilities at end of combat ---------------------------

def _myriad_opponents(st: State, item: StackItem) -> list:
    ctl = st.player(item.controller)
    return [p for p in st.in_game() if p.team != ctl.team and p.id != item.effect["player"]]


def _myriad_choice(ctx: Ctx, item: StackItem):
    st = ctx.s
    src = _live(st, item.source)
    opps = _myriad_opponents(st, item)
    if src is None or not opps:
        return {"attack": {}}
    options = []
    for p in opps:
        walkers = [x.id for x in st.battlefield if derived.controller(st, x) == p.id and not x.phased_out
                   and derived.is_type(st, x, "planeswalker")]
        options.append({"player": p.id, "name": p.name, "targets": [p.id, *walkers]})
    return ctx.ask({
        "id": f"myriad:{item.id}", "kind": "myriad_tokens", "player": item.controller,
        "rules": ["702.116a"],
        "prompt": f"{ctx.name(item.controller)} sceglie, per ogni avversario diverso dal giocatore "
                  f"in difesa, se creare una pedina copia di {src.name} che attacca quel "
                  "giocatore o un suo planeswalker.",
        "options": {"opponents": options},
        "default": {"attack": {o["player"]: o["player"] for o in options}},
    })


@decision("myriad_tokens")
def _validate_myriad(st: State, pending: dict, answer) -> dict:
    chosen = answer.get("attack") if isinstance(answer, dict) else None
    if not isinstance(chosen, dict):
        raise IllegalAction('risposta attesa: {"attack": {avversario: bersaglio o null}}', ["702.116a"])
    allowed = {o["player"]: o["targets"] for o in pending["options"]["opponents"]}
    out = {}
    for pid, target in chosen.items():
        if pid not in allowed or (target is not None and target not in allowed[pid]):
            raise IllegalAction(f"ogni pedina attacca l'avversario per cui è creata o un suo "
                                f"planeswalker ({pid}: {target})", ["702.116a"])
        if target is not None:
            out[pid] = target
    return {"attack": out}


def _copy_token(st: State, values: dict, controller: str) -> Card:
    """A token that's a copy of an object: its copiable values (707.2) are the token's own
    (111.2); its static abilities come with the copy effect ``_copy_abilities`` adds."""
    return Card(id=st.new_id("pedina"), name=values["name"] or "", types=list(values["types"]),
                subtypes=list(values["subtypes"]), supertypes=list(values["supertypes"]),
                power=values["power"], toughness=values["toughness"],
                keywords=[a for a in values["abilities"] if keywords.instance(a) is not None],
                colors=tuple(values["colors"]), mana_cost=values["mana_cost"], token=True,
                owner=controller)


def _copy_abilities(st: State, token: Card, values: dict, source: str) -> None:
    """The copied static abilities of a token copy (707.2), as a copy effect on the token."""
    if any(a.startswith("@") for a in values["abilities"]):
        continuous.add_effect(st, Effect(
            id="?", text=f"copia di {st.name_of(source)}", source=token.id, kind="resolved",
            affects="self", does=[{"op": "copy", "of": None, "values": values}],
            duration="source"))


@effect("myriad", cites=("702.116a", "508.4", "111.2", "603.7"), params=("player",),
        summary="Miriade: pedine copia che attaccano gli altri avversari, esiliate alla fine del "
                "combattimento", choose=_myriad_choice)
def myriad(ctx: Ctx, item: StackItem, choice) -> None:
    st = ctx.s
    src = _live(st, item.source)
    made = []
    for pid, target in (choice or {}).get("attack", {}).items():
        if src is None or st.combat is None or st.player(pid).lost:
            continue
        values = continuous.copiable_values(st, src.id)
        # 614.16: how many tokens is an event replacement effects may change
        for tok in ops.create_tokens(ctx, item.controller,
                                     lambda: _copy_token(st, values, item.controller), 1,
                                     ["702.116a", "111.2"]):
            if not isinstance(tok, Permanent):
                continue
            _copy_abilities(st, tok, values, src.id)
            tok.tapped = True
            st.combat.attackers.append({"id": tok.id, "target": target, "blocked": False})
            made.append(tok.key)
            ctx.emit(["702.116a", "508.4"], f"{ctx.name(item.controller)} crea una pedina copia di "
                     f"{src.name}, TAPpata e attaccante {st.name_of(target)} (non ha «attaccato»: "
                     "non fa innescare abilità di attacco).", "create_token",
                     objects=[tok.id, target], players=[item.controller])
    if not made:
        ctx.emit(["702.116a"], "Nessuna pedina creata.", "effect", objects=[item.id])
        return
    st.combat.delayed.append({
        "controller": item.controller, "source": item.source, "rules": ["702.116a", "511.2"],
        "text": f"{keywords.KEYWORD_IT['myriad'].capitalize()} di {ctx.name(item.source)}: si "
                "esiliano le pedine alla fine del combattimento",
        "effect": {"kind": "exile_objects", "objects": ",".join(made)}})


@effect("exile_objects", cites=("702.116a", "701.13a", "603.7c"), params=("objects",),
        summary="Alla fine del combattimento si esiliano le pedine create da miriade")
def exile_objects(ctx: Ctx, item: StackItem, _choice) -> None:
    for key in item.effect["objects"].split(","):
        p = ctx.s.live(key)                               # 603.7c: the same objects only
        if p is not None:
            ctx.emit(item.rules[:1] + ["701.13a"], f"Si esilia {p.name}.", "exile",
                     objects=[p.id])
            ops.move(ctx, p.id, "exile")


@effect("decayed", cites=("702.147a", "603.7"),
        summary="Decomposto: la creatura che ha attaccato sarà sacrificata alla fine del combattimento")
def decayed(ctx: Ctx, item: StackItem, _choice) -> None:
    st = ctx.s
    if st.combat is None or item.source is None:
        return
    st.combat.delayed.append({
        "controller": item.controller, "source": item.source, "rules": ["702.147a", "511.2"],
        "text": f"{keywords.KEYWORD_IT['decayed'].capitalize()} di {ctx.name(item.source)}: si "
                "sacrifica alla fine del combattimento",
        "effect": {"kind": "sacrifice_source"}})
    ctx.emit(["702.147a", "603.7"], f"{ctx.name(item.source)} sarà sacrificata alla fine del "
             "combattimento.", "effect", objects=[item.source])


@effect("sacrifice_source", cites=("702.147a", "701.21a", "603.7c", "400.7"),
        summary="Alla fine del combattimento si sacrifica la creatura con decomposto")
def sacrifice_source(ctx: Ctx, item: StackItem, _choice) -> None:
    p = _affected(ctx, item, item.source, delayed=True)
    if p is None:
        return
    ctl = derived.controller(ctx.s, p)
    ctx.emit(["702.147a", "701.21a"], f"{ctx.name(ctl)} sacrifica {p.name}.",
             "sacrifice", objects=[p.id], players=[ctl])
    ops.move(ctx, p.id, "graveyard", cause="sacrifice")
