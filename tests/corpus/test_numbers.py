import pytest
from hypothesis import given, strategies as st

from judge.corpus.numbers import SUBRULE_LETTERS, RuleNumber, RuleNumberError, letters_at, letters_index, sort_key

letters = st.text(alphabet=SUBRULE_LETTERS, min_size=0, max_size=2)
numbers = st.builds(
    lambda sec, rule, let: RuleNumber(sec, rule, let if rule is not None else ""),
    st.integers(100, 999), st.one_of(st.none(), st.integers(1, 300)), letters,
)


@given(numbers)
def test_parse_round_trips(num):
    assert RuleNumber.parse(str(num)) == num
    assert RuleNumber.parse_loose(str(num).upper()) == num


@given(numbers, numbers)
def test_order_is_numeric_then_alphabetical(a, b):
    # Sorting by key agrees with comparing the parts as numbers.
    def parts(n):
        return (n.section, -1 if n.rule is None else n.rule, len(n.letters), letters_index(n.letters) if n.letters else 0)

    assert (a < b) == (parts(a) < parts(b))


def test_examples_of_order():
    ordered = ["7", "703", "703.1", "703.1a", "703.2", "703.4", "703.4k", "703.4m", "703.4z", "703.4aa", "703.10", "704"]
    assert sorted(reversed(ordered), key=sort_key) == ordered


def test_letters_skip_l_and_o():
    assert "l" not in SUBRULE_LETTERS and "o" not in SUBRULE_LETTERS
    assert letters_at(letters_index("k") + 1) == "m"
    assert letters_at(letters_index("n") + 1) == "p"
    assert RuleNumber.parse("704.5l").has_forbidden_letters
    assert not RuleNumber.parse("704.5m").has_forbidden_letters


def test_parents():
    assert str(RuleNumber.parse("703.4d").parent) == "703.4"
    assert str(RuleNumber.parse("703.4").parent) == "703"
    assert RuleNumber.parse("703").parent is None
    assert RuleNumber.parse("703.4d").chapter == 7


@pytest.mark.parametrize("text,expected", [
    ("704.5A", "704.5a"), ("7045a", "704.5a"), ("CR 704.5a", "704.5a"), (" regola 121.4 ", "121.4"),
    ("704.5a.", "704.5a"), ("703", "703"), ("r704.5a", "704.5a"), ("704,5a", "704.5a"), ("regola 121,4", "121.4"),
])
def test_loose_parsing(text, expected):
    assert str(RuleNumber.parse_loose(text)) == expected


@pytest.mark.parametrize("text", ["", "abc", "70", "704.x", "1000.1", "704.5abc", "<script>", "704..5", "０７０４"])
def test_malformed_numbers_raise_an_italian_error(text):
    with pytest.raises(RuleNumberError) as exc:
        RuleNumber.parse(text)
    assert "non è un numero di regola valido" in str(exc.value)
