"""A judge's action as the log and its Markdown copy say it: a sentence («Il giudice fa infliggere 3
danni a Bruno.»), not a form's label with its values. Every registered action has one
(tests/scenario_web/test_judge_sentences.py); a value a sentence cannot say (a hand-made file's
odd parameters) gives the plain «Azione del giudice: …» instead (judge/web/simulator/actions.py
``describe``). The button that undoes an action keeps the short form.

Parameters are said only when given: an optional one left out is the engine's default, and the
events below the sentence say what that did.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from judge.engine import italian, terms
from judge.engine.characteristics import keywords as kw
from judge.engine.mechanics.damage import danni
from judge.engine.state import MANA
from judge.web.simulator import actions, forms

Named = Callable[[Any], str]


# --- values: a value a sentence cannot say raises ValueError (then the plain form) -----------

def _int(v: Any) -> int:
    """An integer as the engine takes it (an int, not a bool), or a form's digits."""
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, str) and re.fullmatch(r"\s*[+-]?\d{1,18}\s*", v):
        return int(v)
    raise ValueError(f"not an integer: {v!r}")


def _opt_int(p: dict, key: str, default: int | None) -> int | None:
    return default if p.get(key) is None else _int(p[key])


def _text(v: Any) -> str:
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"not a text: {v!r}")
    return v


def _count(n: int, one: str, many: str) -> str:
    return f"1 {one}" if n == 1 else f"{n} {many}"


def _and(items: list[str]) -> str:
    """«A», «A e B», «A, B e C»."""
    if not items:
        raise ValueError("nothing to list")
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} e {items[-1]}"


def _texts(v: Any, n: Named = _text) -> list[str]:
    """A list of texts (or, with ``n``, of players and objects by name)."""
    if not isinstance(v, list):
        raise ValueError(f"not a list: {v!r}")
    return [n(x) for x in v]


def _keywords(v: Any) -> str:
    """«volare e travolgere», as the log names keywords."""
    return _and([kw.italian(k) for k in _texts(v)])


def _quoted(v: Any) -> str:
    return f"«{_text(v).strip()}»"


# --- the actions that need more than a line ---------------------------------------------------

def _to_player(verb: str, key: str, one: str, many: str) -> Callable[[dict, Named], str]:
    """«Il giudice fa <verb> N <things> a <player>.»"""
    return lambda p, n: f"Il giudice fa {verb} {_count(_int(p.get(key, 1)), one, many)} a {n(p.get('player'))}."


def _prevent(p: dict, n: Named) -> str:
    """615.7: a shield for the next N damage, or all damage this turn when no amount is given."""
    amount = _opt_int(p, "amount", None)
    if amount is None:
        return f"Il giudice fa prevenire tutto il danno che verrebbe inflitto a {n(p.get('target'))} in questo turno."
    what = "il prossimo danno che verrebbe inflitto" if amount == 1 else f"i prossimi {amount} danni che verrebbero inflitti"
    return f"Il giudice fa prevenire {what} a {n(p.get('target'))} in questo turno."


def _discard(p: dict, n: Named) -> str:
    """«Il giudice fa scartare Fulmine e 1 carta a caso ad Alice.» (701.9a, 701.9b)"""
    chosen = _texts(p["cards"], n) if p.get("cards") is not None else []
    random = _opt_int(p, "random", 0)
    what = chosen + ([_count(random, "carta a caso", "carte a caso")] if random else [])
    return f"Il giudice fa {terms.italian('discard')} {_and(what)} a {n(p.get('player'))}."


def _where(p: dict, n: Named) -> str:
    """Where ``move`` puts an object: «nella mano del suo proprietario», «in fondo al grimorio …»."""
    zone = p.get("zone")
    if zone == "library":
        return ("in fondo" if p.get("bottom") is True else "in cima") + " " + terms.zone("a", zone) + " del suo proprietario"
    if zone == "exile":
        return f"in {terms.ZONE_IT[zone]}"
    if zone == "battlefield":
        ctl = p.get("controller")
        return terms.zone("in", zone) + (f" sotto il controllo di {n(ctl)}" if ctl is not None else "")
    if zone in ("hand", "graveyard"):
        return terms.zone("in", zone) + " del suo proprietario"
    if zone == "command":
        return terms.zone("in", zone)
    raise ValueError(f"unknown zone {zone!r}")


