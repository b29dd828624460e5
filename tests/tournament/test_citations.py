"""Citations of the tournament documents: found in any text, linked in /collega, by the embed's
API and by `judge collega`, previewed; a rule page lists the sections about it."""

from __future__ import annotations

import re

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from judge.cli import main
from judge.corpus.citations import find_citations
from judge.tournament.citations import find_document_citations, merge_spans
from judge.tournament.loading import section_exists


def cited(text, context=None):
    return [(c.text, c.doc, c.section) for c in find_document_citations(text, context, section_exists)]


def test_the_forms_judges_write():
    assert cited("Per il GRV vedi IPG 2.1, poi ipg 3.2 e MTR 4.2.") == [
        ("IPG 2.1", "ipg", "2.1"), ("ipg 3.2", "ipg", "3.2"), ("MTR 4.2", "mtr", "4.2")]
    assert cited("la JAR dice altro") == [("JAR", "jar", None)]
    assert cited("see section 5.2 of the Magic Tournament Rules") == [
        ("section 5.2 of the Magic Tournament Rules", "mtr", "5.2")]
    assert cited("(MTR section 4.3)") == [("MTR section 4.3", "mtr", "4.3")]
    assert cited("sezione 2.5 delle MTR, MTR appendice B") == [("sezione 2.5 delle MTR", "mtr", "2.5"),
                                                               ("MTR appendice B", "mtr", "B")]


def test_what_is_not_a_citation():
    assert cited("IPG 9.9, MTR 42, a jar of jam, rule 704.5a, section 4 of the Comprehensive Rules") == []
    assert cited("See section 1.4 and Appendix F.", "ipg") == [("section 1.4", "ipg", "1.4")]  # IPG has no F


def test_the_rules_parser_leaves_them_alone():
    assert find_citations("MTR 2.5 e IPG 2.1; MTR section 4.3") == []


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=6),
       st.lists(st.tuples(st.integers(0, 60), st.integers(1, 8)), max_size=6))
def test_merged_spans_never_overlap_and_keep_the_first_list(a, b):
    first = [{"start": s, "end": s + n} for s, n in a]
    first = [x for i, x in enumerate(first) if not any(x["start"] < y["end"] and y["start"] < x["end"] for y in first[:i])]
    merged = merge_spans(first, [{"start": s, "end": s + n} for s, n in b])
    assert all(x in merged for x in first)
    for x, y in zip(merged, merged[1:]):
        assert x["start"] <= y["start"]
    for i, x in enumerate(merged):
        for y in merged[i + 1:]:
            assert not (x["start"] < y["end"] and y["start"] < x["end"])


def test_collega_links_ipg_2_1(client):
    r = client.get("/collega", query_string={"testo": "Missed trigger: vedi IPG 2.1 e la regola 603.2."})
    body = r.get_data(as_text=True)
    assert r.status_code == 200
    assert '<a class="cit" href="/ipg/2.1" title="IPG 2.1">IPG 2.1</a>' in body
    assert re.search(r'href="/regole/603\.2"', body)
    assert "[IPG 2.1](http://localhost/ipg/2.1)" in body  # the Markdown copy


def test_the_embed_api_and_the_preview(client):
    data = client.post("/api/citazioni", json={"testi": ["see IPG 2.1 and MTR 2.5"]}).get_json()
    assert [s["numero"] for s in data["testi"][0]] == ["IPG 2.1", "MTR 2.5"]
    preview = data["regole"]["IPG 2.1"]
    assert preview["text"].startswith("Sanzione: No Penalty (nessuna sanzione).")
    assert client.get("/api/anteprima/IPG 2.1").get_json() == preview
    italian = client.get("/api/anteprima/IPG 2.4").get_json()
    assert italian["layer"] == "traduzione" and italian["text"].startswith("Sanzione: Warning (ammonizione). Un giocatore")
    assert client.get("/api/anteprima/IPG 9.9").status_code == 404


def test_judge_collega_names_the_sections():
    out = CliRunner().invoke(main, ["collega", "--json"], input="vedi IPG 2.1 e MTR 4.2")
    import json

    data = json.loads(out.output)
    assert [d["citation"] for d in data["documents"]] == ["IPG 2.1", "MTR 4.2"]


def test_a_rule_page_lists_the_tournament_sections_about_it(client):
    body = client.get("/regole/603.2").get_data(as_text=True)
    assert re.search(r'Nei documenti dei tornei</h3>\s*<ul class="citata-da">\s*<li><a href="/ipg/2.1">IPG 2.1</a>', body)
    section = client.get("/mtr/2.3").get_data(as_text=True)
    assert 'class="cit cit-obsoleta" href="/regole/103.5"' in section  # the MTR's 103.4 is today's 103.5
