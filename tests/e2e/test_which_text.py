"""Which text is which, in Chromium at 390×844 and 1280×900: labels and the legend, the home page's
coverage statement, a rule's name and text above the fold, a label per block on phones, and the
IT / EN / both choice remembered across pages and reloads."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from judge.corpus import load_corpus


def test_home_states_coverage_and_the_legend_explains_the_labels(screen, screenshots):
    corpus = load_corpus()
    cov = corpus.coverage
    screen.goto("/")
    status = screen.locator("section.stato")
    expect(status).to_contain_text(f"Traduzione del progetto per {cov.translated} regole su {cov.rules}")
    expect(status).to_contain_text(f"Testo della comunità per {cov.community_sections} sezioni")
    # The community sections are marked as such in the index, not as "IT".
    expect(screen.locator(".indice .strato-comunita")).to_have_count(cov.community_sections)
    legend = screen.locator("#legenda")
    legend.locator("summary").click()
    for label in ("Inglese ufficiale", "Traduzione del progetto", "Testo della comunità"):
        expect(legend).to_contain_text(label)
    screen.screenshot(path=str(screenshots / f"home-copertura-{screen.size}.png"))
    assert screen.console_errors == []


def test_rule_title_labels_and_text_above_the_fold(screen, screenshots):
    corpus = load_corpus()
    rule = corpus.get("702.19b")
    screen.goto("/regole/702.19b")
    expect(screen.locator("h1")).to_have_text("702.19b Travolgere")
    italian = screen.locator("section.lingua-it")
    english = screen.locator("section.lingua-en")
    expect(italian.locator(".versione .strato")).to_have_text(rule.tr.label)
    expect(english.locator(".versione .strato")).to_have_text(rule.en.label)
    # The rule's text starts on the first screen.
    first_line = italian.locator(".testo p").first.bounding_box()
    assert first_line["y"] + 24 <= screen.height, first_line
    # The permalink tools come after the text.
    assert screen.locator("#permalink").bounding_box()["y"] > first_line["y"]
    assert screen.evaluate("document.documentElement.scrollWidth") <= screen.width
    screen.screenshot(path=str(screenshots / f"regola-nome-{screen.size}.png"))


def test_every_block_says_which_text_it_is_on_a_phone(screen, screenshots):
    screen.goto("/regole/702.19")
    item = screen.locator("#r-702\\.19a")
    labels = item.locator(".etichetta-blocco")
    expect(labels).to_have_count(2)
    if screen.phone:
        expect(labels.nth(0)).to_be_visible()
        expect(labels.nth(1)).to_be_visible()
        expect(labels.nth(1)).to_contain_text("Inglese ufficiale")
    else:  # the columns have their heading; the labels stay out of the way
        expect(screen.locator(".intestazione-lingue")).to_be_visible()
        expect(labels.nth(1)).to_be_hidden()
    item.scroll_into_view_if_needed()
    screen.screenshot(path=str(screenshots / f"sezione-etichette-{screen.size}.png"))


def test_language_choice_is_remembered(screen, screenshots):
    screen.goto("/regole/702.19b")
    choice = screen.locator("[data-scelta-lingua]").first
    expect(choice).to_be_visible()
    choice.get_by_role("button", name="Inglese").click()
    expect(screen.locator("section.lingua-it")).to_be_hidden()
    expect(screen.locator("section.lingua-en")).to_be_visible()
    expect(choice.get_by_role("button", name="Inglese")).to_have_attribute("aria-pressed", "true")
    # Another rule, then a reload: still English only (also in a section's list).
    screen.goto("/regole/704")
    expect(screen.locator("#r-704\\.5a .lingua-it")).to_be_hidden()
    expect(screen.locator("#r-704\\.5a .lingua-en")).to_be_visible()
    screen.reload()
    expect(screen.locator("#r-704\\.5a .lingua-it")).to_be_hidden()
    screen.screenshot(path=str(screenshots / f"solo-inglese-{screen.size}.png"))
    screen.locator("[data-scelta-lingua]").first.get_by_role("button", name="Italiano").click()
    expect(screen.locator("#r-704\\.5a .lingua-en")).to_be_hidden()
    expect(screen.locator("#r-704\\.5a .lingua-it")).to_be_visible()
    # A rule with no Italian at all still shows its English whatever the choice.
    no_italian = next((n for n in load_corpus().numbers
                       if load_corpus().rules[n].en and not load_corpus().rules[n].italian), None)
    if no_italian:
        screen.goto(f"/regole/{no_italian}")
        expect(screen.locator(".bilingue.solo .lingua-en").first).to_be_visible()
    screen.goto("/regole/702.19b")
    screen.locator("[data-scelta-lingua]").first.get_by_role("button", name="Entrambi").click()
    expect(screen.locator("section.lingua-it")).to_be_visible()
    expect(screen.locator("section.lingua-en")).to_be_visible()
    assert screen.console_errors == []


def test_phase_names_match_between_pages_and_simulator(screen):
    from judge.corpus.turn_names import section_name

    name = section_name("508")
    screen.goto("/")
    expect(screen.locator(".indice a[href='/regole/508']")).to_have_text(f"508. {name}")
    screen.goto("/turno")
    expect(screen.locator("ol.turno")).to_contain_text(name)
    screen.goto("/regole/508")
    expect(screen.locator("h1")).to_have_text(re.compile(rf"^508\. {re.escape(name)}$"))
