import pytest
from hypothesis import given, strategies as st

from judge.corpus.citations import as_rule_query, cited_numbers, find_citations


@pytest.mark.parametrize("text,expected", [
    ("Vedi regola 502.1.", [("502.1", ["502.1"])]),
    ('Vedi regola 701.49, "Roll to visit your attractions".', [("701.49", ["701.49"])]),
    ("regole 601.2a–d", [("601.2a–d", ["601.2a", "601.2b", "601.2c", "601.2d"])]),
    ("Vedi sezione 8, “Regole del Multiplayer”.", [("8", ["8"])]),
    ("See rule 704.5a.", [("704.5a", ["704.5a"])]),
    ("rules 510.1c–d", [("510.1c–d", ["510.1c", "510.1d"])]),
    ("CR 704.5a dice", [("704.5a", ["704.5a"])]),
    ("rules 608.2c–m", [("608.2c–m", ["608.2c", "608.2d", "608.2e", "608.2f", "608.2g", "608.2h", "608.2i", "608.2j", "608.2k", "608.2m"])]),
    ("rules 119.7–8", [("119.7–8", ["119.7", "119.8"])]),
    ("regole 502.1, 502.2 e 502.3", [("502.1", ["502.1"]), ("502.2", ["502.2"]), ("502.3", ["502.3"])]),
    ("rules 608.3a and b.", [("608.3a", ["608.3a"]), ("b", ["608.3b"])]),
    ("Vedere la regola 810, \"Variante Two-Headed Giant\".", [("810", ["810"])]),
    ("except as specified in 101.4a.", [("101.4a", ["101.4a"])]),
    ("ho 20 punti vita, 3.5 carte e 100 pedine", []),
])
def test_citations_in_both_languages(text, expected):
    found = find_citations(text)
    assert [(c.text, list(c.numbers)) for c in found] == expected
    for c in found:
        assert text[c.start:c.end] == c.text


def test_keyword_is_recorded():
    (c,) = find_citations("vedi regola 121.4")
    assert c.keyword == "regola"
    assert find_citations("CR 704.5a")[0].keyword == "CR"


@given(st.text(max_size=300))
def test_any_text_gives_consistent_spans(text):
    found = find_citations(text)
    last_end = -1
    for c in found:
        assert 0 <= c.start < c.end <= len(text)
        assert text[c.start:c.end] == c.text
        assert c.start >= last_end
        last_end = c.end
        assert c.numbers


@given(
    st.text(alphabet="abcdefghi ,;:", max_size=40),
    st.integers(100, 999), st.integers(1, 99), st.sampled_from(["", "a", "b", "k", "m", "z"]),
    st.text(alphabet="abcdefghi ,;:", max_size=40),
)
def test_a_citation_inside_text_is_found(before, sec, rule, letter, after):
    number = f"{sec}.{rule}{letter}"
    text = f"{before} regola {number} {after}"
    assert number in cited_numbers(text)


@pytest.mark.parametrize("query,expected", [
    ("704.5a", "704.5a"), ("cr 704.5a", "704.5a"), ("regola 121.4", "121.4"), ("7045A", "704.5a"),
    ("rule 704.5a", "704.5a"), ("grimorio vuoto", None), ("quanti punti vita in commander", None),
    ("regola 704.5a e pila", None),
])
def test_rule_queries(query, expected):
    assert as_rule_query(query) == expected
