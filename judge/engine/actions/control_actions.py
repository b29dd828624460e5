"""Judge actions on who controls a permanent and whether it takes part in the game: a change of
control as a layer-2 continuous effect (613.1b) lasting until end of turn or indefinitely,
removing a creature from combat (506.4), phasing a permanent out and in with what is attached
to it (702.26).  Registered with the other judge actions (see general.py); each is one step of
the game's history, so undo takes it back.
"""

from __future__ import annotations

from judge.engine.actions.general import perm_arg, player_arg
from judge.engine.characteristics import continuous, derived
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction, shown
from judge.engine.mechanics import ops, presence
from judge.engine.registry import action
from judge.engine.state import Effect, Permanent

DURATIONS = {"end_of_turn": ("end_of_turn", "fino alla fine del turno"),
             "indefinitely": ("game", "a tempo indeterminato")}


@action("change_control", cites=("613.1b", "611.2a", "611.2c", "514.2", "506.4", "302.6"),
        summary="Un giocatore prende il controllo di un permanente, fino alla fine del turno o a "
                "tempo indeterminato (effetto di livello 2); lascia il combattimento (506.4)")
def change_control(ctx: Ctx, object: str, player: str, duration: str = "end_of_turn") -> None:
    st = ctx.s
    p = perm_arg(ctx, object)
    pl = player_arg(ctx, player)
    if not isinstance(duration, str) or duration not in DURATIONS:
        raise IllegalAction(f'durata sconosciuta "{shown(duration)}" (ammesse: end_of_turn, '
                            "fino alla fine del turno; indefinitely, a tempo indeterminato)",
                            ["611.2a"])
    lasts, lasts_it = DURATIONS[duration]
    before = presence.controllers(st)
    old = before[p.id]
    continuous.add_effect(st, Effect(
        id="?", text=f"{pl.name} controlla {p.name} {lasts_it}", kind="resolved",
        controller=pl.id, affects={"objects": [p.id]},
        does=[{"op": "control", "player": pl.id}], duration=lasts))
    changed = presence.control_changed(ctx, before)
    rules = ["613.1b", "611.2a", "611.2c"] + (["514.2"] if lasts == "end_of_turn" else [])
    if not changed:
        now = derived.controller(st, p)
        why = (f"{pl.name} lo controlla già" if now == old == pl.id else
               f"un effetto più recente lo lascia a {ctx.name(now)}")
        ctx.emit(rules, f"{pl.name} prende il controllo di {p.name} {lasts_it}: {why}, quindi il "
                 "controllore non cambia.", "control", objects=[p.id], players=[pl.id])
        return
    more = next((r for q, _, r in changed if q is p), [])
    combat = " Lascia il combattimento." if "506.4" in more else ""
    ctx.emit(rules + more, f"{pl.name} prende il controllo di {p.name} {lasts_it} (prima lo "
             f"controllava {ctx.name(old)}): un effetto di controllo, livello 2. Non lo controlla "
             f"ininterrottamente dall'inizio del suo ultimo turno.{combat}", "control",
             objects=[p.id], players=[pl.id, old])


@action("remove_from_combat", cites=("506.4", "506.4c"),
        summary="Rimuovi una creatura (o un planeswalker o una battaglia attaccati) dal "
                "combattimento")
def remove_from_combat(ctx: Ctx, object: str) -> None:
    st = ctx.s
    p = perm_arg(ctx, object)
    if not presence.in_combat(st, p.id):
        raise IllegalAction(f"{p.name} non è in combattimento: non attacca, non blocca e non è "
                            "attaccato", ["506.4"])
    attackers = [st.name_of(a["id"]) for a in st.combat.attackers if a["target"] == p.id]
    ops.remove_from_combat(ctx, p.id)
    rules = ["506.4"]
    extra = ""
    if attackers:
        rules.append("506.4c")
        extra = (f" {', '.join(attackers)} continua ad attaccare, ma non attacca niente: se non è "
                 "bloccata non infligge danno da combattimento.")
    ctx.emit(rules, f"{p.name} è rimosso dal combattimento: non è più una creatura attaccante o "
             f"bloccante, né un permanente attaccato.{extra}", "remove_from_combat",
             objects=[p.id])


@action("phase_out", cites=("702.26b", "702.26d", "702.26g", "702.26h", "506.4"),
        summary="Un permanente scompare per intermittenza, con ciò che gli è assegnato "
                "(indirettamente)")
def phase_out(ctx: Ctx, object: str) -> None:
    st = ctx.s
    p = perm_arg(ctx, object)
    indirect = [a for a in presence.attached_chain(st, p) if not a.phased_out]
    fought = [x for x in [p, *indirect] if presence.in_combat(st, x.id)]
    p.phased_out, p.phased_out_indirectly = True, False
    for a in indirect:
        a.phased_out, a.phased_out_indirectly = True, True       # 702.26g (702.26h)
    for x in [p, *indirect]:
        ops.remove_from_combat(ctx, x.id)
    st.touch()
    rules = ["702.26b", "702.26d"] + (["702.26g"] if indirect else []) + \
        (["506.4"] if fought else [])
    with_it = (f"; scompaiono con esso, indirettamente, {_names(indirect)}" if indirect else "")
    combat = f" Lasciano il combattimento: {_names(fought)}." if fought else ""
    ctx.emit(rules, f"{p.name} scompare per intermittenza e finché non ritorna è trattato come se "
             f"non esistesse; non cambia zona né controllore{with_it}.{combat}", "phase_out",
             objects=[x.id for x in [p, *indirect]])


@action("phase_in", cites=("702.26c", "702.26g", "702.26i"),
        summary="Un permanente scomparso per intermittenza ritorna, con ciò che era scomparso "
                "con esso")
def phase_in(ctx: Ctx, object: str) -> None:
    st = ctx.s
    p = st.perm(object) if isinstance(object, str) else None
    if p is None:
        raise IllegalAction(f'"{shown(object)}" non è un permanente sul campo di battaglia')
    if not p.phased_out:
        raise IllegalAction(f"{p.name} non è scomparso per intermittenza", ["702.26c"])
    if p.phased_out_indirectly:
        holder = st.name_of(p.attached_to) if p.attached_to else "ciò a cui è assegnato"
        raise IllegalAction(f"{p.name} è scomparso indirettamente: ritorna solo insieme a "
                            f"{holder}", ["702.26g"])
    together = [a for a in presence.attached_chain(st, p) if a.phased_out and a.phased_out_indirectly]
    rules = ["702.26c"] + (["702.26g"] if together else [])
    note = ""
    if p.attached_to is not None and not st.has_player(p.attached_to) \
            and st.live(p.attached_to) is None:
        note = (f" Ritorna non assegnato: {ctx.name(p.attached_to)} non è più l'oggetto a cui era "
                "assegnato.")
        p.attached_to = None                                  # 702.26i
        rules.append("702.26i")
    for x in [p, *together]:
        x.phased_out, x.phased_out_indirectly = False, False
    st.touch()
    with_it = f", e con esso {_names(together)}" if together else ""
    ctx.emit(rules, f"{p.name} ritorna per intermittenza{with_it}: il gioco lo tratta di nuovo "
             f"come esistente.{note}", "phase_in", objects=[x.id for x in [p, *together]])


def _names(perms: list[Permanent]) -> str:
    return ", ".join(p.name for p in perms)
