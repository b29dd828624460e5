"""Triggered abilities between triggering and the stack (603.3), in APNAP order.

An ability that triggers waits in ``State.waiting_triggers`` (its controller is
fixed as it triggers, 109.4b) and is put on the stack the next time a player
would receive priority (603.3, 117.5).  When several are waiting, each player in
APNAP order puts theirs on the stack in the order they choose (603.3b, 101.4;
by team with shared team turns, 805.7): a pending decision whose default is
the order in which they triggered.  Abilities of a player who has left the game
are not put on the stack (800.4d).
"""

from __future__ import annotations

from judge.engine import italian, seats, terms
from judge.engine.characteristics import derived, keywords
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.registry import EFFECTS, decision
from judge.engine.state import Permanent, StackItem, State


def queue(ctx: Ctx, controller: str, text: str, rules: list[str], source: str | None = None,
          effect: dict | None = None, on_trigger: bool = False) -> dict | None:
    """An ability triggers: it waits to be put on the stack (603.3)."""
    st = ctx.s
    if st.player(controller).lost:
        return None                                   # 800.4d
    trig = {"id": st.new_id("abilità"), "controller": controller, "text": text,
            "source": source, "rules": list(rules), "effect": effect, "on_trigger": on_trigger}
    st.waiting_triggers.append(trig)
    return trig


def is_source_of_pending(st: State, key: str) -> bool:
    """The object ``key`` is the source of an ability that has triggered but not yet left the
    stack."""
    return any(item.source == key for item in st.stack) or \
        any(t["source"] == key for t in st.waiting_triggers)


def _groups(st: State) -> list[tuple[str, set[str], list[str]]]:
    """Who puts abilities on the stack, in order: (chooser, controllers, rules)."""
    order = seats.apnap(st)
    if seats.shared_team_turns(st.variant):
        out, seen = [], set()
        for p in order:                               # 805.7: the active team first
            if p.team not in seen:
                seen.add(p.team)
                out.append((p.id, {m.id for m in order if m.team == p.team}, ["603.3b", "805.7"]))
        return out
    return [(p.id, {p.id}, ["603.3b", "101.4"]) for p in order]


def _same(abilities: list[dict]) -> bool:
    key = [(t["text"], t["source"], t["effect"]) for t in abilities]
    return all(k == key[0] for k in key)


