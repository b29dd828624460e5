"""`judge scenario …` commands: output, JSON, decisions, errors without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from judge.engine.play.cli import scenario

LIB = Path(__file__).resolve().parents[2] / "scenarios"


def run(*args):
    return CliRunner().invoke(scenario, list(args), catch_exceptions=False)


def test_nuovo_commander_four_players(tmp_path):
    out = tmp_path / "s.json"
    r = run("nuovo", "--variante", "commander", "--giocatori", "4", "-o", str(out))
    assert r.exit_code == 0
    data = json.loads(out.read_text())
    assert [p["life"] for p in data["players"]] == [40] * 4
    assert all(p["max_hand_size"] == 7 for p in data["players"])
    r = run("nuovo", "--variante", "two-headed-giant")
    assert r.exit_code == 0 and [p["team"] for p in json.loads(r.output)["players"]] == ["A", "A", "B", "B"]


def test_nuovo_bad_count_is_italian_error():
    r = run("nuovo", "--variante", "two-player", "--giocatori", "3")
    assert r.exit_code == 2 and "Errore" in r.output


def test_passo_prints_rules_and_text():
    r = run("passo", str(LIB / "pescare-da-grimorio-vuoto.json"))
    assert r.exit_code == 0
    assert "703.4d, 504.1, 121.4" in r.output and "704.5b" in r.output
    assert "vince Alice" in r.output


def test_passo_json_shape():
    r = run("passo", str(LIB / "regola-delle-leggende.json"), "--json")
    data = json.loads(r.output)
    assert set(data) == {"scenario", "events", "pending", "saved", "stopped", "characteristics",
                         "layer_notes"}
    assert data["saved"] is None and data["stopped"] is None       # not written: the file is unchanged
    assert data["characteristics"] == {} and data["layer_notes"] == []   # no effect, no counter
    assert data["pending"] is None and data["scenario"]["format"] == "judge-scenario"
    assert all({"rules", "text", "kind"} <= set(e) for e in data["events"])


def test_passo_json_explains_the_layers():
    """The characteristics an effect changed, layer by layer, in Italian, with their rules."""
    r = run("passo", str(LIB / "umilta-e-opalescenza-umilta-prima.json"), "--json")
    why = json.loads(r.output)["characteristics"]["umilta"]
    assert (why["result"]["power"], why["result"]["toughness"]) == (4, 4)
    assert [(row["layer"], row["key"]) for row in why["rows"]] == [
        ("4", "e-opal"), ("6", "e-umilta"), ("7b", "e-umilta"), ("7b", "e-opal")]
    assert "613.6" in why["rows"][-1]["rules"] and "timestamp" in why["rows"][-1]["why_text"]


def test_perche_prints_the_explanation():
    r = run("perche", str(LIB / "luna-insanguinata-e-urborg.json"), "urborg")
    assert r.exit_code == 0
    assert "livello 4" in r.output and "305.7" in r.output and "613.8a" in r.output
    assert run("perche", str(LIB / "luna-insanguinata-e-urborg.json"), "nessuno").exit_code == 2


def test_passo_stops_on_pending_and_accepts_decisions(tmp_path):
    f = str(LIB / "tocco-letale-e-travolgere.json")
    r = run("passo", f, "--json")
    assert json.loads(r.output)["pending"]["kind"] == "combat_damage_assignment"
    r = run("passo", f, "--json", "--decisioni", '{"assignments": {"serpe": {"muro": 1, "p2": 4}}}')
    data = json.loads(r.output)
    assert data["pending"] is None
    assert data["scenario"]["players"][1]["life"] == 16
    dec = tmp_path / "d.json"
    dec.write_text('[{"kind": "combat_damage_assignment", "assignments": {"serpe": {"muro": 5}}}]')
    r = run("passo", f, "--json", "--decisioni", str(dec))
    assert json.loads(r.output)["scenario"]["players"][1]["life"] == 20


def test_passo_fino_a_with_defaults_and_save(tmp_path):
    out = tmp_path / "out.json"
    r = run("passo", str(LIB / "prima-pescata-del-giocatore-iniziale.json"), "--fino-a", "cleanup",
            "--predefinite", "--salva", str(out))
    assert r.exit_code == 0 and "103.8a" in r.output
    assert json.loads(out.read_text())["turn"]["step"] == "cleanup"


def test_illegal_decision_exit_1():
    r = run("passo", str(LIB / "tocco-letale-e-travolgere.json"), "--decisioni",
            '{"assignments": {"serpe": {"p2": 5}}}')
    assert r.exit_code == 1 and "702.19b" in r.output


def test_bad_file_exit_2_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "judge-scenario", "version": 1,
                               "players": [{"id": "p1", "life": "x"}, {"id": "p2"}]}))
    r = run("passo", str(bad))
    assert r.exit_code == 2 and "players[0].life: atteso un intero" in r.output
    assert "Traceback" not in r.output
    r = run("passo", str(tmp_path / "manca.json"))
    assert r.exit_code == 2
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"format": "judge-scenario", "version": 1,
                               "players": [{"id": "p1", "library": [{"id": f"c{i}", "name": "x"}
                                                                    for i in range(100_000)]},
                                           {"id": "p2"}]}))
    r = run("passo", str(big))
    assert r.exit_code == 2 and "troppi oggetti" in r.output
    r = run("passo", str(LIB / "riserva-di-mana.json"), "--decisioni", "{rotto")
    assert r.exit_code == 2


def test_azione_and_verifica():
    r = run("azione", str(LIB / "riserva-di-mana.json"), "deal_damage", "target=p2", "amount=3")
    assert r.exit_code == 0 and "120.3a" in r.output
    r = run("azione", str(LIB / "riserva-di-mana.json"), "pay_life", "player=p1", "amount=99")
    assert r.exit_code == 1 and "119.4" in r.output
    r = run("verifica", str(LIB / "capitoli-della-saga.json"))
    assert r.exit_code == 0 and "conforme" in r.output


def test_registered_in_main_cli():
    text = (Path(__file__).resolve().parents[2] / "judge" / "cli.py").read_text()
    assert "from judge.engine.play.cli import scenario" in text and "main.add_command(scenario)" in text


def test_passo_says_it_did_not_save_and_sul_posto_moves_on(tmp_path):
    f = tmp_path / "s.json"
    run("nuovo", "-o", str(f))
    before = f.read_text()
    first = run("passo", str(f))
    assert first.exit_code == 0 and "Stato non salvato" in first.output and "--sul-posto" in first.output
    assert f.read_text() == before
    assert run("passo", str(f)).output == first.output          # the same step, and it says why
    r = run("passo", str(f), "--sul-posto")
    assert r.exit_code == 0 and f"Stato salvato in {f}" in r.output
    assert json.loads(f.read_text())["turn"]["step"] != json.loads(before)["turn"]["step"]
    r2 = run("passo", str(f), "-i")
    assert r2.output != r.output                                 # in place: the next step
    r = run("passo", str(f), "--sul-posto", "--salva", str(tmp_path / "altro.json"))
    assert r.exit_code == 2 and "non entrambi" in r.output
    r = run("azione", str(f), "gain_life", "player=p1", "amount=2", "-i")
    assert r.exit_code == 0 and json.loads(f.read_text())["players"][0]["life"] == 22


def test_new_scenario_steps_for_turns_with_placeholder_libraries(tmp_path):
    f = tmp_path / "s.json"
    run("nuovo", "-o", str(f))
    data = json.loads(f.read_text())
    assert all(len(p["library"]) == 30 and p["library"][0]["name"] == "Carta" for p in data["players"])
    for _ in range(3):
        r = run("passo", str(f), "--fino-a", "cleanup", "--predefinite", "-i")
        assert r.exit_code == 0 and "704.5b" not in r.output and "finita" not in r.output
        r = run("passo", str(f), "-i")                           # into the next turn
    assert json.loads(f.read_text())["turn"]["number"] == 4


def test_fino_a_a_skipped_step_stops_at_the_end_of_the_turn(tmp_path):
    f = tmp_path / "s.json"
    run("nuovo", "-o", str(f))
    r = run("passo", str(f), "--fino-a", "combat_damage")
    assert r.exit_code == 0
    assert "Ora: turno 1, sottofase di cancellazione" in r.output
    assert "non c'è stata nel turno 1" in r.output and "508.8" in r.output
    assert "turno 2" not in r.output
    data = json.loads(run("passo", str(f), "--fino-a", "combat_damage", "--json", "-i").output)
    assert "508.8" in data["stopped"] and data["saved"] == str(f)
    assert data["scenario"]["turn"]["step"] == "cleanup"
    f.write_text(json.dumps({**json.loads(f.read_text()), "turn": {"number": 1, "active_player": "p1",
                                                                   "step": "upkeep"}}))
    # the starting player's skipped draw step (103.8a): the reason keeps the player's name
    r = run("passo", str(f), "--fino-a", "draw")
    assert "La sottofase di acquisizione non c'è stata nel turno 1: Alice gioca per primo" in r.output
    assert "103.8a" in r.output and "Ora: turno 1, sottofase di cancellazione" in r.output
    # a step that does happen later in the turn is reached as before
    r = run("passo", str(f), "--fino-a", "end", "--json")
    assert json.loads(r.output)["scenario"]["turn"] == {**json.loads(r.output)["scenario"]["turn"],
                                                       "number": 1, "step": "end"}
    # the first strike damage step exists only with first or double strike (510.4)
    d = json.loads(f.read_text())
    d["battlefield"] = [{"id": "orso", "name": "Orso", "types": ["creature"], "power": 2,
                         "toughness": 2, "controller": "p1"}]
    f.write_text(json.dumps(d))
    r = run("passo", str(f), "--fino-a", "first_strike_damage", "--decisioni",
            '{"attackers": [{"id": "orso", "target": "p2"}]}')
    assert "Bruno perde 2 punti vita" in r.output and "510.4" in r.output
    assert "Ora: turno 1, sottofase di cancellazione" in r.output


def test_the_readme_example_steps_through_a_whole_turn(tmp_path, monkeypatch):
    """The README's command-line example, run as written."""
    import shlex
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    block = readme.split("### Esempio: un turno dalla riga di comando", 1)[1].split("```sh", 1)[1]
    commands = [line.split("#", 1)[0].strip() for line in block.split("```", 1)[0].splitlines()]
    commands = [c for c in commands if c]
    assert len(commands) >= 4
    monkeypatch.chdir(tmp_path)
    outputs = []
    for c in commands:
        args = shlex.split(c)
        assert args[:2] == ["judge", "scenario"], c
        r = run(*args[2:])
        assert r.exit_code == 0, (c, r.output)
        assert "finita" not in r.output, (c, r.output)
        outputs.append(r.output)
    state = json.loads((tmp_path / "prova.json").read_text())
    assert state["turn"]["number"] == 2 and state["players"][0]["life"] == 17
    assert "Inizia la sottofase di cancellazione (turno 1" in outputs[1]
    assert "Bruno pesca una carta" in outputs[2]
    assert "508.8" in outputs[-1] and "Mi fermo alla fine del turno" in outputs[-1]


