"""Judge actions on a permanent's state: tap and untap (701.26; a stun counter stops an untap,
122.1d), attach (701.3), goad (701.15), effects until end of turn (611.2a), and the one raw
edit a judge may want (``set_tapped``: named as such, no rule applied).  Registered with the
other judge actions (see general.py).

They obey the rules a game action would: an Aura that can't enchant an object doesn't move
(701.3b), an untap of a stunned permanent removes a stun counter instead (122.1d).
"""

from __future__ import annotations

from judge.engine import seats, terms
from judge.engine.actions.general import int_arg, keyword_arg, keywords_it, perm_arg, player_arg
from judge.engine.characteristics import continuous, derived
from judge.engine.context import Ctx
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import attachment, ops
from judge.engine.registry import action
from judge.engine.validation import MAX_INT


@action("tap", cites=("701.26a",), summary="TAPpa un permanente")
def tap(ctx: Ctx, object: str) -> None:
    p = perm_arg(ctx, object)
    if p.tapped:
        raise IllegalAction(f"{p.name} è già TAPpato: si possono TAPpare solo permanenti STAPpati",
                            ["701.26a"])
    p.tapped = True
    ctx.emit(["701.26a"], f"{p.name} viene {terms.done('tap')}.", "tap", objects=[p.id])


@action("untap", cites=("701.26b", "122.1d"),
        summary="STAPpa un permanente (con un segnalino stordimento: rimuove il segnalino invece, "
                "122.1d)")
def untap(ctx: Ctx, object: str) -> None:
    p = perm_arg(ctx, object)
    if not p.tapped:
        raise IllegalAction(f"{p.name} è già STAPpato: si possono STAPpare solo permanenti TAPpati",
                            ["701.26b"])
    ops.untap(ctx, p, ["701.26b"])


@action("set_tapped", raw=True,
        summary="Modifica diretta dello stato TAPpato/STAPpato (non è un'azione di gioco: nessuna "
                "regola si applica, nemmeno i segnalini stordimento)")
def set_tapped(ctx: Ctx, object: str, tapped: bool = False) -> None:
    p = perm_arg(ctx, object)
    if not isinstance(tapped, bool):
        raise IllegalAction("tapped: atteso true o false")
    word = "TAPpato" if tapped else "STAPpato"
    stun = (" I suoi segnalini stordimento restano: la regola 122.1d vale solo quando un "
            "permanente si STAPpa nel gioco." if not tapped and p.counters.get("stun") else "")
    p.tapped = tapped
    ctx.emit([], f"Modifica diretta del giudice (non è un'azione di gioco): {p.name} ora è "
             f"{word}.{stun}", "edit", objects=[p.id])


@action("attach", cites=("701.3a", "701.3b", "701.3c", "303.4j", "301.5b", "301.6", "702.16c",
                         "702.16d", "702.16j", "702.16k"),
        summary="Assegna un'Aura, un Equipaggiamento o una Fortificazione (non si sposta se non può "
                "essere assegnato a quell'oggetto o giocatore, 701.3b)")
def attach(ctx: Ctx, object: str, to: str) -> None:
    st = ctx.s
    p = perm_arg(ctx, object)
    if not isinstance(to, str) or not (st.has_player(to) or st.perm(to) is not None):
        raise IllegalAction(f'"{to}" non è un giocatore né un permanente sul campo di battaglia')
    if not st.has_player(to):
        perm_arg(ctx, to)
    to = st.ref_in(to)                       # the object it is now (400.7)
    kind = attachment.kind(st, p)
    done = terms.done("attach")
    if kind is None:
        ctx.emit(["701.3b"], f"{p.name} non è un'Aura, un Equipaggiamento o una Fortificazione: "
                 f"non può essere {done} a {ctx.name(to)} e non si sposta.", "attach",
                 objects=[p.id, to])
        return
    if p.attached_to == to:
        ctx.emit(["701.3b"], f"{p.name} è già {done} a {ctx.name(to)}: l'effetto non fa nulla.",
                 "attach", objects=[p.id, to])
        return
    prob = attachment.problem(st, p, to)
    if prob is not None:
        why, rules = prob
        base = {"Aura": "303.4j", "Equipment": "301.5b", "Fortification": "301.6"}[kind]
        ctx.emit(["701.3b", base, *rules], f"{p.name} non può essere {done} a {ctx.name(to)} "
                 f"({why}): non si sposta.", "attach", objects=[p.id, to])
        return
    moved = p.attached_to is not None
    p.attached_to = to
    # 701.3c, 613.7e: a new timestamp; battlefield order follows timestamps
    p.timestamp = continuous.new_timestamp(st)
    st.battlefield.remove(p)
    st.battlefield.append(p)
    ctx.emit(["701.3a", "701.3c"], f"{p.name} viene {done} a {ctx.name(to)}"
             + (" (era assegnato altrove)" if moved else "") + " e riceve un nuovo timestamp.",
             "attach", objects=[p.id, to])


