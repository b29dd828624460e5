"""A translation made from an older edition, of rules that moved since: the check says where
the English it translates is now (the rule trace), instead of diffing it against whatever
rule has its old number today."""

from __future__ import annotations

import pytest

from judge import RULES_EN_DIR
from judge.corpus.rules_en import edition_paths, parse_edition
from judge.corpus.terminology import load_terminology
from judge.corpus.translation import skeleton
from judge.corpus.translation_checks import check_translation


@pytest.fixture(scope="module")
def editions():
    return [parse_edition(p) for p in edition_paths(RULES_EN_DIR)]


def test_translation_of_a_moved_section_says_where_it_went(editions):
    old = editions[0]
    assert old.id == "20251114" and old.sections[726] == "Restarting the Game"
    report = check_translation([skeleton(old, "726")], editions, load_terminology(), complete=False)
    moved = {f.rule: f for f in report.findings if f.code == "traduzione-spostata"}
    assert moved["726.1"].related == ("727.1",)
    assert "20251114 era 726.1" in moved["726.1"].message and "è 727.1" in moved["726.1"].message
    assert moved["726"].related == ("727",)  # the section title
    # No rule of the file is diffed against today's 726 (The Initiative).
    assert not [f for f in report.findings if f.code == "traduzione-da-aggiornare"]


def test_translation_of_the_edition_in_force_is_not_moved(editions):
    report = check_translation([skeleton(editions[-1], "727")], editions, load_terminology(), complete=False)
    assert not [f for f in report.findings if f.code == "traduzione-spostata"]
