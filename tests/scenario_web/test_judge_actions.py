"""Judge actions in the stepper, without a browser: every registered action has a form; each
applies, is logged with its rules, undoes as one entry and reaches the Markdown export; each
refuses bad input with an Italian message beside the field or the engine's rule, changing
nothing; the same through the JSON API."""

from __future__ import annotations

import html as htmlmod
import re

import pytest

from judge.engine.registry import ACTIONS, RAW_EDITS
from judge.engine.scenario.templates import new_scenario
from judge.web.simulator import actions as acts

from .conftest import bear


def board() -> dict:
    d = new_scenario("two-player", title="Azioni del giudice")
    d["day_night"] = "day"
    d["battlefield"] = [
        bear("p1", counters={"+1/+1": 1}),
        {"id": "isola", "name": "Isola", "types": ["land"], "controller": "p1", "tapped": True},
        {"id": "spada", "name": "Spada", "types": ["artifact"], "subtypes": ["Equipment"],
         "controller": "p1"},
        bear("p2", "lupo", "Lupo", power=3, toughness=3),
    ]
    d["players"][0]["hand"] = [{"id": "h1", "name": "Fulmine", "types": ["instant"]},
                               {"id": "h2", "name": "Crescita Gigante", "types": ["instant"]}]
    d["players"][1]["graveyard"] = [{"id": "g1", "name": "Cadavere", "types": ["creature"],
                                     "power": 1, "toughness": 1}]
    d["players"][1]["exile"] = [{"id": "x1", "name": "Esiliata", "types": []}]
    return d


def with_stack(d: dict) -> dict:
    """A spell of Bruno's on the stack (to copy)."""
    d["stack"] = [{"id": "s1", "kind": "spell", "controller": "p2", "text": "Shock",
                   "card": {"id": "s1", "name": "Shock", "types": ["instant"], "owner": "p2"}}]
    return d


def planechase(d: dict) -> dict:
    """A Planechase game: Alice's planar deck (901.3)."""
    d.setdefault("options", {})["planechase"] = True
    d["players"][0]["planar_deck"] = [{"id": "piano", "name": "Piani di Dominaria", "types": ["plane"]}]
    return d


def in_combat(d: dict) -> dict:
    """Alice's Orso attacks Bruno (declare attackers step)."""
    d["turn"]["step"] = "declare_attackers"
    d["turn"]["active_player"] = "p1"
    d["combat"] = {"attackers": [{"id": "orso", "target": "p2"}]}
    return d


def phased_out(d: dict) -> dict:
    d["battlefield"][0]["phased_out"] = True
    return d


def with_effect(d: dict) -> dict:
    """An anthem of Alice's (a static ability, 611.3) on the board."""
    d["battlefield"].append({"id": "inno", "name": "Inno", "types": ["enchantment"],
                             "controller": "p1"})
    d["effects"] = [{"id": "e1", "source": "inno", "text": "Le creature che controlli prendono +1/+1",
                     "affects": {"filter": {"types": ["creature"], "controller": "you"}},
                     "does": [{"op": "modify_pt", "power": 1, "toughness": 1}]}]
    return d


# Boards other than ``board()`` for some actions.
BOARDS = {"copy_spell": with_stack, "planeswalk": planechase, "end_effect": with_effect,
          "remove_from_combat": in_combat, "phase_in": phased_out}

