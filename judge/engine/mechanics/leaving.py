"""Losing the game (104) and leaving a multiplayer game (800.4).

``lose`` makes players lose simultaneously, ends the game when one team is left
(104.2a, 104.2c) or nobody is (104.4a, 104.4d), and otherwise makes them leave
the game together (``leave_game``): their objects leave with them, control
effects that favoured them end, their abilities on the stack cease to exist and
what they still control is exiled (800.4a); the monarch, the initiative and the
planar controller pass on (725.4, 726.4, 800.4p).
"""

from __future__ import annotations

from judge.engine import seats
from judge.engine.characteristics import continuous, derived
from judge.engine.context import Ctx
from judge.engine.mechanics import ops, replacement_find, triggers
from judge.engine.state import CARD_LISTS, State


def cant_lose(st: State, pid: str) -> list[replacement_find.Candidate]:
    """The effects by which a player can't lose the game (614.17; Platinum Angel); in
    Two-Headed Giant, a teammate's too (810.8a).  Conceding is not stopped (104.3a)."""
    team = [p.id for p in seats.teammates(st, pid)] if st.variant == "two-headed-giant" else [pid]
    return [c for p in team for c in replacement_find.cant(st, "lose_game", player=p)]


def lose(ctx: Ctx, losses: list[tuple[str, list[str], str]], team_rule: str = "810.8a") -> None:
    """Players lose simultaneously: (player id, rules, Italian reason) each.

    In Two-Headed Giant the teammates lose with them (810.8a; ``team_rule`` is 810.8b
    for a concession)."""
    s = ctx.s
    if s.result is not None:
        return
    losing: dict[str, tuple[list[str], str]] = {}
    for pid, rules, reason in losses:
        if not s.player(pid).lost and pid not in losing:
            losing[pid] = (rules, reason)
    if s.variant == "two-headed-giant":
        for pid in list(losing):
            for mate in seats.teammates(s, pid):
                if mate.id not in losing and not mate.lost:
                    losing[mate.id] = ([team_rule], f"la sua squadra perde con {s.player(pid).name}")
    if not losing:
        return
    for pid, (rules, reason) in losing.items():
        pl = s.player(pid)
        ctx.emit(rules, f"{pl.name} perde la partita: {reason}.", "lose", players=[pid])
    remaining_before = s.in_game()
    for pid in losing:
        s.player(pid).lost = True
    remaining = s.in_game()
    if not remaining:
        rule = "104.4d" if len({p.team for p in remaining_before}) < len(remaining_before) else "104.4a"
        s.result = {"draw": True, "winners": [], "rules": [rule]}
        ctx.emit([rule], "Tutti i giocatori rimasti perdono contemporaneamente: la partita è un pareggio.",
                 "game_draw", players=[p.id for p in remaining_before])
        return
    teams = {p.team for p in remaining}
    if len(teams) == 1:
        team_game = len({p.team for p in s.players}) < len(s.players)
        rule = "104.2c" if team_game else "104.2a"
        s.result = {"draw": False, "winners": [p.id for p in remaining], "rules": [rule]}
        names = " e ".join(p.name for p in remaining)
        verb = "vincono" if len(remaining) > 1 else "vince"
        ctx.emit([rule], f"{names} {verb} la partita: tutti gli avversari l'hanno lasciata.",
                 "win", players=[p.id for p in remaining])
        return
    leave_game(ctx, list(losing))


