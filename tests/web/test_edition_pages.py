"""Editions on the site (20260925 in force): the editions page and API, verification labels on
the pages of an unverified edition, a rule's last change, history through the six editions."""

from __future__ import annotations

import html
import re

import pytest
from click.testing import CliRunner

from judge.cli import main


def text(page: bytes) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page.decode())))


def test_editions_page_lists_every_edition_with_its_status(client):
    page = text(client.get("/edizioni").data)
    for date in ("25 settembre 2026", "19 giugno 2026", "17 aprile 2026", "27 febbraio 2026", "16 gennaio 2026",
                 "14 novembre 2025", "7 agosto 2026"):
        assert date in page
    assert page.index("25 settembre 2026 in vigore testo non verificato") < page.index("19 giugno 2026 testo verificato")
    assert "13 aggiunte, 6 modificate, 18 spostate, 8 spostate e modificate" in page
    assert "nessuna copia" in page


def test_editions_api(client):
    data = client.get("/api/edizioni").get_json()
    assert data["in_force"] == {"id": "20260925", "date": "2026-09-25", "verified": False}
    ids = [e["id"] for e in data["editions"]]
    assert ids == ["20251114", "20260116", "20260227", "20260417", "20260619", "20260925"]
    last = data["editions"][-1]
    assert last["verification"]["status"] == "non verificata" and last["verification"]["official_size"] == 977752
    assert last["counts"]["spostata"] == 18 and last["previous"] == "20260619"
    assert [e["verified"] for e in data["editions"]] == [True] * 5 + [False]
    assert data["missing"][0]["id"] == "20260807"


@pytest.mark.parametrize("path", ["/", "/regole/704.5z", "/turno", "/glossario", "/cerca?q=battaglia"])
def test_every_page_says_the_text_in_force_is_not_verified(client, path):
    page = text(client.get(path).data)
    assert "Edizione inglese in vigore: 25 settembre 2026, testo non verificato" in page or (
        path == "/" and "25 settembre 2026 (testo non ancora verificato" in page)


def test_the_english_text_of_a_rule_carries_the_label(client):
    body = client.get("/regole/704.5w").get_data(as_text=True)
    assert 'title="Comprehensive Rules, edizione del 25 settembre 2026, in vigore (testo non verificato)"' in body
    page = text(body.encode())
    assert "Inglese ufficiale · 25 settembre 2026 fa fede · testo non verificato rispetto al file ufficiale" in page


def test_a_page_of_a_verified_older_edition_says_so(client):
    page = text(client.get("/regole/704.5y?edizione=20260619").data)
    assert "non più in vigore) · testo verificato" in page and "Role" in page


def test_a_rule_page_says_when_the_rule_last_changed(client):
    assert "Modificata nell'edizione del 25 settembre 2026." in text(client.get("/regole/605.1a").data)
    assert "Spostata (era 310.8) nell'edizione del 25 settembre 2026, con lo stesso testo." in text(
        client.get("/regole/310.9").data)
    assert "Aggiunta nell'edizione del 25 settembre 2026." in text(client.get("/regole/506.6").data)
    assert "Invariata in tutte le edizioni presenti, dal 14 novembre 2025." in text(client.get("/regole/100.1").data)
    data = client.get("/api/regole/704.5aa").get_json()
    assert data["last_change"] == {"kind": "spostata", "edition": "20260925", "old_number": "704.5z",
                                   "text": "Spostata (era 704.5z) nell'edizione del 25 settembre 2026, con lo stesso testo."}


def test_history_of_310_9_goes_through_six_editions(client):
    page = text(client.get("/regole/310.9/storia").data)
    assert page.count("Numero in questa edizione: 310.8") == 5
    assert "Edizione del 25 settembre 2026 (in vigore) testo non verificato Numero in questa edizione: 310.9" in page
    assert "Edizione del 7 agosto 2026 (ripubblicata il 19 agosto): nessuna copia" in page
    assert page.index("19 giugno 2026") < page.index("7 agosto 2026") < page.index("Edizione del 25 settembre 2026")


def test_changes_between_non_consecutive_editions(client):
    data = client.get("/api/modifiche/20251114..20260925").get_json()
    moved = {c["number"]: c.get("old_number") for c in data["changes"] if c["kind"].startswith("spostata")}
    assert moved["704.5aa"] == "704.5z" and moved["310.9"] == "310.8"
    assert client.get("/modifiche/20260116..20260417").status_code == 200


def test_diff_page_api_and_cli_show_the_glossary(client):
    data = client.get("/api/modifiche/20260619..20260925").get_json()
    assert {g["term"] for g in data["glossary"] if g["kind"] == "aggiunta"} >= {"Recruit", "Storied"}
    assert client.get("/api/modifiche/20260619..20260925?sezione=704").get_json()["glossary"] == []
    page = client.get("/modifiche/20260619..20260925").get_data(as_text=True)
    assert 'id="glossario"' in page and "Hone Counter" in page
    out = CliRunner().invoke(main, ["diff", "20260619", "20260925"]).output
    assert "glossario «Recruit» (aggiunta)" in out and "Glossario: 8 voci cambiate." in out
