"""Scenarios that name a card of the table ("card": "Grizzly Bears", or its Italian name): the
table's characteristics, explicit fields overriding, clear Italian errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from judge.cards.lookup import resolve
from judge.engine import Game, IllegalAction
from judge.engine.errors import ScenarioError
from judge.engine.scenario import parse as sc
from judge.engine.scenario.card_defaults import card_fields, engine_keyword
from judge.engine.scenario.scenario_json import to_dict

from engine_helpers import scenario


def state_of(*battlefield, **players):
    return sc.parse(scenario(list(battlefield)))


def test_a_card_by_english_or_italian_name_brings_its_characteristics():
    st_ = state_of({"id": "a", "card": "Serra Angel", "controller": "p1"},
                   {"id": "b", "card": "orso grizzly", "controller": "p2"})
    angel, bears = st_.battlefield
    assert (angel.name, angel.card, angel.types, angel.subtypes) == ("Serra Angel", "Serra Angel", ["creature"], ["Angel"])
    assert (angel.power, angel.toughness, angel.keywords) == (4, 4, ["flying", "vigilance"])
    assert (list(angel.colors), angel.mana_cost) == (["W"], "{3}{W}{W}")
    # the Italian name typed is the name shown; the card is recorded by its English name
    assert (bears.name, bears.card, bears.power, bears.toughness) == ("Orso Grizzly", "Grizzly Bears", 2, 2)


def test_explicit_fields_override_the_table():
    st_ = state_of({"id": "a", "card": "Serra Angel", "controller": "p1", "power": 6, "keywords": [],
                    "name": "Angelo grande"})
    angel = st_.battlefield[0]
    assert (angel.name, angel.power, angel.toughness, angel.keywords) == ("Angelo grande", 6, 4, [])


def test_the_tables_keywords_drive_the_engine():
    g = Game.from_dict(scenario([{"id": "f", "card": "Serra Angel", "controller": "p1"},
                                 {"id": "g", "card": "Grizzly Bears", "controller": "p2"},
                                 {"id": "r", "card": "Ragno Gigante", "controller": "p2"}],
                                step="beginning_of_combat"))
    assert g.state.perm("r").keywords == ["reach"]
    g.step()
    g.decide({"attackers": ["f"]})
    assert not g.state.perm("f").tapped                      # vigilance, from the table
    g.step()
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": [{"id": "g", "blocking": "f"}]})
    assert ei.value.rules == ["702.9b", "509.1b"]
    g.decide({"blockers": [{"id": "r", "blocking": "f"}]})


def test_an_unknown_name_is_an_italian_error_with_the_nearest_names():
    with pytest.raises(ScenarioError) as e:
        state_of({"id": "a", "card": "Grizly Bears", "controller": "p1"})
    (path, message), = e.value.errors
    assert path == "battlefield[0].card"
    assert message.startswith("carta sconosciuta «Grizly Bears»; le più vicine: Grizzly Bears")


def test_a_star_power_must_be_given():
    with pytest.raises(ScenarioError) as e:
        state_of({"id": "a", "card": "Tarmogoyf", "controller": "p1"})
    assert [p for p, _ in e.value.errors] == ["battlefield[0].power", "battlefield[0].toughness"]
    assert "«*»" in e.value.errors[0][1]
    goyf = state_of({"id": "a", "card": "Tarmogoyf", "controller": "p1", "power": 4, "toughness": 5}).battlefield[0]
    assert (goyf.power, goyf.toughness, goyf.subtypes) == (4, 5, ["Lhurgoyf"])


def test_cards_in_zones_and_on_the_stack_too():
    d = scenario([])
    d["players"][0]["hand"] = [{"id": "h", "card": "Fulmine"}]
    st_ = sc.parse(d)
    bolt = st_.players[0].hand[0]
    assert (bolt.card, bolt.name, bolt.types, list(bolt.colors)) == ("Lightning Bolt", "Fulmine", ["instant"], ["R"])


def test_to_dict_writes_every_filled_field_so_a_removed_keyword_stays_removed():
    st_ = state_of({"id": "a", "card": "Serra Angel", "controller": "p1", "keywords": ["flying"]})
    out = to_dict(st_)
    again = sc.parse(json.loads(json.dumps(out)))
    assert again.battlefield[0].keywords == ["flying"] and out["battlefield"][0]["card"] == "Serra Angel"


def test_engine_keywords_are_read_from_the_engines_registry():
    """Whatever the engine's keyword registry knows is filled in, parameters included; the rest is
    shown as not automated."""
    assert engine_keyword("Flying") == "flying" and engine_keyword("menace") == "menace"
    assert engine_keyword("protection from red") == "protection from red"
    assert engine_keyword("bushido 2") == "bushido 2" and engine_keyword("equip {2}") is None
    assert "menace" in card_fields(resolve("Boggart Brute")).fields["keywords"]
    assert "equip {1}" in card_fields(resolve("Bonesplitter")).not_automated


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text(max_size=40))
def test_any_card_text_is_a_card_or_an_italian_error(text):
    try:
        sc.parse(scenario([{"id": "a", "card": text, "controller": "p1", "power": 1, "toughness": 1}]))
    except ScenarioError as e:
        assert all(p.startswith("battlefield[0]") for p, _ in e.errors)


def test_a_multi_part_card_named_in_full_is_its_first_face():
    """«Delver of Secrets // Insectile Aberration» in a scenario: the front face, named as a face."""
    st_ = state_of({"id": "d", "card": "Delver of Secrets // Insectile Aberration", "controller": "p1"},
                   {"id": "b", "card": "Brazen Borrower // Petty Theft", "controller": "p2"})
    delver, borrower = st_.battlefield
    assert (delver.name, delver.card, delver.power, delver.toughness) == ("Delver of Secrets", "Delver of Secrets", 1, 1)
    assert (borrower.name, borrower.card, borrower.keywords) == ("Brazen Borrower", "Brazen Borrower", ["flying"])
