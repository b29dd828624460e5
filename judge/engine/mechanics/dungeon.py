"""Dungeons (309) and venturing into them (701.49).

A dungeon card sits in its owner's command zone with a venture marker on one
room; moving the marker into a room triggers that room's ability (309.4c),
which the judge applies as it resolves.  Once the marker is on the bottommost
room and no room ability of it is waiting or on the stack, the owner removes
the dungeon from the game and completes it (704.5t, 309.6, 309.7).  Undercity,
the dungeon of the initiative (726.2), is built in; other dungeons are
described by the judge (``rooms`` in the scenario, or the ``dungeon``
parameter of the ``venture`` action).
"""

from __future__ import annotations

from judge.engine import terms
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import ops, triggers
from judge.engine.mechanics.sba_acts import Act
from judge.engine.registry import decision, sba
from judge.engine.state import Card, Player, State

# Undercity (205.3p): room names are flavour text (309.4b); the effects, in Italian,
# are applied by the judge as each room ability resolves.
UNDERCITY = "Undercity"
UNDERCITY_ROOMS = (
    ("Secret Entrance", "Cerca nel tuo grimorio una carta terra base, rivelala, aggiungila alla "
                        "tua mano, poi rimescola.", ("Forge", "Lost Well")),
    ("Forge", "Metti due segnalini +1/+1 su una creatura bersaglio.", ("Trap!", "Arena")),
    ("Lost Well", "Profetizza 2.", ("Arena", "Stash")),
    ("Trap!", "Un giocatore bersaglio perde 5 punti vita.", ("Archives",)),
    ("Arena", "Provoca una creatura bersaglio.", ("Archives", "Catacombs")),
    ("Stash", "Crea una pedina Tesoro.", ("Catacombs",)),
    ("Archives", "Pesca una carta.", ("Throne of the Dead Three",)),
    ("Catacombs", "Crea una pedina creatura Scheletro 4/1 nera con minacciare.",
     ("Throne of the Dead Three",)),
    ("Throne of the Dead Three", "Rivela le prime dieci carte del tuo grimorio. Metti sul campo di "
                                 "battaglia una carta creatura tra esse con tre segnalini +1/+1. "
                                 "Acquisisce anti-malocchio fino al tuo prossimo turno. Poi "
                                 "rimescola.", ()),
)


def owned_dungeon(st: State, pid: str) -> Card | None:
    """The dungeon card ``pid`` owns in the command zone (at most one, 309.3)."""
    for pl in st.players:
        for c in pl.command:
            if "dungeon" in c.types and c.owner == pid:
                return c
    return None


def room(dungeon: Card, name: str | None) -> dict:
    return next(r for r in dungeon.rooms if r["name"] == name)


def next_rooms(dungeon: Card) -> list[str]:
    """Rooms the marker may move to (309.5a); empty on the bottommost room."""
    return list(room(dungeon, dungeon.venture_marker)["to"])


def undercity(st: State, pid: str) -> Card:
    return Card(id=st.new_id("undercity"), name=UNDERCITY, types=["dungeon"],
                subtypes=[UNDERCITY], owner=pid,
                rooms=[{"name": n, "text": t, "to": list(to)} for n, t, to in UNDERCITY_ROOMS])


def ask_room(ctx: Ctx, pid: str, key: str, rules: list[str]) -> str | None:
    """The room ``pid`` ventures into when their dungeon branches (701.49b), or None."""
    d = owned_dungeon(ctx.s, pid)
    if d is None:
        return None
    choices = next_rooms(d)
    if len(choices) < 2:
        return None
    ans = ctx.ask({
        "id": f"venture_room:{key}", "kind": "venture_room", "player": pid, "rules": rules,
        "prompt": f"{ctx.name(pid)} {terms.verb(terms.VENTURE)} {d.name}: dalla stanza "
                  f"«{d.venture_marker}» sceglie in quale stanza collegata spostare "
                  f"l'{terms.italian('venture marker')}.",
        "options": {"dungeon": d.name, "from": d.venture_marker, "rooms": choices},
        "default": {"room": choices[0]},
    })
    return ans["room"]


