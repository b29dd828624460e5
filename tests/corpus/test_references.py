"""Rule references pinned to an edition (judge/corpus/references.py): how holders are read, the
ledger, and the state of the project's own references against the edition in force."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from judge import ROOT
from judge.corpus.adoption import rewrite
from judge.corpus.loading import load_corpus
from judge.corpus.references import (
    LEDGER_FILE,
    OK,
    Pin,
    check,
    editions_named,
    read_ledger,
    scan_text,
    write_ledger,
)

KNOWN = {"20251114", "20260619", "20260925"}


def numbers(text: str, kind: str = "text", known=KNOWN):
    return [(o.number, o.historical) for o in scan_text(text, "x", kind, set(known))]


def test_python_strings_comments_and_names_hold_references_code_does_not():
    src = ('@sba("704.5z")\n'
           "def test_704_5aa_speed():  # 702.179a\n"
           "    x = 100.5 + 310.8\n")
    assert numbers(src, "python") == [("704.5z", ()), ("704.5aa", ()), ("702.179a", ())]


def test_a_name_is_rewritten_in_its_own_form():
    src = "def test_704_5y_roles():\n    pass\n"
    (o,) = scan_text(src, "x", "python", KNOWN)
    assert o.number == "704.5y" and rewrite(src, [(o.start, o.end, o.written("704.5z"))]).startswith(
        "def test_704_5z_roles")


def test_a_line_naming_an_edition_is_historical():
    assert numbers("726.1 nell'edizione del 14 novembre 2025 è oggi 727.1") == [
        ("726.1", ("20251114",)), ("727.1", ("20251114",))]
    assert numbers("704.5y was the Role rule on 19 June 2026") == [("704.5y", ("20260619",))]
    assert numbers("in 20260925 the rule is 704.5z") == [("704.5z", ("20260925",))]
    assert numbers("see 704.5z (1 gennaio 2024 is no edition)") == [("704.5z", ())]


def test_a_file_marker_makes_every_reference_historical():
    text = "# Review\n<!-- riferimenti: edizione 20260619 -->\n\n310.11b was reviewed\n"
    assert numbers(text) == [("310.11b", ("20260619",))]


def test_a_line_marked_as_no_reference_is_skipped():
    assert numbers('assert not valid("999.9")  # riferimenti: nessuno', "python") == []


def test_numbers_that_are_not_rule_numbers():
    assert numbers("version 3.11.7, 100.000 punti, 1.5 s, 704.5a.1, x704.5a, 704.5ab2") == []


def test_editions_named_by_date_in_three_forms():
    assert editions_named("il 19 giugno 2026, June 19, 2026 e 19 June 2026; 20251114") == (
        "20251114", "20260619")


@given(st.permutations(["704.5y", "704.5z", "704.5aa", "310.8"]))
def test_rewrite_is_simultaneous(order):
    """A chain of moves (704.5y → 704.5z, 704.5z → 704.5aa) never collides, whatever the order."""
    text = "a 704.5y b 704.5z c 704.5aa d 310.8"
    moves = {"704.5y": "704.5z", "704.5z": "704.5aa", "704.5aa": "704.5ab", "310.8": "310.9"}
    spans = [(o.start, o.end, moves[o.number]) for o in scan_text(text, "x", "text", KNOWN)]
    spans.sort(key=lambda s: order.index(text[s[0]:s[1]]))
    assert rewrite(text, spans) == "a 704.5z b 704.5aa c 704.5ab d 310.9"


def test_ledger_round_trip(tmp_path):
    pins = {"704.5z": Pin("704.5z", "20260925", "704.5z", "0123456789ab", "If a permanent has more than one Role"),
            "704.5aa": Pin("704.5aa", "20260619", "704.5z", "ba9876543210", "")}
    path = tmp_path / LEDGER_FILE
    write_ledger(path, pins)
    assert read_ledger(path) == pins
    assert path.read_text(encoding="utf-8").index("704.5z\t") < path.read_text(encoding="utf-8").index("704.5aa\t")


def test_a_broken_ledger_line_is_refused_with_its_line(tmp_path):
    path = tmp_path / LEDGER_FILE
    path.write_text("# header\n704.5z\t2026\tx\n", encoding="utf-8")
    with pytest.raises(ValueError, match=":2:"):
        read_ledger(path)


def test_every_reference_of_the_project_is_pinned_and_is_the_rule_it_was_written_for():
    """Engine, scenarios, indexes, glossary, terminology, question sets, templates, tests and docs:
    every number they write exists in the edition in force and, by the fingerprint of its English
    text, is the rule it was written for; nothing moved, changed or unpinned."""
    corpus = load_corpus()
    refs, findings = check(ROOT, corpus.lineage)
    assert len(refs) > 2500
    assert not findings, [str(f) for f in findings[:10]]
    assert all(r.status == OK for r in refs)
    places = {o.path.split("/")[0] for r in refs for o in r.occurrences}
    assert {"judge", "scenarios", "rules_it", "tests", "docs", "templates"} <= places
    engine = {r.number for r in refs for o in r.occurrences if o.path.startswith("judge/engine/")}
    assert {"704.5z", "704.5aa", "704.5w", "310.8"} <= engine


def test_an_italian_thousands_number_is_not_a_reference(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("Misura 978.896 byte; vedi 702.195 e 704.5z.\n", encoding="utf-8")
    refs, _ = check(tmp_path, load_corpus().lineage)
    assert [r.number for r in refs] == ["702.195", "704.5z"]
