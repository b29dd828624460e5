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


def test_an_expired_form_keeps_the_pasted_text_and_gives_a_new_token(app):
    """A page left open until the session expired (a phone in a pocket): the post is refused, the
    text comes back in the box, escaped, and the form posts again with a fresh token."""
    client = app.test_client()  # a new session: no token
    text = "Vedi 704.5a e <b>120.3</b>\n" * 50
    r = client.post("/collega", data={"testo": text, "edizione": "20251114"})
    assert r.status_code == 400
    body = r.get_data(as_text=True)
    assert check_html(body) == []
    assert "CSRF" in body and "ancora qui" in body
    assert "Vedi 704.5a e &lt;b&gt;120.3&lt;/b&gt;" in body and "<b>120.3" not in body
    assert '<option value="20251114" selected' in body
    fresh = re.search(r'name="csrf_token" value="([^"]+)"', body)[1]
    again = client.post("/collega", data={"testo": text, "csrf_token": fresh})
    assert again.status_code == 200 and '<a class="cit" href="/regole/704.5a"' in again.get_data(as_text=True)


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


def test_a_refused_text_stays_in_the_form(client):
    """Too long, or with an unknown edition: the message says what is wrong and the text is
    still in the box, whole, to be split or corrected (nothing to paste again)."""
    t = token(client)
    text = "Vedi la regola 704.5a. " * 1000 + "FINE"
    assert len(text) > MAX_LINKER_CHARS
    for data, status in (({"testo": text}, 413), ({"testo": text, "edizione": "19990101"}, 404)):
        r = client.post("/collega", data={**data, "csrf_token": t})
        body = r.get_data(as_text=True)
        assert r.status_code == status
        assert 'aria-invalid="true"' in body
        assert re.search(r'<textarea id="testo"[^>]*>(.*?)</textarea>', body, re.S)[1] == text


def test_huge_body_is_413_in_italian(client):
    r = client.post("/collega", data={"testo": "a" * (3 * 1024 * 1024), "csrf_token": token(client)})
    assert r.status_code == 413
    assert "troppo grande" in r.get_data(as_text=True)


# -- the snippet set: precision and recall on the held-out half --------------------------------

import html as _html  # noqa: E402
import random  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from judge.corpus.citations_eval import HELD_OUT, TUNING, linker_finder, load_snippets, score  # noqa: E402
from judge.web.linker import link_report  # noqa: E402
from judge.web.render import link_text  # noqa: E402


def test_snippet_set_is_large_bilingual_and_split_as_recorded():
    snippets = load_snippets()
    ids = [s.id for s in snippets.snippets]
    assert len(ids) >= 150 and len(set(ids)) == len(ids)
    # The split is the one the seed gives: shuffling the ids of each language, first half to tune.
    rng = random.Random(snippets.seed)
    for lang in ("it", "en"):
        mine = [s.id for s in snippets.snippets if s.lang == lang]
        rng.shuffle(mine)
        assert {i for i in mine[: len(mine) // 2]} == {s.id for s in snippets.half(TUNING) if s.lang == lang}
        assert {s.lang for s in snippets.half(HELD_OUT)} == {"it", "en"}


def test_held_out_precision_and_recall(corpus):
    """The parser was tuned on the other half only; this half measures it."""
    result = score(load_snippets().half(HELD_OUT), linker_finder(corpus))
    detail = [(s.id, missed, extra) for s, missed, extra in result.errors]
    assert result.precision >= 0.99, (result.line(), detail)
    assert result.recall >= 0.99, (result.line(), detail)


_FRAGMENTS = st.sampled_from([
    "704.5a", "regola 704.5a e b", "CR704.5a", "_704.5a_", "__regola 704.5a__", "capitolo 5.", "726.1", "702.124k",
    "999.9", "Firefox 115.3", "192.168.1.1", "https://x.it/regole/704.5a", "<script>", "&amp;", "\n", " e ", "b", ", ",
    "/", "–", "704.5a–704.5c", "sezione 9", "MTR section 4", "(712)", "nella 613", "100.000", "rules 608.3a and b",
    "\"", "'", "<b>", "vedi 614 e 616", " ", ".",
])
_TEXTS = st.lists(st.one_of(_FRAGMENTS, st.text(max_size=8)), max_size=14).map("".join)
_ANNOTATION = re.compile(r'<span class="(?:ora|visually-hidden)">.*?</span>', re.S)


@settings(max_examples=150, deadline=None)
@given(_TEXTS, st.booleans())
def test_linking_never_changes_the_text_outside_links(app, corpus, text, older):
    """Strip the tags and the notes the linker adds inside links: what is left is the input."""
    edition = corpus.editions[0] if older else None
    with app.test_request_context():
        html = str(link_text(text, corpus, keep_newlines=False, edition=edition))
    plain = _html.unescape(re.sub(r"<[^>]+>", "", _ANNOTATION.sub("", html)))
    assert plain == text


@settings(max_examples=150, deadline=None)
@given(_TEXTS, st.booleans())
def test_spans_never_overlap_and_link_to_rules_in_force(app, corpus, text, older):
    edition = corpus.editions[0] if older else None
    with app.test_request_context():
        report = link_report(text, corpus, edition=edition)
    end = 0
    for span in report.spans:
        assert end <= span["start"] < span["end"] <= len(text)
        assert text[span["start"]:span["end"]] == span["text"]
        end = span["end"]
        for n in span["numbers"]:
            assert (n["now"] is None) == (n["url"] is None)
            assert n["now"] is None or n["now"] in corpus
