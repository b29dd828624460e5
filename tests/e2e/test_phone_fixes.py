"""The phone fixes of the review, in Chromium at both sizes: /turno opens on the phases with a jump bar,
the menu holds the analytic index (folded behind one button on a phone), the index search puts the
headword as typed first, /modifiche has Italian names and the translation, the simulator shows life
totals above the fold after a step and keeps rule pop-ups on screen, tap targets are 44 px."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from judge.corpus.turn_names import section_name
from tests.e2e.conftest import SIZES


def test_turno_opens_on_the_phases_with_a_jump_bar(screen, screenshots):
    screen.goto("/turno")
    bar = screen.locator("nav.salta-fasi")
    expect(bar).to_be_visible()
    first_phase = screen.locator("#fase-1 h2")
    assert first_phase.bounding_box()["y"] + 30 <= screen.height  # the phases, not a note, open the page
    expect(first_phase).to_contain_text(section_name("501"))
    assert screen.locator("#manaburn").bounding_box()["y"] > screen.locator("#fase-5").bounding_box()["y"]
    screen.screenshot(path=str(screenshots / f"turno-{screen.size}.png"))
    link = bar.get_by_role("link", name=section_name("506"))
    link.click()
    expect(screen).to_have_url(re.compile(r"#fase-3$"))
    top = screen.locator("#fase-3").bounding_box()["y"]
    assert 0 <= top < screen.height / 2


def test_menu_holds_the_analytic_index(screen):
    screen.goto("/regole/702.19b")
    nav = screen.locator("#menu-sito")
    if screen.phone:
        expect(nav).to_be_hidden()  # one button instead of two rows of links
        button = screen.get_by_role("button", name="Menu")
        assert button.bounding_box()["height"] >= 44
        button.click()
        expect(button).to_have_attribute("aria-expanded", "true")
    expect(nav.get_by_role("link", name="Indice analitico")).to_be_visible()
    nav.get_by_role("link", name="Indice analitico").click()
    expect(screen).to_have_url(re.compile(r"/indice-analitico$"))
    expect(screen.locator("#menu-sito a[aria-current=page]")).to_have_text("Indice analitico")


def test_the_menu_opens_before_the_deferred_scripts_arrive(browser, base_url):
    # A slow phone connection: the page is drawn (menu folded) and tapped before site.js runs.
    context = browser.new_context(base_url=base_url, locale="it-IT", **SIZES["telefono"])
    page = context.new_page()
    held = []
    page.route("**/js/site.js*", lambda route: held.append(route))
    try:
        page.goto("/regole/702.19b", wait_until="commit")  # the deferred scripts hold DOMContentLoaded back
        button, nav = page.get_by_role("button", name="Menu"), page.locator("#menu-sito")
        expect(button).to_be_visible()
        expect(nav).to_be_hidden()
        assert held, "the page asks for site.js"
        button.tap()
        expect(button).to_have_attribute("aria-expanded", "true")
        expect(nav.get_by_role("link", name="Indice analitico")).to_be_visible()
        page.keyboard.press("Escape")
        expect(nav).to_be_hidden()
        expect(button).to_have_attribute("aria-expanded", "false")
        for route in held:
            route.continue_()
        page.wait_for_load_state("load")
        button.tap()                               # once site.js has run too: one toggle, not two
        expect(button).to_have_attribute("aria-expanded", "true")
    finally:
        context.close()


def test_index_search_shows_the_exact_headword_first(screen):
    screen.goto("/indice-analitico?q=danno")
    expect(screen.locator("dl.indice-analitico dt").first).to_have_text("danno")
    screen.goto("/indice-analitico?q=ETB&lingua=en")
    expect(screen.locator("dl.indice-analitico dt").first).to_have_text("ETB")


def test_changes_show_italian_names_and_the_translation(screen, screenshots):
    screen.goto("/modifiche/20260619..20260925")
    change = screen.locator("li.modifica.modificata").first
    expect(change.locator(".nome-modifica")).to_be_visible()
    expect(change.locator(".traduzione-modifica .strato")).to_contain_text("Traduzione del progetto")
    assert screen.evaluate("document.documentElement.scrollWidth") <= screen.width
    change.scroll_into_view_if_needed()
    screen.screenshot(path=str(screenshots / f"modifiche-traduzione-{screen.size}.png"))


def test_simulator_life_totals_above_the_fold_and_rule_popups_on_screen(screen, screenshots):
    screen.goto("/simulatore/libreria")
    screen.get_by_role("link", name="Avvia").first.click()
    # The game page loaded, its scripts run: a step before scenario.js reloads the page, a rule before
    # anteprime.js shows no preview (a tap opens it).
    screen.wait_for_url(re.compile(r"/s/[a-z2-7]{20}$"))
    screen.get_by_role("button", name="Passo successivo").click()
    expect(screen.locator(".sc-log .sc-ev").first).to_be_attached()  # the step is done
    lives = screen.locator(".sc-vite")
    expect(lives).to_be_visible()
    box = lives.bounding_box()
    assert box["y"] + box["height"] <= screen.height, box
    expect(lives.locator("li")).to_have_count(screen.locator(".sc-pl").count())
    screen.evaluate("window.scrollTo(0, 0)")
    screen.screenshot(path=str(screenshots / f"simulatore-vite-{screen.size}.png"))
    rule = screen.locator("a.sc-rule[data-testo]").last
    rule.scroll_into_view_if_needed()
    if screen.phone:
        rule.tap()
    else:
        rule.hover()
    pop = screen.locator("#judge-anteprima")
    expect(pop).to_be_visible()
    b = pop.bounding_box()
    assert b["x"] >= 0 and b["x"] + b["width"] <= screen.width, b


PAGES = ["/", "/regole/702.19b", "/regole/702", "/cerca?q=travolgere", "/glossario", "/indice-analitico",
         "/turno", "/collega", "/modifiche/20260619..20260925"]

TARGETS = """() => {
  const out = [];
  const sel = 'button, input:not([type=hidden]), select, summary, header.site a, .lettere a, .paginazione a, ' +
              '.salta-fasi a, .scelta-lingua a, .lingue-indice a, .vicini a';
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect(), st = getComputedStyle(el);
    if (!r.width || !r.height || st.visibility === 'hidden') continue;
    if (r.height < 43.5 || (el.tagName === 'BUTTON' && r.width < 43.5)) out.push(el.tagName + ' ' + (el.textContent || el.name || '').trim().slice(0, 30) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  }
  return out; }"""


@pytest.mark.parametrize("path", PAGES)
def test_tap_targets_are_at_least_44px_on_a_phone(browser, base_url, path):
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale="it-IT")
    try:
        page = context.new_page()
        page.goto(path)
        page.get_by_role("button", name="Menu").click()  # the menu's links count too
        assert page.evaluate(TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
