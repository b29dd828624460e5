"""Cards in a real browser (chromium, the app behind waitress): a card page on a 390 px phone,
and the builder filling a card picked from the suggestions while keeping the judge's value."""

from __future__ import annotations

from playwright.sync_api import expect

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "it-IT"}


def test_card_page_on_a_phone_has_keyword_links_and_rulings(browser, server, shots):
    ctx = browser.new_context(**PHONE)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        r = pg.goto(f"{server}/carte/Angelo Flagellatore")        # the Italian name, redirected
        assert r.ok and pg.url.endswith("/carte/baneslayer-angel")
        assert pg.locator("h1").inner_text() == "Angelo Flagellatore"
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        flying = pg.locator(".carta-testo a", has_text="Flying")
        assert flying.get_attribute("href") == "/regole/702.9"
        assert flying.get_attribute("data-anteprima") == "702.9"       # the rule's preview, as every rule link
        flying.tap()
        expect(pg.locator("#judge-anteprima .anteprima-titolo")).to_contain_text("702.9")
        rulings = pg.locator(".sentenze li")
        assert rulings.count() >= 1 and "1 ottobre 2009" in rulings.first.inner_text()
        assert pg.locator(".sentenze li").first.is_visible()
        assert "novembre 2018" in pg.locator("#carta-sentenze ~ p.aiuto, .aiuto").first.inner_text()
        pg.screenshot(path=str(shots / "carta-390-baneslayer-angel.png"), full_page=True)
        assert not errors, errors
    finally:
        ctx.close()


def test_builder_fills_a_card_from_suggestions_and_keeps_the_judges_value(page, server, shots):
    page.goto(f"{server}/simulatore")
    page.click("form[action$='/nuovo'] button[type=submit]")
    page.wait_for_selector("#f-nuovo-card")
    page.fill("#f-nuovo-power", "5")                           # the judge's own value, typed first
    page.locator("#f-nuovo-card").press_sequentially("orso griz", delay=30)
    # Retried: on a loaded machine the list may first show the suggestions of a prefix typed on the
    # way («orso»), until the answer for the whole text replaces them.
    expect(page.locator("#sc-carte-suggerite option").first).to_have_attribute("value", "Orso Grizzly")
    # picking a suggestion (as the datalist does) fills the row through the server
    page.locator("#f-nuovo-card").evaluate("""i => { i.value = 'Orso Grizzly';
        i.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertReplacementText'})); }""")
    expect(page.locator("#f-nuovo-name")).to_have_value("Orso Grizzly")
    assert page.input_value("#f-nuovo-toughness") == "2"
    assert page.input_value("#f-nuovo-power") == "5"            # kept: the judge wrote it
    assert page.input_value("#f-nuovo-subtypes") == "Bear" and page.input_value("#f-nuovo-colors") == "verde"
    assert "mantenuti i tuoi valori: Forza (la carta: 2)" in page.inner_text("#sc-carta-esito")
    page.click("button[value=aggiungi]")
    page.wait_for_selector("#f-battlefield-0-name")
    assert page.input_value("#f-battlefield-0-power") == "5"
    assert page.input_value("#f-battlefield-0-name") == "Orso Grizzly"       # as the judge picked it
    info = page.locator(".sc-card-info")
    assert "modificato dal giudice" in info.inner_text() and info.locator("a").get_attribute("href") == "/carte/grizzly-bears"
    page.screenshot(path=str(shots / "costruttore-carta.png"), full_page=True)


def test_suggestions_come_when_the_script_arrives_after_the_name_was_typed(page, server):
    # A busy server or a slow phone: the judge types the whole name before carte.js runs.
    held = []
    page.route("**/js/carte.js*", lambda route: held.append(route))
    page.goto(f"{server}/simulatore")
    page.click("form[action$='/nuovo'] button[type=submit]")
    page.wait_for_selector("#f-nuovo-card")
    page.locator("#f-nuovo-card").press_sequentially("orso griz", delay=10)
    assert held, "the builder page asks for carte.js"
    assert page.locator("#sc-carte-suggerite option").count() == 0
    for route in held:
        route.continue_()
    # Retried: on a loaded machine the list may first show the suggestions of a prefix typed on the
    # way («orso»), until the answer for the whole text replaces them.
    expect(page.locator("#sc-carte-suggerite option").first).to_have_attribute("value", "Orso Grizzly")


def test_the_builders_script_arriving_late_leaves_the_caret_where_the_judge_types(page, server):
    # A slow connection: the judge is already typing the card's name when scenario.js runs. The
    # script puts the caret in «Nome» only if nothing has it: the rest of the name must not land there.
    page.goto(f"{server}/simulatore")
    held = []
    page.route("**/scenario.js*", lambda route: held.append(route))   # routing also skips the cache
    page.click("form[action$='/nuovo'] button[type=submit]")
    card = page.locator("#f-nuovo-card")
    card.press_sequentially("orso", delay=10)
    assert held, "the builder page asks for scenario.js"
    for route in held:
        route.continue_()
    page.wait_for_load_state("load")            # the deferred scripts (scenario.js, then carte.js) have run
    expect(card).to_be_focused()
    card.press_sequentially(" griz", delay=10)
    expect(card).to_have_value("orso griz")
    expect(page.locator("#f-nuovo-name")).to_have_value("")
    expect(page.locator("#sc-carte-suggerite option").first).to_have_attribute("value", "Orso Grizzly")