def test_passo_json_answers_an_invalid_scenario_with_json(tmp_path):
    """With --json, whoever reads JSON gets JSON, failures included: the file's errors, on stdout."""
    bad = tmp_path / "rotto.json"
    bad.write_text('{"format": "judge-scenario", "version": 1, "players": "x"}', encoding="utf-8")
    for command in (["passo", str(bad), "--json"], ["azione", str(bad), "gain_life", "--json"]):
        res = CliRunner().invoke(scenario, command)
        assert res.exit_code == 2
        error = json.loads(res.stdout)["error"]
        assert error["code"] == 2 and error["message"].startswith("Scenario non valido")
        assert {"path": "players", "message": "attesa una lista"} in error["errors"]
    res = CliRunner().invoke(scenario, ["passo", str(tmp_path / "manca.json"), "--json"])
    assert res.exit_code == 2 and "impossibile leggere" in json.loads(res.stdout)["error"]["errors"][0]["message"]
    res = CliRunner().invoke(scenario, ["passo", str(bad), "--json", "--passi", "1", "--fino-a", "draw"])
    assert res.exit_code == 2 and "non entrambi" in json.loads(res.stdout)["error"]["message"]
    # Without --json, the same on standard error, as text.
    res = CliRunner().invoke(scenario, ["passo", str(bad)])
    assert res.exit_code == 2 and res.stdout == "" and "Scenario non valido" in res.stderr


