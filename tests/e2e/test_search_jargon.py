"""Jargon that lands, in Chromium at both sizes: «layer» leads to 613, «ETB» to 603.6a, a quick answer
card above the results, «livelli» explains its two meanings, and a skip link to the results."""

from __future__ import annotations

import re
from urllib.parse import quote

from playwright.sync_api import expect


def first_result(screen):
    return screen.locator(".risultato .intestazione strong").first


def test_layer_leads_to_613_and_etb_to_603_6a(screen, screenshots):
    screen.goto("/cerca?q=layer")
    expect(first_result(screen)).to_have_text(re.compile(r"^613\."))
    screen.goto("/cerca?q=layers")
    expect(first_result(screen)).to_have_text(re.compile(r"^613\."))
    screen.goto("/cerca?q=ETB")
    expect(first_result(screen)).to_have_text("603.6a")
    card = screen.locator(".risposta-rapida")
    expect(card).to_be_visible()
    expect(card).to_contain_text("603.6a")
    expect(card).to_contain_text("Dall'indice analitico inglese")
    # The card and the first result are both on the first screen.
    assert first_result(screen).bounding_box()["y"] + 20 <= screen.height
    screen.screenshot(path=str(screenshots / f"cerca-etb-{screen.size}.png"))
    assert screen.console_errors == []


def test_heading_only_rules_rank_below_the_rules_that_answer(screen):
    screen.goto("/cerca?q=" + quote("tocco letale e travolgere"))
    numbers = screen.locator(".risultato .intestazione strong").all_inner_texts()[:5]
    assert "702.19b" in numbers
    # 702.2 and 702.19 say only «Tocco letale», «Travolgere»: they come after 702.19b if at all.
    for heading in ("702.2", "702.19"):
        if heading in numbers:
            assert numbers.index(heading) > numbers.index("702.19b"), numbers


def test_a_word_with_two_meanings_says_both(screen, screenshots):
    screen.goto("/cerca?q=livelli")
    note = screen.locator(".disambigua")
    expect(note).to_be_visible()
    expect(note).to_contain_text("layer")
    expect(note).to_contain_text("level up")
    expect(note.locator("a[href='/regole/613.1']")).to_have_count(1)
    expect(note.locator("a[href='/regole/711.1']")).to_have_count(1)
    screen.screenshot(path=str(screenshots / f"cerca-livelli-{screen.size}.png"))
    note.get_by_role("link", name="cerca «livelli effetti continui»").click()
    expect(first_result(screen)).to_have_text(re.compile(r"^613"))


def test_skip_link_goes_to_the_results(screen):
    screen.goto("/cerca?q=travolgere")
    screen.keyboard.press("Tab")
    screen.keyboard.press("Tab")
    skip = screen.locator("a.skip[href='#risultati']")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box["x"] >= 0 and box["height"] >= 44
    screen.keyboard.press("Enter")
    expect(screen.locator("#risultati")).to_be_focused()
    assert screen.locator("#risultati").bounding_box()["y"] < screen.height
