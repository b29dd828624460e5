"""Light pages (judge/web/parts.py): no HTML page over 150 KB; the glossary and the analytic indexes
by letter, long sections and long lists of changes by part, the rest one tap away and findable with
the page's own search."""

from __future__ import annotations

import re
from html import unescape

import pytest

from .htmlcheck import letter_links, page

LIMIT = 150 * 1024


def _size(client, url: str) -> int:
    r = client.get(url)
    assert r.status_code == 200, url
    return len(r.get_data())


def _part_links(body: str) -> list[str]:
    nav = re.search(r'<nav class="parti"[^>]*>.*?<ol class="parti-elenco">(.*?)</ol>', body, re.S)
    return [unescape(h) for h in re.findall(r'href="([^"]+)"', nav.group(1))] if nav else []


def test_no_page_is_over_150_kb(client, corpus):
    urls = ["/", "/turno", "/edizioni", "/collega"]
    for base in ("/glossario", "/indice-analitico", "/indice-analitico?lingua=en"):
        urls += letter_links(page(client, base))
    for heading in [*corpus.chapters(), *corpus.sections()]:
        body = page(client, f"/regole/{heading.number}")
        urls += _part_links(body) or [f"/regole/{heading.number}"]
    ids = [e.id for e in corpus.editions]
    for a, b in [*zip(ids, ids[1:]), (ids[0], ids[-1])]:
        body = page(client, f"/modifiche/{a}..{b}")
        urls += _part_links(body) or [f"/modifiche/{a}..{b}"]
    # The rules with the most subrules: the heaviest rule pages.
    heavy = sorted((r for r in corpus.rules.values() if r.kind == "regola"), key=lambda r: -len(r.children))[:25]
    urls += [f"/regole/{r.number}" for r in heavy]
    sizes = {url: _size(client, url) for url in dict.fromkeys(urls)}
    over = {url: size for url, size in sizes.items() if size > LIMIT}
    assert not over, over
    assert len(sizes) > 200


def test_a_long_section_is_shown_in_parts_that_hold_each_rule_once(client, corpus):
    body = page(client, "/regole/702")
    links = _part_links(body)
    assert len(links) >= 3 and links[0] == "/regole/702?parte=1"
    shown = []
    for i, link in enumerate(links, 1):
        part = page(client, link)
        assert 'aria-current="page"' in part and f"Questa è la parte {i}," in part
        shown += re.findall(r'<li class="voce livello-\d+" id="r-([^"]+)"', part)
    assert shown == [r.number for r in corpus.descendants("702")]  # every rule once, in order
    assert page(client, "/regole/702") == page(client, links[0])  # the first part without a parameter


def test_every_rule_of_a_long_section_is_one_tap_away_and_searchable_there(client, corpus):
    body = page(client, "/regole/702")
    listed = re.findall(r'<a href="(/regole/702\?parte=\d+)#r-(702\.\d+)">', body)
    assert [n for _, n in listed] == [c.number for c in corpus.children("702")]
    url, number = listed[-1]
    assert f'id="r-{number}"' in page(client, url)  # the link leads to the part holding it
    form = re.search(r'<form[^>]*action="/cerca"[^>]*>.*?</form>', body[body.index('class="parti"'):], re.S).group(0)
    assert 'name="sezione" value="702"' in form and 'name="q"' in form


def test_a_short_section_is_one_page(client):
    body = page(client, "/regole/704")
    assert 'class="parti"' not in body


@pytest.mark.parametrize("url", ["/regole/702?parte=999", "/regole/702?parte=abc", "/regole/702?parte=0",
                                 "/glossario?lettera=%C3%A7", "/indice-analitico?lettera=zz",
                                 "/modifiche/20251114..20260925?parte=99"])
def test_a_part_or_letter_that_does_not_exist_is_an_italian_404(client, url):
    r = client.get(url)
    assert r.status_code == 404
    body = r.get_data(as_text=True)
    assert "La parte «" in body or "La lettera «" in body


def test_the_glossary_by_letter_finds_every_letter_with_its_own_search(client, corpus):
    first = page(client, "/glossario")
    assert '<h2 id="lettera-A">' in first and "Trample" not in first
    t = page(client, "/glossario?lettera=T")
    assert 'id="t-trample"' in t and 'aria-current="page">T</a>' in t
    # The page's own search (on every letter's page) looks in the whole glossary.
    assert 'action="/glossario"' in first
    assert "Trample" in page(client, "/glossario?q=travolgere")


def test_far_editions_list_their_changes_in_parts(client, corpus):
    ids = [e.id for e in corpus.editions]
    body = page(client, f"/modifiche/{ids[0]}..{ids[-1]}")
    links = _part_links(body)
    assert len(links) >= 2
    changes = [re.findall(r'<li (?:id="(?:r|era)-[^"]+" )?class="modifica ', page(client, link)) for link in links]
    counts = re.search(r'<ul class="conteggi".*?</ul>', body, re.S).group(0)
    total = sum(int(n) for n in re.findall(r"<strong>(\d+)</strong>", counts))
    assert sum(map(len, changes)) == total  # every change on exactly one part
