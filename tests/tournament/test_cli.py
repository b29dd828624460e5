"""`judge mtr`, `judge ipg`, `judge jar`: a section with its labels, the contents, clear errors."""

from __future__ import annotations

from click.testing import CliRunner

from judge.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_a_section_of_each_document_with_its_labels():
    out = run("mtr", "2.5")
    assert out.exit_code == 0
    assert out.output.startswith("MTR 2.5 — Conceding or Intentionally Drawing Games or Matches")
    assert "[en] Inglese ufficiale · 27 febbraio 2026" in out.output and "en: Until the result" in out.output
    assert "[it] Traduzione del progetto · 27 febbraio 2026" in out.output
    out = run("ipg", "2.1")
    assert out.exit_code == 0 and "Sanzione: No Penalty (nessuna sanzione)" in out.output
    assert "¶16 A. Knight of Infamy" in out.output
    out = run("jar")
    assert out.exit_code == 0 and "JAR 4 — Serious Problems" in out.output and "JAR 1 — Introduction" in out.output


def test_the_project_italian_first_with_the_english_under_it():
    out = run("ipg", "2-4")
    assert "[it] Traduzione del progetto · 23 settembre 2024" in out.output
    assert "¶10 Il giocatore fa un mulligan aggiuntivo.\n   en: The player takes an additional mulligan." in out.output
    only_en = run("ipg", "2.4", "--testo", "inglese")
    assert "Il giocatore" not in only_en.output and "¶10 The player takes an additional mulligan." in only_en.output


def test_contents_and_errors():
    out = run("ipg")
    assert out.exit_code == 0 and "  2.5 Game Play Error — Game Rule Violation — Warning" in out.output
    out = run("mtr", "42.1")
    assert out.exit_code == 1 and "non trovata" in out.output
