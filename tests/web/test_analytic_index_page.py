"""The analytic index page (/indice-analitico), its search, and the entries shown on rule pages."""

from __future__ import annotations

import re
from html import unescape

from judge.search.analysis import terms
from judge.web.analytic_index import anchor, entry_url

from .htmlcheck import every_letter, letter_links, page


def test_every_entry_is_listed_with_links_to_its_rules(client, corpus):
    body = every_letter(client, "/indice-analitico")  # one letter a page
    index = corpus.analytic_index
    headings = {e.heading for e in index.entries}
    listed = [unescape(h) for h in re.findall(r'<dt id="v-[^"]*">(.*?)</dt>', body)]
    assert sorted(listed) == sorted(headings)  # each headword once
    assert len({anchor(h) for h in headings}) == len(headings)  # and each has its own anchor
    links = re.findall(r'<dd>.*?</dd>', body)
    assert len(links) == len(index)
    for n in index.rules:
        assert f'href="/regole/{n}"' in body
    # Every letter's page is the page of that letter, and names every letter.
    links = letter_links(page(client, "/indice-analitico"))
    assert len(links) == len({initial for initial in re.findall(r'<h2 id="(lettera-[^"]+)"', body)})


def test_headwords_are_in_dictionary_order(client, corpus):
    from judge.corpus.analytic_index import initial, sort_key

    body = every_letter(client, "/indice-analitico")
    listed = [unescape(h) for h in re.findall(r'<dt id="v-[^"]*">(.*?)</dt>', body)]
    letters = [initial(h) for h in listed]
    # Jinja groups by letter ("#" first), and within a letter the order is the dictionary's.
    assert letters == sorted(letters)
    for letter in set(letters):
        group = [h for h in listed if initial(h) == letter]
        assert group == sorted(group, key=lambda h: (sort_key(h), h))


def test_search_finds_inflected_words_and_nothing_else(client, corpus):
    entry = next(e for e in corpus.analytic_index.entries if len(terms(e.topic, "it")) >= 2)
    word = terms(entry.topic, "it")[0]
    body = page(client, "/indice-analitico?q=" + word)
    shown = re.findall(r"<dd>(.*?):", body)
    assert unescape(entry.topic) in [unescape(s) for s in shown]
    stems = {id(e): set(terms(f"{e.heading} {e.topic}", "it")) for e in corpus.analytic_index.entries}
    expected = sum(1 for e in corpus.analytic_index.entries if word in stems[id(e)])
    assert len(shown) == expected
    assert f"{expected} voc" in body


def test_search_escapes_what_was_typed_and_says_when_nothing_matches(client):
    body = page(client, "/indice-analitico?q=%3Cscript%3Ealert(1)%3C/script%3E")
    assert "<script>alert" not in body and "&lt;script&gt;" in body
    assert "Nessuna voce per" in body
    body = page(client, "/indice-analitico?q=il+di")  # stop words only: no entry, no error
    assert "Nessuna voce per" in body
    page(client, "/indice-analitico?q=" + "a" * 5000)


def test_a_rule_page_shows_the_entries_pointing_to_it(client, corpus):
    entry = corpus.analytic_index.entries[0]
    body = page(client, f"/regole/{entry.rules[0]}")
    assert "Nell'indice analitico" in body
    with client.application.test_request_context():
        url = entry_url(entry.heading)
    assert url.startswith("/indice-analitico?lettera=") and url.endswith(f"#{anchor(entry.heading)}")
    assert f'href="{url}"' in body
    assert f'id="{anchor(entry.heading)}"' in page(client, url.split("#")[0])  # on its letter's page
    unindexed = next(n for n in corpus.numbers if corpus.get(n).kind == "sottoregola"
                     and not any(index.for_rule(n) for index in corpus.analytic_indexes.values()))
    body = page(client, f"/regole/{unindexed}")
    assert "Nell'indice analitico" not in body and "Nell'indice inglese" not in body


def test_the_home_page_links_the_index(client):
    assert 'href="/indice-analitico"' in page(client, "/")


