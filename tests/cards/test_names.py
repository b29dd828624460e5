"""Name keys (the search's folding and word splitting) as properties."""

from __future__ import annotations

import unicodedata

from hypothesis import given, strategies as st

from judge.cards.names import name_key, name_words, slug

names = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)
latin = st.text(alphabet="abcdefghijklmnopqrstuvwxyzàèéìòùâêîôûäëïöüç '-,", min_size=1, max_size=40)


@given(names)
def test_a_key_is_its_own_key(text):
    assert name_key(name_key(text)) == name_key(text)


@given(latin)
def test_case_and_accents_do_not_change_the_key(text):
    stripped = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    assert name_key(text.upper()) == name_key(text) == name_key(stripped)


@given(latin)
def test_a_slug_stands_for_its_name(text):
    s = slug(text)
    assert name_key(s) == name_key(text)
    assert " " not in s and s == s.lower()


@given(st.lists(st.sampled_from(["-", "'", ",", " ", "  ", ":", "!"]), min_size=1, max_size=3))
def test_punctuation_is_a_word_break(seps):
    assert name_words("lim" + "".join(seps) + "dul") == ["lim", "dul"]


def test_ligatures_are_spelled_out():
    assert name_key("Æther Vial") == name_key("aether vial") == "aether vial"
