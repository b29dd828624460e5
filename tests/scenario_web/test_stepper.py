"""The stepper: steps, decisions answered from the page, the log with its rules, undo/redo,
exports, permalinks across restarts, the JSON API."""

from __future__ import annotations

import json
import re
from pathlib import Path

from judge.engine import Game
from judge.engine.scenario.templates import new_scenario
from judge.web import create_app

from .conftest import TOKEN_RE, Sim, bear


def full_hand_scenario() -> dict:
    d = new_scenario("two-player", title="Orso e mano piena")
    d["battlefield"] = [bear("p1")]
    d["players"][0]["hand"] = [{"id": f"h{i}", "name": f"Carta {i}", "types": []} for i in range(9)]
    return d


def log_entries(html: str) -> list[str]:
    body = html.split('class="sc-log-body"', 1)[1]
    return [re.sub(r"<[^>]+>", "", x).strip() for x in re.findall(r'<li class="sc-ev[^"]*">(.*?)</li>', body, re.S)]


def where(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(r'class="sc-where"[^>]*>(.*?)</p>', html, re.S).group(1))).strip()


def test_a_turn_with_attack_and_discard(sim):
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": full_hand_scenario()})
    html = sim.page(g)
    assert "Turno 1" in where(html) and "mantenimento" in where(html)
    assert "Orso" in html and 'sc-b-sick' not in html

    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    html = sim.page(g)
    assert "Decisione: Alice" in html and 'name="att-0"' in html
    assert re.search(r'<option value="">non attacca</option>', html)      # the default: no attackers
    assert "dichiarazione degli attaccanti" in where(html)
    # stepping is refused while a decision is pending
    r = sim.post(g, {"azione": "passo"})
    assert r.status_code == 422 and "decisione in sospeso" in r.get_data(as_text=True)

    g = sim.act(g, azione="decidi", **{"att-0": "p2"})
    html = sim.page(g)
    entries = log_entries(html)
    attack = next(e for e in entries if "attacca Bruno" in e)
    assert "Orso (2/2) attacca Bruno e si TAPpa" in attack and "508.1f" in attack
    assert "sc-b-attack" in html and "attacca Bruno" in html and "sc-tapped" in html
    # every rule number links to its page and carries its text for the hover
    link = re.search(r'<a class="sc-rule" href="/regole/508.1f" title="508.1f — ([^"]+)" data-testo="[^"]+"', html)
    assert link and len(link.group(1)) > 20

    g = sim.act(g, azione="vai", fino_a="cleanup")
    html = sim.page(g)
    assert "Bruno" in html and re.search(r'class="sc-life">18<', html)      # 2 combat damage
    assert "Decisione: Alice" in html and "sceglie 2 carte da scartare" in html
    # the default is preselected: the last two cards
    checked = re.findall(r'name="scarta" value="(h\d)" checked', html)
    assert checked == ["h7", "h8"]
    # a wrong answer is refused with the engine's Italian message and rule
    r = sim.post(g, {"azione": "decidi", "scarta": "h0"})
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and "bisogna scartare esattamente 2 carte diverse" in body
    assert 'href="/regole/514.1"' in body
    assert re.findall(r'name="scarta" value="(h\d)" checked', body) == ["h0"]   # the choice is kept

    g2 = sim.act(g, azione="decidi", scarta=["h0", "h1"])
    html = sim.page(g2)
    discard = next(e for e in log_entries(html) if "scarta" in e)
    assert "Alice scarta 2 carte per scendere a 7: Carta 0, Carta 1" in discard
    assert "703.4n" in discard and "514.1" in discard
    # grouped by turn and step
    heads = re.findall(r'<h3 class="sc-log-step">(.*?)</h3>', html)
    assert heads[0] == "Turno 1 · sottofase di mantenimento" and heads[-1] == "Turno 1 · sottofase di cancellazione"
    assert len(heads) == len(set(heads))

    # undo goes back to the pending discard; redo returns to the same permalink
    g3 = sim.act(g2, azione="annulla")
    assert "sceglie 2 carte da scartare" in sim.page(g3)
    g4 = sim.act(g3, azione="ripeti")
    assert g4 == g2
    r = sim.post(g4, {"azione": "ripeti"})
    assert r.status_code == 422 and "niente da ripetere" in r.get_data(as_text=True)


