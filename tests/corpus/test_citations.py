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


# The defects of issue 11, one by one (the snippet set in tests/data/citazioni.json measures the rest).
@pytest.mark.parametrize("text,expected", [
    ("704.5a e b si applicano", ["704.5a", "704.5b"]),
    ("rules 608.3a and b apply first", ["608.3a", "608.3b"]),
    ("vedi 704.5a/b", ["704.5a", "704.5b"]),
    ("Leggi il capitolo 5. Poi torna qui.", ["5"]),
    ("Nothing in section 9. changes that.", ["9"]),
    ("CR704.5a", ["704.5a"]),
    ("CR 704.5A dice così", ["704.5a"]),
    ("704.5a–704.5c", ["704.5a", "704.5b", "704.5c"]),
    ("_704.5a_ e __regola 704.5b__", ["704.5a", "704.5b"]),
    ("Firefox 115.3 e Chrome 120.0", []),
    ("il server è su 192.168.1.100", []),
    ("100.000 punti", []),
    ("MTR section 4 e la sezione 4 delle MTR", []),
    ("(capitolo 8, 4 giocatori)", ["8"]),
    ("capitoli 7, 8 e 9", ["7", "8", "9"]),
    ("la 704.5g e a quel punto muore", ["704.5g"]),
    ("la 704.5h e i danni", ["704.5h"]),
    ("https://judge.example.it/regole/704.5a", []),
    ("pagato 104.99 € e $120.50", []),
])
def test_issue_11_defects(text, expected):
    assert [n for c in find_citations(text) for n in c.numbers] == expected


@pytest.mark.parametrize("text", ["704.5l e m", "regola 704.5l e m", "travolgere 704.5o/p", "rules 608.3o and p"])
def test_a_letter_the_rules_skip_is_continued_by_none(text):
    """«l» and «o» are no rule's letters: a number ending with one is continued by no letter (the search's
    pages and /api/cerca answered 500 to these)."""
    found = find_citations(text)
    assert len(found) == 1 and found[0].numbers[0][-1] in "lo"


def test_known_filters_bare_numbers_only():
    def known(n):
        return n in {"704.5a", "613", "712"}

    found = find_citations("704.5a, 123.4, regola 999.9, nella 613, nella 999, (712), (999)", known=known)
    assert [n for c in found for n in c.numbers] == ["704.5a", "999.9", "613", "712"]
