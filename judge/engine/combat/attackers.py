"""Combat declarations: the turn-based actions 703.4h–j and the checks on declarations
(damage, 703.4k and m, is in combat_damage.py).

Declarations are pending decisions; their validators
(below) refuse illegal answers with an Italian message citing the rule, and
never change the state.
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import derived
from judge.engine.combat import attack_scope, combat_triggers
from judge.engine.combat import combat_requirements as reqs
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.combat.attack_scope import defender_of
from judge.engine.registry import decision, tba
from judge.engine.state import Combat, Permanent, State


# --- helpers ------------------------------------------------------------------

def attackable(st: State, defenders: list[str]) -> list[str]:
    """Players, planeswalkers and battles that may be attacked (506.3, 508.1b, 310.9b)."""
    out = []
    ap_team = {p.id for p in seats.active_players(st)}
    for d in defenders:
        out.append(d)
    for p in st.battlefield:
        if p.phased_out:
            continue
        if derived.is_type(st, p, "planeswalker") and derived.controller(st, p) in defenders:
            out.append(p.id)
        elif derived.is_type(st, p, "battle") and p.protector in defenders and p.protector not in ap_team:
            out.append(p.id)
    return out


def attack_problem(st: State, p: Permanent) -> tuple[str, list[str]] | None:
    """Why a creature can't be declared as an attacker, or None."""
    if not derived.is_type(st, p, "creature"):
        return "non è una creatura", ["506.3"]
    if p.phased_out:
        return "è scomparsa per intermittenza", ["702.26b"]
    if p.tapped:
        return "è TAPpata", ["508.1a"]
    if derived.is_type(st, p, "battle"):
        return "è anche una battaglia", ["508.1a"]
    if p.summoning_sick and not derived.has_kw(st, p, "haste"):
        return ("non è sotto il controllo del suo controllore ininterrottamente dall'inizio del "
                "suo turno più recente e non ha rapidità", ["302.6", "508.1a"])
    if derived.has_kw(st, p, "defender"):
        return "ha difensore", ["702.3b"]
    if derived.has_kw(st, p, "can't attack"):
        return "un'abilità dice che non può attaccare", ["508.1c"]
    return None


def attackers_of_defender(st: State, pid: str) -> list[dict]:
    """Attacking creatures ``pid`` may block (509.1a, 805.10d in shared team turns)."""
    cb = st.combat
    if cb is None:
        return []
    if seats.shared_team_turns(st.variant):
        team = {p.id for p in seats.teammates(st, pid)}
    else:
        team = {pid}
    out = []
    for a in cb.attackers:
        if defender_of(st, a["target"]) in team:
            out.append(a)
        elif a["target"] is None and a.get("defender") in team:
            out.append(a)
    return out


def in_combat_creatures(st: State) -> list[Permanent]:
    cb = st.combat
    if cb is None:
        return []
    ids = [a["id"] for a in cb.attackers] + [b["id"] for b in cb.blockers]
    idx = st.perm_index()
    return [idx[i] for i in ids if i in idx and not idx[i].phased_out]


def has_first_strike_step(st: State) -> bool:
    """510.4: at least one attacking or blocking creature has first or double strike."""
    return any(derived.has_kw(st, p, "first strike") or derived.has_kw(st, p, "double strike")
               for p in in_combat_creatures(st))


# --- 703.4h ---------------------------------------------------------------------

@tba("703.4h", cites=("507.1", "506.2", "802.2", "803.1a", "803.1b", "805.10a", "801.3"),
     summary="Nel multigiocatore il giocatore attivo sceglie il giocatore in difesa")
