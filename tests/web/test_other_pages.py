"""Changes between editions, glossary, turn reference, OpenSearch, navigation."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from markupsafe import escape

from judge.corpus.citations import find_citations
from judge.corpus.diff import diff_editions
from judge.web import turn

from .htmlcheck import check_html, every_letter


def page(client, url, status=200):
    r = client.get(url)
    assert r.status_code == status, (url, r.status_code)
    body = r.get_data(as_text=True)
    assert check_html(body) == [], url
    return body


def test_modifiche_index_redirects_to_latest_pair(client, corpus):
    r = client.get("/modifiche")
    assert r.status_code == 302
    assert r.headers["Location"] == f"/modifiche/{corpus.editions[-2].id}..{corpus.editions[-1].id}"


def test_modifiche_lists_changes_with_word_highlighting(client, corpus):
    old, new = corpus.editions[-2], corpus.editions[-1]
    expected = diff_editions(old, new)
    body = page(client, f"/modifiche/{old.id}..{new.id}")
    for c in expected:
        if c.kind != "rimossa":
            assert f'id="r-{c.number}"' in body
        if c.old_number:
            assert f'id="era-{c.old_number}"' in body
    assert "<ins>" in body and "<del>" in body
    for kind, plural in (("aggiunta", "aggiunte"), ("rimossa", "rimosse"), ("modificata", "modificate"),
                         ("spostata", "spostate con il testo invariato"),
                         ("spostata e modificata", "spostate e modificate")):
        count = sum(1 for c in expected if c.kind == kind)
        assert re.search(rf"<strong>{count}</strong> {plural}\b", body), (kind, count)


def test_modifiche_filter_by_section_and_chapter(client, corpus):
    old, new = corpus.editions[-2], corpus.editions[-1]
    section = next(c.number for c in diff_editions(old, new) if c.kind == "modificata").split(".")[0]
    body = page(client, f"/modifiche/{old.id}..{new.id}?sezione={section}")
    ids = re.findall(r'<li id="r-([^"]+)"', body)
    expected = diff_editions(old, new, section)
    # A change belongs to a section when it is there in either edition (a move out of it, or into it).
    assert ids and all(section in (c.number.split(".")[0], (c.old_number or "").split(".")[0]) for c in expected)
    assert ids == [c.number for c in expected if c.kind != "rimossa"]
    body = page(client, f"/modifiche/{old.id}..{new.id}?sezione={section[0]}")
    assert all(i[0] == section[0] for i in re.findall(r'<li id="r-([^"]+)"', body))


@pytest.mark.parametrize("url,status", [
    ("/modifiche/foo", 400), ("/modifiche/19990101..20260619", 404), ("/modifiche/20260619..20260619", 400),
    ("/modifiche/20251114..20260619?sezione=<script>alert(1)</script>", 400),
])
def test_modifiche_bad_input(client, url, status):
    r = client.get(url)
    assert r.status_code == status
    body = r.get_data(as_text=True)
    assert "<script>alert" not in body and check_html(body) == []


def test_glossary_lists_every_term_with_italian_terms(client, corpus):
    body = every_letter(client, "/glossario")  # one letter a page
    for term in corpus.in_force.glossary:
        assert str(escape(term)) in body
    # The Italian term of an entry comes from the project's translation, else the terminology table.
    entry = corpus.glossary["Trample"]
    italian = entry.it_term or corpus.terminology.italian("Trample")
    assert italian and italian.lower().startswith("travolgere")
    assert re.search(r'Trample</span> <span class="termine-it">— ' + re.escape(str(escape(italian))), body)
    # Citations in definitions are links.
    assert 'class="cit"' in body


def test_glossary_page_lists_the_jargon_apart_and_explains_it_when_searched(client, corpus):
    from judge.search.glossary import get_glossary

    body = page(client, "/glossario")
    section = body[body.index('<h2 id="gergo">'):]
    jargon = get_glossary(corpus=corpus).all_jargon()
    assert len(jargon) >= 30 and section.count("<dt>") == len(jargon)
    assert "<dt>SBA</dt>" in section and 'href="/regole/608.2b"' in section  # fizzle's rule, linked
    # Not an entry of the Comprehensive Rules: only in its own section.
    assert "<dt>SBA" not in body[:body.index('<h2 id="gergo">')] and body.count("<dt>SBA") == 1
    found = page(client, "/glossario?q=fizzle")
    assert "«fizzle»</strong> è gergo:" in found and 'href="/regole/608.2b"' in found
    assert 'class="avviso gergo"' not in page(client, "/glossario?q=travolgere")


def test_glossary_api_lists_every_entry(client, corpus):
    r = client.get("/api/glossario")
    assert r.status_code == 200
    entries = r.get_json()["entries"]
    assert [e["term"] for e in entries] == sorted(corpus.in_force.glossary, key=str.lower)
    assert set(entries[0]) == {"term", "text", "it_term", "it_text", "current"}
    by_term = {e["term"]: e for e in entries}
    assert by_term["Library"]["it_term"].lower().startswith("grimorio")
    assert by_term["Library"]["text"] == corpus.in_force.glossary["Library"]


def test_turn_reference_cites_the_edition_in_force(client, corpus):
    body = page(client, "/turno")
    en = corpus.in_force
    # Every phrase the summary relies on is in the cited rule of the edition in force.
    for number, phrase in turn.EVIDENCE.items():
        rule = en.rule(number)
        assert rule is not None, number
        assert phrase in "\n".join([rule.text, *rule.examples]), number
    # Every number cited on the page exists, and every rule cited by the data is in EVIDENCE.
    texts = [turn.MANA_BURN, *turn.ALWAYS]
    for phase in turn.PHASES:
        texts.append(phase.summary)
        for step in phase.steps:
            texts += [*step.automatic, step.priority, *step.notes]
    cited = {n for t in texts for c in find_citations(t) for n in c.numbers}
    assert cited <= set(turn.EVIDENCE), cited - set(turn.EVIDENCE)
    for n in cited:
        assert f'href="/regole/{n}"' in body
    # Mana empties at the end of each step and phase (500.5): no loss of life.
    assert "mana burn" in body and "non esiste più" in body
    assert "500.5" in turn.ALWAYS[-1]
    for phase in turn.PHASES:
        assert f'href="/regole/{phase.section}"' in body


def test_opensearch(client):
    r = client.get("/opensearch.xml")
    assert r.status_code == 200 and r.mimetype == "application/opensearchdescription+xml"
    root = ET.fromstring(r.data)
    ns = {"os": "http://a9.com/-/spec/opensearch/1.1/"}
    url = root.find("os:Url[@type='text/html']", ns)
    assert url.get("template") == "http://localhost/cerca?q={searchTerms}"
    home = client.get("/").get_data(as_text=True)
    assert 'rel="search" type="application/opensearchdescription+xml"' in home


def test_navigation_links(client):
    body = client.get("/").get_data(as_text=True)
    nav = re.search(r'<nav id="menu-sito" aria-label="Sezioni del sito">(.*?)</nav>', body, re.S)[1]
    for label, href in [("Regolamento", "/"), ("Cerca", "/cerca"), ("Collega", "/collega"), ("Turno", "/turno"),
                        ("Glossario", "/glossario"), ("Modifiche", "/modifiche"),
                        ("Indice analitico", "/indice-analitico"), ("Carte", "/carte")]:
        assert f'href="{href}"' in nav and label in nav


def test_generic_404_is_italian(client):
    r = client.get("/pagina-che-non-esiste")
    assert r.status_code == 404 and "Pagina non trovata" in r.get_data(as_text=True)


def test_static_js_has_no_inline_dependency(client):
    r = client.get("/static/js/site.js")
    assert r.status_code == 200 and "copia-link" in r.get_data(as_text=True)