def test_next_turn_and_legend_rule_decision(sim, client):
    r = client.get("/simulatore/libreria/leggende/avvia")
    g = r.location
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    assert "Quale Isamaru tieni?" in html
    assert re.search(r'name="keep" value="l2" checked', html)             # default preselected
    g = sim.act(g, azione="decidi", keep="l1")
    html = sim.page(g)
    assert any("Regola delle leggende" in e and "704.5j" in e for e in log_entries(html))
    g = sim.act(g, azione="turno")
    html = sim.page(g)
    # Isamaru may attack: the next turn waits for the declaration (default: no attackers)
    assert "Turno 1" in where(html) and "Decisione: Alice" in html
    g = sim.act(g, azione="predefinita")
    assert any("Alice non dichiara attaccanti" in e for e in log_entries(sim.page(g)))
    g = sim.act(g, azione="vai", fino_a="turno")
    html = sim.page(g)
    assert "Turno 2" in where(html) and "giocatore attivo Bruno" in where(html)
    assert "Inizia il turno 2: giocatore attivo Bruno." in " ".join(log_entries(html))


def test_exports_match_the_engine(sim, client):
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": full_hand_scenario()})
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    g = sim.act(g, azione="decidi", **{"att-0": "p2"})
    # current state: a scenario file the engine loads, with the attacker tapped
    r = client.get(g + "/scenario.json")
    assert r.status_code == 200 and "attachment" in r.headers["Content-Disposition"]
    state = Game.from_dict(json.loads(r.data))
    assert state.state.perm("orso").tapped and state.state.combat.attackers[0]["target"] == "p2"
    # starting state plus actions: importing it gives back the very same permalink
    r = client.get(g + "/partita.json")
    doc = json.loads(r.data)
    assert doc["format"] == "judge-partita" and [a["type"] for a in doc["actions"]] == ["step_to", "decide"]
    assert sim.upload(doc) == g
    # the log in Markdown, with absolute rule links
    md = client.get(g + "/registro.md").get_data(as_text=True)
    assert md.startswith("# Orso e mano piena\n")
    assert "## Turno 1" in md and "### Sottofase di dichiarazione degli attaccanti" in md
    assert "- Orso (2/2) attacca Bruno e si TAPpa. ([703.4i](http://localhost/regole/703.4i)" in md
    assert f"Partita: <http://localhost{g}>" in md
    # the builder can continue from the current state
    r = client.get(g + "/modifica")
    assert r.status_code == 303
    html = client.get(r.location).get_data(as_text=True)
    assert re.search(r'id="f-battlefield-0-tapped" name="battlefield\[0\].tapped" value="1" checked', html)


def test_permalink_survives_a_restart(tmp_path, library_dir):
    inst = tmp_path / "istanza"
    app = create_app({"INSTANCE_PATH": str(inst), "TESTING": True, "SCENARIO_LIBRARY": str(library_dir)})
    c = app.test_client()
    tok = TOKEN_RE.search(c.get("/simulatore").get_data(as_text=True)).group(1)
    s = Sim(c, tok)
    g = s.upload({"format": "judge-partita", "version": 1, "scenario": full_hand_scenario()})
    g = s.act(g, azione="vai", fino_a="declare_attackers")
    before = s.page(g)
    # a new process would build a new app on the same instance folder; a new client has no cookies
    app2 = create_app({"INSTANCE_PATH": str(inst), "TESTING": True, "SCENARIO_LIBRARY": str(library_dir)})
    after = app2.test_client().get(g)
    assert after.status_code == 200
    # (the token, and where «Avanza fino a» points: this browser's last choice, not the game's)
    strip = lambda h: re.sub(r'<select id="sc-fino-a".*?</select>', "", re.sub(r'name="csrf_token" value="[^"]+"', "", h),  # noqa: E731
                             flags=re.S)
    assert strip(after.get_data(as_text=True)) == strip(before)


