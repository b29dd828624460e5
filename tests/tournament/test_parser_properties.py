"""Property tests of the paragraph rebuilding: any paragraphs, hard-wrapped and cut by page
breaks with their page numbers, come back as they were."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.tournament.extract import text_lines
from judge.tournament.numbers import normalise_section, parse_reference
from judge.tournament.structure import paragraphs, usual_width

WIDTH = 80
word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)
sentence = st.lists(word, min_size=3, max_size=14).map(lambda ws: " ".join([ws[0].capitalize(), *ws[1:]]) + ".")
paragraph = st.lists(sentence, min_size=6, max_size=12).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(paragraph, sentence), min_size=2, max_size=8), st.data())
def test_wrapped_paragraphs_cut_by_pages_come_back(texts, data):
    """A page break may come after any full line, or after a paragraph's last (short) line."""
    printed = []
    for body, last in texts:
        lines = textwrap.wrap(body, WIDTH, break_long_words=False, break_on_hyphens=False)
        printed.append(lines + textwrap.wrap(last, WIDTH // 2, break_long_words=False)[:1])
    expected = [" ".join(lines) for lines in printed]
    out = []
    page = 1
    for k, lines in enumerate(printed):
        if k:
            out.append("")
        for i, line in enumerate(lines):
            out.append(line + " ")
            breakable = i == len(lines) - 1 or len(line) >= 0.85 * WIDTH
            if breakable and data.draw(st.integers(0, 3), label="page break here") == 0:
                page += 1
                out += [f" {page} ", " ", ""]
    ex = text_lines("\n".join(out))
    width = usual_width(ex.lines)
    got = paragraphs(ex.lines, width, frozenset())
    assert [p.text for p in got] == expected


@given(st.integers(1, 12), st.integers(1, 20), st.sampled_from([".", "-", " . ", "_", ",", "/"]))
def test_section_numbers_are_read_in_any_usual_form(a, b, sep):
    assert normalise_section(f"{a}{sep}{b}") == f"{a}.{b}"
    assert normalise_section(f" {a} ") == str(a)


@given(st.sampled_from(["MTR", "mtr", "Mtr"]), st.sampled_from(["", " ", "  "]), st.integers(1, 10), st.integers(1, 16))
def test_references_name_their_document_and_section(doc, space, a, b):
    assert parse_reference(f"{doc}{space}{a}.{b}") == ("mtr", f"{a}.{b}")
    assert parse_reference(f"{doc} appendice b") == ("mtr", "B")
    assert parse_reference("JAR") == ("jar", None)
    assert parse_reference("CR 704.5a") is None