# One valid form per action of today's engine, and the rule its first event cites.
VALID = {
    "deal_damage": ({"p.target": "orso", "p.amount": "1"}, "120.3e"),
    "gain_life": ({"p.player": "p1", "p.amount": "3"}, "119.3"),
    "lose_life": ({"p.player": "p2", "p.amount": "2"}, "119.3"),
    "set_life": ({"p.player": "p2", "p.value": "10"}, "119.5"),
    "pay_life": ({"p.player": "p1", "p.amount": "2"}, "119.4"),
    "draw": ({"p.player": "p1", "p.count": "2"}, "121.2"),
    "each_player_draws": ({"p.count": "1"}, "121.2c"),
    "discard": ({"p.player": "p1", "p.cards": "h1"}, "701.9a"),
    "each_player_discards": ({"p.count": "2"}, "101.4"),
    "mill": ({"p.player": "p2", "p.count": "2"}, "701.17a"),
    "move": ({"p.object": "g1", "p.zone": "hand"}, "400.7"),
    "destroy": ({"p.object": "orso"}, "701.8a"),
    "sacrifice": ({"p.object": "isola"}, "701.21a"),
    "exile": ({"p.object": "g1"}, "701.13a"),
    "tap": ({"p.object": "orso"}, "701.26a"),
    "untap": ({"p.object": "isola"}, "701.26b"),
    "add_counters": ({"p.target": "lupo", "p.kind": "+1/+1", "p.count": "2"}, "122.6"),
    "remove_counters": ({"p.target": "orso", "p.kind": "+1/+1", "p.count": "1"}, "122.1"),
    "create_token": ({"p.controller": "p2", "p.name": "Soldato", "p.types": "creature",
                      "p.power": "1", "p.toughness": "1"}, "111.2"),
    "add_mana": ({"p.player": "p1", "p.mana.R": "2"}, "106.4"),
    "cast_spell": ({"p.player": "p1", "p.card": "h2"}, "601.2a"),
    "trigger": ({"p.controller": "p1", "p.text": "Pesca una carta",
                 "r1.p.controller": "p2", "r1.p.text": "Guadagna 1 punto vita"}, "101.4"),
    "copy_spell": ({"p.spell": "s1", "p.controller": "p1"}, "707.10"),
    "until_end_of_turn": ({"p.object": "orso", "p.power": "+3", "p.toughness": "+3",
                           "p.keywords": "trample"}, "611.2a"),
    "attach": ({"p.object": "spada", "p.to": "orso"}, "701.3a"),
    "shuffle": ({"p.player": "p2"}, "701.24a"),
    "set_day_night": ({"p.value": "night"}, "731.1"),
    "become_monarch": ({"p.player": "p2"}, "725.3"),
    "add_extra_turn": ({"p.player": "p2", "p.count": "2"}, "500.7"),
    "add_extra_phases": ({"p.effect": '{"text": "Un altro combattimento", "controller": "p1", '
                                      '"adds": {"phases": ["combat", "postcombat_main"]}, '
                                      '"after": {"phase": "main"}}'}, "500.8"),
    "take_initiative": ({"p.player": "p1"}, "726.3"),
    "venture": ({"p.player": "p2", "p.undercity": "1"}, "701.49d"),
    "planeswalk": ({}, "701.31b"),
    "concede": ({"p.player": "p2"}, "104.3a"),
    "goad": ({"p.object": "lupo", "p.player": "p1"}, "701.15a"),
    "set_tapped": ({"p.object": "isola"}, "Modifica diretta del giudice"),
    "change_control": ({"p.object": "orso", "p.player": "p2", "p.duration": "indefinitely"},
                       "613.1b"),
    "remove_from_combat": ({"p.object": "orso"}, "506.4"),
    "phase_out": ({"p.object": "orso"}, "702.26b"),
    "phase_in": ({"p.object": "orso"}, "702.26c"),
    "add_effect": ({"p.effect": '{"text": "+2/+0", "affects": {"objects": ["orso"]}, "does": '
                                '[{"op": "modify_pt", "power": 2, "toughness": 0}], '
                                '"duration": "end_of_turn"}'}, "611.2a"),
    "end_effect": ({"p.which": "e1"}, "611.2a"),
    "add_replacement": ({"p.effect": '{"text": "Esilialo invece", "event": "die", "affects": '
                                     '{"objects": ["orso"]}, "instead": [{"op": "exile"}]}'},
                        "614.1"),
    "regenerate": ({"p.object": "orso"}, "701.19a"),
    "prevent_damage": ({"p.target": "p1", "p.amount": "3"}, "615.7"),
}

