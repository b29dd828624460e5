"""Public endpoints with bounded cost and scope (issue 38): /api/citazioni answers within a
budget whatever its body, deep JSON is a 4xx wherever JSON is read, and only the two endpoints
the embed script calls answer other origins."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from judge.web.embed import MAX_CITATIONS, utf16_positions

NESTED = "[" * 5000 + "]" * 5000


def test_citazioni_links_at_most_its_budget_and_says_so(client):
    texts = [("704.5a " * 9000)[:60_000]]
    data = client.post("/api/citazioni", json={"testi": texts}).get_json()
    assert data["completo"] is False
    assert 0 < len(data["testi"][0]) <= MAX_CITATIONS
    assert set(data["regole"]) == {"704.5a"}
    small = client.post("/api/citazioni", json={"testi": ["Vedi 704.5a.", "E la 702.19b."]}).get_json()
    assert small["completo"] is True and [len(t) for t in small["testi"]] == [1, 1]


def test_citazioni_past_its_budget_gives_the_later_texts_no_links(client):
    texts = ["704.5a " * 100] * 12 + ["Vedi 702.19b."]        # 1,200 citations before the last text
    data = client.post("/api/citazioni", json={"testi": texts}).get_json()
    assert data["completo"] is False and data["testi"][-1] == [] and len(data["testi"]) == len(texts)


@pytest.mark.parametrize("body", [NESTED, '{"testi": [["704.5a"]]}', '{"testi": ' + NESTED + "}"])
def test_citazioni_refuses_nested_json_with_a_400(client, body):
    r = client.post("/api/citazioni", data=body, content_type="application/json")
    assert r.status_code == 400 and r.get_json()["error"]["message"]


def _json_routes(app):
    for rule in app.url_map.iter_rules():
        if "POST" in rule.methods and rule.rule.startswith("/api/"):
            yield rule.rule.replace("<ident>", "abcdefghijklmnopqrst")


def test_every_json_endpoint_refuses_json_nested_past_the_parser_in_italian(app, client):
    routes = list(_json_routes(app))
    assert "/api/citazioni" in routes and "/api/collega" in routes and "/api/scenari" in routes
    for route in routes:
        r = client.post(route, data=NESTED, content_type="application/json")
        assert 400 <= r.status_code < 500, (route, r.status_code)
        assert r.get_json()["error"]["message"], route


def test_form_fields_that_hold_json_refuse_it_nested_past_the_parser():
    from judge.engine.errors import IllegalAction
    from judge.web.simulator import card_fill
    from judge.web.simulator.play import answer_from_form

    with pytest.raises(IllegalAction):
        answer_from_form({"kind": "other"}, {"risposta_json": NESTED})
    assert card_fill.prepare({"nuovo.auto": "[" * 1500 + "]" * 1500}).form is not None


# -- cross-origin answers: the embed's two endpoints, nothing else --------------------------------

def test_previews_and_citations_answer_any_origin_without_credentials(client):
    r = client.get("/api/anteprima/704.5a", headers={"Origin": "https://forum.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.headers["Access-Control-Allow-Methods"] == "GET, OPTIONS"
    r = client.post("/api/citazioni", json={"testi": ["704.5a"]}, headers={"Origin": "https://forum.example"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert r.headers["Access-Control-Allow-Methods"] == "POST, OPTIONS"
    for resp in (r, client.options("/api/citazioni")):
        assert "Access-Control-Allow-Credentials" not in resp.headers


@pytest.mark.parametrize("method, path", [
    ("get", "/incorpora"), ("get", "/api/regole/704.5a"), ("get", "/api/cerca?q=pila"), ("get", "/api/glossario"),
    ("get", "/api/openapi.json"), ("options", "/api/collega"), ("options", "/api/scenari"), ("get", "/regole/704.5a"),
    ("get", "/salute"), ("get", "/sw.js"),
])
def test_no_other_endpoint_answers_other_origins(client, method, path):
    r = getattr(client, method)(path, headers={"Origin": "https://evil.example"})
    assert r.status_code < 500
    assert "Access-Control-Allow-Origin" not in r.headers, path


@given(st.text(alphabet=st.sampled_from(["a", "é", "😀", " ", "\U0001F9D9", "7", "\n"]), max_size=60), st.data())
def test_utf16_positions_count_as_javascript_does(text, data):
    positions = sorted(data.draw(st.lists(st.integers(min_value=0, max_value=len(text)), max_size=8)))
    js = utf16_positions(text, positions)
    for p, q in zip(positions, js):
        assert q == len(text[:p].encode("utf-16-le")) // 2


def test_a_text_citing_thousands_of_rules_lists_the_first_ones_and_says_so(client, corpus):
    from judge.web.linker import MAX_LISTED_CITATIONS

    text = " ".join(corpus.numbers)[:20_000]
    data = client.post("/api/collega", json={"text": text}).get_json()
    assert data["complete"] is False and len(data["spans"]) == MAX_LISTED_CITATIONS
    assert 0 < len(data["rules"]) <= MAX_LISTED_CITATIONS
    assert any(f"più di {MAX_LISTED_CITATIONS} citazioni" in n for n in data["notices"])
    page = client.post("/collega", data={"testo": text, "csrf_token": _csrf(client)}).get_data(as_text=True)
    assert f"più di {MAX_LISTED_CITATIONS} citazioni" in page
    small = client.post("/api/collega", json={"text": "Vedi 704.5a."}).get_json()
    assert small["complete"] is True and not any("citazioni" in n for n in small["notices"])


def _csrf(client) -> str:
    import re

    return re.search(r'name="csrf_token" value="([^"]+)"', client.get("/collega").get_data(as_text=True))[1]