def test_control_combat_and_phasing_actions(tmp_path):
    """change_control, remove_from_combat, phase_out and phase_in from the command line."""
    f = tmp_path / "s.json"
    bf = [{"id": "orso", "name": "Orso Grizzly", "types": ["creature"], "power": 2,
           "toughness": 2, "controller": "p1"}]
    f.write_text(json.dumps({"format": "judge-scenario", "version": 1, "title": "t",
                             "players": [{"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"}],
                             "battlefield": bf, "combat": {"attackers": [{"id": "orso", "target": "p2"}]},
                             "turn": {"number": 2, "active_player": "p1", "step": "declare_attackers"}}))
    r = run("azione", str(f), "remove_from_combat", "object=orso", "-i")
    assert r.exit_code == 0 and "506.4" in r.output
    assert json.loads(f.read_text())["combat"]["attackers"] == []
    r = run("azione", str(f), "change_control", "object=orso", "player=p2", "duration=indefinitely", "-i")
    assert r.exit_code == 0 and "613.1b" in r.output and "Bruno prende il controllo" in r.output
    assert json.loads(f.read_text())["effects"][0]["does"] == [{"op": "control", "player": "p2"}]
    r = run("azione", str(f), "change_control", "object=orso", "player=p2", "duration=sempre")
    assert r.exit_code == 1 and "611.2a" in r.output
    r = run("azione", str(f), "phase_out", "object=orso", "-i")
    assert r.exit_code == 0 and "702.26b" in r.output
    assert json.loads(f.read_text())["battlefield"][0]["phased_out"] is True
    r = run("azione", str(f), "phase_in", "object=orso", "--json")
    assert r.exit_code == 0 and json.loads(r.output)["events"][0]["kind"] == "phase_in"