# For each action, input it refuses: (form, text of the message, rule cited or a field in error).
REFUSED = {
    "deal_damage": ({"p.target": "isola", "p.amount": "3"}, "non può subire danno", "120.1a"),
    "gain_life": ({"p.player": "p1", "p.amount": "tre"}, "atteso un intero", "p.amount"),
    "lose_life": ({"p.player": "p1", "p.amount": "-4"}, "atteso un intero fra 0", None),
    "set_life": ({"p.player": "p2", "p.value": ""}, "campo obbligatorio", "p.value"),
    "pay_life": ({"p.player": "p1", "p.amount": "99"}, "non può pagare 99 punti vita", "119.4"),
    "draw": ({"p.player": "", "p.count": "1"}, "scegli dall'elenco", "p.player"),
    "each_player_draws": ({"p.count": "1,5"}, "atteso un intero", "p.count"),
    "discard": ({"p.player": "p2", "p.cards": "h1"}, "non è nella mano di Bruno", "701.9a"),
    "each_player_discards": ({"p.count": "0"}, "atteso un intero fra 1", None),
    "mill": ({"p.player": "zz", "p.count": "1"}, "giocatore sconosciuto", None),
    "move": ({"p.object": "orso", "p.zone": "cimitero"}, "scelta non valida", "p.zone"),
    "destroy": ({}, "scegli dall'elenco", "p.object"),
    "sacrifice": ({"p.object": "h1"}, "non è un permanente sul campo di battaglia", None),
    "exile": ({"p.object": "x1"}, "è già in esilio", None),
    "tap": ({"p.object": "isola"}, "è già TAPpato", "701.26a"),
    "untap": ({"p.object": "orso"}, "è già STAPpato", "701.26b"),
    "add_counters": ({"p.target": "p1", "p.kind": "+1/+1", "p.count": "1"},
                     "solo segnalini veleno", None),
    "remove_counters": ({"p.target": "orso", "p.kind": "+1/+1", "p.count": "5"},
                        "ha solo 1 segnalini", "122.1"),
    "create_token": ({"p.controller": "p1", "p.name": "", "p.power": "x"}, "atteso un intero",
                     "p.power"),
    "add_mana": ({"p.player": "p1", "p.mana.G": "0"}, "indica almeno un mana", "p.mana"),
    "cast_spell": ({"p.player": "p1", "p.card": "orso"}, "non è una carta che si possa lanciare",
                   "601.2a"),
    "trigger": ({"p.controller": "p1", "p.text": "A", "r1.p.text": "B"}, "scegli dall'elenco",
                "r1.p.controller"),
    "copy_spell": ({"p.spell": ""}, "scegli dall'elenco", "p.spell"),
    "until_end_of_turn": ({"p.object": "orso", "p.keywords": "telepatia"},
                          "parola chiave sconosciuta", "p.keywords"),
    "attach": ({"p.object": "spada", "p.to": "h1"}, "non è un giocatore né un permanente", None),
    "shuffle": ({"p.player": "nessuno"}, "giocatore sconosciuto", None),
    "set_day_night": ({"p.value": "day"}, "la designazione è già quella", "731.1"),
    "become_monarch": ({"p.player": "p9"}, "giocatore sconosciuto", None),
    "add_extra_turn": ({"p.player": "p1", "p.count": "50"}, "al massimo 20", "500.7"),
    "add_extra_phases": ({"p.effect": '{"controller": "p1", "adds": {"phases": '
                                      '["precombat_main"]}, "after": {"phase": "main"}}'},
                         "pre-combattimento (505.1a)", "500.8"),
    "take_initiative": ({"p.player": ""}, "scegli dall'elenco", "p.player"),
    "venture": ({"p.player": "p1"}, "non ha un dungeon nella zona di comando", "701.49a"),
    "planeswalk": ({}, "solo in una partita Planechase", "701.31a"),
    "concede": ({"p.player": "p3"}, "giocatore sconosciuto", None),
    "goad": ({"p.object": "isola", "p.player": "p2"}, "non è una creatura", "701.15a"),
    "set_tapped": ({"p.object": ""}, "scegli dall'elenco", "p.object"),
    "change_control": ({"p.object": "orso", "p.player": "p2", "p.duration": "sempre"},
                       "scelta non valida", "p.duration"),
    "remove_from_combat": ({"p.object": "lupo"}, "non è in combattimento", "506.4"),
    "phase_out": ({"p.object": "h1"}, "non è un permanente sul campo di battaglia", None),
    "phase_in": ({"p.object": "lupo"}, "non è scomparso per intermittenza", "702.26c"),
    "add_effect": ({"p.effect": '{"affects": "self", "does": [{"op": "vola"}]}'},
                   "operazione sconosciuta", "611.1"),
    "end_effect": ({"p.which": ""}, "scegli dall'elenco", "p.which"),
    "add_replacement": ({"p.effect": '{"event": "die", "instead": [{"op": "vola"}]}'},
                        "operazione sconosciuta", "614.1"),
    "regenerate": ({"p.object": "h1"}, "non è un permanente sul campo di battaglia", None),
    "prevent_damage": ({"p.target": "p1", "p.amount": "0"}, "atteso un intero fra 1", None),
}


