"""The builder: start page, variant form, editing every field, validation next to the field,
import, library, limits, CSRF."""

from __future__ import annotations

import json
import re

import pytest

from judge.engine.scenario.templates import new_scenario
from judge.engine.state import VARIANTS

from .conftest import bear


def field_error(html: str, field_id: str) -> str:
    m = re.search(rf'id="{re.escape(field_id)}-err">(.*?)</span>', html, re.S)
    return m.group(1) if m else ""


def test_start_page_offers_variant_import_and_library(sim):
    html = sim.page("/simulatore")
    assert 'action="/simulatore/nuovo"' in html
    assert 'action="/simulatore/importa"' in html
    assert "Two-Headed Giant" in html
    assert "Due leggende con lo stesso nome" in html and "/simulatore/libreria/leggende/avvia" in html
    assert 'href="/static/scenario.css"' in html


def test_every_form_needs_the_csrf_token(client, sim):
    assert client.post("/simulatore/nuovo", data={"variant": "two-player"}).status_code == 400
    url = sim.new()
    r = client.post(url, data={"title": "x"})
    assert r.status_code == 400 and "CSRF" in r.get_data(as_text=True)
    game = sim.upload({"format": "judge-partita", "version": 1, "scenario": new_scenario(), "actions": []})
    assert client.post(game, data={"azione": "passo"}).status_code == 400
    for page in (sim.page("/simulatore"), sim.page(url), sim.page(game)):
        forms = re.findall(r"<form[^>]*method=\"post\"[^>]*>(.*?)</form>", page, re.S)
        assert forms and all('name="csrf_token"' in f for f in forms)


def test_an_expired_import_form_keeps_the_pasted_json(app):
    client = app.test_client()  # a new session: no token
    pasted = '{"format": "judge-scenario", "title": "<Mio scenario>"}'
    r = client.post("/simulatore/importa", data={"json": pasted})
    assert r.status_code == 400
    body = r.get_data(as_text=True)
    assert "CSRF" in body and "ancora qui" in body
    assert "&#34;title&#34;: &#34;&lt;Mio scenario&gt;&#34;" in body or "&quot;title&quot;: &quot;&lt;Mio scenario&gt;&quot;" in body
    assert 'name="csrf_token"' in body


def test_variant_sets_starting_life_and_players(sim):
    html = sim.page(sim.new("commander", "4"))
    assert html.count('name="players[') and 'id="f-players-3-life"' in html
    assert re.search(r'id="f-players-0-life" name="players\[0\].life" value="40"', html)
    html = sim.page(sim.new("two-headed-giant", "4"))
    assert re.search(r'name="players\[0\].life" value="30"', html)
    html = sim.page(sim.new("two-player"))
    assert re.search(r'name="players\[1\].life" value="20"', html)


def test_bad_player_count_is_an_italian_422(sim):
    r = sim.post("/simulatore/nuovo", {"variant": "two-headed-giant", "players": "3"})
    assert r.status_code == 422
    assert "Two-Headed Giant richiede due squadre" in r.get_data(as_text=True)
    r = sim.post("/simulatore/nuovo", {"variant": "two-player", "players": "99"})
    assert r.status_code == 422 and "numero di giocatori fra 2 e 8" in r.get_data(as_text=True)
    # digits other than 0-9 ("²", "٣", "４") are no player count: the same 422, never a 500
    for odd in ("²", "٣", "４", "3²"):
        r = sim.post("/simulatore/nuovo", {"variant": "two-player", "players": odd})
        assert r.status_code == 422, odd
        assert "numero di giocatori fra 2 e 8" in r.get_data(as_text=True)