_FEMININE_TYPES = {"creature", "land", "battle", "sorcery"}
# An Italian type line names the noun first («creatura artefatto» for an artifact creature).
_NOUN_FIRST = ("creature", "land", "planeswalker", "battle", "instant", "sorcery", "artifact",
               "enchantment")


def _type_order(t: str) -> int:
    return _NOUN_FIRST.index(t) if t in _NOUN_FIRST else len(_NOUN_FIRST)


def _token(p: dict, n: Named) -> str:
    """«Il giudice fa creare a Bruno 2 pedine Soldato (creatura artefatto — Soldato 1/1, con volare).»
    The type line, subtypes, power and toughness and keywords only when given."""
    count = _int(p.get("count", 1))
    types = sorted(_texts(p["types"]), key=_type_order) if p.get("types") else []
    supers = _texts(p["supertypes"]) if p.get("supertypes") else []
    words = [terms.TYPE_IT[t] for t in types]
    for s in supers:                                    # «creatura leggendaria», «artefatto leggendario»
        word = forms.SUPERTYPES_IT[s]                   # (the others, «base», «mondo», «neve», never change)
        if s == "legendary" and types and types[0] in _FEMININE_TYPES:
            word = word[:-1] + "a"
        words.append(word)
    line = " ".join(words)
    if p.get("subtypes"):
        line += " — " + " ".join(_texts(p["subtypes"]))
    power, toughness = _opt_int(p, "power", None), _opt_int(p, "toughness", None)
    pt = (f"{power}/{toughness}" if power is not None and toughness is not None else
          f"forza {power}" if power is not None else
          f"costituzione {toughness}" if toughness is not None else "")
    about = " ".join(x for x in (line.strip(), pt) if x)
    if p.get("keywords"):
        about += (", con " if about else "con ") + _keywords(p["keywords"])
    tokens = "pedina" if count == 1 else "pedine"
    return (f"Il giudice fa creare a {n(p.get('controller'))} {count} {tokens} {_text(p.get('name'))}"
            + (f" ({about})" if about else "") + ".")


MANA_SYMBOLS_MAX = 10        # more mana than this is said in words: {R} ×1000 helps nobody


def _mana(p: dict, n: Named) -> str:
    """«Il giudice aggiunge {R}{R}{G} alla riserva di mana di Alice.» (symbols as in a mana cost)"""
    mana = p.get("mana")
    if not isinstance(mana, dict) or not mana:
        raise ValueError("no mana")
    if any(m not in MANA for m in mana):
        raise ValueError(f"odd mana {mana!r}")
    amounts = {m: _int(mana[m]) for m in MANA if m in mana}      # WUBRG order, whatever the file's
    if any(k < 1 for k in amounts.values()):
        raise ValueError(f"odd mana {mana!r}")
    if sum(amounts.values()) <= MANA_SYMBOLS_MAX:
        what = "".join(f"{{{m}}}" * k for m, k in amounts.items())
    else:
        what = _and([f"{k} mana {terms.MANA_IT[m]}" for m, k in amounts.items()])
    return f"Il giudice aggiunge {what} alla {terms.italian('mana pool')} di {n(p.get('player'))}."


def _ability(a: Any, n: Named, among: bool = False) -> str:
    """One triggered ability: «Pesca una carta» di Alice, or of its source and controlled by whom
    (in brackets ``among`` others)."""
    if not isinstance(a, dict):
        raise ValueError(f"not an ability: {a!r}")
    text, who = _quoted(a.get("text")), n(a.get("controller"))
    if a.get("source") is None:
        return f"{text} di {who}"
    return f"{text} di {n(a['source'])}" + (f" (controllata da {who})" if among else f", controllata da {who}")


def _trigger(p: dict, n: Named) -> str:
    """«Il giudice fa innescare l'abilità «…» di Alice.», or several at once (603.3b)."""
    rows = p.get("abilities")
    if rows is None:
        return f"Il giudice fa innescare l'abilità {_ability(p, n)}."
    if not isinstance(rows, list) or not rows:
        raise ValueError("no abilities")
    if len(rows) == 1:
        return f"Il giudice fa innescare l'abilità {_ability(rows[0], n)}."
    return f"Il giudice fa innescare insieme {len(rows)} abilità: {_and([_ability(a, n, True) for a in rows])}."