def start(sim, name: str = "") -> str:
    d = board()
    if name in BOARDS:
        d = BOARDS[name](d)
    return sim.upload({"format": "judge-partita", "version": 1, "scenario": d})


def log(html: str) -> list[str]:
    body = html.split('class="sc-log-body"', 1)[1]
    return [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", x)).strip()
            for x in re.findall(r'<li class="sc-ev[^"]*">(.*?)</li>', body, re.S)]


def test_every_action_of_today_is_covered():
    assert set(VALID) == set(REFUSED) == set(ACTIONS)


@pytest.mark.parametrize("name", sorted(ACTIONS))
def test_every_registered_action_has_a_form(sim, name):
    """Data-driven: an action the engine registers is reachable, with one field per parameter."""
    g = start(sim)
    html = sim.page(g)
    assert f"?giudice={name}" in html                       # in the catalog
    html = sim.page(f"{g}?giudice={name}")
    spec = acts.spec_for(name)
    form = html.split('data-sc-judge', 1)[1].split("</form>", 1)[0]
    assert f'name="nome" value="{name}"' in form
    for p in spec.params:
        assert f'name="p.{p.name}' in form, p.name
    # submitting nothing: Italian messages (never a 500), nothing saved
    r = sim.post(g, {"azione": "giudice", "nome": name})
    assert r.status_code in (303, 422)
    if r.status_code == 422:
        assert "Azione non consentita" in r.get_data(as_text=True)


@pytest.mark.parametrize("name", sorted(VALID))
def test_action_applies_logs_its_rule_and_undoes(sim, client, name):
    g = start(sim, name)
    before = sim.api(g)["stato"]
    form, rule = VALID[name]
    data = {"azione": "giudice", "nome": name}
    for k, v in form.items():
        data[k] = v
    g2 = sim.act(g, **data)
    html = sim.page(g2).replace("&#39;", "'")
    entries = log(html)
    assert entries and any(rule in e for e in entries), entries
    # named in the log as a sentence («Il giudice fa guadagnare 3 punti vita ad Alice.»; each one
    # word for word in test_judge_sentences.py)
    said = re.search(r'class="sc-act-label">([^<]*)<', html).group(1)
    assert said.endswith(".") and ("Il giudice " in said or "registrata dal giudice" in said), said
    label = htmlmod.unescape(said)
    assert "Azione del giudice" in html                        # above the board
    state = sim.api(g2)
    assert state["documento"]["actions"][-1]["type"] == "act"
    assert state["documento"]["actions"][-1]["name"] == name
    md = client.get(g2 + "/registro.md").get_data(as_text=True)
    assert f"*{label}" in md
    # a raw edit cites no rule (none governs it) and says what it is; the others cite theirs
    assert (rule in md) if name in RAW_EDITS else (f"[{rule}]" in md)
    g3 = sim.act(g2, azione="annulla")                         # one entry: one undo
    assert sim.api(g3)["stato"] == before
    assert sim.act(g3, azione="ripeti") == g2


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_action_refuses_bad_input_in_italian(sim, name):
    g = start(sim)
    form, text, where = REFUSED[name]
    r = sim.post(g, {"azione": "giudice", "nome": name, **form})
    html = r.get_data(as_text=True)
    assert r.status_code == 422, name
    assert text in html.replace("&#39;", "'"), (name, re.findall(r'sc-(?:field-error|alert)[^>]*>(.*?)<', html))
    if where and where[0].isdigit():                          # the engine's rule, linked
        assert f'href="/regole/{where}"' in html
    elif where:                                               # the field, marked and described
        fid = where.replace(".", "-")
        assert re.search(rf'name="{re.escape(where)}[^"]*"[^>]*aria-invalid="true"', html) or \
            f'id="{fid}-err"' in html, where
    assert f'name="nome" value="{name}"' in html              # the form stays open, values kept
    assert sim.api(g)["documento"]["actions"] == []           # nothing changed


