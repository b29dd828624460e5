"""Combat declarations: the turn-based actions 703.4h–j and the checks on declarations
(damage, 703.4k and m, is in combat_damage.py).

Declarations are pending decisions; their validators
(below) refuse illegal answers with an Italian message citing the rule, and
never change the state.
"""

from __future__ import annotations

from judge.engine import chars
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.registry import decision, tba
from judge.engine.state import Combat, Permanent, State


# --- helpers ------------------------------------------------------------------

def attackable(st: State, defenders: list[str]) -> list[str]:
    """Players, planeswalkers and battles that may be attacked (506.3, 508.1b, 310.9b)."""
    out = []
    ap_team = {p.id for p in chars.active_players(st)}
    for d in defenders:
        out.append(d)
    for p in st.battlefield:
        if p.phased_out:
            continue
        if "planeswalker" in p.types and p.controller in defenders:
            out.append(p.id)
        elif "battle" in p.types and p.protector in defenders and p.protector not in ap_team:
            out.append(p.id)
    return out


def defender_of(st: State, target: str | None) -> str | None:
    """The defending player a creature attacking ``target`` is attacking (508.5)."""
    if target is None:
        return None
    if st.has_player(target):
        return target
    p = st.perm(target)
    if p is None:
        return None
    if "battle" in p.types and p.protector:
        return p.protector
    return p.controller


def attack_problem(st: State, p: Permanent) -> tuple[str, list[str]] | None:
    """Why a creature can't be declared as an attacker, or None."""
    if "creature" not in p.types:
        return "non è una creatura", ["506.3"]
    if p.phased_out:
        return "è scomparsa per intermittenza", ["702.26b"]
    if p.tapped:
        return "è TAPpata", ["508.1a"]
    if "battle" in p.types:
        return "è anche una battaglia", ["508.1a"]
    if p.summoning_sick and not chars.has_kw(p, "haste"):
        return ("non è sotto il controllo del suo controllore ininterrottamente dall'inizio del "
                "suo turno più recente e non ha rapidità", ["302.6", "508.1a"])
    if chars.has_kw(p, "defender"):
        return "ha difensore", ["702.3b"]
    return None


def block_problem(p: Permanent) -> tuple[str, list[str]] | None:
    if "creature" not in p.types:
        return "non è una creatura", ["506.3"]
    if p.phased_out:
        return "è scomparsa per intermittenza", ["702.26b"]
    if p.tapped:
        return "è TAPpata", ["509.1a"]
    if "battle" in p.types:
        return "è anche una battaglia", ["509.1a"]
    return None


def can_block_attacker(st: State, blocker: Permanent, attacker: Permanent) -> tuple[str, list[str]] | None:
    if chars.has_kw(attacker, "flying") and not (chars.has_kw(blocker, "flying")
                                                  or chars.has_kw(blocker, "reach")):
        return (f"{attacker.name} ha volare e {blocker.name} non ha né volare né raggiungere",
                ["702.9b", "509.1b"])
    return None


def attackers_of_defender(st: State, pid: str) -> list[dict]:
    """Attacking creatures ``pid`` may block (509.1a, 805.10d in shared team turns)."""
    cb = st.combat
    if cb is None:
        return []
    if chars.shared_team_turns(st.variant):
        team = {p.id for p in chars.teammates(st, pid)}
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
    return any(chars.has_kw(p, "first strike") or chars.has_kw(p, "double strike")
               for p in in_combat_creatures(st))


# --- 703.4h ---------------------------------------------------------------------

@tba("703.4h", cites=("507.1", "506.2", "802.2", "803.1a", "803.1b", "805.10a"),
     summary="Nel multigiocatore il giocatore attivo sceglie il giocatore in difesa")
def choose_defending_player(ctx: Ctx) -> None:
    st = ctx.s
    ap = st.player(st.turn.active_player)
    cb = Combat()
    if not chars.active_players(st):
        st.combat = cb                  # 800.4j: no active player, nobody attacks
        return
    opps = chars.opponents(st, ap.id)
    option = st.options.get("attack", "multiple")
    if chars.shared_team_turns(st.variant):
        cb.defending_players = [p.id for p in opps]
        ctx.emit(["805.10a"], "La squadra non attiva è la squadra in difesa: "
                 f"{', '.join(p.name for p in opps)}.", "defending_player",
                 players=cb.defending_players)
    elif len(st.players) <= 2 or option == "multiple":
        cb.defending_players = [p.id for p in opps]
        if len(st.players) > 2:
            ctx.emit(["802.2"], "Con l'opzione «attaccare più giocatori» tutti gli avversari di "
                     f"{ap.name} sono giocatori in difesa.", "defending_player",
                     players=cb.defending_players)
    elif option in ("left", "right"):
        order = chars.turn_order_from(st, ap.id)
        seq = order[1:] if option == "left" else list(reversed(order[1:]))
        target = next((p for p in seq if p in opps), None)
        cb.defending_players = [target.id] if target else []
        if target:
            rule = "803.1a" if option == "left" else "803.1b"
            side = "sinistra" if option == "left" else "destra"
            ctx.emit(["703.4h", "507.1", rule], f"{target.name}, l'avversario più vicino alla "
                     f"{side} di {ap.name}, diventa il giocatore in difesa.", "defending_player",
                     players=[target.id])
    else:
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
        st.combat = Combat(defending_players=[p.id for p in chars.opponents(st, ap)])
    return st.combat


