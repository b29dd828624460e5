"""The simulator on a phone: life totals under the title after every step and judge action, and the
judge's pickers without the 30 identical placeholder cards of a new scenario's libraries."""

from __future__ import annotations

import re

from judge.engine import Game
from judge.engine.scenario.templates import PLACEHOLDER_CARD, new_scenario
from judge.web.simulator import actions as acts


def lives(html: str) -> list[tuple[str, str]]:
    block = re.search(r'<ul class="sc-vite" aria-label="Punti vita">(.*?)</ul>', html, re.S)[1]
    return re.findall(r'<li[^>]*>([^<]+?) <strong class="sc-vita">(-?\d+)</strong>', block)


def test_life_totals_follow_steps_and_judge_actions(sim):
    doc = new_scenario("two-player", title="Vite")
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": doc})
    html = sim.page(g)
    assert lives(html) == [("Alice", "20"), ("Bruno", "20")]
    assert html.index('class="sc-vite"') < html.index('class="sc-controls"')  # above the controls
    g = sim.act(g, azione="passo")
    assert lives(sim.page(g)) == [("Alice", "20"), ("Bruno", "20")]
    g = sim.act(g, azione="giudice", nome="gain_life", **{"p.player": "p2", "p.amount": "3"})
    assert lives(sim.page(g)) == [("Alice", "20"), ("Bruno", "23")]


def card_labels(st) -> list[str]:
    return [o.label for _, options in acts.board_options(st)["card"] for o in options]


def test_pickers_hide_placeholder_library_cards_but_keep_real_ones():
    doc = new_scenario("two-player", title="Segnaposto")
    doc["players"][0]["library"].insert(0, {"id": "vero", "name": "Fulmine", "types": ["instant"]})
    doc["players"][1]["hand"] = [{"id": "mano", "name": PLACEHOLDER_CARD, "types": []}]
    labels = card_labels(Game.from_dict(doc).state)
    assert "Fulmine (1ª dall'alto)" in labels
    assert not any(label.startswith(f"{PLACEHOLDER_CARD} (") for label in labels)  # 60 library placeholders
    assert PLACEHOLDER_CARD in labels  # a card in hand stays pickable, whatever its name
