"""Card pages, their JSON, suggestions, a search that names a card, [[card]] in /collega."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st


def test_a_card_page_has_names_characteristics_keyword_links_rules_and_rulings(client):
    r = client.get("/carte/baneslayer-angel")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "<h1" in html and "Angelo Flagellatore" in html and "Baneslayer Angel" in html
    assert re.search(r"Prima stampa</dt><dd>[^<]*\(\w+, \d{1,2} [a-z]+ \d{4}\)</dd>", html)  # dates in Italian
    assert "{3}{W}{W}" in html and "5/5" in html and "bianco" in html
    # each keyword of the English text links to its rule, with the rule's preview (anteprime.js)
    links = dict(re.findall(r'<a class="cit" href="/regole/([\d.]+)" data-anteprima="[\d.]+">(Flying|first strike|lifelink)</a>', html))
    assert links == {"702.9": "Flying", "702.7": "first strike", "702.15": "lifelink"}
    assert 'href="/regole/702.16"' in html and "non automatizzata" in html
    assert 'href="/regole/302"' in html and 'href="/regole/208.1"' in html
    assert '<time datetime="2009-10-01" lang="it">1 ottobre 2009</time>' in html and "Sentenze ufficiali" in html
    assert "si fermano a novembre 2018" in html and "Oracle del 2018" in html
    assert len(r.data) < 150_000


def test_a_card_without_an_italian_name_shows_the_english_and_says_so(client, table):
    face = table.by_name("Antagonize")                 # printed after 2018: no Italian name, no text
    assert face.name_it is None and face.source == "xmage"
    html = client.get(f"/carte/{face.slug}").get_data(as_text=True)
    assert "solo inglese" in html and "nome italiano" in html and face.name in html
    assert "stampata dopo il 2018" in html


@pytest.mark.parametrize("typed", ["Orso Grizzly", "orso-grizzly", "Grizzly Bears", "GRIZZLY BEARS", "grizzly bears"])
def test_any_spelling_of_a_name_redirects_to_the_canonical_address(client, typed):
    r = client.get(f"/carte/{typed}")
    assert r.status_code == 301 and r.location.endswith("/carte/grizzly-bears")
    api = client.get(f"/api/carte/{typed}")
    assert api.status_code == 301 and api.location.endswith("/api/carte/grizzly-bears")


def test_an_unknown_card_is_a_404_with_the_nearest(client):
    r = client.get("/carte/orso-grizly")
    assert r.status_code == 404
    html = r.get_data(as_text=True)
    assert "Forse cercavi" in html and 'href="/carte/grizzly-bears"' in html
    api = client.get("/api/carte/orso-grizly").get_json()
    assert api["error"]["status"] == 404 and api["error"]["nearest"][0]["name"] == "Grizzly Bears"


def test_an_italian_name_of_two_cards_lists_both(client):
    r = client.get("/carte/Abbattere")
    assert r.status_code == 300
    html = r.get_data(as_text=True)
    assert 'href="/carte/bring-low"' in html and 'href="/carte/flatten"' in html


def test_card_json(client):
    d = client.get("/api/carte/serra-angel").get_json()
    assert (d["name"], d["name_it"], d["power"], d["toughness"]) == ("Serra Angel", "Angelo di Serra", "4", "4")
    assert [(k["keyword"], k["rule"], k["automated"]) for k in d["keywords"]] == [
        ("flying", "702.9", True), ("vigilance", "702.20", True)]
    assert {"number": "302", "what": "tipo", "value": "Creature"}.items() <= d["rules"][4].items() or \
        any(r["number"] == "302" for r in d["rules"])
    assert d["scenario"]["keywords"] == ["flying", "vigilance"] and d["scenario"]["card"] == "Serra Angel"
    assert all(len(r["date"]) == 10 for r in d["rulings"])


def test_suggestions_as_one_types(client):
    d = client.get("/api/carte?q=orso gri").get_json()
    assert d["cards"][0]["name"] == "Grizzly Bears" and d["cards"][0]["matched"] == "Orso Grizzly"
    assert d["cards"][0]["url"] == "/carte/grizzly-bears"
    assert client.get("/api/carte?q=o").get_json()["cards"] == []
    assert client.get("/api/carte?q=tarmogoif").get_json()["cards"][0]["name"] == "Tarmogoyf"


def test_the_card_search_page_works_without_javascript(client):
    html = client.get("/carte?q=serra angle").get_data(as_text=True)
    assert 'href="/carte/serra-angel"' in html
    assert "Fonti e limiti" in html and "mtgjson" in html


@pytest.mark.parametrize("q, slug", [("Tarmogoyf", "tarmogoyf"), ("orso grizly", "grizzly-bears"),
                                     ("serra angel", "serra-angel")])
def test_a_search_naming_a_card_shows_it_above_the_rules(client, q, slug):
    html = client.get("/cerca", query_string={"q": q}).get_data(as_text=True)
    box = html.find(f'href="/carte/{slug}"')
    assert box > 0
    first_rule = html.find('class="risultato"')
    assert first_rule == -1 or box < first_rule


def test_a_search_for_rules_shows_no_card(client):
    html = client.get("/cerca", query_string={"q": "grimorio vuoto"}).get_data(as_text=True)
    assert "carta-nominata" not in html


def test_collega_links_cards_in_double_brackets(client):
    text = "Il [[Tarmogoyf]] e l'[[orso grizly]] (704.5a); [[Carta Inesistente Xyz]] <script>x</script>"
    html = client.post("/collega", data={"testo": text, "csrf_token": _token(client)}).get_data(as_text=True)
    assert '<a class="cit carta" href="/carte/tarmogoyf"' in html
    assert 'href="/carte/grizzly-bears" title="Orso Grizzly (Grizzly Bears) — nome corretto da «orso grizly»"' in html
    assert '<span class="cit-ignota" title="Carta sconosciuta' in html and "[[Carta Inesistente Xyz]]" in html
    assert 'href="/regole/704.5a"' in html and "<script>x</script>" not in html
    api = client.post("/api/collega", json={"testo": "[[Orso Grizzly]] e 704.5a"}).get_json()
    assert api["cards"][0]["name"] == "Grizzly Bears" and api["cards"][0]["exact"]


def _token(client) -> str:
    html = client.get("/collega").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=80))
def test_any_name_in_any_route_answers_without_a_500(client, text):
    for url in ("/carte/" + text.replace("/", " ").replace("?", " ").replace("#", " "), "/api/carte/" + text.replace("/", "").replace("?", "").replace("#", "")):
        if url.endswith("/"):
            continue
        assert client.get(url).status_code in (200, 300, 301, 308, 404)
    assert client.get("/api/carte", query_string={"q": text}).status_code == 200


def test_the_search_api_names_the_card_too(client):
    d = client.get("/api/cerca", query_string={"q": "orso grizly"}).get_json()
    assert [c["name"] for c in d["cards"]] == ["Grizzly Bears"]
    assert client.get("/api/cerca", query_string={"q": "grimorio vuoto"}).get_json()["cards"] == []


@pytest.mark.parametrize("written, slug", [("Fire // Ice", "fire"), ("Brazen Borrower // Petty Theft", "brazen-borrower"),
                                           ("Delver of Secrets // Insectile Aberration", "delver-of-secrets")])
def test_a_multi_part_name_in_full_finds_its_card_everywhere(client, written, slug):
    """Page, API, search and [[…]] (issue 37): the whole name leads to the card's first part."""
    for base in ("/carte/", "/api/carte/"):
        r = client.get(base + written)
        assert r.status_code == 301 and r.headers["Location"].endswith(base + slug)
    assert client.get("/api/carte", query_string={"q": written}).get_json()["cards"][0]["url"] == f"/carte/{slug}"
    assert f'href="/carte/{slug}"' in client.get("/cerca", query_string={"q": written}).get_data(as_text=True)
    api = client.post("/api/collega", json={"testo": f"[[{written}]]"}).get_json()
    assert api["cards"][0]["url"].endswith(f"/carte/{slug}") and api["cards"][0]["exact"]