def choose_defending_player(ctx: Ctx) -> None:
    st = ctx.s
    ap = st.player(st.turn.active_player)
    cb = Combat()
    if not seats.active_players(st):
        st.combat = cb                  # 800.4j: no active player, nobody attacks
        return
    opps = seats.opponents(st, ap.id)
    option = st.options.get("attack", "multiple")
    if seats.shared_team_turns(st.variant):
        cb.defending_players = [p.id for p in opps]
        ctx.emit(["805.10a"], "La squadra non attiva è la squadra in difesa: "
                 f"{', '.join(p.name for p in opps)}.", "defending_player",
                 players=cb.defending_players)
    elif len(st.players) <= 2 or option == "multiple":
        reachable = _in_range(ctx, ap.id, opps)
        cb.defending_players = [p.id for p in reachable]
        if len(st.players) > 2:
            ctx.emit(["802.2"], "Con l'opzione «attaccare più giocatori» tutti gli avversari di "
                     f"{ap.name} sono giocatori in difesa.", "defending_player",
                     players=cb.defending_players)
    elif option in ("left", "right"):
        rule = "803.1a" if option == "left" else "803.1b"
        side = "sinistra" if option == "left" else "destra"
        target, seated = attack_scope.left_right_defender(st, ap.id, option)
        cb.defending_players = [target.id] if target else []
        if target:
            ctx.emit(["703.4h", "507.1", rule], f"{target.name}, l'avversario seduto "
                     f"immediatamente alla {side} di {ap.name}, diventa il giocatore in difesa.",
                     "defending_player", players=[target.id])
        elif seated is not None:
            ctx.emit([rule], f"Alla {side} di {ap.name} siede {seated.name}, che non è un suo "
                     f"avversario: l'avversario più vicino alla {side} è a più di un posto di "
                     f"distanza e {ap.name} non può attaccare.", "defending_player",
                     players=[ap.id, seated.id])
    else:
        opps = _in_range(ctx, ap.id, opps)
        if not opps:
            cb.defending_players = []
        else:
            ans = ctx.ask({
                "id": f"defending_player:{ap.id}", "kind": "choose_defending_player",
                "player": ap.id, "rules": ["703.4h", "507.1"],
                "prompt": f"{ap.name} sceglie un avversario come giocatore in difesa.",
                "options": {"players": [{"id": p.id, "name": p.name} for p in opps]},
                "default": {"player": opps[0].id},
            })
            cb.defending_players = [ans["player"]]
            ctx.emit(["703.4h", "507.1"], f"{ap.name} sceglie {st.name_of(ans['player'])} come "
                     "giocatore in difesa.", "defending_player", players=[ans["player"]])
    st.combat = cb


def _in_range(ctx: Ctx, pid: str, opps: list) -> list:
    """801.3: only opponents within the attacking player's range of influence can be attacked."""
    st = ctx.s
    reach = seats.range_of_influence(st)
    if reach is None:
        return opps
    inside = [p for p in opps if seats.in_range(st, pid, p.id)]
    outside = [p for p in opps if p not in inside]
    if outside:
        ctx.emit(["801.3"], f"Portata d'influenza di {reach} posti: {st.name_of(pid)} non può "
                 f"attaccare {', '.join(p.name for p in outside)}"
                 + (" e nessun avversario è alla sua portata: le sue creature non possono "
                    "attaccare." if not inside else "."), "defending_player",
                 players=[p.id for p in outside])
    return inside


@decision("choose_defending_player")
def _validate_defender(st: State, pending: dict, answer) -> dict:
    allowed = [p["id"] for p in pending["options"]["players"]]
    if not isinstance(answer, dict) or answer.get("player") not in allowed:
        raise IllegalAction("il giocatore in difesa dev'essere un avversario del giocatore attivo "
                            f"(ammessi: {', '.join(allowed)})", ["507.1"])
    return {"player": answer["player"]}


def _ensure_combat(ctx: Ctx) -> Combat:
    st = ctx.s
    if st.combat is None:
        ap = st.turn.active_player
        st.combat = Combat(defending_players=[p.id for p in seats.opponents(st, ap)])
    return st.combat


# --- 703.4i ---------------------------------------------------------------------

def attack_options(st: State) -> tuple[list[dict], list[dict]]:
    cb = st.combat
    act = {p.id for p in seats.active_players(st)}
    targets = attackable(st, cb.defending_players if cb else [])
    able, unable = [], []
    for p in st.battlefield:
        if derived.controller(st, p) not in act or not derived.is_type(st, p, "creature") or p.phased_out:
            continue
        prob = attack_problem(st, p)
        if prob is None and not targets:
            prob = "non c'è nessuno che possa attaccare", ["508.1b", "506.3"]
        if prob is None:
            opt = {"id": p.id, "name": p.name, "power": derived.power(st, p),
                   "toughness": derived.toughness(st, p), "targets": list(targets)}
            must = reqs.attack_requirements(st, p)
            if must:
                opt["requirements"] = [{"text": r.text, "rules": list(r.rules)} for r in must]
            able.append(opt)
        else:
            unable.append({"id": p.id, "name": p.name, "reason": prob[0], "rules": prob[1]})
    return able, unable


def default_attack(st: State, able: list[dict]) -> list[dict]:
    """The declaration taken by default: the creatures with requirements attack as they must
    (508.1d); the others don't attack."""
    out = []
    for c in able:
        if "requirements" in c:
            _, target = reqs.best_attack(st, st.perm(c["id"]), c["targets"])
            if target is not None:
                out.append({"id": c["id"], "target": target})
    return out


@tba("703.4i", cites=("508.1", "508.1f", "508.1k", "702.20b", "508.8", "800.4j"),
     summary="Il giocatore attivo dichiara gli attaccanti")