def test_json_api(client):
    r = client.post("/api/scenari", json=full_hand_scenario())
    assert r.status_code == 201 and r.get_json()["tipo"] == "scenario"
    r = client.post("/api/scenari", json={"format": "judge-partita", "version": 1,
                                          "scenario": full_hand_scenario()})
    body = r.get_json()
    assert r.status_code == 201 and body["tipo"] == "partita" and body["url"].startswith("http://localhost/s/")
    gid = body["id"]
    r = client.post(f"/api/scenari/{gid}/azioni", json={"type": "step_to", "step": "declare_attackers"})
    out = r.get_json()
    assert r.status_code == 201 and out["in_attesa"]["kind"] == "declare_attackers"
    assert any(e["rules"][:1] == ["506.1"] for e in out["eventi"])
    r = client.post(f"/api/scenari/{out['id']}/azioni",
                    json={"type": "decide", "answer": {"attackers": [{"id": "orso", "target": "nessuno"}]}})
    err = r.get_json()["error"]
    assert r.status_code == 422 and "non può attaccare" in err["message"] and "508.1b" in err["rules"]
    r = client.post(f"/api/scenari/{out['id']}/azioni", json={"type": "undo"})
    undone = r.get_json()
    assert r.status_code == 201 and undone["documento"]["actions"] == []
    assert undone["documento"]["redo"] == [{"type": "step_to", "step": "declare_attackers"}]
    r = client.post(f"/api/scenari/{undone['id']}/azioni", json={"type": "redo"})
    assert r.get_json()["id"] == out["id"]                       # redo: the same permalink again
    assert client.post("/api/scenari", data="x", content_type="text/plain").status_code == 415
    r = client.post("/api/scenari", data="{", content_type="application/json")
    assert r.status_code == 422 and "JSON non valido" in r.get_json()["error"]["message"]
    r = client.post("/api/scenari", json={"format": "judge-scenario", "version": 1, "players": []})
    assert r.status_code == 422 and r.get_json()["error"]["errors"][0]["path"] == "players"


def test_blockers_and_damage_assignment_from_the_form(sim):
    d = new_scenario("two-player", title="Travolgere contro due muri")
    d["turn"]["step"] = "precombat_main"
    d["battlefield"] = [bear("p1", "wurm", "Wurm", power=5, toughness=5, keywords=["trample"]),
                        bear("p2", "m1", "Muro A"), bear("p2", "m2", "Muro B")]
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    g = sim.act(g, azione="decidi", **{"att-0": "p2"})
    g = sim.act(g, azione="vai", fino_a="declare_blockers")
    html = sim.page(g)
    assert "Bruno dichiara quali creature bloccano" in html
    assert re.search(r"<option value=\"\">non blocca</option>\s*<option value=\"wurm\">Wurm</option>", html)
    g = sim.act(g, azione="decidi", **{"blk-0": "wurm", "blk-1": "wurm"})
    html = sim.page(g)
    assert any("Muro A (2/2) blocca Wurm" in e and "509.1g" in e for e in log_entries(html))
    assert "sc-b-block" in html and "blocca Wurm" in html
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    assert "Wurm: 5 danni da assegnare (travolgere)" in html
    # the default assignment is prefilled: lethal to each blocker, the rest to the player
    assert re.findall(r'name="dmg-0-(\d)" inputmode="numeric" size="4" value="(\d+)"', html) == \
        [("0", "2"), ("1", "2"), ("2", "1")]
    r = sim.post(g, {"azione": "decidi", "dmg-0-0": "1", "dmg-0-1": "2", "dmg-0-2": "2"})
    body = r.get_data(as_text=True)
    assert r.status_code == 422 and "solo dopo aver assegnato danno letale" in body
    assert 'href="/regole/702.19b"' in body
    assert 'name="dmg-0-0" inputmode="numeric" size="4" value="1"' in body      # kept
    r = sim.post(g, {"azione": "decidi", "dmg-0-0": "x"})
    assert r.status_code == 422 and "atteso un intero non negativo" in r.get_data(as_text=True)
    g = sim.act(g, azione="decidi", **{"dmg-0-0": "2", "dmg-0-1": "3", "dmg-0-2": "0"})
    entries = log_entries(sim.page(g))
    assert any("Wurm assegna 2 danni a Muro A e 3 danni a Muro B" in e and "510.1" in e for e in entries)
    assert any("Muro A" in e and "704.5g" in e for e in entries)          # destroyed: lethal damage


