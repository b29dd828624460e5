"""The judge's actions as sentences in the log and its Markdown copy (judge_sentences.py):
every registered action has one; each is checked word for word on a real board, applied
through the stepper's form as a judge applies it; optional parameters are said only when
given; odd parameters (a hand-made file) give the plain form, never an error; the log
escapes what a sentence repeats of the user's text."""

from __future__ import annotations

import html as htmlmod
import inspect
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.engine import Game
from judge.engine.registry import ACTIONS
from judge.web.simulator import judge_sentences, play
from judge.web.simulator.judge_sentences import SENTENCES, sentence

from .conftest import bear
from .test_judge_actions import BOARDS, VALID, board, start


def test_every_registered_action_has_a_sentence():
    """An action registered without a sentence fails here (add it to SENTENCES)."""
    assert sorted(set(ACTIONS) - set(SENTENCES)) == []
    assert sorted(set(SENTENCES) - set(ACTIONS)) == []          # none left for a removed action


# The sentence of each action's valid form (test_judge_actions.VALID), on its board.
SAID = {
    "deal_damage": "Il giudice fa infliggere 1 danno a Orso.",
    "gain_life": "Il giudice fa guadagnare 3 punti vita ad Alice.",
    "lose_life": "Il giudice fa perdere 2 punti vita a Bruno.",
    "set_life": "Il giudice porta i punti vita di Bruno a 10.",
    "pay_life": "Il giudice fa pagare 2 punti vita ad Alice.",
    "draw": "Il giudice fa pescare 2 carte ad Alice.",
    "each_player_draws": "Il giudice fa pescare 1 carta a ogni giocatore.",
    "discard": "Il giudice fa scartare Fulmine ad Alice.",
    "each_player_discards": "Il giudice fa scartare 2 carte a ogni giocatore.",
    "mill": "Il giudice fa macinare 2 carte a Bruno.",
    "move": "Il giudice mette Cadavere nella mano del suo proprietario.",
    "destroy": "Il giudice distrugge Orso.",
    "sacrifice": "Il giudice fa sacrificare Isola al suo controllore.",
    "exile": "Il giudice esilia Cadavere.",
    "tap": "Il giudice TAPpa Orso.",
    "untap": "Il giudice STAPpa Isola.",
    "add_counters": "Il giudice mette 2 segnalini +1/+1 su Lupo.",
    "remove_counters": "Il giudice rimuove 1 segnalino +1/+1 da Orso.",
    "create_token": "Il giudice fa creare a Bruno 1 pedina Soldato (creatura 1/1).",
    "add_mana": "Il giudice aggiunge {R}{R} alla riserva di mana di Alice.",
    "cast_spell": "Il giudice fa lanciare Crescita Gigante ad Alice.",
    "trigger": "Il giudice fa innescare insieme 2 abilità: «Pesca una carta» di Alice e «Guadagna 1 "
               "punto vita» di Bruno.",
    "copy_spell": "Il giudice mette in pila una copia di Shock, controllata da Alice.",
    "until_end_of_turn": "Il giudice dà +3/+3 e travolgere a Orso fino alla fine del turno.",
    "attach": "Il giudice assegna Spada a Orso.",
    "shuffle": "Il giudice fa rimescolare il grimorio a Bruno.",
    "set_day_night": "Il giudice fa diventare notte.",
    "become_monarch": "Il giudice fa diventare monarca Bruno.",
    "add_extra_turn": "Il giudice dà a Bruno 2 turni extra dopo questo turno.",
    "add_extra_phases": "Il giudice aggiunge fasi o sottofasi a questo turno: «Un altro combattimento».",
    "take_initiative": "Il giudice dà l'iniziativa ad Alice.",
    "venture": "Il giudice fa esplorare Undercity a Bruno.",
    "planeswalk": "Il giudice fa viaggiare tra i piani il controllore planare.",
    "concede": "Bruno concede la partita (azione registrata dal giudice).",
    "goad": "Il giudice fa spronare Lupo da Alice.",
    "set_tapped": "Il giudice cambia lo stato di Isola in STAPpato: modifica diretta, non un'azione "
                  "di gioco.",
    "change_control": "Il giudice dà a Bruno il controllo di Orso a tempo indeterminato.",
    "remove_from_combat": "Il giudice rimuove Orso dal combattimento.",
    "phase_out": "Il giudice fa scomparire Orso per intermittenza.",
    "phase_in": "Il giudice fa apparire Orso (intermittenza).",
    "add_effect": "Il giudice aggiunge l'effetto continuo «+2/+0».",
    "end_effect": "Il giudice fa finire l'effetto continuo e1.",
    "add_replacement": "Il giudice aggiunge l'effetto di sostituzione o prevenzione «Esilialo invece».",
    "regenerate": "Il giudice crea uno scudo di rigenerazione per Orso.",
    "prevent_damage": "Il giudice fa prevenire i prossimi 3 danni che verrebbero inflitti ad Alice in "
                      "questo turno.",
}


