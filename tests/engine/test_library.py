"""Every scenario in scenarios/ behaves as its ``expected`` block documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_helpers import RULES
from judge.engine import Game
from judge.engine.characteristics import explain
from judge.engine.play.library import _do, check_state, verify
from judge.engine.registry import SBAS, TBAS

LIB = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted(LIB.glob("*.json"))


def explained_rules(data: dict) -> set[str]:
    """The rules the layers' explanation cites once the scenario's actions are done."""
    game = Game.from_dict(data)
    for action in data["expected"]["actions"]:
        _do(game, action)
    why = explain.explain_board(game.state)
    return ({r for x in why.values() for r in x["rules"]}
            | {r for x in why.values() for row in x["rows"] for r in row["rules"]}
            | {r for n in explain.notes(game.state) for r in n["rules"]})


def test_library_has_at_least_35_scenarios():
    assert len(FILES) >= 35


def test_library_covers_every_turn_based_and_state_based_action():
    """Each turn-based action (703.4) and state-based action (704.5, 704.6) the engine
    implements is exercised by a library scenario that names it."""
    named = {r for p in FILES for r in json.loads(p.read_text(encoding="utf-8"))["rules"]}
    missing = sorted(n for n in (*TBAS, *SBAS) if n not in named)
    assert not missing, f"senza scenario in libreria: {missing}"
    # and the seeds' other rules: APNAP order, starting life in each variant, drawing
    seeds = {"101.4", "119.1", "119.1a", "119.1b", "119.1c", "119.1d", "119.1e", "121.1",
             "121.2", "121.2c", "121.4"}
    assert seeds <= named, sorted(seeds - named)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_library_scenario(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["title"] and data["description"] and data["rules"] and data["expected"]
    assert data["question"].endswith("?") and len(data["answer"]) > 40
    assert set(data["rules"]) <= RULES
    Game.load(path)                                     # valid as a file
    fails, events = verify(data)
    assert not fails, "\n".join(fails + [str(e) for e in events])
    cited = {r for e in events for r in e.rules}
    for ev in data["expected"].get("events", []):
        assert set(ev["rules"]) <= cited
    # the rules the scenario documents are exercised: named in its events or in the explanation
    # of the characteristics the layers computed (613)
    assert set(data["rules"]) & (cited | explained_rules(data))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_expected_state_is_an_outcome_not_the_start(path):
    """The stepper marks when the board reaches the expected outcome: it must not hold before
    the scenario is played (unless the question is the board itself: a layer puzzle without
    actions), and must hold after its actions."""
    data = json.loads(path.read_text(encoding="utf-8"))
    exp = data["expected"]["state"]
    game = Game.from_dict(data)
    if data["expected"]["actions"]:
        assert check_state(game, exp), "l'esito atteso vale già all'inizio"
    else:
        assert data.get("effects") and ("characteristics" in exp or "explanation" in exp)
    for action in data["expected"]["actions"]:
        _do(game, action)
    assert check_state(game, exp) == []
