"""Magic notation is text, rule references take the Italian decimal comma, punctuation never empties a result."""

import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge.search.analysis import terms, words
from judge.search.syntax import parse, with_rule_dots


def numbers(result):
    return [h.number for h in result.hits]


# -- analysis and parsing ------------------------------------------------------------------------

@pytest.mark.parametrize("text, token", [
    ("put a +1/+1 counter", "+1/+1"), ("segnalini -1/-1", "-1/-1"), ("una creatura X/X", "x/x"),
    ("{T}: aggiungi", "{t}"), ("paga {W/P}", "{w/p}"), ("una pedina 2/2", "2/2"), ("forza */*", "*/*"),
])
def test_notation_is_one_unstemmed_token_in_both_languages(text, token):
    assert token in terms(text, "it") and token in terms(text, "en")
    assert token in words(text)


def test_a_sign_is_an_operator_only_before_a_word():
    [[item]] = parse("-1/-1")
    assert (item.words, item.mode) == (["-1/-1"], "should")
    [[a, b]] = parse("segnalini +1/+1")
    assert b.words == ["+1/+1"] and b.mode == "should"
    [[a, b]] = parse("pila -mana")
    assert (b.words, b.mode) == (["mana"], "not")
    [[a, b]] = parse("pila +mana")
    assert (b.words, b.mode) == (["mana"], "must")
    assert [(i.words, i.mode) for i in parse("-{T} -3 -")[0]] == [(["{t}"], "should"), (["3"], "should")]


@pytest.mark.parametrize("q, expected", [
    ("704,5a", "704.5a"), ("704.5 a", "704.5a"), ("regola 704,5a", "regola 704.5a"), ("704,5", "704.5"),
    ("vedi 704,5a e 704,5b", "vedi 704.5a e 704.5b"), ("3,5 punti", "3,5 punti"), ("regola 702.19 e 702.19b", "regola 702.19 e 702.19b"),
])
def test_rule_dots(q, expected):
    assert with_rule_dots(q) == expected


# -- the engine ----------------------------------------------------------------------------------

@pytest.mark.parametrize("q, n", [
    ("704,5a", "704.5a"), ("704.5 a", "704.5a"), ("regola 704,5a", "704.5a"), ("CR 704,5A", "704.5a"),
    ("regola 704.5 a", "704.5a"), ("702,19b", "702.19b"),
])
def test_italian_decimal_comma_and_spaced_letter_go_to_the_rule(engine, q, n):
    r = engine.search(q)
    assert r.rule == n and numbers(r) == [n]


def test_comma_reference_inside_text_ranks_that_rule_first(engine):
    assert numbers(engine.search("vedi 704,5a punti vita"))[0] == "704.5a"


@pytest.mark.parametrize("q, token", [("-1/-1", "-1/-1"), ("+1/+1", "+1/+1"), ("{T}", "{T}"), ("{Q}", "{Q}"), ("0/0", "0/0")])
def test_notation_finds_rules_that_write_it(engine, q, token):
    """Each hit writes the notation: in its text, its examples, or the analytic index entry that
    matched ("summoning sickness: without {T} or {Q}" for a rule that says "the untap symbol")."""
    hits = engine.search(q, per_page=5).hits
    assert hits, q
    for h in hits:
        en = engine.corpus.get(h.number).en
        written = " ".join([h.text, en.text, *en.examples, h.index_entry]).lower()
        assert token.lower() in written, (q, h.number)


def test_notation_with_words(engine):
    # Words and notation together: the rules that have both come first.
    top = engine.search("segnalini -1/-1 avvizzire", per_page=3).hits[0]
    assert "-1/-1" in engine.corpus.get(top.number).en.text


def test_notation_the_rules_never_write_falls_back_to_its_words(engine):
    assert engine.search("creatura X/X").hits
    assert engine.search("{vu} grimorio").hits


def test_strict_syntax_that_finds_nothing_is_relaxed_with_a_note(engine):
    strict = engine.search('"grimorio travolgere"')
    assert strict.hits and any("senza vincoli" in n for n in strict.notes)
    assert engine.search("grimorio AND pedina AND dungeon AND planechase").hits
    # A phrase that exists stays strict (no note).
    assert not engine.search('"grimorio vuoto"').notes


# -- properties ------------------------------------------------------------------------------------

WORDS = ["grimorio", "vuoto", "travolgere", "priorità", "creatura", "mana", "commander", "pila", "segnalini"]
PUNCTUATION = string.punctuation + " «»“”‘’…–—·¡¿"


def _decorated(parts: list[str], seps: list[str]) -> str:
    """The words with punctuation around and between them (between: at least one character)."""
    out = []
    for i, (sep, word) in enumerate(zip(seps, parts)):
        sep = sep or (" " if i else "")
        if sep.endswith(("-", "+")):
            sep += " "  # a sign right before a word is the exclude/require operator, by design
        out.append(sep + word)
    return "".join(out) + seps[-1]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.lists(st.text(alphabet=PUNCTUATION, max_size=4), min_size=4, max_size=4),
)
def test_property_punctuation_alone_never_empties_a_result(engine, parts, seps):
    q = _decorated(parts, seps)
    r = engine.search(q)
    assert r.hits, f"no result for {q!r}"


PT_PART = st.one_of(st.integers(0, 20).map(str), st.sampled_from(["X", "x", "*"]))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["", "+", "-", "−", "–"]), PT_PART, st.sampled_from(["", "+", "-"]), PT_PART,
       st.sampled_from(WORDS))
def test_property_power_toughness_is_never_an_operator(engine, s1, a, s2, b, word):
    pt = f"{s1}{a}/{s2}{b}"
    [[first, *_]] = parse(f"{pt} {word}")
    assert first.mode == "should"
    r = engine.search(f"{word} {pt}")
    assert r.hits, f"no result for {word} {pt}"