def test_pick_a_permanent_on_the_board(sim):
    g = start(sim)
    html = sim.page(g)
    assert f'href="/s/{g.rsplit("/", 1)[1]}?oggetto=orso#sc-giudice"' in html
    html = sim.page(g + "?oggetto=orso")
    picked = html.split('class="sc-j-picked"', 1)[1].split("</section>", 1)[0]
    assert "Azioni su Orso" in picked
    # one-click actions for it, the others open their form with it chosen
    assert re.search(r'name="nome" value="tap">.*?name="p.object" value="orso"', picked, re.S)
    assert "?giudice=deal_damage&amp;oggetto=orso" in picked
    form = sim.page(g + "?giudice=deal_damage&oggetto=orso").split("data-sc-judge", 1)[1]
    assert re.search(r'<option value="orso" selected>', form)
    g2 = sim.act(g, azione="giudice", nome="tap", **{"p.object": "orso"})
    assert sim.api(g2)["stato"]["battlefield"][0]["tapped"] is True
    # a player: their actions
    html = sim.page(g + "?oggetto=p2")
    assert "Azioni su Bruno" in html and "?giudice=gain_life&amp;oggetto=p2" in html


def test_actions_wait_for_a_pending_decision(sim):
    d = board()
    d["battlefield"].append({"id": "l2", "name": "Orso", "types": ["creature"],
                             "supertypes": ["legendary"], "power": 2, "toughness": 2, "controller": "p1"})
    d["battlefield"].append({"id": "l3", "name": "Orso", "types": ["creature"],
                             "supertypes": ["legendary"], "power": 2, "toughness": 2, "controller": "p1"})
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g = sim.act(g, azione="passo")
    html = sim.page(g + "?giudice=gain_life")
    assert "Prima rispondi alla decisione in sospeso" in html
    r = sim.post(g, {"azione": "giudice", "nome": "gain_life", "p.player": "p1", "p.amount": "1"})
    assert r.status_code == 422 and "decisione in sospeso" in r.get_data(as_text=True)
    # but a player may concede at any time (104.3a), even while a choice is pending
    form = sim.page(g + "?giudice=concede").split("data-sc-judge", 1)[1].split("</form>", 1)[0]
    assert "disabled" not in form
    g2 = sim.act(g, azione="giudice", nome="concede", **{"p.player": "p2"})
    assert sim.api(g2)["stato"]["result"]["winners"] == ["p1"]


