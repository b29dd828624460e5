"""The tournament documents' translation: the file format, the skeletons, and a translated
paragraph flagged when its English changes (a planted edition)."""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.corpus.findings import ERROR
from judge.corpus.translation import english_hash
from judge.tournament.loading import TORNEI_EN_DIR, TORNEI_IT_DIR, load_documents
from judge.tournament.terminology import combined_terminology
from judge.tournament.translation import TITLE_ID, parse_file, refresh, render, skeleton
from judge.tournament.translation_checks import check_translations
from judge.tournament.view import load_translations, section_view

EXAMPLE = TORNEI_IT_DIR / "ipg" / "2.4.md"
PLANTED = "20250101"


def plant(tmp_path, change):
    """A copy of tornei_en/ with a newer IPG: the one in force with ``change`` applied to its text."""
    folder = tmp_path / "tornei_en"
    shutil.copytree(TORNEI_EN_DIR, folder)
    text = (TORNEI_EN_DIR / "IPG-20240923.txt").read_text(encoding="utf-8")
    changed = change(text.replace("Effective September 23, 2024", "Effective January 1, 2025"))
    assert changed != text
    (folder / f"IPG-{PLANTED}.txt").write_text(changed, encoding="utf-8")
    return folder


def test_a_skeleton_has_every_paragraph_with_its_marker_and_an_empty_slot(tmp_path):
    ipg = load_documents().in_force("ipg")
    section = ipg.section("2.1")
    path = tmp_path / "2.1.md"
    path.write_text(render(skeleton(ipg, section), ipg), encoding="utf-8")
    st = parse_file(path)
    assert [u.number for u in st.units] == [TITLE_ID, *range(1, len(section.paragraphs) + 1)]
    assert all(u.italian == "" for u in st.units)
    assert [u.english for u in st.units[1:]] == [p.text for p in section.paragraphs]
    assert all(u.stamp.hash == english_hash(u.english) and u.stamp.edition == "20240923" for u in st.units)
    assert "## ¶16 · voce A." in path.read_text(encoding="utf-8")


def test_the_committed_skeletons_cover_every_section_in_force():
    docs = load_documents()
    for doc in ("mtr", "ipg", "jar"):
        edition = docs.in_force(doc)
        for s in edition.sections:
            st = parse_file(TORNEI_IT_DIR / doc / f"{s.number}.md")
            assert len(st.units) == len(s.paragraphs) + 1, (doc, s.number)


def test_the_worked_example_is_translated_current_and_faithful():
    st = parse_file(EXAMPLE)
    report = check_translations([st], load_documents(), combined_terminology())
    assert [f for f in report.findings if f.file.endswith("2.4.md")] == []
    assert report.done["ipg"] == len(st.units)
    view = section_view("ipg", "2.4")
    assert view.translated == len(view.paragraphs) and view.stale == 0
    assert view.it_label == "Traduzione del progetto · 23 settembre 2024"


def test_a_translated_paragraph_is_flagged_when_its_english_changes(tmp_path):
    folder = plant(tmp_path, lambda t: t.replace("The player takes an additional mulligan.",
                                                   "The player takes two additional mulligans."))
    docs = load_documents(folder)
    assert docs.in_force("ipg").id == PLANTED
    report = check_translations([parse_file(EXAMPLE)], docs, combined_terminology())
    stale = [f for f in report.findings if f.code == "traduzione-da-aggiornare"]
    assert len(stale) == 1 and "¶10" in stale[0].message
    assert "[-an-]" in stale[0].message and "{+two+}" in stale[0].message  # the English's word diff
    assert stale[0].related == ("20240923", PLANTED)
    assert not report.errors
    view = section_view("ipg", "2.4", docs=docs, translations=load_translations())
    flags = {p.number: p.it.current for p in view.paragraphs}
    assert flags[10] is False and all(flags[n] for n in flags if n != 10)


def test_a_paragraph_added_before_a_translated_one_moves_it(tmp_path):
    folder = plant(tmp_path, lambda t: t.replace(
        "Philosophy \nErrors prior to the beginning",
        "Philosophy \nA new paragraph about mulligans. \n \nErrors prior to the beginning"))
    docs = load_documents(folder)
    report = check_translations([parse_file(EXAMPLE)], docs, combined_terminology())
    moved = [f for f in report.findings if f.code == "traduzione-spostata"]
    assert [f.related for f in moved] == [("9",), ("10",), ("11",)]
    view = section_view("ipg", "2.4", docs=docs, translations=load_translations())
    assert view.paragraphs[7].it is None  # the new ¶8: nothing translates it
    assert view.paragraphs[8].it.text.startswith("Gli errori commessi prima") and view.paragraphs[8].it.current


