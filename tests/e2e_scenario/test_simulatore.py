"""The simulator in a real browser: build from the variant form, add a creature, step to
combat, attack, step to cleanup, discard, follow a rule link, undo, share the permalink."""

from __future__ import annotations

import re

from playwright.sync_api import expect


WIDER = """() => { const W = document.documentElement.clientWidth; const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > W + 1) out.push(el.tagName + '.' + el.className + ' ' + Math.round(r.right));
  }
  return out.slice(0, 10); }"""


def shoot(page, shots, name: str) -> None:
    """Screenshots on a wide and a phone viewport; nothing may be wider than the phone."""
    for width, label in ((1280, "largo"), (390, "stretto")):
        page.set_viewport_size({"width": width, "height": 900 if width > 500 else 844})
        # The page's resize handlers (an open rule preview re-places itself) run before the next frame.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        assert page.evaluate(WIDER) == [], (name, width)
        page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / f"{name}-stretto-schermo.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_build_step_decide_share(page, server, browser, shots):
    page.goto(server + "/simulatore")
    expect(page.get_by_role("heading", name="Simulatore")).to_be_visible()
    page.get_by_label("Variante", exact=True).select_option("two-player")
    page.get_by_role("button", name="Crea e modifica").click()
    # The new page loaded, its scripts run (not only its address shown): what follows needs them.
    page.wait_for_url(re.compile(r"/simulatore/modifica/[a-z2-7]{20}"))
    name = page.locator('[name="nuovo.name"]')
    expect(name).to_be_focused()                      # ready to type the first permanent

    # add a creature with the keyboard only, without a page reload
    page.evaluate("window.__stessaPagina = true")
    name.fill("Orso Runeartigli")
    page.keyboard.press("Tab")                         # types: "creatura" by default
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    expect(page.locator("fieldset.sc-perm legend")).to_contain_text("Orso Runeartigli")
    assert page.evaluate("window.__stessaPagina === true")
    expect(page.locator('[name="nuovo.name"]')).to_be_focused()
    expect(page.locator('[name="nuovo.name"]')).to_have_value("")

    # a mistake is shown next to its field, in Italian
    page.locator('[name="players[0].life"]').fill("venti")
    page.get_by_role("button", name="Salva", exact=True).first.click()
    expect(page.locator("#f-players-0-life-err")).to_have_text("atteso un intero")
    expect(page.locator('[name="players[0].life"]')).to_be_focused()
    page.locator('[name="players[0].life"]').fill("20")
    page.locator('[name="players[0].hand"]').fill("9")   # nine cards: two too many at cleanup
    page.get_by_role("button", name="Salva", exact=True).first.click()
    expect(page.locator(".sc-alert")).to_have_count(0)
    expect(page.locator('[name="players[0].hand"]')).to_have_value("9")
    shoot(page, shots, "costruttore")

    page.get_by_role("button", name="Salva e avvia il simulatore").first.click()
    page.wait_for_url(re.compile(r"/s/[a-z2-7]{20}$"))
    expect(page.locator(".sc-where")).to_contain_text("Turno 1")

    # step to combat and declare the attacker
    page.get_by_label("Avanza fino a").select_option("declare_attackers")
    page.get_by_role("button", name="Vai", exact=True).click()
    decision = page.locator(".sc-decision")
    expect(decision).to_contain_text("Alice dichiara quali creature attaccano")
    expect(page.get_by_label("Orso Runeartigli (2/2)")).to_have_value("")   # default: no attack
    page.get_by_label("Orso Runeartigli (2/2)").select_option(label="Bruno")
    shoot(page, shots, "simulatore-attacco")
    decision.get_by_role("button", name="Conferma").click()
    log = page.locator(".sc-log")
    expect(log).to_contain_text("Orso Runeartigli (2/2) attacca Bruno e si TAPpa.")
    orso = page.locator(".sc-permanent", has_text="Orso Runeartigli")
    expect(orso).to_have_class(re.compile("sc-attacking"))
    expect(orso).to_contain_text("TAPpato")

    # to cleanup: the discard decision, with the default preselected
    page.get_by_label("Avanza fino a").select_option("cleanup")
    page.get_by_role("button", name="Vai", exact=True).click()
    expect(decision).to_contain_text("sceglie 2 carte da scartare")
    boxes = page.locator('input[name="scarta"]')
    expect(boxes).to_have_count(9)
    assert [boxes.nth(i).is_checked() for i in range(9)] == [False] * 7 + [True] * 2
    expect(page.locator(".sc-pl", has_text="Bruno").locator(".sc-life")).to_have_text("18")
    shoot(page, shots, "simulatore-scarto")
    boxes.nth(8).uncheck()
    boxes.nth(0).check()
    page.locator(".sc-decision").get_by_role("button", name="Conferma").click()
    entry = page.locator(".sc-ev", has_text="scarta 2 carte")
    expect(entry).to_contain_text("Alice scarta 2 carte per scendere a 7")
    expect(entry.locator("a.sc-rule")).to_have_text(["703.4n", "514.1", "701.9a"])
    heads = page.locator(".sc-log-step")
    expect(heads.last).to_have_text("Turno 1 · sottofase di cancellazione")
    expect(page.locator(".sc-pl", has_text="Alice").locator("dd").nth(1)).to_contain_text("7")

    # the rule's text on hover
    link = entry.locator("a.sc-rule", has_text="514.1")
    link.hover()
    pop = page.locator("#judge-anteprima")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("Regola 514.1")
    expect(pop).to_contain_text("scarta")
    page.screenshot(path=str(shots / "simulatore-regola-largo.png"))
    shoot(page, shots, "simulatore-registro")
    stepper_url = page.url

    # follow the rule link
    link.click()
    expect(page).to_have_url(re.compile(r"/regole/514\.1$"))
    expect(page.locator("main")).to_contain_text("514.1")
    page.go_back()
    expect(page).to_have_url(stepper_url)

    # undo: back to the pending discard
    page.get_by_role("button", name="↶ Annulla").click()
    expect(page.locator(".sc-decision")).to_contain_text("sceglie 2 carte da scartare")
    expect(page.locator(".sc-ev", has_text="scarta 2 carte")).to_have_count(0)
    board = page.locator(".sc-board").inner_text()
    log_text = page.locator(".sc-log").inner_text()
    permalink = page.locator("#sc-permalink").input_value()
    assert permalink.startswith(server + "/s/")

    # the permalink in a fresh browser context (no cookies, nothing shared)
    other = browser.new_context(viewport={"width": 390, "height": 844}, locale="it-IT")
    p2 = other.new_page()
    p2.goto(permalink)
    expect(p2.locator(".sc-decision")).to_contain_text("sceglie 2 carte da scartare")
    assert p2.locator(".sc-board").inner_text() == board
    assert p2.locator(".sc-log").inner_text() == log_text
    p2.screenshot(path=str(shots / "simulatore-permalink-stretto.png"), full_page=True)
    other.close()


