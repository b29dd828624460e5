"""Space sculptor's sector designations (702.158) and their state-based action 704.5u.

While a permanent with space sculptor is on the battlefield, each creature
without a sector gets one: first the players who control such creatures and no
space sculptor permanent choose for theirs, then the others (702.158c); within
each group, in APNAP order (101.4).  Sectors go away once nobody controls a
permanent with space sculptor (702.158b).
"""

from __future__ import annotations

from judge.engine import terms
from judge.engine.characteristics import derived
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics.sba_acts import Act, ask_in_apnap_order, live
from judge.engine.registry import decision, sba
from judge.engine.state import SECTORS, State

SCULPTOR = terms.italian("space sculptor")


@sba("704.5u", cites=("702.158b", "702.158c", "101.4"),
     summary=f"Con un permanente con {SCULPTOR} sul campo di battaglia, ogni creatura senza "
             "settore ne riceve uno scelto dal suo controllore")
def sectors(ctx: Ctx) -> list[Act]:
    st = ctx.s
    perms = live(ctx)
    sculptors = {derived.controller(st, p) for p in perms if derived.has_kw(st, p, "space sculptor")}
    if not sculptors:
        with_sector = [p for p in st.battlefield if p.sector is not None]
        if not with_sector:
            return []

        def clear(ctx: Ctx) -> None:
            for p in with_sector:
                p.sector = None
        return [Act(["702.158b"], f"Nessun giocatore controlla più un permanente con {SCULPTOR}: "
                    "i permanenti perdono la designazione di settore.", "sector",
                    objects=[p.id for p in with_sector], apply=clear, counts=False)]
    todo: dict[str, list] = {}
    for p in perms:
        if derived.is_creature(st, p) and p.sector is None:
            todo.setdefault(derived.controller(st, p), []).append(p)
    if not todo:
        return []
    # 702.158c: players without a space sculptor permanent choose first.
    first = ask_in_apnap_order(ctx, sorted(pid for pid in todo if pid not in sculptors))
    then = ask_in_apnap_order(ctx, sorted(pid for pid in todo if pid in sculptors))
    rules = ["704.5u", "702.158c"] + (["101.4"] if len(todo) > 1 else [])
    acts = []
    for pid in first + then:
        creatures = todo[pid]
        ans = ctx.ask({
            "id": f"choose_sectors:{pid}:{','.join(p.id for p in creatures)}",
            "kind": "choose_sectors", "player": pid, "rules": rules,
            "prompt": f"{st.name_of(pid)} sceglie un settore ({', '.join(terms.SECTOR_IT.values())}) "
                      "per ciascuna delle sue creature che non ne ha uno.",
            "options": {"creatures": [{"id": p.id, "name": p.name} for p in creatures],
                        "sectors": list(SECTORS)},
            "default": {"sectors": {p.id: SECTORS[0] for p in creatures}},
        })

        def apply(ctx: Ctx, creatures=creatures, chosen=ans["sectors"]) -> None:
            for p in creatures:
                p.sector = chosen[p.id]
        desc = ", ".join(f"{p.name} → {terms.SECTOR_IT[ans['sectors'][p.id]]}" for p in creatures)
        acts.append(Act(rules, f"{st.name_of(pid)} assegna i settori: {desc}.", "sector",
                        objects=[p.id for p in creatures], players=[pid], apply=apply))
    return acts


@decision("choose_sectors")
def _validate_sectors(st: State, pending: dict, answer) -> dict:
    ids = [c["id"] for c in pending["options"]["creatures"]]
    chosen = answer.get("sectors") if isinstance(answer, dict) else None
    if not isinstance(chosen, dict) or set(chosen) != set(ids) \
            or any(v not in SECTORS for v in chosen.values()):
        raise IllegalAction('risposta attesa: {"sectors": {id creatura: "alpha" | "beta" | '
                            f'"gamma"}}}} per ognuna di: {", ".join(ids)}', ["702.158c"])
    return {"sectors": {k: chosen[k] for k in ids}}
