"""Rule pages, chapter and section pages, home, forgiving addresses, 404."""

from __future__ import annotations

import html
import re

import pytest
from markupsafe import escape as _escape

from judge.corpus.checks import corpus_findings
from judge.web.rules import nearest_rules
from judge.corpus.citations import find_citations
from judge.corpus import italian_date

from .htmlcheck import check_html


def esc(s):
    return str(_escape(s))


def page(client, url, status=200):
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code, r.data[:300])
    body = r.get_data(as_text=True)
    if r.mimetype == "text/html":
        assert check_html(body) == [], url
    return body


def hrefs(body):
    return set(html.unescape(h) for h in re.findall(r'href="([^"]+)"', body))


def test_home_lists_chapters_sections_italian_and_edition(client, corpus):
    body = page(client, "/")
    links = hrefs(body)
    for ch in corpus.chapters():
        assert f"/regole/{ch.number}" in links
        for s in corpus.sections(ch.number):
            assert f"/regole/{s.number}" in links
    for num, sec in corpus.italian_sections.items():  # dates in Italian: «23 novembre 2024»
        assert f"aggiornato al {italian_date(sec.updated_date)}" in body
    assert italian_date(corpus.in_force.date) in body
    # The search box: a GET form to /cerca with field q and a label.
    assert re.search(r'<form[^>]*method="get"[^>]*action="/cerca"', body)
    assert 'name="q"' in body and '<label for="q"' in body


def test_every_chapter_page_lists_its_sections(client, corpus):
    for ch in corpus.chapters():
        body = page(client, f"/regole/{ch.number}")
        links = hrefs(body)
        for s in corpus.sections(ch.number):
            assert f"/regole/{s.number}" in links


@pytest.mark.parametrize("which", ["italian", "translated"])
def test_section_page_lists_every_rule(client, corpus, which):
    if which == "italian":
        number = sorted(corpus.italian_sections)[0]
    else:
        number = next(s.number for s in corpus.sections() if s.number not in corpus.italian_sections and s.children)
    body = page(client, f"/regole/{number}")
    links = hrefs(body)
    for d in corpus.descendants(number):
        assert f"/regole/{d.number}" in links
    banner = "Traduzione italiana non disponibile: testo ufficiale inglese, edizione"
    assert banner not in body
    if which == "translated":
        assert "traduzione non ufficiale del progetto judge" in body and italian_date(corpus.in_force.date) in body
        assert esc(corpus.get(number).tr.text) in body
    else:
        assert banner not in body
        assert esc(corpus.italian_sections[number].updated_label) in body


def test_all_section_pages_render(client, corpus):
    for s in corpus.sections():
        r = client.get(f"/regole/{s.number}")
        assert r.status_code == 200, s.number


def test_rule_page_side_by_side_with_versions_and_navigation(client, corpus):
    rule = next(corpus.get(n) for n in corpus.numbers if corpus.get(n).it and corpus.get(n).en and corpus.get(n).kind == "sottoregola")
    body = page(client, f"/regole/{rule.number}")
    assert esc(rule.it.version) in body and esc(rule.en.version) in body
    assert 'lang="it"' in body and 'lang="en"' in body
    links = hrefs(body)
    assert f"/regole/{rule.parent}" in links
    prev, nxt = corpus.previous(rule.number), corpus.next(rule.number)
    if prev:
        assert f"/regole/{prev.number}" in links
    if nxt:
        assert f"/regole/{nxt.number}" in links
    assert f"/regole/{rule.number}/storia" in links
    # Copy-link control: the permalink is visible without JavaScript, the button is enhanced by site.js.
    assert f'value="http://localhost/regole/{rule.number}"' in body
    assert 'class="copia-link"' in body and "/static/js/site.js" in body


def test_rule_page_examples_and_subrules(client, corpus):
    rule = next(corpus.get(n) for n in corpus.numbers if corpus.get(n).en and corpus.get(n).en.examples and corpus.get(n).children)
    body = page(client, f"/regole/{rule.number}")
    assert esc(rule.en.examples[0][:40]) in body
    links = hrefs(body)
    for c in rule.children:
        assert f"/regole/{c}" in links


def test_rule_without_community_text_shows_translation_and_english(client, corpus):
    rule = next(corpus.get(n) for n in corpus.numbers if corpus.get(n).en and not corpus.get(n).it and not corpus.get(n).is_heading)
    body = page(client, f"/regole/{rule.number}")
    assert esc(rule.tr.text) in body and esc(rule.en.text) in body
    assert "Traduzione non ufficiale del progetto judge" in body and "Traduzione italiana non disponibile" not in body


def test_every_citation_in_text_is_a_link(client, corpus):
    # A rule whose English text cites existing rules: each cited number is linked.
    rule = next(corpus.get(n) for n in corpus.numbers
                if corpus.get(n).en and not corpus.get(n).is_heading and len(find_citations(corpus.get(n).en.text)) >= 2)
    body = page(client, f"/regole/{rule.number}")
    links = hrefs(body)
    for c in find_citations(rule.en.text):
        target = next((n for n in c.numbers if n in corpus), None)
        if target:
            assert f"/regole/{target}" in links