def test_add_a_creature_with_the_quick_row_and_edit_its_state(sim):
    url = sim.new()
    url = sim.save(url, {"nuovo.name": "Orso Runeartigli", "nuovo.types": "creatura",
                         "nuovo.power": "2", "nuovo.toughness": "2", "nuovo.controller": "p1",
                         "nuovo.keywords": "travolgere, volare", "azione": "aggiungi"})
    perm = sim.api(url)["documento"]["battlefield"][0]
    assert perm["name"] == "Orso Runeartigli" and perm["types"] == ["creature"]
    assert perm["keywords"] == ["trample", "flying"] and perm["controller"] == "p1"
    html = sim.page(url)
    assert 'value="travolgere, volare"' in html
    # edit its state: tapped, damage, counters, attached, owner, summoning sick
    url = sim.save(url, {"battlefield[0].present": "1", "battlefield[0].name": "Orso Runeartigli",
                         "battlefield[0].types": "creatura", "battlefield[0].power": "2",
                         "battlefield[0].toughness": "2", "battlefield[0].damage": "1",
                         "battlefield[0].counters": "+1/+1: 2, scudo: 1",
                         "battlefield[0].tapped": "1", "battlefield[0].summoning_sick": "1",
                         "battlefield[0].owner": "p2", "battlefield[0].keywords": "",
                         "battlefield[0].supertypes": "leggendario"})
    perm = sim.api(url)["documento"]["battlefield"][0]
    assert perm["damage"] == 1 and perm["counters"] == {"+1/+1": 2, "shield": 1}
    assert perm["tapped"] and perm["summoning_sick"] and not perm["phased_out"]
    assert perm["owner"] == "p2" and "keywords" not in perm and perm["supertypes"] == ["legendary"]


def test_turn_designations_and_players_are_editable(sim):
    url = sim.new()
    url = sim.save(url, {"turn.number": "3", "turn.active_player": "p2", "turn.step": "cleanup",
                         "day_night": "night", "monarch": "p1", "initiative": "p2",
                         "players[1].name": "Bianca", "players[1].life": "7",
                         "players[1].poison": "3", "players[1].max_hand_size": "",
                         "players[1].hand": "Fulmine\n3", "players[1].library": "40",
                         "players[1].graveyard": "Shock", "players[1].exile": "",
                         "players[1].command": "", "title": "Prova", "description": "Note"})
    d = sim.api(url)["documento"]
    assert d["turn"] == {**d["turn"], "number": 3, "active_player": "p2", "step": "cleanup"}
    assert (d["day_night"], d["monarch"], d["initiative"]) == ("night", "p1", "p2")
    p = d["players"][1]
    assert (p["name"], p["life"], p["poison"], p["max_hand_size"]) == ("Bianca", 7, 3, None)
    assert [c["name"] for c in p["hand"]] == ["Fulmine", "Carta", "Carta", "Carta"]
    assert len(p["library"]) == 40 and p["graveyard"][0]["name"] == "Shock"
    html = sim.page(url)
    # counts come back as counts, lists as lists
    assert re.search(r'name="players\[1\].hand"[^>]*>Fulmine\n3</textarea>', html)
    assert re.search(r'name="players\[1\].library"[^>]*>40</textarea>', html)
    # ids of kept cards do not change when the list is saved again unchanged
    ids = [c["id"] for c in p["hand"]]
    url2 = sim.save(url, {"players[1].name": "Bianca", "players[1].hand": "Fulmine\n3"})
    assert [c["id"] for c in sim.api(url2)["documento"]["players"][1]["hand"]] == ids
    assert url2 == url                     # same content, same permalink