def test_library_scenario_legend_rule_and_tap_on_a_rule(page, server, browser, shots):
    page.goto(server + "/simulatore")
    page.get_by_role("link", name="Avvia").first.click()
    # The game page loaded, scenario.js run: the steps below swap the page, and «u» needs the script.
    page.wait_for_url(re.compile(r"/s/[a-z2-7]{20}$"))
    expect(page.locator("h1")).to_have_text("Due leggende")
    page.get_by_role("button", name="Passo successivo").click()
    expect(page.locator(".sc-decision")).to_contain_text("Quale Isamaru tieni?")
    expect(page.locator('input[name="keep"][value="l2"]')).to_be_checked()
    page.locator('input[name="keep"][value="l1"]').check()
    page.get_by_role("button", name="Conferma").click()
    expect(page.locator(".sc-log")).to_contain_text("Regola delle leggende")
    expect(page.locator(".sc-permanent")).to_have_count(1)
    # keyboard shortcut: "u" undoes
    page.locator("h1").click()
    page.keyboard.press("u")
    expect(page.locator(".sc-decision")).to_contain_text("Quale Isamaru tieni?")

    # on a phone a tap shows the rule text first, with a link to open it
    phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    p = phone.new_page()
    p.goto(page.url)
    rule = p.locator(".sc-decision a.sc-rule", has_text="704.5j")
    rule.tap()
    pop = p.locator("#judge-anteprima")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("Regola 704.5j")
    expect(p).to_have_url(page.url)
    p.screenshot(path=str(shots / "simulatore-tocco-stretto.png"), full_page=False)
    pop.get_by_role("link", name=re.compile("Apri la regola 704.5j")).tap()
    expect(p).to_have_url(re.compile(r"/regole/704\.5j$"))
    phone.close()


def test_forms_work_without_javascript(browser, server):
    ctx = browser.new_context(java_script_enabled=False)
    p = ctx.new_page()
    p.goto(server + "/simulatore")
    p.get_by_label("Variante", exact=True).select_option("commander")
    p.get_by_role("button", name="Crea e modifica").click()
    expect(p.locator('[name="players[3].life"]')).to_have_value("40")
    p.locator('[name="nuovo.name"]').fill("Elfo")
    p.locator('[name="nuovo.power"]').fill("1")
    p.locator('[name="nuovo.toughness"]').fill("1")
    p.get_by_role("button", name="Aggiungi").click()
    expect(p.locator("fieldset.sc-perm legend")).to_contain_text("Elfo")
    p.get_by_role("button", name="Salva e avvia il simulatore").first.click()
    p.get_by_role("button", name="Passo successivo").click()
    expect(p.locator(".sc-where")).to_contain_text("sottofase di acquisizione")
    p.get_by_role("button", name="↶ Annulla").click()
    expect(p.locator(".sc-where")).to_contain_text("sottofase di mantenimento")
    ctx.close()