def test_several_triggers_go_on_the_stack_in_apnap_order_as_one_entry(sim):
    """The rows of the form trigger at once: each player in APNAP order puts theirs on the
    stack (101.4, 603.3b), whatever order they were written in."""
    g = start(sim)
    g2 = sim.act(g, azione="giudice", nome="trigger", **{
        "p.controller": "p2", "p.text": "Di Bruno", "r1.p.controller": "p1", "r1.p.text": "Di Alice"})
    state = sim.api(g2)
    assert [s["text"] for s in state["stato"]["stack"]] == ["Di Alice", "Di Bruno"]
    assert state["documento"]["actions"][-1]["params"] == {"abilities": [
        {"controller": "p2", "text": "Di Bruno"}, {"controller": "p1", "text": "Di Alice"}]}
    entries = log(sim.page(g2).replace("&#39;", "'"))
    assert any("Ordine APNAP: Alice mette in pila «Di Alice»" in e and "101.4" in e for e in entries)
    assert sim.api(sim.act(g2, azione="annulla"))["stato"]["stack"] == []
    # two abilities of Alice's: she chooses their order, a decision whose default is the
    # order written
    g3 = sim.act(g, azione="giudice", nome="trigger", **{
        "p.controller": "p1", "p.text": "Prima", "r1.p.controller": "p1", "r1.p.text": "Seconda",
        "r2.p.controller": "p2", "r2.p.text": "Terza"})
    html = sim.page(g3)
    assert 'id="sc-dec-h"' in html and "nell&#39;ordine che sceglie" in html
    g4 = sim.act(g3, azione="decidi", **{"ord-0": "2", "ord-1": "1"})
    assert [s["text"] for s in sim.api(g4)["stato"]["stack"]] == ["Seconda", "Prima", "Terza"]
    r = sim.post(g3, {"azione": "decidi", "ord-0": "1", "ord-1": "1"})
    assert r.status_code == 422 and "ogni posizione una volta" in r.get_data(as_text=True)
    # the second names an unknown source: refused, naming it, and nothing is kept
    r = sim.post(g, {"azione": "giudice", "nome": "trigger", "p.controller": "p1", "p.text": "A",
                     "r1.p.controller": "p2", "r1.p.text": "B", "r1.p.source": "fantasma"})
    assert r.status_code == 422 and "abilità 2" in r.get_data(as_text=True).replace("&#39;", "'")
    assert sim.api(g)["stato"]["stack"] == []


def test_judge_actions_through_the_api(client, sim):
    g = start(sim).rsplit("/", 1)[1]
    r = client.post(f"/api/scenari/{g}/azioni",
                    json={"type": "act", "name": "deal_damage", "params": {"target": "p2", "amount": 3}})
    assert r.status_code == 201
    out = r.get_json()
    assert out["stato"]["players"][1]["life"] == 17
    assert out["eventi"][0]["rules"][:1] == ["120.3a"] or "120.3a" in out["eventi"][0]["rules"]
    r = client.post(f"/api/scenari/{g}/azioni",
                    json={"type": "act", "name": "deal_damage", "params": {"target": "isola", "amount": 3}})
    assert r.status_code == 422 and r.get_json()["error"]["rules"] == ["120.1a"]
    r = client.post(f"/api/scenari/{g}/azioni", json={"type": "act", "name": "teletrasporto"})
    assert r.status_code == 422 and "azione del giudice sconosciuta" in r.get_data(as_text=True)
    r = client.post(f"/api/scenari/{g}/azioni", json={"type": "act", "name": "tap", "params": [1]})
    assert r.status_code == 422 and "params" in r.get_data(as_text=True)
    r = client.post(f"/api/scenari/{g}/azioni",
                    json={"type": "act", "name": "tap", "params": {"object": "orso", "colore": "blu"}})
    assert r.status_code == 422 and r.get_json()["error"]["message"].startswith(
        'Parametro sconosciuto "colore" per tap (ammessi: object)')


