"""End to end in chromium: open a rule from the home box, follow a citation, use the linker,
copy a link, keyboard use, and screenshots of the pages (wide and narrow)."""

from __future__ import annotations

import re

from judge.corpus import load_corpus
from judge.web.render import rule_heading


def test_open_rule_from_home_box(page):
    page.goto("/")
    page.fill("#q", "704.5A")
    page.press("#q", "Enter")
    page.wait_for_url(re.compile(r"/regole/704\.5a$"))
    assert page.locator("h1").inner_text() == rule_heading(load_corpus().get("704.5a"))
    assert page.console_errors == []


def test_open_rule_from_home_box_without_javascript(browser, base_url):
    from judge.web import create_app

    if "search.cerca" not in create_app({"SECRET_KEY": "x"}).view_functions:
        import pytest

        pytest.skip("/cerca (area ricerca) non ancora disponibile: senza JavaScript il numero passa da /cerca")
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        pg = context.new_page()
        pg.goto("/")
        pg.fill("#q", "704.5A")
        pg.press("#q", "Enter")
        pg.wait_for_url(re.compile(r"/regole/704\.5a$"))
        assert pg.locator("h1").inner_text() == rule_heading(load_corpus().get("704.5a"))
    finally:
        context.close()


def test_slash_key_focuses_search_box(page):
    page.goto("/")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"


def test_follow_a_citation(page):
    corpus = load_corpus()
    cited = corpus.citations("703.4d", "en")[0]
    page.goto("/regole/703.4d")
    page.locator(f'.lingua[aria-label="Testo inglese"] a.cit[href="/regole/{cited}"]').first.click()
    page.wait_for_url(re.compile(rf"/regole/{re.escape(cited)}$"))
    assert page.locator("h1").inner_text() == rule_heading(corpus.get(cited))
    # And back up through "citata da".
    page.locator('.citata-da a[href="/regole/703.4d"]').click()
    page.wait_for_url(re.compile(r"/regole/703\.4d$"))


def test_linker(page, screenshots):
    page.goto("/collega")
    page.fill("#testo", "Secondo la regola 704.5a e CR 117.3a il giocatore perde; la 999.9 non esiste. <script>alert(1)</script>")
    page.click("button:has-text('Collega')")
    page.wait_for_url(re.compile(r"/collega#risultato$"))  # the whole result page, not only its heading
    out = page.locator(".testo-collegato")
    assert out.locator('a[href="/regole/704.5a"]').count() == 1
    assert out.locator('a[href="/regole/117.3a"]').count() == 1
    assert out.locator(".cit-ignota").inner_text().startswith("999.9")
    assert "<script>alert(1)</script>" in out.inner_text()
    assert page.locator(".regole-citate dt").count() == 2
    for width, label in ((1280, "wide"), (390, "narrow")):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(screenshots / f"collega-{label}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    out.locator('a[href="/regole/704.5a"]').click()
    page.wait_for_url(re.compile(r"/regole/704\.5a$"))
    assert page.console_errors == []


def test_copy_link(page, browser):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/regole/704.5a")
    button = page.locator("button.copia-link")
    assert button.is_visible()
    button.click()
    page.wait_for_function("document.querySelector('.copia-esito').textContent.length > 0")
    assert "copiato" in page.locator(".copia-esito").inner_text() or "Ctrl+C" in page.locator(".copia-esito").inner_text()
    assert page.evaluate("navigator.clipboard.readText()").endswith("/regole/704.5a")


def test_focus_is_visible(page):
    page.goto("/regole/704.5a")
    page.keyboard.press("Tab")  # skip link
    assert page.evaluate("document.activeElement.className") == "skip"
    outline = page.evaluate("getComputedStyle(document.activeElement).left")
    assert outline != "-999px"


def test_screenshots(page, screenshots):
    shots = [
        ("regola", "/regole/703.4q"),
        ("regola-inglese", "/regole/704.5a"),
        ("sezione", "/regole/514"),
        ("home", "/"),
        ("turno", "/turno"),
        ("modifiche", "/modifiche/20251114..20260619?sezione=121"),
        ("non-trovata", "/regole/704.99"),
        ("glossario", "/glossario"),
        ("capitolo", "/regole/5"),
        ("modifiche-tutte", "/modifiche/20251114..20260619"),
        ("storia", "/regole/727.1/storia"),
        ("regola-edizione", "/regole/726.1?edizione=20251114"),
        ("collega-edizione", "/collega?edizione=20251114&testo=Vedi la regola 726.1, la 702.124k e CR 704.5a e b."),
    ]
    for name, url in shots:
        for width, label in ((1280, "wide"), (390, "narrow")):
            page.set_viewport_size({"width": width, "height": 900})
            page.console_errors.clear()
            page.goto(url)
            path = screenshots / f"{name}-{label}.png"
            page.screenshot(path=str(path), full_page=name.startswith("regola"))
            assert path.stat().st_size > 0
            # Nothing wider than the viewport on a phone.
            if width == 390:
                assert page.evaluate("document.documentElement.scrollWidth") <= 392, (name, url)
            if name != "non-trovata":  # a 404 response is itself logged as a failed load
                assert page.console_errors == [], (name, page.console_errors)


def test_rule_page_three_layers(page, screenshots):
    """703.4d: the community text (current) first, the project's translation one click away, the
    official English beside. 703.4q: the community text is outdated, so the translation comes first."""
    corpus = load_corpus()
    rule = corpus.get("703.4d")
    page.goto("/regole/703.4d")
    italian = page.locator("section[aria-label='Testo italiano']")
    english = page.locator("section[aria-label='Testo inglese']")
    assert rule.it.text[:60] in italian.locator(".testo").first.inner_text()
    assert rule.en.text[:60] in english.inner_text()
    translation = italian.locator("details.altro-strato")
    assert not translation.locator(".testo").is_visible()
    translation.locator("summary").click()
    assert translation.locator(".testo").is_visible()
    assert rule.tr.text[:60] in translation.locator(".testo").inner_text()
    assert "non ufficiale: prevale l'inglese" in translation.inner_text()
    page.screenshot(path=str(screenshots / "regola-tre-strati.png"), full_page=True)

    outdated = corpus.get("703.4q")
    page.goto("/regole/703.4q")
    italian = page.locator("section[aria-label='Testo italiano']")
    first = italian.locator(".testo").first
    assert first.is_visible() and outdated.tr.text[:60] in first.inner_text()
    assert "Traduzione del progetto" in italian.locator(".versione").first.inner_text()
    assert outdated.en.text[:60] in page.locator("section[aria-label='Testo inglese']").inner_text()
    assert page.console_errors == []