def test_a_stale_pending_decision_is_never_a_server_error(sim, client):
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": full_hand_scenario()})
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    g = sim.act(g, azione="predefinita")
    g = sim.act(g, azione="vai", fino_a="cleanup")
    assert "sceglie 2 carte da scartare" in sim.page(g)
    builder = client.get(g + "/modifica").location
    html = sim.page(builder)
    assert "è in sospeso la decisione" in html and 'name="azzera_procedura"' in html
    # empty the hand but keep the decision: the stepper must answer with 200/303/422 only
    g2 = sim.act(builder, **{"players[0].name": "Alice", "players[0].hand": "", "azione": "avvia"})
    assert client.get(g2).status_code == 200
    for az in ("decidi", "predefinita"):
        assert sim.post(g2, {"azione": az}).status_code in (303, 422)
    # or drop it: the game goes on from the next step
    g3 = sim.act(builder, **{"players[0].name": "Alice", "players[0].hand": "",
                             "azzera_procedura": "1", "azione": "avvia"})
    assert "sc-dec-h" not in sim.page(g3)
    g3 = sim.act(g3, azione="passo")
    assert "Turno 2" in where(sim.page(g3))


def test_an_ability_added_in_the_builder_mid_resolution_does_not_resolve_instead(sim, client):
    """The builder keeps a choice asked mid-resolution (the initiative's room, 701.49b): an
    ability the judge adds to the stack there waits on top, and the venture that had started
    resolving is the one that finishes (608.2)."""
    from judge.engine.mechanics.dungeon import UNDERCITY_ROOMS
    d = new_scenario("two-player", title="Iniziativa a metà")
    d["initiative"] = "p1"
    d["players"][0]["command"] = [{"id": "uc", "name": "Undercity", "types": ["dungeon"],
                                   "subtypes": ["Undercity"], "venture_marker": "Secret Entrance",
                                   "rooms": [{"name": n, "text": x, "to": list(to)}
                                             for n, x, to in UNDERCITY_ROOMS]}]
    d["stack"] = [{"id": "ab", "kind": "ability", "controller": "p1", "text": "Iniziativa di Alice",
                   "effect": {"kind": "initiative_venture"}}]
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g = sim.act(g, azione="passo")
    builder = client.get(g + "/modifica").location
    g2 = sim.act(builder, **{"pila.text": "Abilità aggiunta dal giudice", "pila.controller": "p2",
                             "azione": "avvia"})
    g2 = sim.act(g2, azione="predefinita")                  # the room: Forge
    state = sim.api(g2)["stato"]
    assert state["players"][0]["command"][0]["venture_marker"] == "Forge"
    assert [s["text"] for s in state["stack"]][0] == "Abilità aggiunta dal giudice"
    assert "ab" not in [s["id"] for s in state["stack"]]
    # removing the resolving object while keeping its choice is refused, with the reason
    builder = client.get(g + "/modifica").location
    r = sim.post(builder, {"azione": "rimuovi_pila:0"})
    assert r.status_code == 422 and "608.2m" in r.get_data(as_text=True)


