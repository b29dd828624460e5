"""Jargon that lands: headwords and jargon lead to their rules first, rules that are only a name rank
below the rules that answer, a quick answer when an index entry holds the question, and the two
meanings of a word that has two (the figures: tests/search/test_relevance.py and docs/ricerca.md)."""

from __future__ import annotations

import pytest

from judge.search import answers
from judge.search.analysis import terms
from judge.search.answers import ambiguous_words, entry_terms, load_meanings, parse_meanings
from judge.search.headwords import Headwords
from judge.search.glossary import get_glossary


def ranked(engine, q, n=5):
    return [h.number for h in engine.search(q).hits[:n]]


@pytest.mark.parametrize("q", ["layer", "layers", "Layer"])
def test_layer_leads_to_613(engine, q):
    assert ranked(engine, q)[0].startswith("613.")
    assert all(n.startswith("613") for n in ranked(engine, q, 3))


def test_etb_leads_to_603_6a(engine):
    assert ranked(engine, "ETB")[0] == "603.6a"
    assert ranked(engine, "etb")[0] == "603.6a"


def test_a_rule_that_is_only_a_name_ranks_below_the_rules_that_answer(engine):
    top = ranked(engine, "tocco letale e travolgere", 10)
    assert "702.19b" in top[:3]
    for name_only in ("702.2", "702.19"):
        assert name_only not in top or top.index(name_only) > top.index("702.19b")


def test_an_entry_keeps_one_tuple_of_its_distinct_terms(corpus):
    """Memory: an analytic index entry's terms are kept once, as a tuple of distinct strings that every
    rule it points to shares (frozensets in an LRU cache of their own held 6 MB after 10,000 searches)."""
    for lang, index in corpus.analytic_indexes.items():
        entry = next(e for e in index.entries if len(e.rules) > 1)
        held = entry_terms(index, entry.text)
        assert isinstance(held, tuple) and len(set(held)) == len(held)
        assert set(held) == set(terms(entry.text, lang))
        for n in entry.rules:
            assert [t for text, t in answers._entries(index, n) if text == entry.text] == [held]
            assert all(t is held for text, t in answers._entries(index, n) if text == entry.text)


def test_headwords_weigh_rules_by_their_share_of_entries(corpus):
    hw = Headwords.build(corpus, get_glossary(corpus=corpus))
    etb = hw.rules_for("ETB")
    assert etb["603.6a"] == 1.0 and 0 < min(etb.values())
    # A headword as written is taken alone; the stems alone gather both meanings of «livello».
    livelli = hw.rules_for("livelli")
    assert livelli and all(n.startswith("613") for n in livelli)
    livello = hw.rules_for("livello")
    assert any(n.startswith("613") for n in livello) and any(n.startswith("711") for n in livello)
    # Jargon notes count: «fizzle» names 608.2b.
    assert hw.rules_for("fizzle").get("608.2b") == 1.0


def test_quick_answer_when_an_index_entry_holds_the_question(engine):
    r = engine.search("ETB")
    assert r.answer is not None and r.answer.number == "603.6a" and r.answer.entry.startswith("ETB:")
    assert r.as_json()["risposta"]["regola"] == "603.6a"
    r = engine.search("quanti punti vita in commander")
    assert r.answer is not None and r.answer.number == r.hits[0].number
    # A headword with many equal rules («layers»: every layer) gets no card, nor does a word with no entry.
    assert engine.search("layer").answer is None
    assert engine.search("zzzz").answer is None


def test_a_word_with_two_meanings_lists_both_and_their_rules(engine, corpus):
    r = engine.search("livelli")
    assert [a.word for a in r.ambiguous] == ["livelli"]
    meanings = r.ambiguous[0].meanings
    assert len(meanings) == 2 and {"613.1", "711.1"} <= {n for m in meanings for n in m.rules}
    assert r.as_json()["significati"][0]["parola"] == "livelli"
    assert engine.search("livellatore").ambiguous == []
    assert engine.search("counter").ambiguous[0].word == "counter"


def test_meanings_file_is_well_formed_and_cites_rules_in_force(corpus):
    table = load_meanings()
    assert table
    for word, meanings in table.items():
        assert len(meanings) >= 2, word
        for m in meanings:
            assert m.rules and all(n in corpus for n in m.rules), (word, m)
            assert m.meaning and m.search
    with pytest.raises(ValueError):
        parse_meanings("parole\tsignificato\tregole\tricerca\nsolo\tdue campi\n")


def test_ambiguous_words_are_found_as_typed():
    assert [a.word for a in ambiguous_words("In che LIVELLO si applica?")] == ["livello"]
    assert ambiguous_words("livellatore") == []