@decision("venture_room")
def _validate_room(st: State, pending: dict, answer) -> dict:
    rooms = pending["options"]["rooms"]
    if not isinstance(answer, dict) or answer.get("room") not in rooms:
        raise IllegalAction("bisogna scegliere una stanza collegata da una freccia "
                            f"(una fra: {', '.join(rooms)})", ["701.49b", "309.5a"])
    return {"room": answer["room"]}


def venture(ctx: Ctx, pl: Player, into_undercity: bool, new_dungeon: Card | None = None,
            choice: str | None = None, cause: list[str] = ()) -> None:
    """Venture into the dungeon (701.49a–c), or into Undercity (701.49d)."""
    st = ctx.s
    cause = list(cause)
    d = owned_dungeon(st, pl.id)
    rule_new = "701.49d" if into_undercity else "701.49a"
    if d is not None and not next_rooms(d):
        # 701.49c: from the bottommost room the dungeon is completed and a new one begins
        ops.take(ctx, d.id)
        pl.completed_dungeons.append(d.name)
        ctx.emit(cause + ["701.49c", "309.7"], f"{pl.name} {terms.verb(terms.VENTURE)} {d.name} "
                 "dall'ultima stanza: rimuove il dungeon dalla partita e lo completa.", "dungeon_completed",
                 objects=[d.id], players=[pl.id])
        d = None
        rule_new = "701.49d" if into_undercity else "701.49c"
    if d is None:
        d = undercity(st, pl.id) if into_undercity else new_dungeon
        if d is None:
            raise IllegalAction(f"{pl.name} non ha un dungeon nella zona di comando: indica in "
                                "quale entra (dungeon={…} con name e rooms)", [rule_new])
        d.venture_marker = d.rooms[0]["name"]
        pl.command.append(d)
        ctx.emit(cause + [rule_new, "309.4a"], f"{pl.name} {terms.verb(terms.VENTURE)} {d.name}: lo "
                 f"mette {terms.zone('in', 'command')} con l'{terms.italian('venture marker')} nella "
                 f"prima stanza, «{d.venture_marker}».",
                 "venture", objects=[d.id], players=[pl.id], room=d.venture_marker)
    else:
        choices = next_rooms(d)
        target = choice if choice in choices else choices[0]
        if len(choices) > 1 and choice not in choices:
            raise IllegalAction(f"da «{d.venture_marker}» si può andare in: {', '.join(choices)} "
                                "(indica room=…)", ["701.49b", "309.5a"])
        ctx.emit(cause + ["701.49b", "309.5a"], f"{pl.name} {terms.verb(terms.VENTURE)} {d.name}: "
                 f"sposta l'{terms.italian('venture marker')} da «{d.venture_marker}» a «{target}».",
                 "venture",
                 objects=[d.id], players=[pl.id], room=target)
        d.venture_marker = target
    r = room(d, d.venture_marker)
    effect = f" ({r['text'].rstrip('.')})" if r["text"] else ""
    triggers.queue(ctx, pl.id, f"Stanza «{r['name']}» di {d.name}{effect}", ["309.4c"], source=d.id)


@sba("704.5t", cites=("309.6", "309.7"),
     summary=f"Un dungeon con l'{terms.italian('venture marker')} nell'ultima stanza, senza abilità "
             "di stanza in attesa o in pila, viene rimosso dalla partita: il proprietario lo completa")
def dungeon_completed(ctx: Ctx) -> list[Act]:
    st = ctx.s
    acts = []
    for pl in st.players:
        for c in pl.command:
            if "dungeon" in c.types and c.rooms and c.venture_marker is not None \
                    and not next_rooms(c) and not triggers.is_source_of_pending(st, c.key):
                acts.append(Act(["704.5t", "309.7"], f"L'{terms.italian('venture marker')} di "
                                f"{st.name_of(c.owner)} è nell'ultima stanza di {c.name} e nessuna "
                                "sua abilità di stanza è in attesa o in pila: il proprietario "
                                "rimuove il dungeon dalla partita e lo completa.",
                                "dungeon_completed", objects=[c.id], players=[c.owner],
                                apply=_complete(c.id), moves=c.id))
    return acts


def _complete(cid: str):
    def apply(ctx: Ctx) -> None:
        card, _, _ = ops.take(ctx, cid)
        ctx.s.player(card.owner).completed_dungeons.append(card.name)
    return apply
