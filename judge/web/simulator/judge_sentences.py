"""A judge's action as the log and its Markdown copy say it: a sentence («Il giudice fa infliggere 3
danni a Bruno.»), not a form's label with its values. Actions without a sentence of their own keep
«Azione del giudice: …» (judge/web/simulator/actions.py ``describe``); the button that undoes an
action keeps the short form.
"""

from __future__ import annotations

from typing import Any, Callable

from judge.engine import italian, terms
from judge.engine.mechanics.damage import danni


def _int(v: Any) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _count(n: int | None, one: str, many: str) -> str:
    return f"1 {one}" if n == 1 else f"{n} {many}"


def _to_player(verb: str, key: str, one: str, many: str) -> Callable[[dict, Callable[[Any], str]], str]:
    """«Il giudice fa <verb> N <things> a <player>.»"""
    return lambda p, n: f"Il giudice fa {verb} {_count(_int(p.get(key, 1)), one, many)} a {n(p.get('player'))}."


def _prevent(p: dict, n: Callable[[Any], str]) -> str:
    """615.7: a shield for the next N damage, or all damage this turn when no amount is given."""
    amount = _int(p.get("amount"))
    if amount is None:
        return f"Il giudice fa prevenire tutto il danno che verrebbe inflitto a {n(p.get('target'))} in questo turno."
    what = "il prossimo danno che verrebbe inflitto" if amount == 1 else f"i prossimi {amount} danni che verrebbero inflitti"
    return f"Il giudice fa prevenire {what} a {n(p.get('target'))} in questo turno."


SENTENCES: dict[str, Callable[[dict, Callable[[Any], str]], str | None]] = {
    "deal_damage": lambda p, n: (f"Il giudice fa infliggere {danni(_int(p.get('amount')) or 0)} a {n(p.get('target'))}"
                                 + (f" da {n(p['source'])}" if p.get("source") else "")
                                 + (" come danno da combattimento" if p.get("combat") else "") + "."),
    "gain_life": _to_player("guadagnare", "amount", "punto vita", "punti vita"),
    "lose_life": _to_player("perdere", "amount", "punto vita", "punti vita"),
    "pay_life": _to_player("pagare", "amount", "punto vita", "punti vita"),
    "set_life": lambda p, n: f"Il giudice porta i punti vita di {n(p.get('player'))} a {p.get('value')}.",
    "draw": _to_player("pescare", "count", "carta", "carte"),
    "each_player_draws": lambda p, n: f"Il giudice fa pescare {_count(_int(p.get('count', 1)), 'carta', 'carte')} a ogni giocatore.",
    "mill": _to_player("macinare", "count", "carta", "carte"),
    "shuffle": lambda p, n: f"Il giudice fa rimescolare il grimorio a {n(p.get('player'))}.",
    "tap": lambda p, n: f"Il giudice {terms.verb('tap')} {n(p.get('object'))}.",
    "untap": lambda p, n: f"Il giudice {terms.verb('untap')} {n(p.get('object'))}.",
    "destroy": lambda p, n: f"Il giudice distrugge {n(p.get('object'))}.",
    "sacrifice": lambda p, n: f"Il giudice fa sacrificare {n(p.get('object'))} al suo controllore.",
    "exile": lambda p, n: f"Il giudice esilia {n(p.get('object'))}.",
    "add_counters": lambda p, n: (f"Il giudice mette {_count(_int(p.get('count', 1)), 'segnalino', 'segnalini')} "
                                  f"{terms.counter(str(p.get('kind')))} su {n(p.get('target'))}."),
    "remove_counters": lambda p, n: (f"Il giudice rimuove {_count(_int(p.get('count', 1)), 'segnalino', 'segnalini')} "
                                     f"{terms.counter(str(p.get('kind')))} da {n(p.get('target'))}."),
    "attach": lambda p, n: f"Il giudice assegna {n(p.get('object'))} a {n(p.get('to'))}.",
    "become_monarch": lambda p, n: f"Il giudice fa diventare monarca {n(p.get('player'))}.",
    "take_initiative": lambda p, n: f"Il giudice dà l'iniziativa a {n(p.get('player'))}.",
    "concede": lambda p, n: f"{n(p.get('player'))} concede la partita (azione registrata dal giudice).",
    "add_effect": lambda p, n: (
        "Il giudice aggiunge l'effetto continuo "
        + (f"«{p['effect']['text']}»" if isinstance(p.get("effect"), dict) and p["effect"].get("text")
           else "scritto in JSON") + "."),
    "end_effect": lambda p, n: f"Il giudice fa finire l'effetto continuo {p.get('which')}.",
    "add_replacement": lambda p, n: (
        "Il giudice aggiunge l'effetto di sostituzione o prevenzione "
        + (f"«{p['effect']['text']}»" if isinstance(p.get("effect"), dict) and p["effect"].get("text")
           else "scritto in JSON") + "."),
    "regenerate": lambda p, n: f"Il giudice crea uno scudo di rigenerazione per {n(p.get('object'))}.",
    "prevent_damage": lambda p, n: _prevent(p, n),
}


def sentence(name: str, params: dict | list, st=None) -> str | None:
    """The action as a sentence, or None when it has none (then «Azione del giudice: …»)."""
    make = SENTENCES.get(name)
    if make is None or not isinstance(params, dict):
        return None
    labels = italian.battlefield_labels(st) if st is not None else {}

    def named(x: Any) -> str:
        if isinstance(x, str) and st is not None and (st.has_player(x) or st.find_card(x)):
            return labels.get(x, st.name_of(x))
        return str(x)

    try:
        return italian.tidy(make(params, named))
    except (TypeError, ValueError, KeyError, LookupError):  # a hand-made file's odd values: the plain form
        return None
