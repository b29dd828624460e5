"""Every scenario in scenarios/ behaves as its ``expected`` block documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine_helpers import RULES
from judge.engine import Game
from judge.engine.library import verify

LIB = Path(__file__).resolve().parents[2] / "scenarios"
FILES = sorted(LIB.glob("*.json"))


def test_library_has_at_least_15_scenarios():
    assert len(FILES) >= 15


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_library_scenario(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["title"] and data["description"] and data["rules"] and data["expected"]
    assert set(data["rules"]) <= RULES
    Game.load(path)                                     # valid as a file
    fails, events = verify(data)
    assert not fails, "\n".join(fails + [str(e) for e in events])
    cited = {r for e in events for r in e.rules}
    for ev in data["expected"].get("events", []):
        assert set(ev["rules"]) <= cited
    # the rules the scenario documents are all exercised or named in its events
    assert set(data["rules"]) & cited
