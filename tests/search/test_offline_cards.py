"""The offline index's cards (judge/search/offline_cards.py) against the server's: for questions that
name a card, the card the server finds and its candidate rules are the offline section's, weights and
all (the browser's reading of the section, with the network cut: tests/e2e/test_offline.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge.cards.names import name_key
from judge.cards.table import load_table
from judge.search.analysis import ALL_STOPS
from judge.search import question
from judge.search.named_cards import named_cards
from judge.search.offline_cards import ALWAYS, NEVER, TYPED_AS_NAME, build_cards, counts_as

BLIND = Path(__file__).with_name("questions_blind.json")


@pytest.fixture(scope="module")
def table():
    try:
        return load_table()
    except OSError:
        pytest.skip("nessuna tabella delle carte")


@pytest.fixture(scope="module")
def section(corpus, engine, table):
    return build_cards(corpus, engine.game_words, table)


@pytest.fixture(scope="module")
def offline(corpus, section):
    """The section read back: folded name -> (card's shown names, its kind of mention, its rules, what it is)."""
    sets, abouts = section["regole"].split(), section["descrizione"].split()
    assert len(sets) == len(abouts) == len(section["schede"].split("\n"))
    out = {}
    for line, set_id, about_id in zip(section["schede"].split("\n"), sets, abouts):
        names = line[1:].split("|")
        shown = (names[1][1:], names[0][1:]) if line[0] == "i" else (names[0][1:], None)
        rules = {}
        for pair in section["insiemi"][int(set_id, 36)].split():
            pos, w = pair.split(":")
            rules[corpus.numbers[int(pos, 36)]] = float(w)
        for n in names:
            assert n[0] in (NEVER, ALWAYS, TYPED_AS_NAME)
            if n[0] != NEVER:
                assert name_key(n[1:]) not in out, n  # a name stands for one card
                out[name_key(n[1:])] = (shown, n[0], rules, section["descrizioni"][int(about_id, 36)])
    return out


def _card_questions() -> list[str]:
    return [q["q"] for q in json.loads(BLIND.read_text(encoding="utf-8"))["questions"] if q.get("card")][:12]


@pytest.mark.parametrize("text", _card_questions())
def test_a_question_names_the_same_card_with_the_same_rules_offline(text, corpus, engine, table, offline):
    server = named_cards(text, corpus, engine.game_words, table)
    assert server.cards, text
    rules: dict[str, float] = {}
    abouts = []
    for m in server.cards:
        key = name_key(m.name)
        assert key in offline, (text, m.name)
        shown, kind, card_rules, about = offline[key]
        abouts += [about] if about else []
        assert shown == (m.face.display_name, m.face.english_aside), text
        # A name that counts only typed as a name is typed so in the question.
        assert kind == ALWAYS or all(w[0].isupper() for w in m.name.split() if len(w) >= 4 and w not in ALL_STOPS), text
        for n, w in card_rules.items():
            rules[n] = max(rules.get(n, 0.0), w)
    assert rules == pytest.approx(server.rules), text
    assert set(rules) == set(server.rules)
    assert tuple(abouts) == server.about, text


def test_the_section_says_when_a_name_counts_and_what_weighs_it(section, offline, engine):
    assert section["peso"] == question.W_CARD
    # A name with a word the rules never use counts as written; words of the rules count typed as a
    # name, or never (the Italian name of Vigilance is the keyword «cautela»).
    assert counts_as(name_key("Tarmogoyf"), engine.game_words) == ALWAYS
    # «rest», «peace»: words of the rules, but no rule says «rest in peace»
    assert counts_as(name_key("Rest in Peace"), engine.game_words) == ALWAYS
    assert counts_as("forza di volonta", engine.game_words) == ALWAYS  # Force of Will, in Italian
    assert counts_as("cautela", engine.game_words) is None and "cautela" not in offline
    # An example of the rules says «Serra Angel», and the rules say «prende l'iniziativa».
    assert counts_as("serra angel", engine.game_words) == TYPED_AS_NAME
    assert counts_as("prendere l iniziativa", engine.game_words) == TYPED_AS_NAME
    # A word the rules write only as a name counts typed with a capital; a word of the type line never.
    assert counts_as("grapeshot", engine.game_words) == TYPED_AS_NAME == offline["grapeshot"][1]
    assert counts_as("island", engine.game_words) is None
    typed = [k for k, v in offline.items() if v[1] == TYPED_AS_NAME]
    assert any(len(k.split()) > 1 for k in typed) and any(len(k.split()) == 1 for k in typed)
    # Rest in Peace: «instead» brings 614.1a, at the server's weight for a phrase of its text.
    shown, _, rules, about = offline["rest in peace"]
    assert shown == ("Riposa in Pace", "Rest in Peace") and rules["614.1a"] == 1.0
    # What it is, in the words a frame's subject may use: an enchantment, a replacement effect, a triggered
    # ability that exiles (when it enters, it exiles every graveyard).
    assert about == "incantesimo effetti di sostituzione abilita innescate esilio esiliare"
    assert len(section["descrizioni"]) < len(offline) / 10  # shared: the commonest get the shortest ids
