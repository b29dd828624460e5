"""Phone first: on a 390x844 touch screen the first search result is visible without scrolling,
every page has a search box in its header, and no hint speaks of keys a phone does not have."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "locale": "it-IT"}


@pytest.fixture()
def phone(browser, base_url):
    context = browser.new_context(base_url=base_url, **PHONE)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@pytest.mark.parametrize("query", ["grimorio vuoto", "segnalini +1/+1 -1/-1", "posso equipaggiare nel turno dell'avversario?",
                                   "la magia fizza"])
def test_first_result_is_above_the_fold(phone, screenshots, query):
    phone.goto("/cerca?" + urlencode({"q": query}))
    first = phone.locator(".risultato").first
    box = first.bounding_box()
    header = first.locator(".intestazione").bounding_box()
    snippet = first.locator(".estratto").bounding_box()
    assert box is not None and header["y"] + header["height"] <= 844, box
    assert snippet["y"] + 2 * 24 <= 844, snippet  # at least two lines of the text are visible too
    # Filters and syntax help are folded away.
    assert not phone.locator("#lingua").is_visible() and not phone.locator("#q-aiuto").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    # A note explaining jargon sits above the results and still leaves the first one in view.
    assert phone.locator(".gergo").count() == (1 if "fizza" in query else 0)
    name = re.sub(r"[^a-z0-9]+", "-", query.lower()).strip("-")[:40]
    phone.screenshot(path=str(screenshots / f"cerca-390-{name}.png"))


def test_filters_unfold_and_say_when_they_are_active(phone):
    phone.goto("/cerca?q=travolgere&capitolo=7")
    summary = phone.locator("details.piega summary").first
    assert "capitolo 7" in summary.inner_text()
    summary.click()
    assert phone.locator("#capitolo").is_visible()


@pytest.mark.parametrize("path", ["/regole/704.5a", "/regole/704", "/glossario", "/turno", "/collega"])
def test_every_page_has_a_search_box_in_its_header(phone, path):
    phone.goto(path)
    box = phone.locator("header.site input[type=search]")
    assert box.is_visible()
    assert box.bounding_box()["y"] < 100
    box.fill("travolgere")
    box.press("Enter")
    phone.wait_for_url(re.compile(r"/cerca\?q=travolgere"))
    assert phone.locator(".risultato").count() > 0


def test_header_box_opens_a_rule_number(phone):
    phone.goto("/glossario")
    phone.fill("header.site input[type=search]", "704,5a")
    phone.press("header.site input[type=search]", "Enter")
    phone.wait_for_url(re.compile(r"/regole/704\.5a$"))


def test_no_keyboard_only_hints_on_touch_screens(phone, browser, base_url):
    phone.goto("/")
    hint = phone.locator(".solo-tastiera")
    assert hint.count() >= 1 and not hint.first.is_visible()
    desktop = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
    try:
        pg = desktop.new_page()
        pg.goto("/")
        assert pg.locator(".solo-tastiera").first.is_visible()
    finally:
        desktop.close()


def test_glossary_is_searched_from_the_italian_term(phone, screenshots):
    phone.goto("/glossario?q=travolgere")
    terms = phone.locator("dl.glossario dt").all_inner_texts()
    assert terms and terms[0].startswith("Trample")
    phone.screenshot(path=str(screenshots / "glossario-390-travolgere.png"))
