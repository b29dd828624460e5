"""Editions of the tournament documents: the MTR diff (20251110 → 20260227), the changes page,
a section's history, `judge diff --documento`, and the watch for new files."""

from __future__ import annotations

import functools
import http.server
import json
import threading

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.tournament.diff import counts, diff_editions
from judge.tournament.loading import load_documents
from judge.tournament.watch import check_for_documents, edition_of, find_document_links


@pytest.fixture(scope="module")
def mtr():
    return load_documents().editions["mtr"]


def test_the_mtr_diff_finds_the_announced_changes(mtr):
    old, new = mtr
    assert (old.id, new.id) == ("20251110", "20260227")
    changes = {c.number: c for c in diff_editions(old, new)}
    # The README's list of the changes announced for 27 February 2026, and 6.6's dropped "effective" notes.
    assert set(changes) == {"3.7", "6.3", "6.4", "6.6", "6.7", "A", "D"}
    added = [p.new for p in changes["3.7"].paragraphs if p.kind == "aggiunto"]
    assert added == ["Secrets of Strixhaven™ April 17, 2026"]
    assert any(p.kind == "aggiunto" and p.new == "February 27, 2026" for p in changes["A"].paragraphs)
    modified = next(p for p in changes["3.7"].paragraphs if p.kind == "modificato")
    assert ("-", "tournament legal") in modified.words and ("+", "tournament-legal") in modified.words
    assert counts(list(changes.values()))["sezioni"] == 7


def test_an_edition_against_itself_has_no_change(mtr):
    assert diff_editions(mtr[1], mtr[1]) == []


def test_the_changes_page_and_json(client):
    r = client.get("/mtr/modifiche")
    assert r.status_code == 302 and r.headers["Location"].endswith("/mtr/modifiche/20251110..20260227")
    body = client.get("/mtr/modifiche/20251110..20260227").get_data(as_text=True)
    assert "7 sezioni cambiate" in body and 'href="/mtr/3.7"' in body and "Secrets of Strixhaven" in body
    data = client.get("/api/mtr/modifiche/20251110..20260227").get_json()
    assert data["conteggi"]["sezioni"] == 7 and data["sezioni"][0]["section"] == "3.7"
    assert client.get("/mtr/modifiche/20200101..20260227").status_code == 404
    assert client.get("/ipg/modifiche").status_code == 404  # one edition only


def test_a_section_history(client):
    body = client.get("/mtr/3.7/storia").get_data(as_text=True)
    assert "Edizione del 10 novembre 2025" in body and "Edizione del 27 febbraio 2026" in body
    assert "Secrets of Strixhaven" in body
    assert "Nessuna modifica rispetto" in client.get("/mtr/2.5/storia").get_data(as_text=True)
    assert 'href="/mtr/2.5/storia"' in client.get("/mtr/2.5").get_data(as_text=True)


def test_judge_diff_for_a_document():
    out = CliRunner().invoke(main, ["diff", "--documento", "mtr", "20251110", "20260227"])
    assert out.exit_code == 0 and "MTR 3.7 (modificata): New Releases" in out.output
    assert "+ ¶3 Secrets of Strixhaven™ April 17, 2026" in out.output
    data = json.loads(CliRunner().invoke(main, ["diff", "--documento", "mtr", "20251110", "20260227", "--sezione",
                                                "3.7", "--json"]).output)
    assert [s["section"] for s in data["sections"]] == ["3.7"]
    bad = CliRunner().invoke(main, ["diff", "--documento", "ipg", "20200101", "20240923"])
    assert bad.exit_code == 1 and "20240923" in bad.output


PAGE = """<html><body>
<a href="/files/MTG_MTR_2026Feb27_EN.pdf">MTR</a> <a href="/files/MTG_MTR_2025Nov10_EN.pdf">old MTR</a>
<a href="/files/MTG_IPG_2027Jan01_EN.pdf">IPG</a> <a href="/files/JAR-20240923.html">JAR</a></body></html>"""


def test_document_links_and_their_editions():
    found = find_document_links(PAGE, "https://wpn.example/en/rules-documents")
    assert found == {"mtr": ("https://wpn.example/files/MTG_MTR_2026Feb27_EN.pdf", "20260227"),
                     "ipg": ("https://wpn.example/files/MTG_IPG_2027Jan01_EN.pdf", "20270101"),
                     "jar": ("https://wpn.example/files/JAR-20240923.html", "20240923")}
    assert edition_of("MTG_IPG_2024Sep23_EN.pdf") == "20240923" and edition_of("notes.pdf") is None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_a_new_document_file_is_staged_never_put_in_force(tmp_path):
    www = tmp_path / "www"
    (www / "files").mkdir(parents=True)
    (www / "docs.html").write_text(PAGE, encoding="utf-8")
    for name in ("MTG_MTR_2026Feb27_EN.pdf", "MTG_MTR_2025Nov10_EN.pdf", "MTG_IPG_2027Jan01_EN.pdf", "JAR-20240923.html"):
        (www / "files" / name).write_bytes(b"%PDF " + name.encode())
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(www)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        known = {"mtr": {"20251110", "20260227"}, "ipg": {"20240923"}, "jar": {"20240923"}}
        found = {w.doc: w for w in check_for_documents(tmp_path / "tornei_en", f"{base}/docs.html", known, 5)}
        assert found["mtr"].status == "nessuna novità" and found["jar"].status == "nessuna novità"
        assert found["ipg"].status == "nuova edizione"
        staged = tmp_path / "tornei_en" / "in-arrivo" / "IPG-20270101.pdf"
        assert found["ipg"].staged == staged and staged.read_bytes() == b"%PDF MTG_IPG_2027Jan01_EN.pdf"
        assert json.loads(staged.with_suffix(".json").read_text())["sha256"] == found["ipg"].sha256
        again = {w.doc: w for w in check_for_documents(tmp_path / "tornei_en", f"{base}/docs.html", known, 5)}
        assert again["ipg"].status == "già scaricata"
        assert not (tmp_path / "tornei_en" / "IPG-20270101.pdf").exists()
    finally:
        server.shutdown()
        server.server_close()
