"""«Perché?» in a real browser, on a phone: a permanent's characteristics layer by layer, its
rows readable at 390 px, its rule numbers links with the preview of the rest of the simulator."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from judge import ROOT

from .test_simulatore import WIDER

PUZZLE = ROOT / "scenarios" / "umilta-e-opalescenza-umilta-prima.json"


def test_why_on_a_phone(browser, server, shots):
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                is_mobile=True, locale="it-IT")
    p = phone.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    doc = {"format": "judge-partita", "version": 1,
           "scenario": json.loads(PUZZLE.read_text(encoding="utf-8"))}
    r = p.request.post(server + "/api/scenari", data=json.dumps(doc),
                       headers={"Content-Type": "application/json"})
    assert r.status == 201, r.text()
    p.goto(r.json()["url"])
    humility = p.locator('.sc-permanent[data-id="umilta"]')
    expect(humility.locator(".sc-pt")).to_have_text("4/4")
    why = humility.locator("details.sc-why")
    why.locator("summary").tap()
    rows = why.locator(".sc-why-row")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Livello 4")
    expect(rows.nth(3)).to_contain_text("7b")
    expect(rows.nth(3)).to_contain_text("613.6")
    expect(why.locator(".sc-why-end")).to_contain_text("4/4")
    p.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    assert p.evaluate(WIDER) == []
    # every row readable: nothing cut, each row at most the width of the screen
    widths = rows.evaluate_all("rs => rs.map(r => r.getBoundingClientRect().right)")
    assert max(widths) <= 390
    p.screenshot(path=str(shots / "perche-stretto.png"), full_page=True)
    # a rule number is a link with the preview: a tap shows the rule, a second opens it
    rule = rows.nth(3).locator("a.sc-rule", has_text="613.6")
    rule.tap()
    pop = p.locator("#judge-anteprima")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("Regola 613.6")
    pop.get_by_role("link", name=re.compile("Apri la regola 613.6")).tap()
    expect(p).to_have_url(re.compile(r"/regole/613\.6$"))
    phone.close()
    assert not errors, errors
