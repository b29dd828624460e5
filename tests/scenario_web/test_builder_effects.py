"""The builder's continuous effects: a card's templates with its text beside them, completed by
the judge; each effect as editable JSON with the engine's errors beside it; and the stepper's
«Perché?» for the board that results (613)."""

from __future__ import annotations

import json
import re

from judge.engine.scenario import effect_templates as et
from judge.engine.scenario import scenario_effects
from judge.engine.validation import Validator

from .conftest import bear


def board_with(sim, *perms) -> str:
    url = sim.new()
    for p in perms:
        r = sim.post(url, {"nuovo.name": p["name"], "nuovo.types": p["types"],
                           "nuovo.power": p.get("power", ""), "nuovo.toughness": p.get("toughness", ""),
                           "nuovo.controller": "p1"})
        assert r.status_code == 303, r.get_data(as_text=True)[:2000]
        url = r.location.split("?")[0]
    return url


def test_a_cards_templates_come_with_its_text_and_fill_the_effect(sim):
    url = board_with(sim, {"name": "Umiltà", "types": "incantesimo"},
                     {"name": "Orso", "types": "creatura", "power": "2", "toughness": "2"})
    r = sim.post(url, {"effetto.carta": "Humility", "azione": "effetto-modelli"})
    page = r.get_data(as_text=True)
    assert r.status_code == 200 and "All creatures lose all abilities" in page
    assert 'name="effetto.modello"' in page and 'name="effetto.source"' in page
    doc = sim.api(url)["documento"]
    source = doc["battlefield"][0]["id"]
    r = sim.post(url, {"effetto.carta": "Humility", "effetto.modello": "0",
                       "effetto.source": source, "azione": "effetto-aggiungi"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    (effect,) = sim.api(r.location.split("?")[0])["documento"]["effects"]
    assert effect["card"] == "Humility" and effect["source"] == source
    assert effect["does"][0] == {"op": "lose_all_abilities"}


def test_a_blank_left_empty_is_an_italian_error_beside_it(sim):
    url = board_with(sim, {"name": "Servo", "types": "artefatto"})
    r = sim.post(url, {"effetto.carta": "Painter's Servant", "effetto.modello": "0",
                       "azione": "effetto-aggiungi"})
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "campo obbligatorio" in page
    assert re.search(r'name="effetto.color"[^>]*aria-invalid="true"', page)


def test_an_effect_edited_as_wrong_json_or_wrong_data_is_refused_beside_its_field(sim):
    url = sim.upload({"format": "judge-partita", "version": 1, "scenario": {
        "format": "judge-scenario", "version": 1, "players": [{"id": "p1"}, {"id": "p2"}],
        "battlefield": [bear()], "effects": [{"id": "e1", "kind": "resolved",
                                              "affects": {"objects": ["orso"]},
                                              "does": [{"op": "modify_pt", "power": 1, "toughness": 1}]}]}})
    edit = url.rstrip("/") + "/modifica"
    r = sim.c.get(edit)
    builder = r.location if r.status_code in (302, 303) else edit
    r = sim.post(builder.split("?")[0], {"effects[0]": "{non è json"})
    assert r.status_code == 422 and "JSON non valido" in r.get_data(as_text=True)
    r = sim.post(builder.split("?")[0], {"effects[0]": json.dumps({"id": "e1", "affects": "self",
                                                                   "does": [{"op": "vola"}]})})
    assert r.status_code == 422 and "operazione sconosciuta" in r.get_data(as_text=True)


def test_every_template_is_a_valid_effect_once_filled():
    values = {"source": "x", "target": "y", "color": "U", "type": "Elf", "power": 3,
              "toughness": 4, "player": "p1"}
    for card in et.cards():
        for t in et.for_card(card):
            effect, errors = et.fill(t, values, card)
            assert not errors
            v = Validator()
            read = scenario_effects._reader(effect)
            assert read(v, {"id": "e", **effect}, "e") is not None and not v.errors, \
                (card, v.errors)


def test_the_skip_cards_have_templates_that_skip():
    """Necropotence, Stasis and Fatigue: their templates are skip records (614.10)."""
    for card, event, part in (("Necropotence", "step", "draw"), ("Stasis", "step", "untap"),
                              ("Fatigue", "step", "draw"), ("Lethal Vapors", "turn", None)):
        [t] = et.for_card(card)
        effect, errors = et.fill(t, {"source": "x", "player": "p2"}, card)
        assert not errors and effect["event"] == event and effect.get("when", {}).get(event) == part
        assert effect["instead"] == [{"op": "skip"}]
    effect, _ = et.fill(et.for_card("Fatigue")[0], {"player": "p2"}, "Fatigue")
    assert effect["affects"] == {"players": ["p2"]} and effect["uses"] == 1


def test_the_stepper_shows_why_with_rule_links(sim):
    url = sim.upload({"format": "judge-partita", "version": 1, "scenario": {
        "format": "judge-scenario", "version": 1, "players": [{"id": "p1"}, {"id": "p2"}],
        "battlefield": [bear(), {"id": "inno", "name": "Inno", "types": ["enchantment"],
                                 "controller": "p1"}],
        "effects": [{"id": "e1", "source": "inno", "text": "Le creature prendono +1/+1",
                     "affects": {"filter": {"types": ["creature"]}},
                     "does": [{"op": "modify_pt", "power": 1, "toughness": 1}]}]}})
    page = sim.c.get(url).get_data(as_text=True)
    why = page.split('class="sc-why"', 1)[1].split("</details>", 1)[0]
    assert "Perché?" in why and "7c" in why and "Le creature prendono +1/+1" in why
    assert 'href="/regole/613.4c"' in why and "forza: 2 → 3" in why
    assert '<span class="sc-pt">3/3</span>' in page
    api = sim.api(url)
    assert api["caratteristiche"]["orso"]["rows"][0]["rules"][0] == "613.4c"


def test_effects_survive_permalinks_actions_and_undo_through_the_api(client):
    """A game with effects: an effect added through the JSON API, its permalink read back,
    then undone: the characteristics follow each state."""
    doc = {"format": "judge-partita", "version": 1, "scenario": {
        "format": "judge-scenario", "version": 1, "players": [{"id": "p1"}, {"id": "p2"}],
        "battlefield": [bear()],
        "effects": [{"id": "e1", "kind": "resolved", "affects": {"objects": ["orso"]},
                     "does": [{"op": "switch_pt"}], "duration": "end_of_turn", "timestamp": 5}]}}
    first = client.post("/api/scenari", json=doc).get_json()["id"]
    pump = {"type": "act", "name": "add_effect",
            "params": {"effect": {"affects": {"objects": ["orso"]},
                                  "does": [{"op": "modify_pt", "power": 3, "toughness": 0}]}}}
    r = client.post(f"/api/scenari/{first}/azioni", json=pump)
    assert r.status_code == 201, r.get_data(as_text=True)[:1000]
    second = r.get_json()["id"]
    again = client.get(f"/api/scenari/{second}").get_json()         # the permalink, read back
    result = again["caratteristiche"]["orso"]["result"]
    assert (result["power"], result["toughness"]) == (2, 5)         # 7c +3/+0, then 7d switch
    assert [e["id"] for e in again["stato"]["effects"]] == ["e1", "e2"]
    undone = client.post(f"/api/scenari/{second}/azioni", json={"type": "undo"}).get_json()
    result = undone["caratteristiche"]["orso"]["result"]
    assert (result["power"], result["toughness"]) == (2, 2)
    assert [e["id"] for e in undone["stato"]["effects"]] == ["e1"]


def test_the_cards_that_add_phases_have_templates_the_scenario_applies(sim):
    """Relentless Assault's template: a record that adds phases (500.8), applied to the turn as
    the scenario loads; Paradox Haze's, outside an upkeep, would add nothing: an error beside
    the effect (500.9).  Time Vault's skips the turn, then untaps it (614.10b)."""
    from judge.engine import Game
    url = sim.new()                                 # its turn is at the upkeep
    form = {"effetto.carta": "Relentless Assault", "effetto.modello": "0",
            "effetto.player": "p1", "azione": "effetto-aggiungi"}
    r = sim.post(url, form)
    page = r.get_data(as_text=True)
    assert r.status_code == 422 and "non aggiungerebbe nulla: aggiunge dopo questa fase " \
                                    "principale, ma il turno è nella fase iniziale (500.8)" in page
    r = sim.post(url, {**form, "turn.step": "precombat_main"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    url = r.location.split("?")[0]
    doc = sim.api(url)["documento"]
    (effect,) = doc["effects"]
    assert effect["adds"] == {"phases": ["combat", "postcombat_main"]}
    assert effect["card"] == "Relentless Assault" and effect["controller"] == "p1"
    phases = Game.from_dict(doc).state.turn.phases
    assert [e.get("by") for e in phases][2:4] == ["Relentless Assault"] * 2
    r = sim.post(url, {"effetto.carta": "Paradox Haze", "effetto.modello": "0",
                       "effetto.player": "p1", "azione": "effetto-aggiungi"})
    page = r.get_data(as_text=True).replace("&#39;", "'")
    assert r.status_code == 422 and "non aggiungerebbe nulla" in page and "500.9" in page
    [t] = et.for_card("Time Vault")
    effect, errors = et.fill(t, {"source": "volta"}, "Time Vault")
    assert not errors and effect["then"] == {"act": "untap", "object": "volta"}
    assert effect["event"] == "turn" and effect["optional"] is True


def test_moving_the_turn_in_the_builder_drops_the_phases_added_to_it(sim):
    """A game saved in an added combat phase, opened in the builder: its turn lists its phases
    (500.8); the judge moves the turn to another step, and the list, which described that turn
    at that point, goes (else the scenario could no longer be read)."""
    phases = [{"phase": "beginning"}, {"phase": "precombat_main"},
              {"phase": "combat", "by": "Relentless Assault"}, {"phase": "combat"},
              {"phase": "postcombat_main"}, {"phase": "ending"}]
    url = sim.upload({"format": "judge-scenario", "version": 1,
                      "players": [{"id": "p1"}, {"id": "p2"}],
                      "turn": {"number": 3, "active_player": "p1", "step": "beginning_of_combat",
                               "phases": phases, "phase_at": 2}})
    builder = url.split("?")[0]
    assert sim.api(builder)["documento"]["turn"]["phases"] == phases
    r = sim.post(builder, {"turn.step": "end"})
    assert r.status_code == 303, r.get_data(as_text=True)[:2000]
    turn = sim.api(r.location.split("?")[0])["documento"]["turn"]
    assert turn["step"] == "end" and "phases" not in turn and "phase_at" not in turn
