"""Previews (/api/anteprima), the embed script's API (/api/citazioni) and the /collega results to share
and copy, without a browser (in Chromium: tests/e2e/test_previews.py and test_embed.py)."""

from __future__ import annotations

import re

import pytest

from judge.web.embed import MAX_TEXTS, MAX_TOTAL_CHARS
from judge.web.linker import as_html, as_markdown, link_report


def test_preview_gives_number_name_italian_text_and_label(client, corpus):
    r = client.get("/api/anteprima/702.19b")
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    data = r.get_json()
    rule = corpus.get("702.19b")
    assert data["title"] == "702.19b Travolgere" and data["label"] == rule.best.label
    assert data["text"].startswith(rule.best.text[:80]) and data["lang"] == "it"
    assert data["url"].endswith("/regole/702.19b")


def test_a_sections_preview_shows_how_it_begins_and_a_chapters_its_sections(client, corpus):
    first = corpus.children("510")[0]
    assert client.get("/api/anteprima/510").get_json()["text"].startswith(f"{first.number} {first.best.text[:40]}")
    assert "500. Generale" in client.get("/api/anteprima/5").get_json()["text"]


@pytest.mark.parametrize("bad", ["999.9", "banana", "<b>x", "7" * 50])
def test_preview_of_no_rule_is_an_italian_404(client, bad):
    r = client.get(f"/api/anteprima/{bad}")
    assert r.status_code == 404 and "non esiste" in r.get_json()["error"]["message"]
    assert r.headers["Access-Control-Allow-Origin"] == "*"


def test_citazioni_links_rules_in_force_only_with_utf16_positions(client):
    texts = ["Vedi 702.19b 😀 e Firefox 115.3, poi 704.5a.", "Niente qui alle 12.30.", "La 999.9 non esiste."]
    r = client.post("/api/citazioni", json={"testi": texts})
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    data = r.get_json()
    first, second, third = data["testi"]
    assert [s["numero"] for s in first] == ["702.19b", "704.5a"]
    js = texts[0].encode("utf-16-le")
    for s in first:  # positions count as JavaScript does: the emoji is two units
        assert js[2 * s["inizio"]:2 * s["fine"]].decode("utf-16-le") == s["testo"]
    assert second == [] and third == []  # no false link, no dead link
    assert set(data["regole"]) == {"702.19b", "704.5a"} and data["regole"]["702.19b"]["title"] == "702.19b Travolgere"


def test_citazioni_answers_a_cross_origin_preflight(client):
    r = client.options("/api/citazioni", headers={"Origin": "https://forum.example", "Access-Control-Request-Method": "POST",
                                                  "Access-Control-Request-Headers": "content-type"})
    assert r.status_code == 200 and r.headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in r.headers["Access-Control-Allow-Methods"] and "Content-Type" in r.headers["Access-Control-Allow-Headers"]


@pytest.mark.parametrize("body, status", [
    ({"testi": "702.19b"}, 400), ({"text": ["702.19b"]}, 400), ({"testi": [1, 2]}, 400),
    ({"testi": ["a"] * (MAX_TEXTS + 1)}, 400), ({"testi": ["a" * (MAX_TOTAL_CHARS + 1)]}, 413),
])
def test_citazioni_refuses_bad_bodies_in_italian(client, body, status):
    r = client.post("/api/citazioni", json=body)
    assert r.status_code == status and r.get_json()["error"]["message"]


def test_embed_script_and_its_page(client):
    r = client.get("/incorpora.js")
    assert r.status_code == 200 and r.mimetype == "text/javascript" and "api/citazioni" in r.get_data(as_text=True)
    # a plain <script> of other sites: it may be embedded, it needs no CORS (issue 38)
    assert r.headers["Cross-Origin-Resource-Policy"] == "cross-origin" and "Access-Control-Allow-Origin" not in r.headers
    page = client.get("/incorpora").get_data(as_text=True)
    assert "http://localhost/incorpora.js" in page and "Firefox 115.3" in page


def test_markdown_and_html_copies_link_every_citation_and_escape_the_rest(app, corpus):
    text = "Vedi [702.19b] e <b>CR 704.5a</b>; la 999.9 no.\nFine."
    with app.test_request_context():
        report = link_report(text, corpus, external=True)
    md = as_markdown(report)
    assert md == ("Vedi [[702.19b](http://localhost/regole/702.19b)] e <b>CR [704.5a](http://localhost/regole/704.5a)</b>;"
                  " la 999.9 no.\nFine.")
    html = as_html(report)
    assert '<a href="http://localhost/regole/704.5a">704.5a</a>' in html and "&lt;b&gt;" in html and "<br>\n" in html
    assert "999.9" in html and html.count("<a ") == 2


def test_api_collega_gives_the_copies(client):
    data = client.post("/api/collega", json={"text": "Vedi 702.19b."}).get_json()
    assert data["markdown"] == "Vedi [702.19b](http://localhost/regole/702.19b)."
    assert data["html"] == 'Vedi <a href="http://localhost/regole/702.19b">702.19b</a>.'


def csrf(client) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/collega").get_data(as_text=True))[1]


def test_short_link_saves_the_text_once_and_shows_the_same_result(client):
    text = "Decisione: travolgere (702.19b), tocco letale (702.2c)."
    r = client.post("/collega/link", data={"testo": text, "edizione": "20251114", "csrf_token": csrf(client)})
    assert r.status_code == 303
    url = r.headers["Location"]
    assert re.fullmatch(r"/c/[a-z2-7]{20}#risultato", url)
    again = client.post("/collega/link", data={"testo": text, "edizione": "20251114", "csrf_token": csrf(client)})
    assert again.headers["Location"] == url  # the same text, the same link
    page = client.get(url.split("#")[0]).get_data(as_text=True)
    assert 'href="/regole/702.19b"' in page and "Citazioni lette nell&#39;edizione del 14 novembre 2025" in page.replace("'", "&#39;")
    assert f'value="http://localhost{url.split("#")[0]}"' in page


@pytest.mark.parametrize("ident", ["abcdefghijklmnopqrst", "x", "<script>", "a" * 200])
def test_unknown_short_link_is_an_italian_404(client, ident):
    r = client.get(f"/c/{ident}")
    assert r.status_code == 404 and "Nessun testo condiviso" in r.get_data(as_text=True)
    assert "<script>" not in r.get_data(as_text=True).split("<main", 1)[1]


def test_short_link_of_a_simulator_document_is_not_a_text(client, app):
    from judge.web.simulator.store import store_for

    ident = store_for(app).save({"players": []}, "bozza")
    assert client.get(f"/c/{ident}").status_code == 404


def test_short_link_refuses_empty_or_too_long_texts(client):
    from judge.web.linker import MAX_LINKER_CHARS

    assert client.post("/collega/link", data={"testo": "  ", "csrf_token": csrf(client)}).status_code == 400
    r = client.post("/collega/link", data={"testo": "a" * (MAX_LINKER_CHARS + 1), "csrf_token": csrf(client)})
    assert r.status_code == 413
    assert client.post("/collega/link", data={"testo": "702.19b"}).status_code == 400  # no CSRF token