def _pump(p: dict, n: Named) -> str:
    """«Il giudice dà +3/+3 e travolgere a Orso fino alla fine del turno.» (611.2a)"""
    power, toughness = _opt_int(p, "power", 0), _opt_int(p, "toughness", 0)
    what = [f"{power:+d}/{toughness:+d}"] if power or toughness or not p.get("keywords") else []
    if p.get("keywords"):
        what.append(_keywords(p["keywords"]))
    return f"Il giudice dà {' e '.join(what)} a {n(p.get('object'))} fino alla fine del turno."


def _venture(p: dict, n: Named) -> str:
    """«Il giudice fa esplorare il dungeon a Bruno.», Undercity with the initiative (701.49d)."""
    verb = terms.italian(terms.VENTURE).split(" ", 1)[0]          # «esplorare» (il dungeon)
    dungeon = p.get("dungeon")
    if p.get("undercity") is True:
        where = "Undercity"
    elif dungeon is not None:
        where = f"il dungeon {_quoted(dungeon.get('name') if isinstance(dungeon, dict) else None)}"
    else:
        where = terms.italian(terms.VENTURE).split(" ", 1)[1]
    room = f", che sceglie la stanza {_quoted(p['room'])}" if p.get("room") is not None else ""
    return f"Il giudice fa {verb} {where} a {n(p.get('player'))}{room}."


def _set_tapped(p: dict, n: Named) -> str:
    tapped = p.get("tapped", False)
    if not isinstance(tapped, bool):
        raise ValueError(f"odd tapped {tapped!r}")
    return (f"Il giudice cambia lo stato di {n(p.get('object'))} in {terms.done('tap' if tapped else 'untap')}: "
            "modifica diretta, non un'azione di gioco.")


_DURATIONS = dict(actions.CHOICES[("change_control", "duration")])


def _control(p: dict, n: Named) -> str:
    """«Il giudice dà a Bruno il controllo di Orso fino alla fine del turno.» (the duration if given)"""
    lasts = "" if p.get("duration") is None else " " + _DURATIONS[p["duration"]]
    return f"Il giudice dà a {n(p.get('player'))} il controllo di {n(p.get('object'))}{lasts}."


def _effect_text(p: dict) -> str:
    e = p.get("effect")
    return f"«{e['text']}»" if isinstance(e, dict) and isinstance(e.get("text"), str) and e["text"] else "scritto in JSON"


