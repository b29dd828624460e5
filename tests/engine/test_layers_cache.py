"""The layers' cache (characteristics.layers.board) never serves stale characteristics: every
library scenario and every random game of the engine's properties run with the cache checked
at each read against a fingerprint of what the layers read (layers.VERIFY)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.engine.characteristics import layers
from judge.engine.play.library import verify

LIB = Path(__file__).resolve().parents[2] / "scenarios"


@pytest.fixture(autouse=True, scope="module")
def checked_cache():
    saved, layers.VERIFY = layers.VERIFY, True
    yield
    layers.VERIFY = saved


@pytest.mark.parametrize("path", sorted(LIB.glob("*.json")), ids=lambda p: p.stem)
def test_library_scenarios_read_no_stale_characteristics(path):
    fails, _ = verify(json.loads(path.read_text(encoding="utf-8")))
    assert not fails


def test_a_stale_read_fails_loudly():
    from engine_helpers import game, perm
    g = game([perm("x")])
    layers.board(g.state)
    g.state.battlefield[0].power = 5          # a change that forgot st.touch()
    with pytest.raises(AssertionError, match="touch"):
        layers.board(g.state)
