"""A replacement effects' choice in a real browser, on a phone (390 px): the affected player
picks the order of the effects (616.1) and the log explains each step with its rule."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from judge import ROOT
from tests.e2e_scenario.test_simulatore import WIDER
from tests.e2e_scenario.conftest import library_server

QUESTION = ROOT / "scenarios" / "dettami-degli-dei-gemelli-e-grifone-decorato.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("sim-replace")
    lib = base / "libreria"
    lib.mkdir()
    shutil.copy(QUESTION, lib / QUESTION.name)
    yield from library_server(base, lib)


def test_the_affected_player_chooses_the_order_on_a_phone(browser, server, shots):
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT",
                              has_touch=True, is_mobile=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server + "/simulatore")
    page.get_by_role("link", name="Avvia").first.click()
    page.wait_for_url(re.compile(r"/s/[a-z2-7]{20}$"))
    page.get_by_role("button", name="Passo successivo").click()
    decision = page.locator(".sc-decision")
    expect(decision).to_contain_text("Quale effetto si applica per primo?")
    expect(decision).to_contain_text("Bruno")
    options = decision.locator('input[name="apply"]')
    expect(options).to_have_count(2)
    expect(decision.locator('input[value="e-dettami"]')).to_be_checked()       # the default
    assert page.evaluate(WIDER) == []
    page.screenshot(path=str(shots / "sostituzione-scelta-stretto.png"), full_page=True)
    decision.locator('input[value="e-grifone"]').check()
    page.get_by_role("button", name="Conferma").click()
    log = page.locator(".sc-log")
    expect(log).to_contain_text("Bruno (il giocatore interessato) sceglie di applicare per primo")
    expect(log).to_contain_text("Risultato: Gigante delle Colline infligge 4 danni a Bruno")
    for rule in ("616.1e", "615.7", "614.5", "614.6"):
        expect(log.locator("a.sc-rule", has_text=rule).first).to_be_visible()
    expect(page.locator(".sc-pl").nth(1).locator(".sc-life")).to_have_text("16")
    assert page.evaluate(WIDER) == []
    page.screenshot(path=str(shots / "sostituzione-registro-stretto.png"), full_page=True)
    ctx.close()
    assert not errors, errors