def test_missing_italian_is_a_warning_and_a_wrong_one_an_error(tmp_path):
    ipg = load_documents().in_force("ipg")
    st = skeleton(ipg, ipg.section("2.2"))
    st.units[2].italian = "Un giocatore guarda carte in più."  # ¶2, far shorter and without its terms
    path = tmp_path / "ipg" / "2.2.md"
    path.parent.mkdir()
    path.write_text(render(st, ipg), encoding="utf-8")
    report = check_translations([parse_file(path)], load_documents(), combined_terminology())
    mine = [f for f in report.findings if f.file == "ipg/2.2.md"]
    assert any(f.code == "traduzione-mancante" and f.level == "avviso" for f in mine)
    assert {f.code for f in mine if f.level == "errore"} >= {"traduzione-breve"}


def test_refreshing_a_file_never_touches_a_translated_unit(tmp_path):
    folder = plant(tmp_path, lambda t: t.replace("The player takes an additional mulligan.",
                                                   "The player takes two additional mulligans."))
    edition = load_documents(folder).in_force("ipg")
    st = parse_file(EXAMPLE)
    before = {u.number: (u.italian, u.stamp) for u in st.units}
    assert refresh(st, edition, edition.section("2.4")) == []  # all translated: nothing to bring up to date
    assert {u.number: (u.italian, u.stamp) for u in st.units} == before
    st.units[-1].italian = ""  # untranslated: brought to the new English
    assert refresh(st, edition, edition.section("2.4")) == ["¶10"]
    assert st.units[-1].english == "The player takes two additional mulligans."


def test_the_skeleton_command_prints_and_never_overwrites():
    runner = CliRunner()
    out = runner.invoke(main, ["tornei", "bozza", "ipg", "--sezione", "2-4"])
    assert out.exit_code == 0 and "> The player takes an additional mulligan." in out.output
    before = EXAMPLE.read_text(encoding="utf-8")
    out = runner.invoke(main, ["tornei", "bozza", "ipg", "--sezione", "2.4", "--scrivi"])
    assert out.exit_code == 0 and EXAMPLE.read_text(encoding="utf-8") == before
    out = runner.invoke(main, ["tornei", "bozza", "ipg", "--sezione", "9.9"])
    assert out.exit_code != 0 and "non esiste" in out.output


def test_the_check_command_on_one_file():
    out = CliRunner().invoke(main, ["tornei", "verifica", str(EXAMPLE)])
    assert out.exit_code == 0 and "0 errori" in out.output


def _with_italian(st, number, italian):
    import dataclasses
    st.units = [dataclasses.replace(u, italian=italian) if u.number == number else u for u in st.units]
    return st


def test_a_card_name_copied_as_written_is_not_judged_as_a_translation():
    """MTR 6.5 lists «Flash» and 6.3 «This Town Ain't Big Enough»: names, not a term or a negation."""
    docs, terms = load_documents(), combined_terminology()
    for section, word in (("6.5", "Flash"), ("6.3", "This Town Ain’t Big Enough")):
        st = parse_file(TORNEI_IT_DIR / "mtr" / f"{section}.md")
        unit = next(u for u in st.units if u.english.strip() == word)
        report = check_translations([_with_italian(st, unit.number, word)], docs, terms)
        assert [f for f in report.findings if f.level == ERROR] == [], word


def test_a_sentence_copied_as_written_is_still_untranslated():
    docs, terms = load_documents(), combined_terminology()
    st = parse_file(TORNEI_IT_DIR / "ipg" / "2.4.md")
    unit = next(u for u in st.units if len(u.english.split()) > 8)
    report = check_translations([_with_italian(st, unit.number, unit.english)], docs, terms)
    assert any(f.code == "traduzione-inglese" for f in report.findings)


def test_an_interjection_is_not_a_negation_the_italian_must_keep():
    """IPG 4.3: "Oh no, we're going to draw…" is an exclamation; a real negation is still checked."""
    docs, terms = load_documents(), combined_terminology()
    st = parse_file(TORNEI_IT_DIR / "ipg" / "4.3.md")
    said = next(u for u in st.units if "“Oh no," in u.english)
    italian = "Un giocatore dice «Oh no, finiremo in pareggio, è terribile per noi. Se solo ci fosse qualcosa che potessimo fare.»"
    report = check_translations([_with_italian(st, said.number, italian)], docs, terms)
    assert [f for f in report.findings if f.level == ERROR] == []
    negated = next(u for u in st.units if " not excluded " in u.english)
    assert "non sono esclusi" in negated.italian
    positive = negated.italian.replace("non sono esclusi", "sono inclusi")
    report = check_translations([_with_italian(st, negated.number, positive)], docs, terms)
    assert any(f.code == "traduzione-modale" for f in report.findings)


def test_only_an_exclamation_loses_its_no():
    from judge.tournament.translation_checks import _compared

    assert _compared(["A player says “Oh no, we lost.”"]) == "A player says “Oh, we lost.”"
    assert _compared(["Ah no! Wait."]) == "Ah! Wait."
    assert _compared(["Oh, no cards are revealed."]) == "Oh, no cards are revealed."
