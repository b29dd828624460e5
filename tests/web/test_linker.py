"""The citation linker page /collega."""

from __future__ import annotations

import re

from judge.web.linker import MAX_LINKER_CHARS

from .htmlcheck import check_html


def token(client):
    body = client.get("/collega").get_data(as_text=True)
    assert check_html(body) == []
    return re.search(r'name="csrf_token" value="([^"]+)"', body)[1]


def test_form_has_label_and_csrf(client):
    body = client.get("/collega").get_data(as_text=True)
    assert '<label for="testo"' in body and 'name="csrf_token"' in body


def test_post_without_csrf_is_refused(client):
    r = client.post("/collega", data={"testo": "704.5a"})
    assert r.status_code == 400
    assert "CSRF" in r.get_data(as_text=True)


def test_links_citations_and_lists_rules(client, corpus):
    text = "Il giudice ha applicato la regola 704.5a (vedi anche CR 117.3a); la 999.9 non esiste. <script>alert(1)</script>"
    r = client.post("/collega", data={"testo": text, "csrf_token": token(client)})
    assert r.status_code == 200
    body = r.get_data(as_text=True)
    assert check_html(body) == []
    assert '<a class="cit" href="/regole/704.5a"' in body
    assert '<a class="cit" href="/regole/117.3a"' in body
    assert 'href="/regole/999.9"' not in body
    assert re.search(r'<span class="cit-ignota"[^>]*>999\.9', body)
    assert "<script>alert" not in body and "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    # The cited rules with their text.
    for n in ("704.5a", "117.3a"):
        text_shown = (corpus.get(n).best.text)[:30]
        assert str(__import__("markupsafe").escape(text_shown)) in body


def test_english_ranges(client):
    r = client.post("/collega", data={"testo": "See rules 608.3a and b.", "csrf_token": token(client)})
    body = r.get_data(as_text=True)
    assert 'href="/regole/608.3a"' in body and 'href="/regole/608.3b"' in body


def test_too_long_and_empty(client):
    t = token(client)
    r = client.post("/collega", data={"testo": "a" * (MAX_LINKER_CHARS + 1), "csrf_token": t})
    assert r.status_code == 413
    body = r.get_data(as_text=True)
    assert "Testo troppo lungo" in body and check_html(body) == []
    r = client.post("/collega", data={"testo": "   ", "csrf_token": t})
    assert r.status_code == 400 and "Incolla un testo" in r.get_data(as_text=True)


def test_huge_body_is_413_in_italian(client):
    r = client.post("/collega", data={"testo": "a" * (3 * 1024 * 1024), "csrf_token": token(client)})
    assert r.status_code == 413
    assert "troppo grande" in r.get_data(as_text=True)
