"""Rule previews everywhere, from one script: on a rule page, a search result, /collega, the glossary,
/turno, /modifiche and the simulator, a citation shows its rule on hover, keyboard focus or first
tap, inside the screen at 390 px, and opens on the second tap."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

POP = "#judge-anteprima"


def shown_inside_the_screen(screen, number: str):
    pop = screen.locator(POP)
    expect(pop).to_be_visible()
    expect(pop.locator(".anteprima-titolo")).to_contain_text(number)
    expect(pop.locator(".anteprima-testo")).not_to_have_text("Caricamento…")
    box = pop.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= screen.width, box
    assert box["y"] >= 0, box
    return pop


def open_by_keyboard(screen, link, number: str):
    link.focus()
    pop = shown_inside_the_screen(screen, number)
    assert link.get_attribute("aria-describedby") == "judge-anteprima"
    screen.keyboard.press("Escape")
    expect(pop).to_be_hidden()
    expect(link).to_be_focused()  # Escape closes the preview, not the reader's place
    link.evaluate("el => el.blur()")
    link.focus()
    expect(pop).to_be_visible()
    screen.keyboard.press("Enter")
    screen.wait_for_url(re.compile(rf"/regole/{re.escape(number)}$"))


def open_by_taps(screen, link, number: str, shot: str, screenshots):
    start = screen.url
    link.scroll_into_view_if_needed()
    link.tap()
    pop = shown_inside_the_screen(screen, number)
    assert screen.url == start  # the first tap only shows the rule
    expect(pop.get_by_role("link", name=f"Apri la regola {number} →")).to_be_visible()
    screen.screenshot(path=str(screenshots / shot))
    link.tap()  # the second opens it
    screen.wait_for_url(re.compile(rf"/regole/{re.escape(number)}$"))


def test_preview_on_a_rule_page(screen, screenshots):
    screen.goto("/regole/702.19a")
    link = screen.locator("section.lingua-it a.cit").first
    number = link.get_attribute("href").rsplit("/", 1)[1]
    if screen.phone:
        open_by_taps(screen, link, number, "anteprima-regola-telefono.png", screenshots)
    else:
        link.hover()
        pop = shown_inside_the_screen(screen, number)
        expect(pop).to_contain_text(screen.request.get(f"/api/anteprima/{number}").json()["label"])
        screen.screenshot(path=str(screenshots / "anteprima-regola-desktop.png"))
        screen.goto("/regole/702.19a")
        open_by_keyboard(screen, screen.locator("section.lingua-it a.cit").first, number)
    assert screen.console_errors == []


def test_preview_on_a_search_result(screen, screenshots):
    screen.goto("/cerca?q=" + quote("danno in eccesso travolgere"))
    link = screen.locator(".risultato .intestazione a").first
    number = link.inner_text().strip()
    if screen.phone:
        open_by_taps(screen, link, number, "anteprima-cerca-telefono.png", screenshots)
    else:
        open_by_keyboard(screen, link, number)


def test_preview_on_collega(screen, screenshots):
    screen.goto("/collega")
    screen.fill("#testo", "Con travolgere il danno in eccesso va al giocatore (702.19b); vedi anche CR 510.1c.")
    screen.get_by_role("button", name="Collega").click()
    # The result page loaded, its preview script run: a link tapped or focused before it does nothing of the sort.
    screen.wait_for_url(re.compile(r"/collega#risultato$"))
    link = screen.locator(".testo-collegato a.cit", has_text="702.19b")
    expect(link).to_be_visible()
    if screen.phone:
        open_by_taps(screen, link, "702.19b", "anteprima-collega-telefono.png", screenshots)
    else:
        open_by_keyboard(screen, link, "702.19b")


@pytest.mark.parametrize("path, selector", [
    ("/glossario?q=travolgere", "dl.glossario a.cit"),
    ("/turno", "ol.turno a.cit"),
    ("/indice-analitico?q=travolgere", "dl.indice-analitico dd a"),
    ("/modifiche/20260619..20260925", "ol.modifiche h3 a"),
])
def test_preview_on_other_pages(screen, path, selector):
    screen.goto(path)
    link = screen.locator(selector).first
    number = link.inner_text().strip()
    link.scroll_into_view_if_needed()
    if screen.phone:
        link.tap()
    else:
        link.hover()
    shown_inside_the_screen(screen, number)


def test_preview_near_the_right_edge_stays_on_screen(screen):
    """A citation at the end of a line: the popover shifts left, never past the screen."""
    screen.goto("/regole/702.19")
    links = screen.locator("main a.cit")
    rightmost = max(range(min(links.count(), 40)), key=lambda i: links.nth(i).bounding_box()["x"])
    link = links.nth(rightmost)
    link.scroll_into_view_if_needed()
    if screen.phone:
        link.tap()
    else:
        link.hover()
    shown_inside_the_screen(screen, link.inner_text().strip())