def test_avanza_fino_a_a_step_the_turn_does_not_have_stops_at_its_end(sim, client):
    """«Avanza fino a: danno da combattimento» without attackers stops at the end of that turn
    and the log says why (508.8), instead of running on for fifteen turns; old games, whose
    step_to has no turn_end, replay as they did."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": new_scenario()})
    g = sim.act(g, azione="vai", fino_a="combat_damage")
    state = sim.api(g)
    assert state["documento"]["actions"] == [{"type": "step_to", "step": "combat_damage", "turn_end": True}]
    assert (state["stato"]["turn"]["number"], state["stato"]["turn"]["step"]) == (1, "cleanup")
    stop = state["eventi"][-1]
    assert stop["kind"] == "step_to_stop" and stop["rules"] == ["508.8"]
    html = sim.page(g).replace("&#39;", "'")
    assert "Avanza fino alla sottofase di danno da combattimento: in questo turno non c'è (508.8)" in \
        log_entries(html)[-1]
    md = client.get(g + "/registro.md").get_data(as_text=True)
    assert "ci si ferma alla fine del turno" in md
    # with an attacker the step is reached, as before
    d = new_scenario()
    d["turn"]["step"] = "precombat_main"
    d["battlefield"] = [bear()]
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    g = sim.act(g, azione="decidi", **{"att-0": "p2"})
    g = sim.act(g, azione="vai", fino_a="combat_damage")
    s = sim.api(g)["stato"]
    assert (s["turn"]["number"], s["turn"]["step"], s["players"][1]["life"]) == (1, "combat_damage", 18)
    # a saved game without turn_end: the old behaviour, into later turns
    old = sim.upload({"format": "judge-partita", "version": 1, "scenario": new_scenario(),
                      "actions": [{"type": "step_to", "step": "combat_damage"}]})
    assert sim.api(old)["stato"]["turn"]["number"] > 1
    r = sim.post("/simulatore/importa", {"json": json.dumps(
        {"format": "judge-partita", "version": 1, "scenario": new_scenario(),
         "actions": [{"type": "step_to", "step": "end", "turn_end": "sì"}]})})
    assert r.status_code == 422 and "atteso un booleano" in r.get_data(as_text=True)


def test_avanza_fino_a_keeps_the_judges_choice_after_any_action(sim):
    """«Avanza fino a» points where the judge last chose, after a step, a judge action, a decision."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": full_hand_scenario()})
    chosen = lambda html: re.search(r'<select id="sc-fino-a".*?<option value="(\w+)" selected', html, re.S).group(1)  # noqa: E731
    assert chosen(sim.page(g)) == "cleanup"                        # nothing chosen yet: the end of the turn
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    assert chosen(sim.page(g)) == "declare_attackers"
    g = sim.act(g, azione="predefinita")                          # a decision (no attackers)
    g = sim.act(g, azione="giudice", nome="gain_life", **{"p.player": "p1", "p.amount": "2"})
    assert chosen(sim.page(g)) == "declare_attackers"


def test_the_answer_of_a_shared_question_links_its_rules(sim):
    d = full_hand_scenario()
    d["question"], d["answer"] = "Chi scarta?", "Alice scarta fino a sette carte (514.1, vedi anche 402.2)."
    html = sim.page(sim.upload({"format": "judge-partita", "version": 1, "scenario": d}))
    answer = re.search(r'<summary>Mostra la risposta</summary>\s*<p>(.*?)</p>', html, re.S).group(1)
    assert 'href="/regole/514.1"' in answer and 'href="/regole/402.2"' in answer