@action("goad", cites=("701.15a", "701.15b", "701.15c", "701.15d"),
        summary=f"Un giocatore {terms.verb('goad')} una creatura: fino al suo prossimo turno attacca "
                "in ogni combattimento se può, e un giocatore diverso da lui se può")
def goad(ctx: Ctx, object: str, player: str) -> None:
    p = perm_arg(ctx, object)
    pl = player_arg(ctx, player)
    if not derived.is_creature(ctx.s, p):
        raise IllegalAction(f"{p.name} non è una creatura: si possono {terms.italian('goad')} "
                            "solo creature", ["701.15a"])
    if pl.id in p.goaded_by:
        ctx.emit(["701.15d"], f"{pl.name} ha già {terms.done('goad')} {p.name}: non succede nulla "
                 "e non ci sono requisiti di combattimento in più.", "goad", objects=[p.id],
                 players=[pl.id])
        return
    p.goaded_by = (*p.goaded_by, pl.id)
    more = ["701.15c"] if len(p.goaded_by) > 1 else []
    ctx.emit(["701.15a", "701.15b", *more], f"{pl.name} {terms.verb('goad')} {p.name}: fino al "
             f"prossimo turno di {pl.name} attacca in ogni combattimento se può, e attacca un "
             f"giocatore diverso da {pl.name} se può.", "goad", objects=[p.id], players=[pl.id])


def goad_ends(ctx: Ctx) -> None:
    """701.15a: a creature stays goaded until the next turn of the player who goaded it."""
    st = ctx.s
    new = {p.id for p in seats.active_players(st)}
    for p in st.battlefield:
        if not p.goaded_by:
            continue
        gone = [pid for pid in p.goaded_by if pid in new]
        if gone:
            p.goaded_by = tuple(pid for pid in p.goaded_by if pid not in new)
            ctx.emit(["701.15a"], f"Inizia il turno di {', '.join(ctx.name(x) for x in gone)}: "
                     f"{p.name} non è più {terms.done('goad')} da "
                     f"{' né da '.join(ctx.name(x) for x in gone)}.", "goad", objects=[p.id],
                     players=gone)


@action("until_end_of_turn", cites=("611.2a", "514.2"),
        summary="Un effetto «fino alla fine del turno» modifica forza, costituzione o abilità")
def until_end_of_turn(ctx: Ctx, object: str, power: int = 0, toughness: int = 0,
                      keywords: list[str] | None = None) -> None:
    p = perm_arg(ctx, object)
    power = int_arg(power, "forza", -MAX_INT)
    toughness = int_arg(toughness, "costituzione", -MAX_INT)
    keywords = keyword_arg(keywords)
    extra = f" e {keywords_it(ctx, keywords)}" if keywords else ""
    e = continuous.pump(ctx.s, p.id, power, toughness, keywords,
                        f"{power:+d}/{toughness:+d}{extra} fino alla fine del turno")
    ctx.emit(["611.2a"], f"{p.name} prende {power:+d}/{toughness:+d}{extra} fino alla fine del turno "
             f"(ora {derived.describe_pt(ctx.s, p)}).", "effect", objects=[p.id], effect=e.id)