def put_on_stack(ctx: Ctx) -> bool:
    """Put every waiting ability on the stack (603.3b). True if any was put there."""
    st = ctx.s
    gone = [t for t in st.waiting_triggers if st.player(t["controller"]).lost]
    for t in gone:
        st.waiting_triggers.remove(t)
        ctx.emit(["800.4d"], f"{t['text']}: {ctx.name(t['controller'])} ha lasciato la partita e "
                 "l'abilità non va in pila.", "trigger_removed", objects=[t["id"]],
                 players=[t["controller"]])
    waiting = list(st.waiting_triggers)
    if not waiting:
        return False
    plan = []
    # 603.3b: first the abilities whose trigger condition isn't another ability
    # triggering, then the others; each time every player in APNAP order.
    for second in (False, True):
        for chooser, members, rules in _groups(st):
            mine = [t for t in waiting if t["controller"] in members and t["on_trigger"] == second]
            if len(mine) > 1 and not _same(mine):
                ids = [t["id"] for t in mine]
                ans = ctx.ask({
                    "id": f"order_triggers:{chooser}:{','.join(ids)}", "kind": "order_triggers",
                    "player": chooser, "rules": list(rules),
                    "prompt": f"{ctx.name(chooser)} mette in pila le sue abilità innescate "
                              "nell'ordine che sceglie: la prima messa in pila si risolve per "
                              "ultima.",
                    "options": {"abilities": [{"id": t["id"], "text": t["text"],
                                               "controller": t["controller"],
                                               "source": t["source"]} for t in mine]},
                    "default": {"order": ids},
                })
                by_id = {t["id"]: t for t in mine}
                mine = [by_id[i] for i in ans["order"]]
            if mine:
                plan.append((chooser, rules, mine))
    # 603.3d: targets are chosen as each ability is put on the stack (asked before anything
    # moves, so that a pending choice leaves the state as it was)
    targets = {}
    for _, _, mine in plan:
        for t in mine:
            entry = EFFECTS.get(t["effect"]["kind"]) if t["effect"] else None
            if entry is not None and entry.target is not None:
                targets[t["id"]] = entry.target(ctx, t)
    for chooser, rules, mine in plan:
        if len(waiting) > 1:
            names = ", poi ".join(italian.ability(t["text"]) for t in mine)
            ctx.emit(rules, f"Ordine APNAP: {ctx.name(chooser)} mette in pila {names}.",
                     "trigger_order", objects=[t["id"] for t in mine], players=[chooser])
        for t in mine:
            st.waiting_triggers.remove(t)
            if t["id"] in targets and targets[t["id"]] is None:
                ctx.emit(t["rules"] + ["603.3d"], f"{italian.triggered(t['text'], ctx.name(t['controller']))} "
                         "non ha bersagli legali: è rimossa dalla pila.", "trigger_removed", objects=[t["id"]],
                         players=[t["controller"]])
                continue
            chosen = [st.ref_in(targets[t["id"]])] if t["id"] in targets else []
            item = StackItem(id=t["id"], kind="ability", controller=t["controller"],
                             text=t["text"], source=t["source"], rules=list(t["rules"]),
                             effect=t["effect"], targets=chosen)
            st.stack.append(item)
            aim = f", con bersaglio {ctx.name(chosen[0])}" if chosen else ""
            ctx.emit(t["rules"] + ["603.3"] + (["603.3d"] if chosen else []),
                     f"{italian.triggered(t['text'], ctx.name(t['controller']))} va in pila{aim}.", "trigger",
                     objects=[t["id"]] + ([t["source"]] if t["source"] else []) + chosen,
                     players=[t["controller"]])
            became_target(ctx, item)
    return True


def became_target(ctx: Ctx, item: StackItem) -> None:
    """702.21a: each ward of a permanent ``item`` targets triggers if an opponent of the
    permanent's controller controls ``item``."""
    st = ctx.s
    for tid in item.targets:
        perm = st.live(tid)
        if perm is None or perm.phased_out or st.player(derived.controller(st, perm)).team == \
                st.player(item.controller).team:
            continue
        for inst in derived.kw_instances(st, perm, "ward"):
            text = (f"{keywords.italian(inst.text)[:1].upper()}{keywords.italian(inst.text)[1:]} di "
                    f"{perm.name}: neutralizza «{short_name(item.text)}» a meno che "
                    f"{ctx.name(item.controller)} paghi {inst.cost}")
            queue(ctx, derived.controller(st, perm), text, ["702.21a"], source=perm.key,
                  effect={"kind": "ward", "spell": item.id, "player": item.controller,
                          "cost": inst.cost})


def short_name(text: str) -> str:
    """An object on the stack by its name: a spell's card name, an ability's "Keyword of X"
    (the part of its text before the colon)."""
    return _bare(text.split(":", 1)[0])


def _bare(text: str) -> str:
    """An ability's text inside «…»: without its final full stop (the sentence has its own)."""
    return text.rstrip().rstrip(".")


@decision("order_triggers")
def _validate_order(st: State, pending: dict, answer) -> dict:
    ids = [a["id"] for a in pending["options"]["abilities"]]
    order = answer.get("order") if isinstance(answer, dict) else None
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(ids) \
            or len(set(map(str, order))) != len(ids):
        raise IllegalAction("bisogna indicare l'ordine di tutte le abilità, ognuna una volta "
                            f"(ids: {', '.join(ids)})", list(pending["rules"]))
    return {"order": [str(x) for x in order]}


