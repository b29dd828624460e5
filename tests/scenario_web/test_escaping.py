"""Everything user-supplied is escaped: hostile names, card names, titles, descriptions in
every page, error message and export of the simulator."""

from __future__ import annotations

import json

import pytest
from markupsafe import escape

from judge.engine.scenario.templates import new_scenario

PAYLOADS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(2)>',
            "'><svg onload=alert(3)>"]
RAW = ["<script>alert(1)", "<img src=x onerror", "<svg onload"]


def hostile(p: str) -> dict:
    d = new_scenario("two-player", title=f"Titolo {p}")
    d["description"] = f"Descrizione {p}"
    d["players"][0]["name"] = f"Alice {p}"
    d["players"][1]["name"] = f"Bruno {p}"
    d["players"][0]["hand"] = [{"id": f"h{i}", "name": f"Carta {p} {i}", "types": []} for i in range(9)]
    d["players"][1]["graveyard"] = [{"id": "g1", "name": f"Cimitero {p}", "types": []}]
    d["battlefield"] = [
        {"id": "orso", "name": f"Orso {p}", "types": ["creature"], "subtypes": [f"Orso{p}"],
         "power": 2, "toughness": 2, "controller": "p1", "counters": {f"ctr{p}": 1}},
        {"id": "muro", "name": f"Muro {p}", "types": ["creature"], "power": 0, "toughness": 4,
         "controller": "p2"},
    ]
    return d


def assert_clean(text: str, where: str) -> None:
    for raw in RAW:
        assert raw not in text, (where, raw)


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_strings_are_escaped_everywhere(sim, client, payload):
    g = sim.upload({"format": "judge-partita", "version": 1, "scenario": hostile(payload)})
    pages = {"stepper": sim.page(g)}
    g = sim.act(g, azione="vai", fino_a="declare_attackers")
    pages["attack decision"] = sim.page(g)
    g = sim.act(g, azione="decidi", **{"att-0": "p2"})
    g = sim.act(g, azione="vai", fino_a="declare_blockers") if "sc-dec-h" not in sim.page(g) else g
    pages["block decision"] = sim.page(g)
    g = sim.act(g, azione="predefinita")
    g = sim.act(g, azione="vai", fino_a="cleanup")
    pages["discard decision"] = sim.page(g)
    r = sim.post(g, {"azione": "decidi", "scarta": [f"h0{payload}"]})
    assert r.status_code == 422
    pages["illegal answer"] = r.get_data(as_text=True)
    g = sim.act(g, azione="predefinita")
    pages["log"] = sim.page(g)
    assert str(escape(f"Orso {payload}")) in pages["log"]          # shown, escaped
    r = client.get(g + "/modifica")
    pages["builder"] = client.get(r.location).get_data(as_text=True)
    for name, html in pages.items():
        assert_clean(html, name)
    assert str(escape(f"Alice {payload}")) in pages["builder"]
    # the Markdown export neutralises tags too
    md = client.get(g + "/registro.md")
    assert md.mimetype == "text/markdown" and md.headers["X-Content-Type-Options"] == "nosniff"
    assert_clean(md.get_data(as_text=True), "markdown")
    # JSON exports are JSON (served as attachments, never as HTML)
    r = client.get(g + "/scenario.json")
    assert r.mimetype == "application/json" and "attachment" in r.headers["Content-Disposition"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_hostile_form_input_and_error_messages_are_escaped(sim, payload):
    url = sim.new()
    r = sim.post(url, {"players[0].name": payload, "players[0].life": payload,
                       "nuovo.name": payload, "nuovo.types": payload, "nuovo.keywords": payload,
                       "nuovo.counters": payload, "title": payload})
    assert r.status_code == 422
    assert_clean(r.get_data(as_text=True), "builder errors")
    # saved hostile names come back escaped in inputs and legends
    url = sim.save(url, {"players[0].name": payload, "title": payload, "description": payload,
                         "nuovo.name": payload, "nuovo.types": "artefatto",
                         "players[0].hand": payload})
    assert_clean(sim.page(url), "builder")
    r = sim.post("/simulatore/importa", {"json": json.dumps({**new_scenario(), "variant": payload})})
    assert r.status_code == 422
    assert_clean(r.get_data(as_text=True), "import error")
    r = sim.post("/simulatore/nuovo", {"variant": payload, "title": payload})
    assert r.status_code == 422
    assert_clean(r.get_data(as_text=True), "start error")


def test_security_headers_on_simulator_pages(sim):
    url = sim.new()
    r = sim.c.get(url)
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    html = r.get_data(as_text=True)
    assert " style=" not in html and " onclick=" not in html and "<script>" not in html
