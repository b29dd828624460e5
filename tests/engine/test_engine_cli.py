"""`judge scenario …` commands: output, JSON, decisions, errors without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from judge.engine.cli import scenario

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
    assert set(data) == {"scenario", "events", "pending"}
    assert data["pending"] is None and data["scenario"]["format"] == "judge-scenario"
    assert all({"rules", "text", "kind"} <= set(e) for e in data["events"])


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
    assert "from judge.engine.cli import scenario" in text and "main.add_command(scenario)" in text
