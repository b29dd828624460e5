"""A game written with ``Game.to_dict`` reads back as the same game, without a JSON round trip in
between (the history and the library verifier hand the dict over directly)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge import ROOT
from judge.engine import Game

SCENARIOS = sorted((ROOT / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: Path(p).stem)
def test_a_library_scenario_reads_back_from_its_own_dict(path):
    game = Game.from_dict(json.loads(path.read_text(encoding="utf-8")))
    for _ in range(3):  # also after a few steps, where the engine has filled fields in
        again = Game.from_dict(game.to_dict())
        assert again.to_dict() == game.to_dict() == json.loads(json.dumps(game.to_dict()))
        if game.state.result is not None or game.state.pending is not None:
            break
        game.step()


def test_a_colourless_card_keeps_its_empty_colours_as_a_list():
    game = Game.from_dict(json.loads((ROOT / "scenarios" / "angelo-di-platino-e-zero-punti-vita.json").read_text()))
    cards = [c for c in game.to_dict().get("battlefield", []) if "colors" in c]
    assert cards and all(isinstance(c["colors"], list) for c in cards)