def test_the_english_index_has_its_own_page_searched_in_english(client, corpus):
    english = corpus.analytic_indexes["en"]
    body = page(client, "/indice-analitico?lingua=en")
    assert "Indice analitico inglese" in body
    assert len(re.findall(r"<dd>.*?</dd>", every_letter(client, "/indice-analitico?lingua=en"))) == len(english)
    assert 'href="/indice-analitico"' in body  # back to the Italian index
    assert 'lang="en"' in body
    # English stems: an inflected word finds the entries holding its stem, and only those.
    entry = next(e for e in english.entries if len(terms(e.topic, "en")) >= 2)
    word = terms(entry.topic, "en")[0]
    found = page(client, "/indice-analitico?lingua=en&q=" + word)
    shown = [unescape(s) for s in re.findall(r"<dd>(.*?):", found)]
    assert unescape(entry.topic) in shown
    assert len(shown) == sum(1 for e in english.entries if word in terms(e.text, "en"))
    assert 'name="lingua" value="en"' in found  # a new search stays in the English index
    # The Italian page links the English one; an unknown language shows the Italian index.
    assert 'href="/indice-analitico?lingua=en"' in page(client, "/indice-analitico")
    assert "Indice analitico inglese" not in page(client, "/indice-analitico?lingua=xx")


def test_a_rule_page_shows_the_english_entries_apart(client, corpus):
    english = corpus.analytic_indexes["en"]
    entry = english.entries[0]
    body = page(client, f"/regole/{entry.rules[0]}")
    assert "Nell'indice inglese" in body
    listed = re.search(r'<ul class="nell-indice" lang="en">(.*?)</ul>', body, re.S).group(1)
    assert len(re.findall(r"<li>", listed)) == len(english.for_rule(entry.rules[0]))
    with client.application.test_request_context():
        url = entry_url(entry.heading, "en")
    assert url.startswith("/indice-analitico?lingua=en&lettera=") and url.endswith(f"#{anchor(entry.heading)}")
    assert f'href="{url.replace("&", "&amp;")}"' in body
    assert f'id="{anchor(entry.heading)}"' in page(client, url.split("#")[0])


def test_the_api_gives_each_index_as_the_page_filters_it(client, corpus):
    for lang in ("it", "en"):
        index = corpus.analytic_indexes[lang]
        data = client.get(f"/api/indice-analitico?lingua={lang}").get_json()
        assert (data["lang"], data["q"], data["total"], len(data["entries"])) == (lang, "", len(index), len(index))
        first = data["entries"][0]
        assert (first["heading"], first["topic"]) == (index.entries[0].heading, index.entries[0].topic)
        assert [r["number"] for r in first["rules"]] == list(index.entries[0].rules)
        assert first["rules"][0]["url"].endswith(f"/regole/{index.entries[0].rules[0]}")
        word = terms(index.entries[0].topic, lang)[0]
        filtered = client.get(f"/api/indice-analitico?lingua={lang}&q={word}").get_json()["entries"]
        html_page = page(client, f"/indice-analitico?lingua={lang}&q={word}")
        assert len(filtered) == len(re.findall(r"<dd>", html_page)) >= 1
    assert client.get("/api/indice-analitico?lingua=xx").get_json()["lang"] == "it"


def test_a_rule_page_lists_its_entries_by_headword(client, corpus):
    """Entries pointing to a rule come from all over the file (filed under their first rule): the
    rule page lists them by headword, so the entries under one headword stand together."""
    number = max(corpus.analytic_index.rules, key=lambda n: len(corpus.analytic_index.for_rule(n)))
    body = page(client, f"/regole/{number}")
    listed = re.search(r'<ul class="nell-indice">(.*?)</ul>', body, re.S).group(1)
    headings = [unescape(h).lower() for h in re.findall(r"<li><a [^>]*>(.*?)</a>", listed)]
    assert len(headings) == len(corpus.analytic_index.for_rule(number)) > 3
    assert headings == sorted(headings)
