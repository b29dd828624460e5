"""The tournament documents' parser: the IPG text extraction against the HTML extraction of the
same PDF, every section and infraction found, no page furniture left, no word lost."""

from __future__ import annotations

import re

import pytest

from judge.tournament.checks import check_edition, english_findings, furniture_in, quick_reference
from judge.tournament.loading import TORNEI_EN_DIR, load_documents, source_paths
from judge.tournament.model import HEADING, ITEM
from judge.tournament.structure import parse_source, words


@pytest.fixture(scope="module")
def ipg_text():
    return parse_source(TORNEI_EN_DIR / "IPG-20240923.txt")


@pytest.fixture(scope="module")
def ipg_html():
    return parse_source(TORNEI_EN_DIR / "IPG-20240923.html")


@pytest.fixture(scope="module")
def docs():
    return load_documents()


def test_the_ipg_text_and_html_have_the_same_sections(ipg_text, ipg_html):
    assert [(s.number, s.title, s.penalty) for s in ipg_text.sections] == \
        [(s.number, s.title, s.penalty) for s in ipg_html.sections]
    assert len(ipg_text.sections) == 36


def test_the_ipg_text_and_html_have_the_same_paragraphs_and_words(ipg_text, ipg_html):
    for a, b in zip(ipg_text.sections, ipg_html.sections):
        assert [p.text for p in a.paragraphs] == [p.text for p in b.paragraphs], a.number
        assert [p.mark for p in a.paragraphs] == [p.mark for p in b.paragraphs], a.number
    text_words = [w for s in ipg_text.sections for p in s.paragraphs for w in words(p.text)]
    html_words = [w for s in ipg_html.sections for p in s.paragraphs for w in words(p.text)]
    assert text_words == html_words and len(text_words) > 11000


def test_every_heading_the_text_finds_is_bold_in_the_html(ipg_text, ipg_html):
    """Plain text has no bold: its headings come from a list, which the HTML's bold checks."""
    for a, b in zip(ipg_text.sections, ipg_html.sections):
        for p, q in zip(a.paragraphs, b.paragraphs):
            if p.kind == HEADING:
                assert q.kind == HEADING, (a.number, p.text)


def test_every_ipg_infraction_has_its_penalty_and_parts(docs):
    ipg = docs.in_force("ipg")
    infractions = ipg.infractions()
    assert [s.number for s in infractions] == [f"2.{i}" for i in range(1, 7)] + [f"3.{i}" for i in range(1, 10)] + \
        [f"4.{i}" for i in range(1, 9)]
    assert {s.penalty for s in infractions} == {"No Penalty", "Warning", "Game Loss", "Match Loss", "Disqualification"}
    assert ipg.section("2.5").penalty == "Warning" and ipg.section("3.2").penalty == "Match Loss"
    assert ipg.section("4.8").penalty == "Disqualification" and ipg.section("2.1").penalty == "No Penalty"
    reference = quick_reference(ipg)
    assert len(reference) == 23
    for s in infractions:
        assert reference[s.number].replace("None", "No Penalty") == s.penalty
        parts = dict(s.parts)
        assert parts.get("definizione"), s.number  # every infraction is defined
    gr = dict(ipg.section("2.1").parts)
    assert set(gr) >= {"definizione", "esempi", "filosofia", "rimedio", "upgrade"}
    assert gr["esempi"][0].mark == "A." and gr["esempi"][0].kind == ITEM
    assert gr["upgrade"][0].text.startswith("Upgrade:")
    assert dict(ipg.section("3.1").parts)["downgrade"][0].text.startswith("Downgrade: A player who arrives")


def test_the_mtr_has_every_section_of_its_contents(docs):
    mtr = docs.in_force("mtr")
    numbers = [s.number for s in mtr.sections]
    assert numbers[0] == "introduzione" and numbers[-6:] == list("ABCDEF")
    assert "2.5" in numbers and "10.4" in numbers and "1.12" in numbers
    assert [n for n, _ in mtr.toc] == numbers
    assert mtr.section("2.5").title == "Conceding or Intentionally Drawing Games or Matches"
    assert mtr.effective.isoformat() == "2026-02-27"
    assert mtr.section("1.3").paragraphs[3].text == "Floor Judge`"  # the stray backtick, verbatim


def test_hard_line_breaks_are_joined_inside_words_and_ordinals(docs):
    mtr = docs.in_force("mtr")
    text = " ".join(p.text for p in mtr.section("10.4").paragraphs)
    assert "from 1st through 8th. Seeding" in text and "4th place player plays the 5th" in text
    assert "8-player playoff" in text
    ipg = docs.in_force("ipg")
    assert "previously-unknown cards" in " ".join(p.text for p in ipg.section("2.3").paragraphs)


def test_no_page_furniture_is_left(docs):
    for e in docs.all():
        for s in e.sections:
            for p in s.paragraphs:
                assert furniture_in(p.text) is None, (e.path.name, s.number, p.number)
                assert not re.fullmatch(r"\d{1,3}", p.text.strip())
                assert not p.text.startswith("All trademarks")


def test_the_english_checks_pass_and_would_catch_a_lost_section(docs, tmp_path):
    assert [f for f in english_findings(docs) if f.level == "errore"] == []
    # A copy of the IPG without its heading of 3.3: the check names it.
    text = (TORNEI_EN_DIR / "IPG-20240923.txt").read_text(encoding="utf-8")
    broken = tmp_path / "IPG-20240923.txt"
    broken.write_text(text.replace("3.3.      Tournament Error — Slow Play  Warning", "Slow play, heading lost"), encoding="utf-8")
    codes = {f.code for f in check_edition(parse_source(broken))}
    assert "torneo-struttura" in codes


def test_jar_sections_are_its_headings(docs):
    jar = docs.in_force("jar")
    assert [s.number for s in jar.sections] == ["1", "2", "2.1", "2.2", "2.3", "2.4", "2.5", "3", "4", "5"]
    assert jar.section("4").title == "Serious Problems"
    assert jar.section("2.1").title.startswith("A player forgets a triggered ability")
    assert not jar.document.numbered


def test_one_file_per_edition_the_text_one_first():
    names = [p.name for p in source_paths(TORNEI_EN_DIR)]
    assert "IPG-20240923.txt" in names and "IPG-20240923.html" not in names
    assert names.count("MTR-20251110.html") == 1