def test_unknown_citation_is_marked_not_linked(client, corpus):
    finding = next(f for f in corpus_findings(corpus) if f.code == "citazione-irrisolta")
    missing = finding.related[0]
    body = page(client, f"/regole/{finding.rule}")
    assert f"/regole/{missing}" not in hrefs(body)
    assert re.search(r'<span class="cit-ignota"[^>]*>' + re.escape(missing), body)


def test_stale_citation_warning_gives_english_citation(client, corpus):
    for f in (f for f in corpus_findings(corpus) if f.code == "citazione-obsoleta"):
        body = page(client, f"/regole/{f.rule}")
        assert "avviso-citazione-obsoleta" in body
        for n in f.related:
            if n in corpus:
                assert f"/regole/{n}" in hrefs(body)


def test_stale_mana_citation_703_4q(client, corpus):
    # The Italian 703.4q cites 500.4 (old numbering); the English cites 500.5.
    body = page(client, "/regole/703.4q")
    assert "avviso-citazione-obsoleta" in body
    assert '<a href="/regole/500.5">500.5</a>' in body
    # In the Italian text the old number is still a link, marked as probably renumbered.
    assert re.search(r'<a class="cit cit-obsoleta" href="/regole/500.4" title="[^"]*500\.5">500\.4</a>', body)


def test_english_changed_warning_links_to_diff(client, corpus):
    f = next(f for f in corpus_findings(corpus) if f.code == "inglese-modificato")
    body = page(client, f"/regole/{f.rule}")
    old, new = f.related
    link = next(h for h in hrefs(body) if h.startswith(f"/modifiche/{old}..{new}"))
    diff = page(client, link.split("#")[0])
    assert f'id="r-{f.rule}"' in diff


def test_cited_by(client, corpus):
    number, citing = next((n, c) for n, c in corpus.cited_by.items() if n in corpus and len(c) >= 2)
    body = page(client, f"/regole/{number}")
    assert "Citata da" in body
    for c in citing:
        if c != number:
            assert f"/regole/{c}" in hrefs(body)


@pytest.mark.parametrize("url", ["/regole/704.5A", "/r/704.5a", "/cr/704.5a", "/regole/7045a", "/704.5a", "/R/704.5a".lower(), "/regole/CR%20704.5a", "/704.5A"])
def test_forgiving_addresses_redirect(client, url):
    r = client.get(url)
    assert r.status_code == 301
    assert r.headers["Location"] == "/regole/704.5a"


def test_chapter_shortcut_and_section(client):
    assert client.get("/7").headers["Location"] == "/regole/7"
    assert client.get("/r/703").headers["Location"] == "/regole/703"


@pytest.mark.parametrize("url, target", [
    ("/regole/7.", "/regole/7"), ("/7.", "/regole/7"), ("/r/7.", "/regole/7"),
    ("/regole/704.", "/regole/704"), ("/regole/704.5a.", "/regole/704.5a"),
    ("/regole/704,5a", "/regole/704.5a"),  # the Italian decimal comma, as in search
])
def test_a_link_that_ends_a_sentence_still_opens_the_rule(client, url, target):
    """A shared link followed by the sentence's full stop («vedi …/regole/7.») loses the dot,
    for a chapter as for a section or a rule."""
    r = client.get(url)
    assert r.status_code == 301
    assert r.headers["Location"] == target


@pytest.mark.parametrize("bad", ["999.9", "704.99", "704.5zz", "banana", "<script>alert(1)</script>", "9" * 500, "%00", "704..5", "10²"])
def test_unknown_number_is_italian_404_with_nearest(client, corpus, bad):
    r = client.get(f"/regole/{bad}")
    assert r.status_code == 404
    body = r.get_data(as_text=True)
    assert check_html(body) == []
    assert "<script>alert" not in body
    assert "non esiste" in body or "non è un numero di regola valido" in body
    nearest = nearest_rules(corpus, bad[:60])
    for n in nearest:
        assert f'href="/regole/{n.number}"' in body


def test_404_nearest_for_missing_subrule(client, corpus):
    body = client.get("/regole/704.5zz").get_data(as_text=True)
    assert 'href="/regole/704.5z"' in body or 'href="/regole/704.6"' in body


def test_removed_rule_mentions_older_edition(client, corpus):
    old, new = corpus.editions[-2], corpus.editions[-1]
    removed = next((r.number for r in old.rules if new.rule(r.number) is None and r.number not in corpus), None)
    if removed is None:
        pytest.skip("no rule removed between the two newest editions")
    body = client.get(f"/regole/{removed}").get_data(as_text=True)
    assert f"/modifiche/{old.id}..{new.id}" in body


def test_shortcut_does_not_shadow_other_pages(client):
    assert client.get("/nonesiste").status_code == 404
    assert client.get("/glossario").status_code == 200


def test_history_page(client, corpus):
    f = next(f for f in corpus_findings(corpus) if f.code == "inglese-modificato")
    body = page(client, f"/regole/{f.rule}/storia")
    for e in corpus.editions:
        assert italian_date(e.date) in body
    assert "<ins>" in body or "<del>" in body
    assert client.get(f"/regole/{f.rule.upper()}/storia").status_code in (200, 301)
    assert client.get("/regole/999.9/storia").status_code == 404


def test_regole_index_redirects_home(client):
    assert client.get("/regole").status_code == 302


def test_security_headers(client):
    r = client.get("/regole/704.5a")
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