def test_collega_offers_both_cards_of_a_shared_italian_name(client):
    """«Distorsione Temporale» is Time Warp and Time Distortion: never one of them silently."""
    text = "[[Distorsione Temporale]] e [[Time Warp]]"
    api = client.post("/api/collega", json={"testo": text}).get_json()
    shared, warp = api["cards"]
    assert shared["name"] is None and sorted(c["name"] for c in shared["choices"]) == ["Time Distortion", "Time Warp"]
    assert shared["url"].endswith("/carte/distorsione-temporale") and warp["name"] == "Time Warp"
    assert client.get("/carte/distorsione-temporale").status_code == 300   # the page that offers both
    html = client.post("/collega", data={"testo": text, "csrf_token": _token(client)}).get_data(as_text=True)
    assert 'class="cit carta carta-ambigua" href="/carte/distorsione-temporale"' in html
    assert "è il nome italiano di 2 carte" in html
    assert 'href="/carte/time-distortion"' in html and 'href="/carte/time-warp"' in html


def test_collega_copies_keep_the_card_links(client):
    """Markdown and HTML copies (page and API) link the cards as well as the rules."""
    text = "Il [[Tarmogoyf]] e l'[[orso grizly]] (704.5a) <b>"
    api = client.post("/api/collega", json={"testo": text}).get_json()
    assert api["markdown"] == ("Il [Tarmogoyf](http://localhost/carte/tarmogoyf) e l'[Orso Grizzly]"
                               "(http://localhost/carte/grizzly-bears) ([704.5a](http://localhost/regole/704.5a)) <b>")
    assert api["html"] == ('Il <a href="http://localhost/carte/tarmogoyf">Tarmogoyf</a> e l&#39;<a href='
                           '"http://localhost/carte/grizzly-bears">Orso Grizzly</a> (<a href="http://localhost/regole/704.5a">'
                           '704.5a</a>) &lt;b&gt;')
    html = client.post("/collega", data={"testo": text, "csrf_token": _token(client)}).get_data(as_text=True)
    copy = re.search(r'<textarea id="copia-markdown"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    assert "[Tarmogoyf](http://localhost/carte/tarmogoyf)" in copy


def test_collega_suggests_the_edition_of_a_date_in_the_text(client):
    """«decisione del 3 dicembre 2025»: the edition in force then was 14 November 2025."""
    text = "Decisione del 3 dicembre 2025: si applica la 726.1."
    api = client.post("/api/collega", json={"testo": text}).get_json()
    assert api["suggested_edition"]["id"] == "20251114" and api["suggested_edition"]["written"] == "3 dicembre 2025"
    html = client.post("/collega", data={"testo": text, "csrf_token": _token(client)}).get_data(as_text=True)
    assert "Il testo porta la data «3 dicembre 2025»" in html and 'name="edizione" value="20251114"' in html
    # Read in that edition, nothing more to suggest; a text of today suggests nothing.
    api = client.post("/api/collega", json={"testo": text, "edizione": "20251114"}).get_json()
    assert api["suggested_edition"] is None
    assert client.post("/api/collega", json={"testo": "Oggi, 704.5a"}).get_json()["suggested_edition"] is None


def test_card_page_in_italian_with_the_english_beside(client):
    """Type line and subtypes in Italian with the English beside, ruling dates in Italian, keyword links
    that preview like any rule link (data-anteprima: static/js/anteprime.js)."""
    body = client.get("/carte/serra-angel").get_data(as_text=True)
    assert '<dt>Tipo</dt><dd>Creatura — Angelo <span class="en" lang="en">(Creature — Angel)</span></dd>' in body
    assert '<a class="cit" href="/regole/702.9" data-anteprima="702.9">Flying</a>' in body
    body = client.get("/carte/tarmogoyf").get_data(as_text=True)
    assert '<time datetime="2017-03-14" lang="it">14 marzo 2017</time>' in body
    api = client.get("/api/carte/thalia-guardian-of-thraben").get_json()
    assert api["type_line"] == "Legendary Creature — Human Soldier"
    assert api["type_line_it"] == "Creatura Leggendaria — Umano Soldato"
    assert client.get("/api/carte", query_string={"q": "orso grizzly"}).get_json()["cards"][0]["type_line_it"] == "Creatura — Orso"