def two_bears(d: dict) -> dict:
    """Bruno has an Orso too: each is named with its controller (italian.battlefield_labels)."""
    d["battlefield"].append(bear("p2", "orso2", "Orso"))
    return d


def dungeon_json() -> str:
    return json.dumps({"name": "Cripta <Perduta>", "rooms": [
        {"name": "Ingresso", "text": "Pesca una carta.", "to": ["Sala", "Pozzo"]},
        {"name": "Sala", "text": "Guadagna 1 punto vita.", "to": ["Fondo"]},
        {"name": "Pozzo", "text": "Perdi 1 punto vita.", "to": ["Fondo"]},
        {"name": "Fondo", "text": "Pesca una carta."}]})


# Optional parameters, said only when given: (action, board, form, sentence).
VARIANTS = [
    ("move", None, {"p.object": "g1", "p.zone": "library", "p.bottom": "1"},
     "Il giudice mette Cadavere in fondo al grimorio del suo proprietario."),
    ("move", None, {"p.object": "orso", "p.zone": "library"},
     "Il giudice mette Orso in cima al grimorio del suo proprietario."),
    ("move", None, {"p.object": "g1", "p.zone": "battlefield", "p.controller": "p1"},
     "Il giudice mette Cadavere sul campo di battaglia sotto il controllo di Alice."),
    ("move", None, {"p.object": "g1", "p.zone": "battlefield"},
     "Il giudice mette Cadavere sul campo di battaglia."),
    ("move", None, {"p.object": "h1", "p.zone": "exile"}, "Il giudice mette Fulmine in esilio."),
    ("move", None, {"p.object": "spada", "p.zone": "command"},
     "Il giudice mette Spada nella zona di comando."),
    ("create_token", None, {"p.controller": "p1", "p.name": "Golem", "p.types": ["artifact", "creature"],
                            "p.subtypes": "Golem, Costrutto", "p.power": "2", "p.toughness": "3",
                            "p.keywords": "volare, trample", "p.count": "2"},
     "Il giudice fa creare ad Alice 2 pedine Golem (creatura artefatto — Golem Costrutto 2/3, con "
     "volare e travolgere)."),
    ("create_token", None, {"p.controller": "p2", "p.name": "Isamaru", "p.types": "creature",
                            "p.supertypes": "legendary", "p.power": "2", "p.toughness": "2"},
     "Il giudice fa creare a Bruno 1 pedina Isamaru (creatura leggendaria 2/2)."),
    ("create_token", None, {"p.controller": "p1", "p.name": "Mondo", "p.types": ["land", "artifact"],
                            "p.supertypes": ["legendary", "world"]},
     "Il giudice fa creare ad Alice 1 pedina Mondo (terra artefatto leggendaria mondo)."),
    ("create_token", None, {"p.controller": "p1", "p.name": "Tesoro", "p.types": "artifact",
                            "p.subtypes": "Treasure"},
     "Il giudice fa creare ad Alice 1 pedina Tesoro (artefatto — Treasure)."),
    ("discard", None, {"p.player": "p1", "p.random": "1"},
     "Il giudice fa scartare 1 carta a caso ad Alice."),
    ("discard", None, {"p.player": "p1", "p.cards": ["h1", "h2"]},
     "Il giudice fa scartare Fulmine e Crescita Gigante ad Alice."),
    ("add_mana", None, {"p.player": "p2", "p.mana.W": "1", "p.mana.G": "2", "p.mana.C": "1"},
     "Il giudice aggiunge {W}{G}{G}{C} alla riserva di mana di Bruno."),
    ("add_mana", None, {"p.player": "p2", "p.mana.B": "12", "p.mana.U": "1"},
     "Il giudice aggiunge 1 mana blu e 12 mana nero alla riserva di mana di Bruno."),
    ("cast_spell", None, {"p.player": "p1", "p.card": "h1", "p.target": "lupo"},
     "Il giudice fa lanciare Fulmine ad Alice, con bersaglio Lupo."),
    ("trigger", None, {"p.controller": "p2", "p.text": "Pesca una carta", "p.source": "lupo"},
     "Il giudice fa innescare l'abilità «Pesca una carta» di Lupo, controllata da Bruno."),
    ("trigger", None, {"p.controller": "p1", "p.text": "A", "r1.p.controller": "p2", "r1.p.text": "B",
                       "r1.p.source": "lupo"},
     "Il giudice fa innescare insieme 2 abilità: «A» di Alice e «B» di Lupo (controllata da Bruno)."),
    ("copy_spell", BOARDS["copy_spell"], {"p.spell": "s1"},
     "Il giudice mette in pila una copia di Shock."),
    ("until_end_of_turn", None, {"p.object": "lupo", "p.keywords": "volare, tocco letale"},
     "Il giudice dà volare e tocco letale a Lupo fino alla fine del turno."),
    ("until_end_of_turn", None, {"p.object": "lupo", "p.power": "-2"},
     "Il giudice dà -2/+0 a Lupo fino alla fine del turno."),
    ("change_control", None, {"p.object": "orso", "p.player": "p2"},
     "Il giudice dà a Bruno il controllo di Orso."),
    ("change_control", None, {"p.object": "lupo", "p.player": "p1", "p.duration": "end_of_turn"},
     "Il giudice dà ad Alice il controllo di Lupo fino alla fine del turno."),
    ("set_tapped", None, {"p.object": "orso", "p.tapped": "1"},
     "Il giudice cambia lo stato di Orso in TAPpato: modifica diretta, non un'azione di gioco."),
    ("venture", None, {"p.player": "p1", "p.dungeon": dungeon_json()},
     "Il giudice fa esplorare il dungeon «Cripta <Perduta>» ad Alice."),
    ("prevent_damage", None, {"p.target": "lupo"},
     "Il giudice fa prevenire tutto il danno che verrebbe inflitto a Lupo in questo turno."),
    ("tap", two_bears, {"p.object": "orso2"}, "Il giudice TAPpa Orso di Bruno."),
    ("goad", two_bears, {"p.object": "orso2", "p.player": "p1"},
     "Il giudice fa spronare Orso di Bruno da Alice."),
]
VARIANTS += [(name, BOARDS.get(name), form, SAID[name]) for name, (form, _) in sorted(VALID.items())]