def test_decisions_say_why_with_linked_rules(sim):
    """Who cannot block whom, and the lethal figure of deathtouch, each with its rules as links."""
    d = new_scenario("two-player", title="Falco e serpe")
    d["battlefield"] = [
        {"id": "f", "name": "Falco", "types": ["creature"], "power": 1, "toughness": 1, "controller": "p1",
         "keywords": ["flying"]},
        {"id": "s", "name": "Serpe", "types": ["creature"], "power": 3, "toughness": 1, "controller": "p1",
         "keywords": ["deathtouch", "trample"]},
        {"id": "o", "name": "Orso", "types": ["creature"], "power": 2, "toughness": 4, "controller": "p2"},
        {"id": "o2", "name": "Orso", "types": ["creature"], "power": 2, "toughness": 2, "controller": "p1"},
    ]
    d["turn"] = {"number": 2, "active_player": "p1", "step": "beginning_of_combat"}
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": d})
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    creatures = re.findall(r'<label for="sc-(att-\d)">(\w+)', html)
    g = sim.act(g, azione="decidi", **{k: "p2" for k, name in creatures if name in ("Falco", "Serpe")})
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    hint = re.search(r'<p class="sc-hint">Orso di Bruno non può bloccare (.*?)</p>', html, re.S).group(1)
    assert "Falco" in hint and 'href="/regole/702.9b"' in hint and 'href="/regole/509.1b"' in hint
    g = sim.act(g, azione="decidi", **{"blk-0": "s"})
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    label = re.search(r'<label for="sc-dmg-0-0">(.*?)</label>', html, re.S).group(1)
    assert "letale: 1, Serpe ha tocco letale" in label and 'href="/regole/702.2c"' in label


def test_a_turn_whose_untap_step_is_skipped_starts_its_log_under_the_upkeep(sim, client):
    """Stasis: the turn's first lines (the new turn, the skip) sit under the step that happens,
    in the page and in the Markdown log; no heading names the untap step that never began."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": json.loads(
        (Path(__file__).resolve().parents[2] / "scenarios" / "stasi-e-le-sottofasi-di-stap.json")
        .read_text(encoding="utf-8"))})
    g = sim.act(g, azione="passo")
    g = sim.act(g, azione="passo")
    html = sim.page(g)
    body = html.split('class="sc-log-body"', 1)[1]
    groups = re.findall(r'<h3 class="sc-log-step">(.*?)</h3>\s*<ol class="sc-events">(.*?)</ol>',
                        body, re.S)
    labels = [label for label, _ in groups]
    assert "Turno 5 · sottofase di mantenimento" in labels, labels
    assert not any(label.startswith("Turno 5") and "STAP" in label for label in labels), labels
    upkeep = dict(groups)["Turno 5 · sottofase di mantenimento"]
    assert "Inizia il turno 5" in upkeep and "salta la sua sottofase di STAP" in upkeep
    md = client.get(g + "/registro.md").get_data(as_text=True)
    turn5 = md.split("## Turno 5", 1)[1]
    assert "### Sottofase di mantenimento" in turn5 and "STAP\n" not in turn5.split("- ")[0]


def test_the_stepper_shows_the_turns_phases_once_some_were_added(sim):
    """Relentless Assault's library scenario: after add_extra_phases the head of the page lists
    the turn's phases from here, the added ones by their card, with the rules linked."""
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": json.loads(
        (Path(__file__).resolve().parents[2] / "scenarios" /
         "assalto-implacabile-nella-prima-fase-principale.json").read_text(encoding="utf-8"))})
    assert "sc-phases" not in sim.page(g)
    effect = ('{"card": "Relentless Assault", "controller": "p1", "adds": {"phases": '
              '["combat", "postcombat_main"]}, "after": {"phase": "main"}}')
    g = sim.act(g, azione="giudice", nome="add_extra_phases", **{"p.effect": effect})
    html = sim.page(g)
    line = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", re.search(
        r'class="sc-hint sc-phases">(.*?)</p>', html, re.S).group(1)))
    assert ("fase principale pre-combattimento (ora), fase di combattimento aggiunta da "
            "Relentless Assault, fase principale post-combattimento aggiunta da Relentless "
            "Assault, fase di combattimento") in line
    assert 'href="/regole/500.8"' in html