SENTENCES: dict[str, Callable[[dict, Named], str | None]] = {
    "deal_damage": lambda p, n: (f"Il giudice fa infliggere {danni(_int(p.get('amount')))} a {n(p.get('target'))}"
                                 + (f" da {n(p['source'])}" if p.get("source") else "")
                                 + (" come danno da combattimento" if p.get("combat") else "") + "."),
    "gain_life": _to_player("guadagnare", "amount", "punto vita", "punti vita"),
    "lose_life": _to_player("perdere", "amount", "punto vita", "punti vita"),
    "pay_life": _to_player("pagare", "amount", "punto vita", "punti vita"),
    "set_life": lambda p, n: f"Il giudice porta i punti vita di {n(p.get('player'))} a {_int(p.get('value'))}.",
    "draw": _to_player("pescare", "count", "carta", "carte"),
    "each_player_draws": lambda p, n: f"Il giudice fa pescare {_count(_int(p.get('count', 1)), 'carta', 'carte')} a ogni giocatore.",
    "discard": _discard,
    "each_player_discards": lambda p, n: (f"Il giudice fa {terms.italian('discard')} "
                                          f"{_count(_int(p.get('count', 1)), 'carta', 'carte')} a ogni giocatore."),
    "mill": _to_player("macinare", "count", "carta", "carte"),
    "move": lambda p, n: f"Il giudice mette {n(p.get('object'))} {_where(p, n)}.",
    "shuffle": lambda p, n: f"Il giudice fa rimescolare il grimorio a {n(p.get('player'))}.",
    "tap": lambda p, n: f"Il giudice {terms.verb('tap')} {n(p.get('object'))}.",
    "untap": lambda p, n: f"Il giudice {terms.verb('untap')} {n(p.get('object'))}.",
    "set_tapped": _set_tapped,
    "destroy": lambda p, n: f"Il giudice distrugge {n(p.get('object'))}.",
    "sacrifice": lambda p, n: f"Il giudice fa sacrificare {n(p.get('object'))} al suo controllore.",
    "exile": lambda p, n: f"Il giudice esilia {n(p.get('object'))}.",
    "add_counters": lambda p, n: (f"Il giudice mette {_count(_int(p.get('count', 1)), 'segnalino', 'segnalini')} "
                                  f"{terms.counter(_text(p.get('kind')))} su {n(p.get('target'))}."),
    "remove_counters": lambda p, n: (f"Il giudice rimuove {_count(_int(p.get('count', 1)), 'segnalino', 'segnalini')} "
                                     f"{terms.counter(_text(p.get('kind')))} da {n(p.get('target'))}."),
    "create_token": _token,
    "until_end_of_turn": _pump,
    "attach": lambda p, n: f"Il giudice assegna {n(p.get('object'))} a {n(p.get('to'))}.",
    "goad": lambda p, n: f"Il giudice fa {terms.italian('goad')} {n(p.get('object'))} da {n(p.get('player'))}.",
    "change_control": _control,
    "remove_from_combat": lambda p, n: f"Il giudice rimuove {n(p.get('object'))} dal combattimento.",
    # the table's «scompare» and «appare» (phase out, phased in), in the infinitive
    "phase_out": lambda p, n: f"Il giudice fa scomparire {n(p.get('object'))} per {terms.italian('phasing')}.",
    "phase_in": lambda p, n: f"Il giudice fa apparire {n(p.get('object'))} ({terms.italian('phasing')}).",
    "add_mana": _mana,
    "cast_spell": lambda p, n: (f"Il giudice fa {terms.italian('cast')} {n(p.get('card'))} a {n(p.get('player'))}"
                                + (f", con bersaglio {n(p['target'])}" if p.get("target") is not None else "") + "."),
    "copy_spell": lambda p, n: (f"Il giudice mette in {terms.ZONE_IT['stack']} una copia di {n(p.get('spell'))}"
                                + (f", controllata da {n(p['controller'])}" if p.get("controller") is not None else "")
                                + "."),
    "trigger": _trigger,
    "set_day_night": lambda p, n: f"Il giudice fa diventare {forms.DAY_NIGHT_IT[p.get('value')]}.",
    "become_monarch": lambda p, n: f"Il giudice fa diventare {terms.italian('monarch')} {n(p.get('player'))}.",
    "take_initiative": lambda p, n: f"Il giudice dà l'iniziativa a {n(p.get('player'))}.",
    "venture": _venture,
    "planeswalk": lambda p, n: "Il giudice fa viaggiare tra i piani il controllore planare.",
    "concede": lambda p, n: f"{n(p.get('player'))} concede la partita (azione registrata dal giudice).",
    "add_effect": lambda p, n: f"Il giudice aggiunge l'effetto continuo {_effect_text(p)}.",
    "end_effect": lambda p, n: f"Il giudice fa finire l'effetto continuo {_text(p.get('which'))}.",
    "add_replacement": lambda p, n: f"Il giudice aggiunge l'effetto di sostituzione o prevenzione {_effect_text(p)}.",
    "add_extra_turn": lambda p, n: (f"Il giudice dà a {n(p.get('player'))} "
                                    + ("un turno extra" if p.get("count") in (None, 1)
                                       else f"{int(p['count'])} turni extra")
                                    + " dopo questo turno."),
    "add_extra_phases": lambda p, n: f"Il giudice aggiunge fasi o sottofasi a questo turno: {_effect_text(p)}.",
    "regenerate": lambda p, n: f"Il giudice crea uno scudo di rigenerazione per {n(p.get('object'))}.",
    "prevent_damage": _prevent,
}


def sentence(name: str, params: dict | list, st=None) -> str | None:
    """The action as a sentence, or None when it has none (then «Azione del giudice: …»)."""
    make = SENTENCES.get(name)
    if make is None or not isinstance(params, dict):
        return None
    labels = italian.battlefield_labels(st) if st is not None else {}

    def named(x: Any) -> str:
        """A player, an object (on the battlefield as the log names it) or a stack item by name;
        an id the state no longer knows as written."""
        x = _text(x)
        if st is not None and (st.has_player(x) or st.find_card(x) or any(i.id == x for i in st.stack)):
            return labels.get(x, st.name_of(x))
        return x

    try:
        return italian.tidy(make(params, named))
    except (TypeError, ValueError, KeyError, LookupError, AttributeError, OverflowError):
        return None                          # a hand-made file's odd values: the plain form