def test_errors_are_shown_next_to_the_field_in_italian(sim):
    url = sim.new()
    r = sim.post(url, {"players[0].name": "Alice", "players[0].life": "venti",
                       "players[0].poison": "-1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert field_error(html, "f-players-0-life") == "atteso un intero"
    assert "non negativo" in field_error(html, "f-players-0-poison")
    assert 'aria-invalid="true" aria-describedby="f-players-0-life-err"' in html
    assert 'value="venti"' in html                           # what was typed is kept
    assert "Lo scenario non è stato salvato" in html
    # engine validation: a creature needs power and toughness
    r = sim.post(url, {"nuovo.name": "Senza forza", "nuovo.types": "creatura",
                       "nuovo.toughness": "2", "azione": "aggiungi"})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    assert field_error(html, "f-nuovo-power") == "obbligatorio per una creatura"
    assert 'autofocus' in html.split('id="f-nuovo-power"')[1].split(">")[0]
    # unknown keyword, bad counters
    r = sim.post(url, {"nuovo.name": "X", "nuovo.types": "artefatto", "nuovo.keywords": "volo",
                       "nuovo.counters": "tanti"})
    html = r.get_data(as_text=True)
    assert 'parola chiave sconosciuta "volo"' in field_error(html, "f-nuovo-keywords").replace("&#34;", '"')
    assert "segnalini" in field_error(html, "f-nuovo-counters")
    # the draft did not change
    assert sim.api(url)["documento"]["battlefield"] == []


def test_duplicate_move_and_remove_permanents(sim):
    d = new_scenario()
    d["battlefield"] = [bear("p1", "a", "Primo"), bear("p1", "b", "Secondo"),
                        {"id": "aura", "name": "Aura", "types": ["enchantment"],
                         "controller": "p1", "attached_to": "a", "enchant": "creature"}]
    url = sim.upload(d)
    url = sim.save(url, {"azione": "duplica:0"})
    names = [c["name"] for c in sim.api(url)["documento"]["battlefield"]]
    assert names == ["Primo", "Primo", "Secondo", "Aura"]
    url = sim.save(url, {"azione": "giu:2"})
    names = [c["name"] for c in sim.api(url)["documento"]["battlefield"]]
    assert names == ["Primo", "Primo", "Aura", "Secondo"]
    url = sim.save(url, {"azione": "rimuovi:0"})
    bf = sim.api(url)["documento"]["battlefield"]
    assert [c["name"] for c in bf] == ["Primo", "Aura", "Secondo"]
    assert bf[1]["attached_to"] is None                     # detached from what left


def test_import_pasted_json_file_and_game(sim, client, token):
    d = new_scenario("free-for-all", 3)
    url = sim.upload(d)
    assert url.startswith("/simulatore/modifica/")
    r = client.post("/simulatore/importa", data={
        "csrf_token": token, "file": (__import__("io").BytesIO(json.dumps(d).encode()), "s.json")},
        content_type="multipart/form-data")
    assert r.status_code == 303 and r.location == url          # same content, same id
    game = {"format": "judge-partita", "version": 1, "scenario": d,
            "actions": [{"type": "step"}], "redo": []}
    assert sim.upload(game).startswith("/s/")


def test_import_errors_are_italian_4xx(sim):
    cases = [
        ("{", 422, "JSON non valido alla riga 1"),
        ("", 422, "Nessun JSON"),
        ("[" * 40 + "]" * 40, 422, "JSON troppo annidato"),
        (json.dumps({"format": "judge-scenario", "version": 1, "players": "tanti"}), 422,
         "attesa una lista"),
        (json.dumps({**new_scenario(), "battlefield": [bear("p1", f"c{i}") for i in range(301)]}),
         422, "troppi permanenti: 301 (il limite è 300)"),
        (json.dumps({**new_scenario(), "title": "x" * 1_100_000}), 413, "Testo troppo lungo"),
        (json.dumps(new_scenario("free-for-all", 9)), 422, "troppi giocatori: 9 (il limite è 8)"),
        (json.dumps({"format": "judge-partita", "version": 1, "scenario": new_scenario(),
                     "actions": [{"type": "vola"}]}), 422, "azione non valida"),
        (json.dumps({"format": "judge-partita", "version": 1, "scenario": new_scenario(),
                     "actions": [{"type": "decide", "answer": None}]}), 422,
         "nessuna decisione in sospeso"),
    ]
    for text, status, msg in cases:
        r = sim.post("/simulatore/importa", {"json": text})
        assert r.status_code == status, (text[:60], r.status_code)
        assert msg in r.get_data(as_text=True).replace("&#39;", "'"), (text[:60], msg)


def test_too_many_cards_and_body_limit(sim, client, token):
    d = new_scenario()
    d["players"][0]["library"] = [{"id": f"l{i}", "name": "C", "types": []} for i in range(1471)]
    r = sim.post("/simulatore/importa", {"json": json.dumps(d)})      # + Bruno's 30 placeholders
    assert r.status_code == 422 and "troppe carte: 1501" in r.get_data(as_text=True)
    url = sim.new()
    r = sim.post(url, {"players[0].name": "A", "players[0].library": "251"})
    assert r.status_code == 422 and "al massimo 250 carte generiche" in r.get_data(as_text=True)
    r = client.post("/simulatore/importa", data={"csrf_token": token, "json": "x" * 3_000_000})
    assert r.status_code == 413 and "2 MB" in r.get_data(as_text=True)


def test_library_scenarios_open_in_builder_and_stepper(sim, client):
    r = client.get("/simulatore/libreria/leggende")
    assert r.status_code == 303 and r.location.startswith("/simulatore/modifica/")
    r = client.get("/simulatore/libreria/leggende/avvia")
    assert r.status_code == 303 and r.location.startswith("/s/")
    html = sim.page(r.location)
    assert "Due leggende con lo stesso nome" in html
    assert client.get("/simulatore/libreria/nessuno").status_code == 404
    assert client.get("/simulatore/libreria/..%2Fsecret").status_code == 404


def test_unknown_ids_are_italian_404s(client):
    for url in ("/s/aaaaaaaaaaaaaaaaaaaa", "/s/corto", "/simulatore/modifica/aaaaaaaaaaaaaaaaaaaa",
                "/s/aaaaaaaaaaaaaaaaaaaa/registro.md"):
        r = client.get(url)
        assert r.status_code == 404 and "Scenario non trovato" in r.get_data(as_text=True)
    r = client.get("/api/scenari/aaaaaaaaaaaaaaaaaaaa")
    assert r.status_code == 404 and r.get_json()["error"]["message"].startswith("Scenario non trovato")


def test_import_errors_are_shown_beside_the_import_field(sim):
    d = new_scenario()
    d["players"] = d["players"][:1]                      # a two-player game with one player
    r = sim.post("/simulatore/importa", {"json": json.dumps(d)})
    html = r.get_data(as_text=True)
    assert r.status_code == 422
    field = re.search(r'<textarea id="sc-json"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="sc-json-err"' in field
    err = re.search(r'<span class="sc-field-error sc-import-err" id="sc-json-err"[^>]*>(.*?)</span>',
                    html, re.S).group(1)
    assert "esattamente 2 giocatori" in err and "<code>players</code>" in err
    # the new-scenario form's "Giocatori" field is not blamed for the file
    players = re.search(r'<input id="sc-players"[^>]*>', html).group(0)
    assert "aria-invalid" not in players and 'id="sc-players-err"' not in html


def test_builder_edits_the_whole_state(sim, client):
    """Mana pools, commander damage, teams, the stack, counters of any kind."""
    url = sim.new("commander")
    html = sim.page(url)
    assert 'name="players[0].mana_pool"' in html and 'name="pila.text"' in html
    assert "Danno da combattimento da Comandante di Alice (Alice)" in html
    url = sim.save(url, {"players[1].name": "Bruno", "players[1].mana_pool": "rosso: 2, G 1",
                         "players[1].commander_damage[0]": "21", "players[2].name": "Carla",
                         "players[2].team": "AB", "players[3].name": "Dario", "players[3].team": "AB", "pila.kind": "spell", "pila.text": "Fulmine",
                         "pila.controller": "p2", "nuovo.name": "Orso", "nuovo.power": "2",
                         "nuovo.toughness": "2", "nuovo.counters": "sopravvivenza: 2"})
    d = json.loads(client.get(url + "/scenario.json").data)
    assert d["players"][1]["mana_pool"] == {"R": 2, "G": 1}
    assert d["players"][1]["commander_damage"] == {"p1-cmd": 21}
    assert [p["team"] for p in d["players"][2:]] == ["AB", "AB"]
    assert d["stack"][0]["kind"] == "spell" and d["stack"][0]["card"]["name"] == "Fulmine"
    assert d["battlefield"][0]["counters"] == {"sopravvivenza": 2}
    html = sim.page(url)
    assert 'value="rosso: 2, verde: 1"' in html or 'value="verde: 1, rosso: 2"' in html
    assert re.search(r'name="players\[1\]\.commander_damage\[0\]" value="21"', html)
    # an ability on top, then the spell taken away
    url = sim.save(url, {"pila.kind": "ability", "pila.text": "Pesca una carta", "pila.controller": "p1",
                         "pila.source": d["battlefield"][0]["id"]})
    d = json.loads(client.get(url + "/scenario.json").data)
    assert [s["kind"] for s in d["stack"]] == ["spell", "ability"] and d["stack"][1]["source"]
    url = sim.save(url, {"azione": "rimuovi_pila:0"})
    assert [s["text"] for s in json.loads(client.get(url + "/scenario.json").data)["stack"]] == ["Pesca una carta"]
    # a bad pool is shown beside its field
    r = sim.post(url, {"players[0].name": "Alice", "players[0].mana_pool": "viola: 3"})
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and 'mana sconosciuto &#34;viola&#34;' in body
    assert 'id="f-players-0-mana_pool-err"' in body
    # a superscript is no amount and no colour: the same 422, never a 500
    for odd in ("²5", "2²", "rosso ²"):
        r = sim.post(url, {"players[0].name": "Alice", "players[0].mana_pool": odd})
        assert r.status_code == 422 and 'id="f-players-0-mana_pool-err"' in r.get_data(as_text=True), odd


def test_two_headed_giant_life_is_the_teams(sim, client):
    url = sim.new("two-headed-giant")
    url = sim.save(url, {"players[0].name": "Alice", "players[0].life": "25"})
    d = json.loads(client.get(url + "/scenario.json").data)
    assert [p["life"] for p in d["players"]] == [25, 25, 30, 30]          # 810.4: shared
    assert [p["team"] for p in d["players"]] == ["A", "A", "B", "B"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_new_scenario_from_the_builder_plays_for_turns(sim, variant):
    """«Crea e modifica», then «Salva e avvia il simulatore» with nothing else: every library
    holds placeholder cards, so stepping turn after turn draws them instead of ending the game
    by 704.5b."""
    url = sim.new(variant)
    html = sim.page(url)
    assert re.search(r'name="players\[0\]\.library"[^>]*>\s*30</textarea>', html)
    r = sim.post(url, {"azione": "avvia"})
    assert r.status_code == 303 and "/s/" in r.location
    g = r.location
    players = len(sim.api(g)["stato"]["players"])
    for _ in range(players + 1):                       # a whole round of turns, and one more
        html = sim.page(g)
        g = sim.act(g, azione="predefinita" if 'id="sc-dec-h"' in html else "turno")
    state = sim.api(g)
    assert state["risultato"] is None, state["risultato"]
    assert state["stato"]["turn"]["number"] > players
    assert not any(e["rules"] == ["704.5b"] for e in state["eventi"])
    assert any(e["kind"] == "draw" for e in state["eventi"])


def test_domanda_and_risposta_make_a_scenario_a_question(sim):
    """A judge shares a scenario as a question: the builder's «Domanda» and «Risposta» fields are the
    scenario's question and answer; the simulator shows the question and keeps the answer behind a tap."""
    url = sim.new()
    html = sim.page(url)
    assert '<label for="f-question">Domanda</label>' in html and '<label for="f-answer">Risposta</label>' in html
    url = sim.save(url, {"title": "Travolgere", "question": "Quanto danno può travolgere?",
                         "answer": "Quattro (702.19b)."})
    d = sim.api(url)["documento"]
    assert (d["question"], d["answer"]) == ("Quanto danno può travolgere?", "Quattro (702.19b).")
    assert 'value="Quanto danno può travolgere?"' in sim.page(url)
    r = sim.post(url, {"azione": "avvia"})
    game = sim.page(r.location.split("?")[0])
    assert '<p class="sc-question">Quanto danno può travolgere?</p>' in game
    assert 'Quattro (<a' in game and 'href="/regole/702.19b"' in game
    url = sim.save(url, {"question": "", "answer": ""})          # emptied: no longer a question
    assert "question" not in sim.api(url)["documento"]