def declare_attackers(ctx: Ctx) -> None:
    st = ctx.s
    cb = _ensure_combat(ctx)
    ap = st.player(st.turn.active_player)
    if cb.attackers_declared and cb.attackers:
        return
    if not seats.active_players(st):
        cb.attackers_declared = True
        ctx.emit(["703.4i", "800.4j"], f"{ap.name} ha lasciato la partita: il turno continua senza "
                 "giocatore attivo e nessuna creatura attacca.", "attack", players=[ap.id])
        return
    able, unable = attack_options(st)
    if not able:
        cb.attackers_declared = True
        ctx.emit(["703.4i", "508.1"], f"{ap.name} non ha creature che possano attaccare: "
                 "nessun attaccante.", "attack", players=[ap.id])
        return
    ans = ctx.ask({
        "id": f"declare_attackers:{ap.id}", "kind": "declare_attackers", "player": ap.id,
        "rules": ["703.4i", "508.1"],
        "prompt": f"{ap.name} dichiara quali creature attaccano e chi o che cosa attaccano.",
        "options": {"creatures": able, "cannot_attack": unable,
                    "defending_players": list(cb.defending_players)},
        "default": {"attackers": default_attack(st, able)},
    })
    cb.attackers_declared = True
    if not ans["attackers"]:
        ctx.emit(["703.4i", "508.1"], f"{ap.name} non dichiara attaccanti.", "attack",
                 players=[ap.id])
        return
    for a in ans["attackers"]:
        p = st.perm(a["id"])
        vig = derived.has_kw(st, p, "vigilance")
        if not vig:
            p.tapped = True
        d = defender_of(st, a["target"])
        cb.attackers.append({"id": p.id, "target": a["target"], "blocked": False})
        tap_note = " (non si TAPpa: ha cautela)" if vig else " e si TAPpa"
        rules = ["703.4i", "508.1k"] + (["702.20b"] if vig else ["508.1f"])
        ctx.emit(rules, f"{p.name} ({derived.describe_pt(st, p)}) attacca {st.name_of(a['target'])}"
                 f"{tap_note}.", "attack", objects=[p.id, a["target"]],
                 players=[d] if d else [], target=a["target"])
    combat_triggers.attackers_declared(ctx, [a["id"] for a in ans["attackers"]])   # 508.1m


@decision("declare_attackers")
def _validate_attackers(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("attackers"), list):
        raise IllegalAction('risposta attesa: {"attackers": [{"id": …, "target": …}]}', ["508.1"])
    act = {p.id for p in seats.active_players(st)}
    cb = st.combat
    targets = attackable(st, cb.defending_players if cb else [])
    seen = set()
    out = []
    for a in answer["attackers"]:
        if isinstance(a, str):
            a = {"id": a}
        if not isinstance(a, dict) or not isinstance(a.get("id"), str):
            raise IllegalAction("ogni attaccante è un oggetto con «id» e «target»", ["508.1"])
        p = st.perm(a["id"])
        if p is None:
            raise IllegalAction(f'"{a["id"]}" non è un permanente sul campo di battaglia', ["506.3"])
        if a["id"] in seen:
            raise IllegalAction(f"{p.name} è dichiarata due volte", ["508.1a"])
        seen.add(a["id"])
        if derived.controller(st, p) not in act:
            raise IllegalAction(f"{p.name} non è controllata dal giocatore attivo", ["508.1a"])
        prob = attack_problem(st, p)
        if prob is not None:
            raise IllegalAction(f"{p.name} non può attaccare: {prob[0]}", prob[1])
        target = a.get("target")
        if target is None:
            if len(cb.defending_players) == 1 and len(targets) == 1:
                target = cb.defending_players[0]
            else:
                raise IllegalAction(f"bisogna indicare chi o che cosa attacca {p.name}", ["508.1b"])
        if target not in targets:
            tp = st.perm(target) if isinstance(target, str) else None
            if tp is not None and derived.is_type(st, tp, "battle") and tp.protector in act:
                raise IllegalAction(f"il protettore di {tp.name} non può attaccarla", ["310.9b"])
            raise IllegalAction(f"{p.name} non può attaccare {st.name_of(target)}: si può attaccare "
                                "solo un giocatore in difesa, un planeswalker che controlla o una "
                                "battaglia che protegge", ["508.1b", "506.3"])
        out.append({"id": p.id, "target": target})
    declared = {a["id"]: a["target"] for a in out}
    for c in st.battlefield:                        # 508.1d: requirements, creature by creature
        if derived.controller(st, c) in act and derived.is_type(st, c, "creature") and not c.phased_out \
                and attack_problem(st, c) is None:
            short = reqs.attack_shortfall(st, c, targets, declared.get(c.id))
            if short is not None:
                raise IllegalAction(f"dichiarazione illegale: {short[0]}", short[1])
    return {"attackers": out}
