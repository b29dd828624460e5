"""The rules a card's rulings speak of (judge/search/card_rulings.py) and how a question naming the
card brings them."""

import random
import string

from hypothesis import given
from hypothesis import strategies as st

from judge.cards.table import load_table
from judge.search.card_rulings import RULINGS_RULES_FILE, parse, paused, ruling_rules
from judge.search.card_rulings_write import build, write
from judge.search.named_cards import RULING, named_cards

SAMPLE = ("Tarmogoyf", "Blood Moon", "Humility", "Necropotence")


def test_a_question_naming_a_card_brings_the_rules_its_rulings_speak_of(corpus):
    spoken = ruling_rules("Tarmogoyf")
    assert "604.3" in spoken  # «Tarmogoyf's ability works in all zones»: a characteristic-defining ability
    found = named_cards("Tarmogoyf conta i tipi nei cimiteri quando è in pila?", corpus, lambda w: False)
    assert [c.face.name for c in found.cards] == ["Tarmogoyf"]
    for n in spoken:
        assert found.rules[n] >= RULING, n


def test_the_file_is_what_the_search_in_force_finds_for_the_rulings(engine):
    """The file is derived data: when the search or the edition changes what a ruling finds, this
    fails until `python -m judge.search.card_rulings_write` writes it again."""
    table = load_table()
    kept = parse(RULINGS_RULES_FILE.read_text(encoding="utf-8"))
    # Four cards known, and 60 drawn with a fixed seed: a change of the search's weights that moves a ruling's
    # first rule moves many (the memory's weight for a full question, 0.6 -> 0.8, changed 2,835 of 9,940 cards).
    names = [*SAMPLE, *random.Random(36).sample(sorted(kept), 60)]
    assert build(engine, table, names) == {name: kept[name] for name in names}


def test_the_file_names_cards_with_rulings_and_rules_in_force(corpus):
    kept = parse(RULINGS_RULES_FILE.read_text(encoding="utf-8"))
    with_rulings = set(load_table().names_with_rulings())
    assert len(kept) > 9000
    assert set(kept) <= with_rulings
    assert all(n in corpus for rules in kept.values() for n in rules)
    assert all(len(set(rules)) == len(rules) > 0 for rules in kept.values())


def test_while_the_file_is_written_its_own_rules_do_not_steer_the_search():
    assert ruling_rules("Tarmogoyf")
    with paused():
        assert ruling_rules("Tarmogoyf") == ()
    assert ruling_rules("Tarmogoyf")


names = st.text(alphabet=string.ascii_letters + " ',-", min_size=1, max_size=30).map(str.strip).filter(
    lambda s: s and s != "carta")
numbers = st.from_regex(r"[1-9][0-9]{2}\.[1-9][0-9]?[a-k]?", fullmatch=True)


@given(st.dictionaries(names, st.lists(numbers, min_size=1, max_size=5, unique=True).map(tuple), max_size=8))
def test_written_and_read_back_unchanged(tmp_path_factory, found):
    path = tmp_path_factory.mktemp("sentenze") / "sentenze_regole.tsv"
    write(found, path)
    assert parse(path.read_text(encoding="utf-8")) == found