def labels(html: str) -> list[str]:
    """The judge's sentences in the rendered log (the HTML between the tags, still escaped)."""
    return re.findall(r'<li class="sc-act-label">(.*?)</li>', html, re.S)


def test_every_action_has_a_checked_sentence():
    assert set(SAID) == set(ACTIONS)
    assert {name for name, *_ in VARIANTS} == set(ACTIONS)


@pytest.mark.parametrize("name,make_board,form,said", VARIANTS,
                         ids=[f"{v[0]}-{i}" for i, v in enumerate(VARIANTS)])
def test_sentence_in_the_log_and_in_markdown(sim, client, name, make_board, form, said):
    """Applied through the stepper's form, as a judge does: the log says the sentence, escaped,
    and so does the Markdown copy; the undo button keeps the short form."""
    d = board()
    if make_board is not None:
        d = make_board(d)
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g2 = sim.act(g, azione="giudice", nome=name, **form)
    html = sim.page(g2)
    shown = labels(html)
    assert [htmlmod.unescape(x) for x in shown] == [said]
    assert "<" not in shown[0] and ">" not in shown[0]         # escaped where the user wrote «<»
    md = client.get(g2 + "/registro.md").get_data(as_text=True)
    assert f"- *{play.md_escape(said)}*" in md
    undo = re.search(r'value="annulla"[^>]*title="([^"]*)"', html)[1]
    assert undo.startswith("Annulla: Azione del giudice: ") and "Il giudice" not in undo


