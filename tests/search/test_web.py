import json

import pytest
from click.testing import CliRunner

from judge.cli import main

BAD_INPUTS = [
    "",
    "   ",
    "x" * 10_000,
    "parola " * 2000,
    "!!!...???,,,;;;",
    '"pila',
    'pila"',
    '""',
    "text:(",
    "body_en:[a TO",
    "\x00\x01\x02\x1b[31m\x7f",
    "<script>alert('x')</script>",
    '"><img src=x onerror=alert(1)>',
    "AND OR NOT",
    "%00%ff",
    "\ud7ff\ufffd",
]


def test_search_page(client):
    r = client.get("/cerca?q=grimorio+vuoto")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "<mark>" in html and 'href="/regole/' in html and "grimorio vuoto" in html


def test_empty_search_page_is_a_form(client):
    r = client.get("/cerca")
    assert r.status_code == 200 and 'name="q"' in r.get_data(as_text=True)


def test_rule_reference_redirects_to_the_rule(client):
    for q, n in [("704.5a", "704.5a"), ("cr 704.5a", "704.5a"), ("regola 121.4", "121.4")]:
        r = client.get("/cerca", query_string={"q": q})
        assert r.status_code == 302 and r.headers["Location"].endswith(f"/regole/{n}")


def test_did_you_mean_on_page(client):
    html = client.get("/cerca?q=travolgre").get_data(as_text=True)
    assert "Forse cercavi" in html and "travolgere" in html


def test_api_contract(client):
    r = client.get("/api/cerca?q=SBA&lingua=tutte&limite=3")
    assert r.status_code == 200 and r.is_json
    data = r.get_json()
    assert data["query"] == "SBA" and isinstance(data["total"], int) and data["total"] >= len(data["results"])
    assert 0 < len(data["results"]) <= 3
    for item in data["results"]:
        assert {"number", "lang", "section", "snippet", "url"} <= set(item)
        assert item["url"] == f"/regole/{item['number']}" and item["lang"] in ("it", "en")


def test_api_language_filter(client):
    for lang in ("it", "en"):
        data = client.get(f"/api/cerca?q=priorita&lingua={lang}&limite=20").get_json()
        assert data["results"] and all(x["lang"] == lang for x in data["results"])


def test_api_rule_reference(client):
    data = client.get("/api/cerca?q=cr+704.5a").get_json()
    assert data["regola"] == "704.5a" and [x["number"] for x in data["results"]] == ["704.5a"]


def test_api_limit_and_odd_parameters(client):
    for qs in ["limite=0", "limite=-5", "limite=abc", "limite=100000", "pagina=-1", "pagina=x",
               "lingua=klingon", "capitolo=x", "sezione=abc", "sezione=9999"]:
        r = client.get(f"/api/cerca?q=danno&{qs}")
        assert r.status_code == 200, qs
        assert len(r.get_json()["results"]) <= 100


@pytest.mark.parametrize("q", BAD_INPUTS)
def test_bad_input_is_a_normal_answer(client, q):
    r = client.get("/api/cerca", query_string={"q": q})
    assert r.status_code == 200 and isinstance(r.get_json()["results"], list)
    page = client.get("/cerca", query_string={"q": q})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "<script>alert" not in html and "<img src=x" not in html


def test_health_reports_index(client):
    data = client.get("/salute").get_json()
    assert data["stato"] == "ok" and data["indice_pronto"] is True


def test_cli(instance):
    runner = CliRunner()
    r = runner.invoke(main, ["cerca", "--instance", str(instance), "tocco", "letale", "-n", "3"])
    assert r.exit_code == 0 and "702.2" in r.output
    r = runner.invoke(main, ["cerca", "--instance", str(instance), "--json", "704.5a"])
    assert r.exit_code == 0 and json.loads(r.output)["regola"] == "704.5a"
    r = runner.invoke(main, ["cerca", "--instance", str(instance), "text:("])
    assert r.exit_code == 0


def test_results_carry_the_italian_section_title_and_the_text_layer(client, corpus):
    data = client.get("/api/cerca?q=state-based+actions&lingua=en").get_json()
    hit = next(h for h in data["results"] if h["section"] == "704")
    assert hit["section_title"] == corpus.get("704").best.text  # as the breadcrumbs
    assert hit["layer"] == "ufficiale"
    assert {h["layer"] for h in client.get("/api/cerca?q=grimorio&lingua=it").get_json()["results"]} <= {"comunità", "traduzione"}


def test_glossary_is_searched_from_the_italian_or_english_term(client):
    import re

    def terms(q):
        html = client.get("/glossario", query_string={"q": q}).get_data(as_text=True)
        return re.findall(r'<dt id="[^"]+"><span lang="en">([^<]+)</span>', html)

    assert terms("travolgere")[0] == "Trample"
    assert terms("Trample")[0] == "Trample"
    assert terms("grimorio") == ["Library"]
    assert "State-Based Actions" in terms("SBA")
    assert terms("xyzzy") == []
    assert "Nessuna voce" in client.get("/glossario?q=xyzzy").get_data(as_text=True)
    # No query: one letter a page, and the letters' pages together are the whole glossary.
    first = client.get("/glossario").get_data(as_text=True)
    letters = re.findall(r'href="(/glossario\?lettera=[^"]+)"', first)
    every = [t for url in letters
             for t in re.findall(r'<dt id="[^"]+"><span lang="en">([^<]+)</span>', client.get(url).get_data(as_text=True))]
    assert len(letters) > 20 and len(every) == len(set(every)) > 500
    page = client.get("/glossario", query_string={"q": '<script>"'}).get_data(as_text=True)
    assert "<script>\"" not in page and "&lt;script&gt;" in page


def test_jargon_in_a_search_is_explained_with_its_rule_linked(client):
    page = client.get("/cerca?q=la+magia+fizza").get_data(as_text=True)
    box = page[page.index('class="avviso gergo"'):]
    box = box[:box.index("</p>")]
    assert "«fizzare»</strong> è gergo" in box and 'href="/regole/608.2b"' in box
    assert 'class="avviso gergo"' not in client.get("/cerca?q=grimorio+vuoto").get_data(as_text=True)
    data = client.get("/api/cerca?q=SBA").get_json()
    assert data["gergo"] == [{"termine": "SBA", "significato": "azioni generate dallo stato"}]
    assert client.get("/api/cerca?q=grimorio+vuoto").get_json()["gergo"] == []
    # Words excluded with NOT are not explained: they are not what the user is looking for.
    assert client.get("/api/cerca?q=pila+-SBA").get_json()["gergo"] == []


def test_cli_explains_jargon(instance):
    out = CliRunner().invoke(main, ["cerca", "--instance", str(instance), "-n", "1", "fizzle"])
    assert out.exit_code == 0 and "«fizzle» è gergo:" in out.output and "608.2b" in out.output


def test_a_result_says_which_index_its_entry_comes_from(client, corpus):
    """The matching entry is shown under the result, in its own language: an English question shows
    an entry of the English index, marked as English."""
    import re
    from urllib.parse import quote

    for lang, label in (("it", "Dall'indice analitico — "), ("en", "Dall'indice analitico inglese — ")):
        entry = next(e for e in corpus.analytic_indexes[lang].entries if len(e.topic.split()) >= 5)
        page = client.get("/cerca?q=" + quote(entry.topic)).get_data(as_text=True)
        shown = re.findall(r'<p class="voce-indice">(.*?)</p>', page)
        assert any(s.startswith(f'{label}<span lang="{lang}">') for s in shown), (lang, shown[:3])
