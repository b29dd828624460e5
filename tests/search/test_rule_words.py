"""What the rules' texts say (judge/search/rule_words.py): the phrases they contain and the words they
write only as names, which tell a card's name from the words of a question."""

from __future__ import annotations

import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.cards.names import name_words
from judge.search.rule_words import RuleWords, rule_words

SMALL = RuleWords([
    ("101.1", "Il giocatore prende l'iniziativa."),
    ("101.2", "Esempio: il giocatore lancia Serra Angel. Una Serra Angel attacca."),
    ("205.3m", "Creature types: Goblin, Angel."),
    ("702.9", "Flying"),
])


def test_a_phrase_is_said_word_by_word_up_to_the_stem():
    assert SMALL.said("prendere l iniziativa")  # «prende l'iniziativa»: the same stems
    assert SMALL.said("serra angel") and SMALL.said("il giocatore")
    assert not SMALL.said("angel serra")  # the words in another order
    assert not SMALL.said("iniziativa esempio")  # the end of one text and the start of the next
    assert not SMALL.said("forza di volonta") and not SMALL.said("")


def test_proper_words_are_written_only_with_a_capital_in_mid_sentence():
    # «Serra» is capitalised in mid-sentence and never in lower case; «Angel» is a creature type
    # (205.3), «Flying» a keyword's name, «Esempio» only starts a sentence, «giocatore» is lower case.
    assert SMALL.proper("serra")
    assert not any(SMALL.proper(w) for w in ("angel", "flying", "esempio", "giocatore", "goblin"))


def test_the_rules_in_force_say_what_a_player_would_and_not_a_cards_name(corpus):
    words = rule_words(corpus)
    assert words.said("danno da combattimento") and words.said("first strike")
    assert not words.said("forza di volonta") and not words.said("atto di tradimento")
    assert words.proper("grapeshot") and words.proper("shahrazad")  # cards of the rules' examples
    assert not any(words.proper(w) for w in ("island", "goblin", "commander", "flying", "trample"))


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_every_run_of_a_rules_words_is_said(corpus, data):
    number = data.draw(st.sampled_from(corpus.numbers))
    rule = corpus.rules[number]
    text = data.draw(st.sampled_from([t.text for t in (rule.en, rule.tr, rule.it) if t is not None]))
    ws = name_words(text)
    if not ws:
        return
    start = data.draw(st.integers(0, len(ws) - 1))
    end = data.draw(st.integers(start + 1, min(len(ws), start + 8)))
    words = rule_words(corpus)
    assert words.said(" ".join(ws[start:end]))
    assert not words.said(" ".join([*ws[start:end], "zqxjwvk"]))  # a word no rule has


def test_built_once_for_every_thread(corpus):
    got, barrier = [], threading.Barrier(8)

    def ask():
        barrier.wait()
        got.append(rule_words(corpus))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(w) for w in got}) == 1
