"""Judge actions, the library and its answers in a real browser (Debian chromium), on a phone
and on a desktop: every action's form opened from the catalog, filled by choosing from the
board, applied, logged with its rule and undone; picking a permanent on the board; keyboard
shortcuts; plain forms without JavaScript."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.e2e_scenario.test_simulatore import WIDER
from tests.scenario_web.test_judge_actions import BOARDS, VALID, board
from tests.scenario_web.test_judge_sentences import SAID
from judge.engine.registry import RAW_EDITS
from judge.web.simulator import actions as acts

VIEWPORTS = {"telefono": {"viewport": {"width": 390, "height": 844}, "has_touch": True,
                          "is_mobile": True},
             "desktop": {"viewport": {"width": 1280, "height": 900}}}


def new_game(page, server, scenario=None) -> str:
    r = page.request.post(server + "/api/scenari", headers={"Content-Type": "application/json"},
                          data=json.dumps({"format": "judge-partita", "version": 1,
                                           "scenario": scenario or board()}))
    assert r.status == 201, r.text()
    return server + "/s/" + r.json()["id"]


@pytest.fixture(params=sorted(VIEWPORTS))
def device(request, browser):
    ctx = browser.new_context(locale="it-IT", **VIEWPORTS[request.param])
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None)
    yield request.param, pg
    ctx.close()
    assert not errors, errors


def open_panel(page) -> None:
    panel = page.locator("#sc-giudice")
    if not panel.evaluate("d => d.open"):
        panel.locator("summary").first.click()
    expect(panel.locator(".sc-j-catalog")).to_be_visible()


def fill(form, name: str, value: str) -> None:
    field = form.locator(f'[name="{name}"]')
    kind = field.first.evaluate("e => e.tagName + ':' + (e.type || '')")
    if kind.startswith("SELECT"):
        field.select_option(value)
    elif kind.endswith(("checkbox", "radio")):
        form.locator(f'[name="{name}"][value="{value}"]').check()
    else:
        field.fill(value)


def test_every_judge_action_form(device, server, shots):
    label, page = device
    home = new_game(page, server)
    page.goto(home)
    board_before = page.locator(".sc-board").inner_text()
    on_home_board = True                        # the page shows home's board (home, or every action since undone)
    for name, (form_data, rule) in sorted(VALID.items()):
        spec = acts.spec_for(name)
        if name in BOARDS:                      # an action that needs another board
            page.goto(new_game(page, server, BOARDS[name](board())))
            on_home_board = False
        elif not on_home_board:
            page.goto(home)
            on_home_board = True
        open_panel(page)
        page.locator(".sc-j-catalog").get_by_role("link", name=spec.label, exact=True).click()
        form = page.locator("form.sc-j-form")
        expect(form.locator("h3")).to_have_text(spec.label)
        expect(page).to_have_url(re.compile(rf"\?giudice={name}"))
        if name in ("trigger", "create_token", "add_mana", "discard"):
            page.evaluate("window.scrollTo(0, 0)")
            assert page.evaluate(WIDER) == [], (name, label)         # nothing wider than the screen
            form.screenshot(path=str(shots / f"azione-{name}-{label}.png"))
        if any(k.startswith("r1.") for k in form_data):
            form.locator(".sc-j-more > summary").click()
        for k, v in form_data.items():
            fill(form, k, v)
        form.get_by_role("button", name="Applica").click()
        log = page.locator(".sc-log")
        # the judge's action as a sentence («Il giudice mette 2 segnalini +1/+1 su Lupo.»)
        expect(log.locator(".sc-act-label").last).to_have_text(SAID[name])
        if name in RAW_EDITS:                   # no rule governs a raw edit: it says what it is
            expect(log).to_contain_text(rule)
        else:
            expect(log.locator("a.sc-rule", has_text=re.compile(rf"^{re.escape(rule)}$")).first).to_be_attached()
        assert "giudice=" not in page.url                          # a new permalink, form closed
        page.get_by_role("button", name="↶ Annulla").click()
        expect(page.locator(".sc-log .sc-act-label")).to_have_count(0)
        if on_home_board:                       # undone: the next action starts from this very page
            assert page.locator(".sc-board").inner_text() == board_before, name
    page.screenshot(path=str(shots / f"azioni-{label}.png"), full_page=True)


def test_pick_on_the_board_and_shortcuts(browser, server, shots):
    # the phone: tap a creature's "Azioni", one tap to TAP it, a form with it already chosen
    phone = browser.new_context(locale="it-IT", **VIEWPORTS["telefono"])
    p = phone.new_page()
    p.goto(new_game(p, server))
    orso = p.locator(".sc-permanent", has_text="Orso")
    orso.get_by_role("link", name="Azioni").tap()
    picked = p.locator(".sc-j-picked")
    expect(picked).to_contain_text("Azioni su Orso")
    p.screenshot(path=str(shots / "azioni-su-un-permanente-stretto.png"), full_page=False)
    picked.get_by_role("button", name="TAPpa", exact=True).tap()
    expect(p.locator(".sc-permanent", has_text="Orso")).to_contain_text("TAPpato")
    expect(p.locator(".sc-last")).to_contain_text("Orso viene TAPpato")     # what just happened, on top
    p.locator(".sc-permanent", has_text="Lupo").get_by_role("link", name="Azioni").tap()
    p.locator(".sc-j-picked").get_by_role("link", name="Infliggi danno…").tap()
    form = p.locator("form.sc-j-form")
    expect(form.locator('[name="p.target"]')).to_have_value("lupo")
    form.locator('[name="p.amount"]').fill("3")
    form.get_by_role("button", name="Applica").tap()
    expect(p.locator(".sc-last")).to_contain_text("Lupo")
    expect(p.locator(".sc-last")).to_contain_text("704.5g")               # lethal damage: destroyed
    expect(p.locator(".sc-permanent", has_text="Lupo")).to_have_count(0)
    phone.close()

    # the desktop: a for the actions, Enter on one, Esc closes its form, u undoes
    desk = browser.new_context(locale="it-IT", **VIEWPORTS["desktop"])
    d = desk.new_page()
    d.goto(new_game(d, server))
    d.locator("h1").click()
    d.keyboard.press("a")
    expect(d.locator("#sc-giudice")).to_have_attribute("open", "")
    expect(d.locator(".sc-j-catalog a").first).to_be_focused()
    d.keyboard.press("Enter")
    expect(d.locator("form.sc-j-form h3")).to_have_text(acts.spec_for("deal_damage").label)
    expect(d.locator('form.sc-j-form [name="p.target"]')).to_be_focused()
    d.keyboard.press("Escape")
    expect(d.locator("form.sc-j-form")).to_have_count(0)
    d.locator('.sc-j-catalog a', has_text="Guadagna punti vita").click()
    d.locator('form.sc-j-form [name="p.amount"]').fill("4")
    d.keyboard.press("Enter")                                             # Enter applies
    expect(d.locator(".sc-pl", has_text="Alice").locator(".sc-life")).to_have_text("24")
    d.locator("h1").click()
    d.keyboard.press("u")
    expect(d.locator(".sc-pl", has_text="Alice").locator(".sc-life")).to_have_text("20")
    d.keyboard.press("r")
    expect(d.locator(".sc-pl", has_text="Alice").locator(".sc-life")).to_have_text("24")
    # an error stays in the form, beside its field, in Italian
    d.locator("h1").click()
    d.keyboard.press("a")
    d.locator('.sc-j-catalog a', has_text="Paga punti vita").click()
    d.locator('form.sc-j-form [name="p.amount"]').fill("99")
    d.get_by_role("button", name="Applica").click()
    expect(d.locator("#sc-j-errore")).to_contain_text("non può pagare 99 punti vita")
    expect(d.locator('form.sc-j-form [name="p.amount"]')).to_have_value("99")
    d.screenshot(path=str(shots / "azione-rifiutata-largo.png"), full_page=False)
    desk.close()


def test_judge_action_without_javascript(browser, server):
    ctx = browser.new_context(java_script_enabled=False, locale="it-IT")
    p = ctx.new_page()
    p.goto(new_game(p, server))
    p.locator("#sc-giudice > summary").click()
    p.locator(".sc-j-catalog").get_by_role("link", name="Metti segnalini", exact=True).click()
    form = p.locator("form.sc-j-form")
    form.locator('[name="p.target"]').select_option("lupo")
    form.locator('[name="p.kind"]').fill("+1/+1")
    form.locator('[name="p.count"]').fill("2")
    form.get_by_role("button", name="Applica").click()
    expect(p.locator(".sc-permanent", has_text="Lupo")).to_contain_text("2 × +1/+1")
    expect(p.locator(".sc-log")).to_contain_text("Si mettono 2 segnalini +1/+1 su Lupo")
    p.get_by_role("button", name="↶ Annulla").click()
    expect(p.locator(".sc-permanent", has_text="Lupo")).not_to_contain_text("+1/+1")
    ctx.close()


def test_library_page_reveal_and_the_mark(device, server, shots):
    label, page = device
    page.goto(server + "/simulatore/libreria")
    item = page.locator("li#leggende")
    expect(item).to_contain_text("Quale Isamaru resta sul campo di battaglia?")
    answer = item.locator("details")
    expect(answer.locator("p")).not_to_be_visible()
    answer.locator("summary").click()
    expect(answer.locator("p")).to_be_visible()
    expect(answer).to_contain_text("704.5j")
    page.screenshot(path=str(shots / f"libreria-{label}.png"), full_page=True)
    item.get_by_role("link", name="Avvia").click()
    # The game page loaded, scenario.js run: a step before it reloads the page, and the answer closes.
    page.wait_for_url(re.compile(r"/s/[a-z2-7]{20}$"))
    lesson = page.locator(".sc-lesson")
    expect(lesson).to_contain_text("Quale Isamaru resta sul campo di battaglia?")
    expect(lesson.locator(".sc-expected")).not_to_be_visible()
    lesson.get_by_text("Mostra la risposta").click()
    expect(lesson.locator(".sc-expected")).to_contain_text("Sul campo di battaglia: Isamaru")
    page.get_by_role("button", name="Passo successivo").click()
    page.locator('input[name="keep"][value="l1"]').check()
    page.locator(".sc-decision").get_by_role("button", name="Conferma").click()
    expect(page.locator(".sc-reached-mark")).to_contain_text("raggiunto l'esito atteso")
    # with JavaScript the answer stays open while stepping
    expect(page.locator(".sc-lesson .sc-expected")).to_be_visible()
    page.screenshot(path=str(shots / f"libreria-esito-{label}.png"), full_page=False)