# --- the rules' own triggered abilities: when they trigger ------------------------------------
# (what they do as they resolve: designations.py, battles.py)

def beginning_of_step(ctx: Ctx) -> None:
    """Abilities that trigger as a step begins (603.2b): the monarch's draw at the
    beginning of their end step (725.2), the initiative's venture at the beginning of
    its holder's upkeep (726.2)."""
    st = ctx.s
    active = {p.id for p in seats.active_players(st)}
    if st.turn.step == "end" and st.monarch in active:
        queue(ctx, st.monarch, "Abilità del monarca (all'inizio della sua sottofase finale "
              f"{terms.verb('draw')} una carta)", ["725.2"], effect={"kind": "monarch_draw"})
    if st.turn.step == "upkeep" and st.initiative in active:
        queue(ctx, st.initiative, "Abilità dell'iniziativa (all'inizio del suo mantenimento "
              f"{terms.verb(terms.VENTURE)} Undercity)", ["726.2"], effect={"kind": "initiative_venture"})


def combat_damage_to_players(ctx: Ctx, hits: list[tuple]) -> None:
    """Combat damage dealt by creatures to players, as (creature, player id) pairs:
    the monarch's (725.2) and the initiative's (726.2) abilities trigger."""
    st = ctx.s
    monarch, initiative = st.monarch, st.initiative
    takers: list[str] = []
    for src, target in hits:
        if not isinstance(src, Permanent) or not derived.is_creature(st, src):
            continue
        if target == monarch and monarch is not None:
            queue(ctx, monarch, f"Abilità del monarca ({src.name} gli ha inflitto danno da "
                  f"combattimento: il suo controllore, {ctx.name(derived.controller(st, src))}, diventa il "
                  "monarca)", ["725.2"],
                  effect={"kind": "monarch_steal", "creature": src.key, "player": derived.controller(st, src)})
        if target == initiative and initiative is not None and derived.controller(st, src) not in takers:
            takers.append(derived.controller(st, src))       # "one or more creatures a player controls"
    for pid in takers:
        queue(ctx, initiative, f"Abilità dell'iniziativa (creature di {ctx.name(pid)} le hanno "
              f"inflitto danno da combattimento: {ctx.name(pid)} prende l'iniziativa)", ["726.2"],
              effect={"kind": "initiative_steal", "player": pid})


def took_initiative(ctx: Ctx, pid: str) -> None:
    """726.2: "Whenever a player takes the initiative, that player ventures into Undercity"
    (also when they already had it, 726.5)."""
    queue(ctx, pid, f"Abilità dell'iniziativa ({ctx.name(pid)} l'ha presa: "
          f"{terms.verb(terms.VENTURE)} Undercity)", ["726.2"], effect={"kind": "initiative_venture"})


def life_lost(ctx: Ctx, losers: list) -> None:
    """702.179d: during the turn of a player with speed, an opponent loses life."""
    st = ctx.s
    for p in seats.active_players(st):
        if p.speed is None or p.id in st.turn.speed_triggered:
            continue
        if not any(x.team != p.team for x in losers) or p.speed >= 4:
            continue                                    # 603.4: "if your speed is less than 4"
        st.turn.speed_triggered.append(p.id)            # "only once each turn"
        queue(ctx, p.id, f"Abilità della velocità di {p.name} (un avversario ha perso punti "
              "vita nel suo turno: la velocità aumenta di 1)", ["702.179d"],
              effect={"kind": "speed"})


def last_defense_removed(ctx: Ctx, perm) -> None:
    """310.12b: a Siege's intrinsic ability as its last defense counter is removed."""
    st = ctx.s
    if derived.has_subtype(st, perm, "Siege") and derived.is_type(st, perm, "battle"):
        queue(ctx, derived.controller(st, perm), f"Abilità di {perm.name} (rimosso l'ultimo "
              "segnalino difesa: si esilia e può essere lanciata trasformata)", ["310.12b"], source=perm.key,
              effect={"kind": "siege"})
