"""Citations on other sites and /collega results to share, in Chromium at both sizes: the embed script
on a plain page of another origin links «702.19b» and not «Firefox 115.3», with previews; /collega
scrolls to its result, makes a short link and copies the text as Markdown and HTML."""

from __future__ import annotations

import functools
import http.server
import re
import threading

import pytest
from playwright.sync_api import expect

PAGE = """<!doctype html>
<html lang="it"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Forum dei giudici</title></head>
<body>
<article>
  <p>Con travolgere assegni solo il danno letale al bloccante e il resto va al giocatore (702.19b).
  Per leggere il forum serve Firefox 115.3 o successivo; il torneo inizia alle 12.30.</p>
  <p>Nel codice <code>702.19b</code> resta com'è, e così <a href="https://example.org/">questo link 704.5a</a>.</p>
  <p data-judge="no">Qui non si tocca: 704.5a.</p>
</article>
<script src="{base}/incorpora.js" defer></script>
</body></html>
"""


@pytest.fixture(scope="module")
def other_site(base_url, tmp_path_factory):
    """A plain page on another origin (another port) that includes the script with one tag."""
    folder = tmp_path_factory.mktemp("altro-sito")
    (folder / "index.html").write_text(PAGE.replace("{base}", base_url), encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/index.html"
    finally:
        server.shutdown()
        server.server_close()


def test_embed_script_links_citations_on_another_site(screen, other_site, base_url, screenshots):
    screen.goto(other_site)
    links = screen.locator("a.judge-cit")
    expect(links).to_have_count(1)
    expect(links.first).to_have_text("702.19b")
    assert links.first.get_attribute("href") == f"{base_url}/regole/702.19b"
    article = screen.locator("article")
    # No false links, nothing inside code, links or opted-out elements.
    expect(article).to_contain_text("Firefox 115.3")
    assert article.locator("a", has_text="115.3").count() == 0 and article.locator("a", has_text="12.30").count() == 0
    expect(article.locator("code")).to_have_text("702.19b")
    expect(article.locator("a[href='https://example.org/']")).to_have_text("questo link 704.5a")
    expect(article.locator("[data-judge=no] a")).to_have_count(0)
    # The same previews as on the site, from the script the embed loads once the citations are linked
    # (hovered before it runs, a link shows nothing; tapped, it opens the rule).
    screen.wait_for_function("window.judgeAnteprime !== undefined")
    if screen.phone:
        links.first.tap()
    else:
        links.first.hover()
    pop = screen.locator("#judge-anteprima")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text("702.19b Travolgere")
    box = pop.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= screen.width
    screen.screenshot(path=str(screenshots / f"incorpora-altro-sito-{screen.size}.png"))
    if screen.phone:
        links.first.tap()
        screen.wait_for_url(re.compile(r"/regole/702\.19b$"))


def test_the_documentation_page_shows_the_tag_and_a_live_example(screen, screenshots):
    screen.goto("/incorpora")
    expect(screen.locator("pre.codice").first).to_contain_text('<script src="http://')
    example = screen.locator("[data-esempio-incorpora]")
    expect(example.locator("a.judge-cit")).to_have_count(3)
    expect(example).to_contain_text("Firefox 115.3")
    assert example.locator("a", has_text="115.3").count() == 0
    screen.screenshot(path=str(screenshots / f"incorpora-{screen.size}.png"), full_page=True)


def test_collega_scrolls_to_its_result_shares_it_and_copies_it(screen, screenshots, base_url):
    screen.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    text = "Con travolgere (702.19b) e tocco letale basta 1 danno, vedi CR 702.2c; [nota] la 999.9 non esiste."
    screen.goto("/collega")
    screen.fill("#testo", text)
    screen.get_by_role("button", name="Collega").click()
    screen.wait_for_url(re.compile(r"/collega#risultato$"))
    heading = screen.locator("#risultato")
    box = heading.bounding_box()
    assert -1 <= box["y"] < screen.height / 2, box  # the result, not the form, is on screen (sub-pixel scroll)
    # Copy as Markdown: the text as written, each citation the linker finds a link (an unknown number stays text).
    markdown = (f"Con travolgere ([702.19b]({base_url}/regole/702.19b)) e tocco letale basta 1 danno, vedi "
                f"CR [702.2c]({base_url}/regole/702.2c); [nota] la 999.9 non esiste.")
    expect(screen.locator("#copia-markdown")).to_have_value(markdown)
    screen.get_by_role("button", name="Copia come Markdown").click()
    expect(screen.locator("#copia-markdown ~ .copia-esito")).to_have_text("Testo copiato negli appunti.")
    assert screen.evaluate("navigator.clipboard.readText()") == markdown
    screen.get_by_role("button", name="Copia come HTML").click()
    expect(screen.locator("#copia-html ~ .copia-esito")).to_have_text("Testo copiato negli appunti.")  # written
    copied = screen.evaluate("navigator.clipboard.readText()")
    assert f'<a href="{base_url}/regole/702.19b">702.19b</a>' in copied and "999.9" in copied and "<a" not in copied.split("999.9")[0][-5:]
    screen.screenshot(path=str(screenshots / f"collega-copia-{screen.size}.png"))
    # A short link: anyone opening it sees the same result.
    screen.get_by_role("button", name="Crea un link breve").click()
    screen.wait_for_url(re.compile(r"/c/[a-z2-7]{20}#risultato$"))
    short = screen.locator("#link-breve").input_value()
    assert short == screen.url.split("#")[0]
    other = screen.context.browser.new_context(base_url=base_url)
    try:
        pg = other.new_page()
        pg.goto(short)
        expect(pg.locator(".testo-collegato a[href='/regole/702.19b']")).to_have_count(1)
        expect(pg.locator("#testo")).to_have_value(text)
    finally:
        other.close()