def leave_game(ctx: Ctx, pids: list[str]) -> None:
    """800.4a, in its order, for players leaving a multiplayer game at the same time."""
    s = ctx.s
    leaving = set(pids)
    planar = seats.planar_controller(s)
    faces_up = {c.id for pl in s.players for c in pl.command if {"plane", "phenomenon"} & set(c.types)}
    report: dict[str, dict[str, list[str]]] = {pid: {"left": [], "back": [], "ceased": [],
                                                     "exiled": []} for pid in pids}
    names: dict[str, str] = {}
    # 1. Every object they own leaves the game (phased-out permanents too, 702.26k).
    for p in [p for p in s.battlefield if p.owner in leaving]:
        ops.take(ctx, p.id)
        ops.clear_references(ctx, p.key)
        report[p.owner]["left"].append(p.id)
    for item in [i for i in s.stack if i.card is not None and i.card.owner in leaving]:
        s.stack.remove(item)
        report[item.card.owner]["left"].append(item.card.id)
    for pl in s.players:
        for z in CARD_LISTS:
            zone = pl.zone(z)
            for c in [c for c in zone if c.owner in leaving]:
                zone.remove(c)
                report[c.owner]["left"].append(c.id)
    # 2. Effects that gave them control of objects end (506.4 too): the file's effects, and a
    # controller the file marks as given by an effect it doesn't describe (control_effect).
    before = {p.id: derived.controller(s, p) for p in s.battlefield}
    for pid in pids:
        continuous.control_ends(s, pid)
    for p in s.battlefield:
        if p.controller in leaving and p.control_effect:
            p.controller, p.control_effect = p.owner, False
    s.touch()
    for p in s.battlefield:
        if before[p.id] in leaving and derived.controller(s, p) not in leaving:
            report[before[p.id]]["back"].append(p.id)
            ops.remove_from_combat(ctx, p.id)
    # 3. Their objects on the stack that aren't cards (abilities, copies of spells) cease to exist.
    for item in [i for i in s.stack if i.controller in leaving
                 and (i.card is None or i.card.copy == "spell")]:
        s.stack.remove(item)
        report[item.controller]["ceased"].append(item.id)
        names[item.id] = item.text or (item.card.name if item.card else item.id)
    # 4. Whatever they still control is exiled.
    for p in [p for p in s.battlefield if derived.controller(s, p) in leaving]:
        report[derived.controller(s, p)]["exiled"].append(p.id)
        ops.move(ctx, p.id, "exile")
    for item in [i for i in s.stack if i.controller in leaving and i.card is not None]:
        report[item.controller]["exiled"].append(item.card.id)
        ops.move(ctx, item.card.id, "exile")
    for pid in pids:
        _log(ctx, pid, report[pid], names)
    # Their abilities waiting to be put on the stack never get there (800.4d).
    for t in [t for t in s.waiting_triggers if t["controller"] in leaving]:
        s.waiting_triggers.remove(t)
        ctx.emit(["800.4a", "800.4d"], f"{t['text']}: {ctx.name(t['controller'])} ha lasciato la "
                 "partita e l'abilità non va in pila.", "trigger_removed", objects=[t["id"]],
                 players=[t["controller"]])
    if s.combat is not None:
        # Creatures attacking them stay attacking; their damage isn't assigned (800.4e).
        s.combat.defending_players = [d for d in s.combat.defending_players if d not in leaving]
    _pass_designations(ctx, leaving, planar)
    gone_faces = faces_up - {c.id for pl in s.players for c in pl.command}
    if gone_faces and s.options.get("planechase"):
        from judge.engine.mechanics import (planechase)     # 901.10: a face-up plane left with its owner
        planechase.planeswalk(ctx, seats.planar_controller(s), ["901.10", "701.31c"])


def _log(ctx: Ctx, pid: str, r: dict[str, list[str]], names: dict[str, str]) -> None:
    s = ctx.s
    name = s.name_of(pid)
    ctx.emit(["800.4a"], f"{name} lascia la partita insieme ai {len(r['left'])} oggetti di "
             "cui è proprietario.", "leave_game",
             objects=list(r["left"]), players=[pid], left=list(r["left"]))
    if r["back"]:
        ctx.emit(["800.4a"], f"Finiscono gli effetti che davano a {name} il controllo di "
                 f"{', '.join(map(s.name_of, r['back']))}: tornano ai loro proprietari.", "control",
                 objects=r["back"], players=[pid])
    if r["ceased"]:
        ctx.emit(["800.4a"], f"Gli oggetti in pila controllati da {name} che non sono carte "
                 f"cessano di esistere: {', '.join(names[i] for i in r['ceased'])}.", "cease_to_exist",
                 objects=r["ceased"], players=[pid])
    if r["exiled"]:
        ctx.emit(["800.4a"], f"Gli oggetti ancora controllati da {name} sono esiliati: "
                 f"{', '.join(map(s.name_of, r['exiled']))}.", "exile", objects=r["exiled"],
                 players=[pid])


def _heir(s: State) -> str | None:
    """The active player if still in the game, else the next player in turn order."""
    ap = s.player(s.turn.active_player)
    if not ap.lost:
        return ap.id
    act = seats.active_players(s)
    if act:
        return act[0].id
    nxt = seats.turn_order_from(s, ap.id)
    return nxt[0].id if nxt else None


def _pass_designations(ctx: Ctx, leaving: set[str], planar: str | None) -> None:
    s = ctx.s
    heir = _heir(s)
    who = "il giocatore attivo" if heir == s.turn.active_player else \
        "il giocatore successivo nell'ordine di turno"
    if s.monarch in leaving:
        s.monarch = heir
        if heir is not None:
            ctx.emit(["725.4"], f"Il monarca ha lasciato la partita: {s.name_of(heir)}, {who}, "
                     "diventa il monarca.", "monarch", players=[heir])
    if s.initiative in leaving:
        s.initiative = heir
        if heir is not None:
            ctx.emit(["726.4"], f"Chi aveva l'iniziativa ha lasciato la partita: "
                     f"{s.name_of(heir)}, {who}, prende l'iniziativa.", "initiative",
                     players=[heir])
            triggers.took_initiative(ctx, heir)
    if planar in leaving:
        nxt = seats.turn_order_from(s, planar)
        s.planar_controller = nxt[0].id if nxt else None
        if nxt:
            ctx.emit(["800.4p", "311.5"], f"Il controllore planare ha lasciato la partita: lo "
                     f"diventa {nxt[0].name}, il giocatore successivo nell'ordine di turno.",
                     "planar_controller", players=[nxt[0].id])