# --- 703.4i ---------------------------------------------------------------------

def attack_options(st: State) -> tuple[list[dict], list[dict]]:
    cb = st.combat
    act = {p.id for p in chars.active_players(st)}
    targets = attackable(st, cb.defending_players if cb else [])
    able, unable = [], []
    for p in st.battlefield:
        if p.controller not in act or "creature" not in p.types or p.phased_out:
            continue
        prob = attack_problem(st, p)
        if prob is None:
            able.append({"id": p.id, "name": p.name, "power": chars.power(p),
                         "toughness": chars.toughness(p), "targets": list(targets)})
        else:
            unable.append({"id": p.id, "name": p.name, "reason": prob[0], "rules": prob[1]})
    return able, unable


@tba("703.4i", cites=("508.1", "508.1f", "508.1k", "702.20b", "508.8", "800.4j"),
     summary="Il giocatore attivo dichiara gli attaccanti")
def declare_attackers(ctx: Ctx) -> None:
    st = ctx.s
    cb = _ensure_combat(ctx)
    ap = st.player(st.turn.active_player)
    if cb.attackers_declared and cb.attackers:
        return
    if not chars.active_players(st):
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
        "default": {"attackers": []},
    })
    cb.attackers_declared = True
    if not ans["attackers"]:
        ctx.emit(["703.4i", "508.1"], f"{ap.name} non dichiara attaccanti.", "attack",
                 players=[ap.id])
        return
    for a in ans["attackers"]:
        p = st.perm(a["id"])
        vig = chars.has_kw(p, "vigilance")
        if not vig:
            p.tapped = True
        d = defender_of(st, a["target"])
        cb.attackers.append({"id": p.id, "target": a["target"], "blocked": False})
        tap_note = " (non si TAPpa: ha cautela)" if vig else " e si TAPpa"
        rules = ["703.4i", "508.1k"] + (["702.20b"] if vig else ["508.1f"])
        ctx.emit(rules, f"{p.name} ({chars.describe_pt(p)}) attacca {st.name_of(a['target'])}"
                 f"{tap_note}.", "attack", objects=[p.id, a["target"]],
                 players=[d] if d else [], target=a["target"])


@decision("declare_attackers")
def _validate_attackers(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("attackers"), list):
        raise IllegalAction('risposta attesa: {"attackers": [{"id": …, "target": …}]}', ["508.1"])
    act = {p.id for p in chars.active_players(st)}
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
        if p.controller not in act:
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
            if tp is not None and "battle" in tp.types and tp.protector in act:
                raise IllegalAction(f"il protettore di {tp.name} non può attaccarla", ["310.9b"])
            raise IllegalAction(f"{p.name} non può attaccare {st.name_of(target)}: si può attaccare "
                                "solo un giocatore in difesa, un planeswalker che controlla o una "
                                "battaglia che protegge", ["508.1b", "506.3"])
        out.append({"id": p.id, "target": target})
    return {"attackers": out}


# --- 703.4j ---------------------------------------------------------------------

def block_options(st: State, pid: str) -> tuple[list[dict], list[dict]]:
    idx = st.perm_index()
    attackers = [idx[a["id"]] for a in attackers_of_defender(st, pid) if a["id"] in idx]
    able, unable = [], []
    for p in st.battlefield:
        if p.controller != pid or "creature" not in p.types or p.phased_out:
            continue
        prob = block_problem(p)
        if prob is not None:
            unable.append({"id": p.id, "name": p.name, "reason": prob[0], "rules": prob[1]})
            continue
        can = [a.id for a in attackers if can_block_attacker(st, p, a) is None]
        if can:
            able.append({"id": p.id, "name": p.name, "power": chars.power(p),
                         "toughness": chars.toughness(p), "can_block": can})
        else:
            unable.append({"id": p.id, "name": p.name,
                           "reason": "non può bloccare nessuno degli attaccanti",
                           "rules": ["702.9b"]})
    return able, unable


@tba("703.4j", cites=("509.1", "509.1g", "509.1h", "802.4", "805.10d"),
     summary="I giocatori in difesa dichiarano i bloccanti")
