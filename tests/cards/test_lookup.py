"""Look-up of cards by name: Italian, English, any case or accents, typos; exact names for the
scenario format; the card a search query names."""

from __future__ import annotations

import pytest

from judge.cards import lookup


@pytest.mark.parametrize("typed, english, lang", [
    ("Orso Grizzly", "Grizzly Bears", "it"),        # Italian name
    ("orso grizly", "Grizzly Bears", "it"),         # Italian with a typo
    ("ORSO  GRIZZLY", "Grizzly Bears", "it"),       # case and spaces
    ("serra angel", "Serra Angel", "en"),           # English, lower case
    ("Angelo di Sera", "Serra Angel", "it"),        # Italian name of the same card, typo
    ("tarmogoyf", "Tarmogoyf", "en"),
    ("tramogoyf", "Tarmogoyf", "en"),               # swapped letters
    ("tarmogoif", "Tarmogoyf", "en"),               # a wrong letter
    ("lim dul s vault", "Lim-Dûl's Vault", "en"),   # accents and punctuation
    ("Aether Vial", "Aether Vial", "en"),
    ("baneslayer", "Baneslayer Angel", "en"),        # the start of a name, as one types
])
def test_find_puts_the_card_first(table, typed, english, lang):
    best = lookup.find(typed, 5, table)[0]
    assert best.face.name == english
    assert best.lang == lang


def test_exact_ignores_case_accents_and_punctuation_but_not_typos(table):
    assert [m.face.name for m in lookup.exact("LIM DUL'S VAULT", table)] == ["Lim-Dûl's Vault"]
    assert [m.face.name for m in lookup.exact("orso grizzly", table)] == ["Grizzly Bears"]
    assert lookup.exact("orso grizly", table) == []


def test_an_italian_name_of_two_cards_asks_for_the_english(table):
    assert sorted(m.face.name for m in lookup.exact("Abbattere", table)) == ["Bring Low", "Flatten"]
    with pytest.raises(lookup.CardNotFound) as e:
        lookup.resolve("Abbattere", table)
    assert "Bring Low, Flatten" in e.value.message and "nome inglese" in e.value.message


def test_an_unknown_name_lists_the_nearest(table):
    with pytest.raises(lookup.CardNotFound) as e:
        lookup.resolve("Orso Grizly", table)
    assert e.value.message.startswith("carta sconosciuta «Orso Grizly»")
    assert e.value.nearest[0] == "Orso Grizzly"


def test_named_is_a_whole_name_or_a_small_typo_never_a_prefix(table):
    assert [m.face.name for m in lookup.named("orso grizly", table)] == ["Grizzly Bears"]
    assert [m.face.name for m in lookup.named("Tarmogoyf", table)] == ["Tarmogoyf"]
    assert lookup.named("tarmo", table) == []               # only the start of a name
    assert lookup.named("grimorio vuoto", table) == []      # rules words, no card
    assert lookup.named("704.5a", table) == []


def test_suggestions_need_two_letters_and_never_half_matches(table):
    assert lookup.suggest("o", table=table) == []
    found = lookup.suggest("orso gri", 8, table)
    assert found and found[0].face.name == "Grizzly Bears"
    assert all(m.tier < 3 for m in found)


def test_by_slug_is_the_english_name_only(table):
    assert lookup.by_slug("grizzly-bears", table).name == "Grizzly Bears"
    assert lookup.by_slug("orso-grizzly", table) is None


@pytest.mark.parametrize("typed, english", [
    ("Fire // Ice", "Fire"),                                         # a split card by its whole name
    ("fire/ice", "Fire"),
    ("Brazen Borrower // Petty Theft", "Brazen Borrower"),          # an adventurer
    ("Delver of Secrets // Insectile Aberration", "Delver of Secrets"),  # a double-faced card
    ("Fuoco // Ghiaccio", "Fire"),                                   # the whole Italian name
])
def test_a_multi_part_name_written_in_full_is_its_first_part(table, typed, english):
    found = lookup.exact(typed, table)
    assert [m.face.name for m in found] == [english] and found[0].exact
    assert " // " in found[0].name                                   # shown as it was asked for
    assert lookup.resolve(typed, table).name == english
    assert lookup.find(typed, 3, table)[0].face.name == english
    assert [m.face.name for m in lookup.named(typed, table)] == [english]


@pytest.mark.parametrize("typed, english", [
    ("Yawgmoths Will", "Yawgmoth's Will"),                           # the apostrophe dropped
    ("yawgmoths will", "Yawgmoth's Will"),
    ("Slo Ring", "Sol Ring"),                                        # a short first word misspelt
    ("Fgo Bank", "Fog Bank"),
    ("Obr of Dreams", "Orb of Dreams"),
])
def test_common_slips_find_the_card(table, typed, english):
    assert lookup.find(typed, 3, table)[0].face.name == english
    assert [m.face.name for m in lookup.named(typed, table)] == [english]


def test_a_short_word_alone_is_not_corrected(table):
    """Three letters are one edit from too many words: alone, «Slo» completes, it is not corrected."""
    assert all(m.tier != 2 or m.edits == 0 for m in lookup.find("slo", 5, table))