def test_control_combat_and_phasing_through_the_api(client, sim):
    """change_control, remove_from_combat, phase_out and phase_in as JSON, each undone."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": in_combat(board())})
    g = g.rsplit("/", 1)[1]

    def act(ident, name, **params):
        r = client.post(f"/api/scenari/{ident}/azioni", json={"type": "act", "name": name,
                                                               "params": params})
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    out = act(g, "change_control", object="orso", player="p2")
    assert out["stato"]["combat"]["attackers"] == []
    assert out["stato"]["effects"][0]["does"] == [{"op": "control", "player": "p2"}]
    assert {"613.1b", "506.4", "302.6"} <= set(out["eventi"][0]["rules"])
    back = client.post(f"/api/scenari/{out['id']}/azioni", json={"type": "undo"}).get_json()
    assert back["stato"]["combat"]["attackers"] == [{"id": "orso", "target": "p2", "blocked": False}]
    assert "effects" not in back["stato"]
    out = act(g, "remove_from_combat", object="orso")
    assert out["stato"]["combat"]["attackers"] == [] and out["eventi"][0]["kind"] == "remove_from_combat"
    out = act(g, "phase_out", object="orso")
    assert out["stato"]["battlefield"][0]["phased_out"] is True
    out = act(out["id"], "phase_in", object="orso")
    assert "phased_out" not in out["stato"]["battlefield"][0]
    r = client.post(f"/api/scenari/{g}/azioni", json={"type": "act", "name": "change_control",
                                                       "params": {"object": "orso", "player": "p2",
                                                                  "duration": "sempre"}})
    assert r.status_code == 422 and r.get_json()["error"]["rules"] == ["611.2a"]


def test_judge_actions_keep_the_web_limits(client, sim):
    """Tokens and abilities cannot grow a saved game past the limits of an imported one."""
    g = start(sim).rsplit("/", 1)[1]
    many = [{"controller": "p1", "name": "Soldato", "power": 1, "toughness": 1, "count": 100}] * 4
    r = client.post(f"/api/scenari/{g}/azioni", json={"type": "act", "name": "create_token", "params": many})
    assert r.status_code == 422 and "Troppi permanenti: 404" in r.get_json()["error"]["message"]
    assert client.get(f"/api/scenari/{g}").get_json()["stato"]["battlefield"][-1]["id"] == "lupo"
    r = client.post(f"/api/scenari/{g}/azioni",
                    json={"type": "act", "name": "gain_life", "params": {"player": "p1", "amount": 10**100}})
    assert r.status_code == 422 and "atteso un intero" in r.get_json()["error"]["message"]


def test_hostile_text_in_judge_actions_is_escaped(sim):
    g = start(sim)
    evil = '<script>alert("x")</script>'
    g2 = sim.act(g, azione="giudice", nome="create_token",
                 **{"p.controller": "p1", "p.name": evil, "p.power": "1", "p.toughness": "1"})
    g3 = sim.act(g2, azione="giudice", nome="trigger", **{"p.controller": "p2", "p.text": evil + "'\""})
    html = sim.page(g3) + sim.page(g3 + "?giudice=deal_damage") + sim.page(g3 + "?oggetto=p1")
    assert evil not in html and "&lt;script&gt;" in html


def test_a_json_field_nested_too_deep_is_an_italian_422(sim):
    """The dungeon of «venture» is written as JSON: a document nested past the parser's depth
    is refused beside the field like any other invalid JSON, never a 500."""
    g = start(sim)
    for deep in ("[" * 100_000 + "]" * 100_000, '{"a":' * 100_000 + "1" + "}" * 100_000):
        r = sim.post(g, {"azione": "giudice", "nome": "venture", "p.player": "p1", "p.dungeon": deep})
        html = r.get_data(as_text=True)
        assert r.status_code == 422
        assert "JSON non valido" in html and 'name="nome" value="venture"' in html
    assert sim.api(g)["documento"]["actions"] == []


def test_a_skip_record_through_the_form_and_the_api(client, sim):
    """add_replacement takes a skip record (614.10) as JSON, from the builder's form and the API;
    a wrong one gets the schema's Italian message."""
    g = start(sim)
    skip = ('{"text": "Bruno salta la sua prossima sottofase di acquisizione.", "event": "step", '
            '"when": {"step": "draw"}, "affects": {"players": ["p2"]}, "uses": 1}')
    g2 = sim.act(g, azione="giudice", nome="add_replacement", **{"p.effect": skip})
    assert any("614.10" in e and "Fa saltare le sottofasi" in e
               for e in log(sim.page(g2).replace("&#39;", "'")))
    ident = g2.rsplit("/", 1)[1]
    bad = {"event": "step", "when": {"step": "precombat_main"}, "affects": {"players": ["p2"]}}
    r = client.post(f"/api/scenari/{ident}/azioni",
                    json={"type": "act", "name": "add_replacement", "params": {"effect": bad}})
    assert r.status_code == 422 and "usa l'evento phase" in r.get_json()["error"]["message"]
