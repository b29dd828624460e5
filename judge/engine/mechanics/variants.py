"""State-based actions of the variants (704.6): Two-Headed Giant, Commander, Archenemy.

Planechase's 704.6f lives with the rest of Planechase in planechase.py.
"""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import ops
from judge.engine.mechanics.sba_acts import Act, ask_in_apnap_order
from judge.engine.mechanics.triggers import is_source_of_pending
from judge.engine.registry import decision, sba
from judge.engine.state import State

COMMANDER_VARIANTS = ("commander", "brawl")      # Brawl is an option of Commander (903.12a)
THG = terms.TWO_HEADED_GIANT


@sba("704.6a", cites=("810.8c",), summary=f"{THG}: una squadra con 0 o meno punti vita perde")
def team_life(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant != "two-headed-giant":
        return []
    return [Act(["704.6a"], f"la sua squadra ha {p.life} punti vita", "lose", players=[p.id],
                loss=p.id) for p in st.in_game() if p.life <= 0]


@sba("704.6b", cites=("810.8d", "810.11"),
     summary=f"{THG}: una squadra con quindici o più segnalini veleno perde")
def team_poison(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant != "two-headed-giant":
        return []
    limit = seats.poison_limit(st)
    return [Act(["704.6b"], f"la sua squadra ha {p.poison} segnalini veleno (limite {limit})",
                "lose", players=[p.id], loss=p.id) for p in st.in_game() if p.poison >= limit]


@sba("704.6c", cites=("903.10a",),
     summary="Commander: 21 o più danni da combattimento dallo stesso comandante fanno perdere")
def commander_damage(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant != "commander":
        return []                                   # not in Brawl: 903.12h
    acts = []
    for p in st.in_game():
        for cid, n in p.commander_damage.items():
            if n >= 21:
                acts.append(Act(["704.6c"], f"ha subito {n} danni da combattimento dal comandante "
                                f"{st.name_of(cid)}", "lose", objects=[cid], players=[p.id],
                                loss=p.id))
                break
    return acts


@sba("704.6e", cites=("904.10",),
     summary=f"Archenemy: un intrigo non {terms.italian('ongoing')} a faccia in su torna in fondo al "
             f"{terms.ZONE_IT['scheme_deck']}")
def scheme_back(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant != "archenemy":
        return []
    schemes = [(pl, c) for pl in st.players for c in pl.command if "scheme" in c.types]
    # "no triggered abilities of any scheme are on the stack or waiting": one pending ability
    # of any scheme, ongoing or not, keeps every face-up scheme where it is
    if any(is_source_of_pending(st, c.key) for _, c in schemes):
        return []
    acts = []
    for pl, c in schemes:
        if c.ongoing:
            continue

        def apply(ctx: Ctx, pl=pl, cid=c.id) -> None:
            card, _, _ = ops.take(ctx, cid)
            pl.scheme_deck.append(card)
        acts.append(Act(["704.6e"], f"L'intrigo {c.name} torna a faccia in giù in fondo "
                        f"{terms.zone('a', 'scheme_deck')} di {pl.name}.", "scheme", objects=[c.id],
                        players=[pl.id], apply=apply, moves=c.id))
    return acts


@sba("704.6d", cites=("903.9a", "101.4"),
     summary="Commander: un comandante appena messo nel cimitero o in esilio può tornare nella "
             "zona di comando, a scelta del proprietario")
def commander_to_command_zone(ctx: Ctx) -> list[Act]:
    st = ctx.s
    if st.variant not in COMMANDER_VARIANTS:
        return []
    found: dict[str, list[tuple[str, str]]] = {}
    for pl in st.players:
        for z in ("graveyard", "exile"):
            for c in pl.zone(z):
                if c.commander and c.moved_since_sba and not pl.lost:
                    found.setdefault(c.owner, []).append((c.id, z))
    owners = ask_in_apnap_order(ctx, sorted(found))
    apnap = ["101.4"] if len(owners) > 1 else []      # several owners choose at once
    acts = []
    for pid in owners:
        cards = found[pid]
        ans = ctx.ask({
            "id": f"commander_zone:{pid}:{','.join(c for c, _ in cards)}",
            "kind": "commander_zone", "player": pid, "rules": ["704.6d", "903.9a"] + apnap,
            "prompt": f"{st.name_of(pid)} sceglie se rimettere nella zona di comando i suoi "
                      "comandanti appena messi nel cimitero o in esilio.",
            "options": {"commanders": [{"id": c, "name": st.name_of(c), "zone": z}
                                       for c, z in cards]},
            "default": {"to_command_zone": [c for c, _ in cards]},
        })
        for cid, z in cards:
            if cid in ans["to_command_zone"]:
                acts.append(Act(["704.6d", "903.9a"], f"{st.name_of(pid)} rimette il suo comandante "
                                f"{st.name_of(cid)} {terms.zone('da', z)} {terms.zone('in', 'command')}.",
                                "command_zone", objects=[cid], players=[pid],
                                apply=_to_command_zone(cid), moves=cid))
            else:
                acts.append(Act(["704.6d", "903.9a"], f"{st.name_of(pid)} lascia il suo comandante "
                                f"{st.name_of(cid)} {terms.zone('in', z)}.", "commander_stays",
                                objects=[cid], players=[pid], apply=lambda ctx: None,
                                counts=False))
    return acts


def _to_command_zone(cid: str):
    def apply(ctx: Ctx) -> None:
        ops.move(ctx, cid, "command")
    return apply


@decision("commander_zone")
def _validate_commander_zone(st: State, pending: dict, answer) -> dict:
    allowed = [c["id"] for c in pending["options"]["commanders"]]
    ids = answer.get("to_command_zone") if isinstance(answer, dict) else None
    if not isinstance(ids, list) or any(not isinstance(i, str) or i not in allowed for i in ids):
        raise IllegalAction('risposta attesa: {"to_command_zone": [id dei comandanti da '
                            f'rimettere nella zona di comando, fra: {", ".join(allowed)}]}}',
                            ["903.9a"])
    return {"to_command_zone": list(dict.fromkeys(ids))}