def declare_blockers(ctx: Ctx) -> None:
    st = ctx.s
    cb = st.combat
    if cb is None or not cb.attackers:
        return
    order = [p for p in chars.apnap(st) if p.id in cb.defending_players
             and p.id not in cb.blockers_declared_by]
    answers = []
    for pl in order:
        able, unable = block_options(st, pl.id)
        if not able:
            answers.append((pl, {"blockers": []}))
            continue
        ans = ctx.ask({
            "id": f"declare_blockers:{pl.id}", "kind": "declare_blockers", "player": pl.id,
            "rules": ["703.4j", "509.1"] + (["802.4"] if len(order) > 1 else []),
            "prompt": f"{pl.name} dichiara quali creature bloccano e quale attaccante blocca ciascuna.",
            "options": {"creatures": able, "cannot_block": unable,
                        "attackers": [{"id": a["id"], "name": st.name_of(a["id"]),
                                       "target": a["target"]}
                                      for a in attackers_of_defender(st, pl.id)]},
            "default": {"blockers": []},
        })
        answers.append((pl, ans))
    blocked_now = set()
    for pl, ans in answers:
        cb.blockers_declared_by.append(pl.id)
        if not ans["blockers"]:
            if order:
                ctx.emit(["703.4j", "509.1"], f"{pl.name} non dichiara bloccanti.", "block",
                         players=[pl.id])
            continue
        for b in ans["blockers"]:
            bp = st.perm(b["id"])
            cb.blockers.append({"id": b["id"], "blocking": [b["blocking"]]})
            blocked_now.add(b["blocking"])
            ctx.emit(["703.4j", "509.1g"], f"{bp.name} ({chars.describe_pt(bp)}) blocca "
                     f"{st.name_of(b['blocking'])}.", "block", objects=[bp.id, b["blocking"]],
                     players=[pl.id])
    if len(cb.blockers_declared_by) >= len([d for d in cb.defending_players
                                            if not st.player(d).lost]):
        blocked_ids = {x for b in cb.blockers for x in b["blocking"]}
        for a in cb.attackers:
            a["blocked"] = a["id"] in blocked_ids
        unblocked = [a["id"] for a in cb.attackers if not a["blocked"]]
        blocked = [a["id"] for a in cb.attackers if a["blocked"]]
        if blocked:
            ctx.emit(["509.1h"], "Creature bloccate: " + ", ".join(st.name_of(i) for i in blocked)
                     + ".", "blocked", objects=blocked)
        if unblocked:
            ctx.emit(["509.1h"], "Creature non bloccate: "
                     + ", ".join(st.name_of(i) for i in unblocked) + ".", "unblocked",
                     objects=unblocked)


@decision("declare_blockers")
def _validate_blockers(st: State, pending: dict, answer) -> dict:
    if not isinstance(answer, dict) or not isinstance(answer.get("blockers"), list):
        raise IllegalAction('risposta attesa: {"blockers": [{"id": …, "blocking": …}]}', ["509.1"])
    pid = pending["player"]
    attacking_me = {a["id"] for a in attackers_of_defender(st, pid)}
    seen = set()
    out = []
    for b in answer["blockers"]:
        if not isinstance(b, dict) or not isinstance(b.get("id"), str):
            raise IllegalAction("ogni bloccante è un oggetto con «id» e «blocking»", ["509.1a"])
        blocking = b.get("blocking")
        if isinstance(blocking, list):
            if len(blocking) != 1:
                raise IllegalAction("ogni creatura bloccante sceglie una sola creatura da bloccare",
                                    ["509.1a"])
            blocking = blocking[0]
        p = st.perm(b["id"])
        if p is None:
            raise IllegalAction(f'"{b["id"]}" non è un permanente sul campo di battaglia', ["506.3"])
        if b["id"] in seen:
            raise IllegalAction(f"{p.name} è dichiarata due volte come bloccante", ["509.1a"])
        seen.add(b["id"])
        if p.controller != pid:
            raise IllegalAction(f"{p.name} non è controllata da {st.name_of(pid)}", ["509.1a"])
        prob = block_problem(p)
        if prob is not None:
            raise IllegalAction(f"{p.name} non può bloccare: {prob[0]}", prob[1])
        if blocking not in attacking_me:
            raise IllegalAction(f"{p.name} può bloccare solo una creatura che attacca "
                                f"{st.name_of(pid)}, un suo planeswalker o una battaglia che "
                                "protegge", ["509.1a"])
        ap = st.perm(blocking)
        prob = can_block_attacker(st, p, ap)
        if prob is not None:
            raise IllegalAction(f"{p.name} non può bloccare {ap.name}: {prob[0]}", prob[1])
        out.append({"id": p.id, "blocking": blocking})
    return {"blockers": out}