def test_venturing_again_says_the_room_chosen(sim):
    """The second venture into a dungeon of one's own: the room chosen, when given (309.5a)."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": board()})
    g = sim.act(g, azione="giudice", nome="venture", **{"p.player": "p1", "p.dungeon": dungeon_json()})
    g = sim.act(g, azione="giudice", nome="venture", **{"p.player": "p1", "p.room": "Pozzo"})
    g = sim.act(g, azione="giudice", nome="venture", **{"p.player": "p1"})
    html = htmlmod.unescape(sim.page(g))
    assert "da «Ingresso» a «Pozzo»" in html
    assert [htmlmod.unescape(x) for x in labels(sim.page(g))] == [
        "Il giudice fa esplorare il dungeon «Cripta <Perduta>» ad Alice.",
        "Il giudice fa esplorare il dungeon ad Alice, che sceglie la stanza «Pozzo».",
        "Il giudice fa esplorare il dungeon ad Alice."]
    (dungeon,) = sim.api(g)["stato"]["players"][0]["command"]
    assert dungeon["venture_marker"] == "Fondo"                    # through the room chosen


def test_a_sentence_names_objects_that_left_the_stack_or_the_battlefield():
    """The log is said on the current board: a destroyed permanent is named by its card in the
    graveyard, a spell on the stack by its name, an id the board no longer knows as written."""
    g = Game.from_dict(BOARDS["copy_spell"](board()))
    g.act("destroy", object="lupo")
    assert sentence("destroy", {"object": "lupo"}, g.state) == "Il giudice distrugge Lupo."
    assert sentence("copy_spell", {"spell": "s1"}, g.state) == "Il giudice mette in pila una copia di Shock."
    assert sentence("exile", {"object": "perduto"}, g.state) == "Il giudice esilia perduto."


ODD = {  # a hand-made file's values no sentence can say: the plain form instead
    "gain_life": {"player": "p1", "amount": "tre"},
    "draw": {"player": "p1", "count": True},
    "set_life": {"player": "p1", "value": 2.5},
    "move": {"object": "g1", "zone": "cimitero"},
    "add_mana": {"player": "p1", "mana": {"R": 0}},
    "set_day_night": {"value": "alba"},
    "change_control": {"object": "orso", "player": "p2", "duration": "sempre"},
    "create_token": {"controller": "p1", "name": "Soldato", "types": ["dinosaur"]},
    "discard": {"player": "p1"},
    "trigger": {"abilities": "tutte"},
    "tap": {"object": ["orso"]},
    "venture": {"player": "p1", "dungeon": {"rooms": []}},
}


@pytest.mark.parametrize("name", sorted(ODD))
def test_odd_values_give_the_plain_form(name):
    g = Game.from_dict(board())
    assert sentence(name, ODD[name], g.state) is None
    label = play.log_label({"type": "act", "name": name, "params": ODD[name]}, g.state)
    assert label.startswith("Azione del giudice: ")


# --- property: never an error, whatever a file holds ------------------------------------

HOSTILE = st.text(alphabet="aeiouAE bd'<>&\"«»/=\\*_[]#|`{}0123456789", max_size=12)
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**30, max_value=10**30),
                    st.floats(allow_nan=True, allow_infinity=True), HOSTILE,
                    st.sampled_from(["p1", "p2", "orso", "lupo", "h1", "g1", "s1", "e1", "R", "G",
                                     "day", "night", "library", "battlefield", "end_of_turn",
                                     "creature", "legendary", "flying", "+1/+1", "9" * 5000]))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(HOSTILE, st.sampled_from(
        ["text", "controller", "source", "name", "R", "G", "rooms"])), inner, max_size=4)),
    max_leaves=8)
PARAM_NAMES = {name: [p for p in inspect.signature(fn.func).parameters if p != "ctx"]
               for name, fn in ACTIONS.items()}


@st.composite
def action_params(draw):
    name = draw(st.sampled_from(sorted(ACTIONS)))
    keys = draw(st.lists(st.sampled_from(PARAM_NAMES[name] or ["x"]), unique=True))
    params = {k: draw(VALUES) for k in keys}
    params.update(draw(st.dictionaries(HOSTILE, VALUES, max_size=2)))
    return name, params


BOARD = Game.from_dict(BOARDS["copy_spell"](board())).state


@settings(max_examples=400, deadline=None)
@given(action_params(), st.booleans())
def test_sentence_never_raises(case, with_state):
    name, params = case
    state = BOARD if with_state else None
    said = sentence(name, params, state)
    assert said is None or (isinstance(said, str) and said)
    label = play.log_label({"type": "act", "name": name, "params": params}, state)
    assert isinstance(label, str) and label
    assert "<" not in play.md_escape(label)                     # the Markdown copy escapes it


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(alphabet="aeo AE'<>&\"«»/=", min_size=1, max_size=20).map(str.strip).filter(bool),
       text=st.text(alphabet="aeo AE'<>&\"«»/=", min_size=1, max_size=20).map(str.strip).filter(bool))
def test_the_web_log_escapes_what_the_sentence_repeats(sim, name, text):
    """A token's name and an ability's text written with HTML characters: the log shows the
    sentence, escaped (never a tag), the same sentence the engine's state says."""
    g = start(sim)
    for action, form in (("create_token", {"p.controller": "p1", "p.name": name, "p.power": "1",
                                           "p.toughness": "1"}),
                         ("trigger", {"p.controller": "p2", "p.text": text})):
        g2 = sim.act(g, azione="giudice", nome=action, **form)
        (shown,) = labels(sim.page(g2))
        assert "<" not in shown and ">" not in shown and '"' not in shown
        doc = sim.api(g2)["documento"]
        expected = play.log_label(doc["actions"][-1], play.replay(doc).game.state)
        assert htmlmod.unescape(shown) == expected
