"""At the table, on a 390 px phone (issue 37): the rule's text on the first screen of any rule page,
with the numbering history in one sentence; controls big enough for a finger; a skip link to the
search results; the header search says what to type."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from judge.corpus import load_corpus
from judge.web.changes import earlier_numbers

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture()
def phone(browser, base_url):
    context = browser.new_context(base_url=base_url, locale="it-IT", **PHONE)
    try:
        yield context.new_page()
    finally:
        context.close()


def _top_of_text(page) -> float:
    return page.locator("main .bilingue .testo p").first.bounding_box()["y"]


@pytest.mark.parametrize("number", ["704.5y", "310.8", "727.1", "101.2a", "702.19b"])
def test_the_rules_text_is_on_the_first_phone_screen(phone, screenshots, number):
    """A rule whose number other rules had (704.5y, 727.1), a rule new in the edition in force (310.8),
    one with the checks' warnings (101.2a): the text's first lines are on the first screen; the
    numbering history is one sentence with a link to the rule's history."""
    corpus = load_corpus()
    phone.goto(f"/regole/{number}")
    assert _top_of_text(phone) + 3 * 24 <= 844, "il testo della regola non è nella prima schermata"
    notes = phone.locator("main .numerazione-precedente")
    if earlier_numbers(corpus, number):
        expect(notes).to_have_count(1)
        expect(notes.get_by_role("link", name="Storia della numerazione")).to_have_attribute("href", f"/regole/{number}/storia")
    else:
        expect(notes).to_have_count(0)
    phone.screenshot(path=str(screenshots / f"regola-prima-schermata-{number}.png"))
