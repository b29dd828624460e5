"""The tournament documents' pages and JSON: a section of each document, the penalty at a glance,
the labels of the rule pages, forgiving addresses, Italian 404s, and no page over 150 KB."""

from __future__ import annotations

import re
import shutil

from judge.tournament import view
from judge.tournament.loading import load_documents
from judge.tournament.translation import parse_file, render, skeleton

from .htmlcheck import page

LIMIT = 150 * 1024


def test_an_ipg_infraction_shows_its_penalty_before_the_text(client):
    body = page(client, "/ipg/3.1")
    glance = body.index('class="sanzione"')
    assert glance < body.index('class="paragrafi"')
    assert '<strong lang="en">Game Loss</strong> <span class="sanzione-glossa">(partita persa)</span>' in body
    assert "Tournament Error — Tardiness" in body and "Downgrade: A player who arrives" in body


def test_a_translated_section_has_both_texts_with_the_rule_pages_labels(client):
    body = page(client, "/ipg/2.4")
    assert "Inglese ufficiale · 23 settembre 2024" in body and "Traduzione del progetto · 23 settembre 2024" in body
    assert "Un giocatore pesca otto carte all&#39;inizio della partita" in body
    assert "A player draws eight cards at the start of the game" in body
    assert 'data-scelta-lingua' in body  # the same language choice as rule pages
    assert "Mulligan Procedure Error (errore nella procedura di mulligan)" in body


def test_an_untranslated_section_says_so_and_shows_the_english(client, tmp_path, monkeypatch):
    # A copy of the translation where MTR 2.5 is back to its skeleton (nothing translated).
    folder = tmp_path / "tornei_it"
    shutil.copytree(view.TORNEI_IT_DIR, folder)
    mtr = load_documents().in_force("mtr")
    (folder / "mtr" / "2.5.md").write_text(render(skeleton(mtr, mtr.section("2.5")), mtr), encoding="utf-8")
    monkeypatch.setattr(view, "TORNEI_IT_DIR", folder)
    body = page(client, "/mtr/2.5")
    assert "Traduzione italiana non ancora disponibile" in body
    assert "Until the result of a match has been recorded, players may concede" in body
    assert "Traduzione italiana non ancora disponibile" not in page(client, "/mtr/2.4")


def test_one_section_of_each_document(client):
    assert "Conceding or Intentionally Drawing Games or Matches" in page(client, "/mtr/2.5")
    assert "Game Play Error — Missed Trigger" in page(client, "/ipg/2.1")
    jar = page(client, "/jar")
    assert "Serious Problems" in jar and "i numeri sono del progetto" in jar
    assert "A player sees a card in a library" in page(client, "/jar/2.2")


def test_the_contents_of_each_document(client):
    mtr = page(client, "/mtr")
    assert 'href="/mtr/2.5"' in mtr and 'href="/mtr/F"' in mtr
    ipg = page(client, "/ipg")
    assert re.search(r'href="/ipg/2.5".*?Game Rule Violation.*?<strong lang="en">Warning</strong> \(ammonizione\)', ipg, re.S)
    assert "MTR" in page(client, "/tornei")


def test_forgiving_addresses_redirect_to_the_canonical_one(client):
    for asked, canonical in [("/mtr/2-5", "/mtr/2.5"), ("/MTR/2.5", "/mtr/2.5"), ("/ipg/3_2", "/ipg/3.2"),
                             ("/mtr/appendice-b", "/mtr/B"), ("/mtr/a", "/mtr/A"), ("/IPG", "/ipg")]:
        r = client.get(asked)
        assert r.status_code == 301 and r.headers["Location"].endswith(canonical), asked
    for typed, canonical in [("MTR 2.5", "/mtr/2.5"), ("ipg 3.2", "/ipg/3.2"), ("JAR", "/jar")]:
        r = client.get("/cerca", query_string={"q": typed})
        assert r.status_code == 302 and r.headers["Location"].endswith(canonical), typed


def test_unknown_sections_are_italian_404s(client):
    body = page(client, "/mtr/99.9", status=404)
    assert "non esiste in MTR" in body
    r = client.get("/api/ipg/7.7")
    assert r.status_code == 404 and "non esiste in IPG" in r.get_json()["error"]["message"]
    assert client.get("/ipg/%3Cscript%3E").status_code == 404


def test_the_json_of_a_section(client):
    data = client.get("/api/ipg/2.1").get_json()
    assert data["citazione"] == "IPG 2.1" and data["sanzione"] == "No Penalty" and data["sanzione_it"] == "nessuna sanzione"
    italian = next(u.italian for u in parse_file(view.TORNEI_IT_DIR / "ipg" / "2.1.md").units if u.number == 1)
    assert data["paragrafi"][0] == {"numero": 1, "tipo": "titoletto", "segno": None, "en": "Definition", "it": italian,
                                    "it_aggiornato": True}
    assert data["parti"][:4] == ["definizione", "esempi", "filosofia", "rimedio"]
    ex = client.get("/api/ipg/2.4").get_json()
    assert ex["paragrafi"][4]["it"].startswith("Un giocatore pesca otto carte") and ex["paragrafi"][4]["it_aggiornato"]
    assert client.get("/api/mtr").get_json()["sezioni"][1]["sezione"] == "1"
    docs = client.get("/api/tornei").get_json()["documenti"]
    assert [d["sigla"] for d in docs] == ["MTR", "IPG", "JAR"] and len(docs[0]["edizioni"]) == 2


def test_citations_inside_a_document_link_its_sections_and_the_rules(client):
    body = page(client, "/mtr/2.3")
    # The MTR still cites "rule 103.4" for the mulligan: linked to today's number, with a note.
    assert re.search(r'<a class="cit cit-obsoleta" href="/regole/103\.5" title="[^"]*oggi i mulligan sono la regola 103\.5">103\.4</a>', body)
    body = page(client, "/ipg/2.1")
    assert 'href="/mtr/4.3"' in body  # "(MTR section 4.3)"
    body = page(client, "/mtr/8.6")
    assert 'href="/mtr/7"' in body and 'href="/regole/7"' not in body  # "(Section 7)" is the MTR's own


def test_no_tournament_page_is_over_150_kb(client):
    docs = load_documents()
    urls = ["/tornei", "/mtr", "/ipg", "/jar"]
    for doc in ("mtr", "ipg", "jar"):
        urls += [f"/{doc}/{s.number}" for s in docs.in_force(doc).sections]
    sizes = {}
    for url in urls:
        r = client.get(url)
        assert r.status_code == 200, url
        sizes[url] = len(r.get_data())
    assert not {u: s for u, s in sizes.items() if s > LIMIT}
    assert len(sizes) == 154
