"""Replacement and prevention effects (614–616): the records of the format with their Italian
errors, the one path every primitive event takes, the affected player's choice as a pending
decision that starts the step again once answered, the rules' own effects, the judge actions,
and properties (hypothesis): no effect applies twice to one event (614.5) and the choice
offered is exactly the set of applicable effects (616.1)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import find, perm, scenario
from judge.engine import Game, IllegalAction, ScenarioError
from judge.engine.characteristics import replacement_schema
from judge.engine.play.library import replacement_lines

FURNACE = {"id": "e-f", "source": "fornace", "event": "dealt_damage", "affects": "game",
           "instead": [{"op": "double"}]}


def game(battlefield=(), effects=(), **top):
    return Game.from_dict(scenario(list(battlefield), effects=list(effects), **top))


def enchantment(oid, controller="p1"):
    return perm(oid, controller=controller, types=("enchantment",))


# --- the format ----------------------------------------------------------------------------------

@pytest.mark.parametrize("record,path,words", [
    ({"event": "volare", "instead": [{"op": "exile"}], "source": "x"}, "effect.event", "evento sconosciuto"),
    ({"event": "draw", "affects": {"players": "you"}, "instead": [{"op": "exile"}], "source": "x"},
     "effect.instead[0].op", "non sostituisce"),
    ({"event": "lose_game", "affects": {"players": "you"}, "source": "x"}, "effect.cant", "cant: true"),
    ({"event": "die", "cant": True, "instead": [{"op": "exile"}], "source": "x"}, "effect.instead",
     "togli instead"),
    ({"event": "die", "instead": [{"op": "exile"}]}, "effect.source", "fonte"),
    ({"event": "dealt_damage", "affects": "game", "instead": [{"op": "double"}], "shield": 3,
      "source": "x"}, "effect.shield", "prevenzione"),
    ({"event": "die", "affects": {"players": "you"}, "instead": [{"op": "exile"}], "source": "x"},
     "effect.affects", "oggetti"),
    ({"event": "draw", "affects": "self", "instead": [{"op": "skip"}], "source": "x"},
     "effect.affects", "giocatori"),
    ({"event": "die", "when": {"combat": True}, "instead": [{"op": "exile"}], "source": "x"},
     "effect.when.combat", "danno"),
    ({"event": "die", "instead": [{"op": "put", "zone": "mano"}], "source": "x"},
     "effect.instead[0].zone", "zona sconosciuta"),
])
def test_a_wrong_record_says_what_is_wrong_in_italian(record, path, words):
    _, errors = replacement_schema.parse_one(record)
    assert any(p == path and words in m for p, m in errors), errors


def test_a_file_with_a_wrong_record_is_refused_with_the_field_path():
    with pytest.raises(ScenarioError) as e:
        game([enchantment("rip")], [{"id": "r", "source": "rip", "event": "die",
                                     "instead": [{"op": "redirect", "to": "x"}]}])
    assert "effects[0].instead[0].op" in str(e.value)
    with pytest.raises(ScenarioError) as e:
        game([enchantment("rip")], [{"id": "r", "source": "rip", "event": "enter",
                                     "instead": [{"op": "copy", "of": "nessuno"}]}])
    assert "effects[0].instead[0].of" in str(e.value)


def test_records_round_trip_through_the_file_and_keep_their_shields():
    g = game([perm("orso")], [{"id": "s", "kind": "resolved", "event": "dealt_damage",
                               "affects": {"players": ["p2"]}, "instead": [{"op": "prevent"}],
                               "shield": 3, "duration": "end_of_turn"}])
    g.act("deal_damage", target="p2", amount=2, source="orso")
    data = g.to_dict()
    again = Game.from_dict(data)
    assert again.to_dict()["effects"] == data["effects"]
    assert data["effects"][0]["shield"] == 1 and data["effects"][0]["event"] == "dealt_damage"
    again.act("deal_damage", target="p2", amount=2, source="orso")
    assert again.state.player("p2").life == 19 and again.state.effects == []      # 615.7


# --- the one path --------------------------------------------------------------------------------

def two_instead_on_a_dying_creature(**top):
    return game([perm("orso"), enchantment("rip", "p2")], [
        {"id": "e-orso", "source": "orso", "event": "die", "affects": "self",
         "instead": [{"op": "put", "zone": "hand"}]},
        {"id": "e-rip", "source": "rip", "event": "graveyard", "affects": {"filter": {"zones": "all"}},
         "instead": [{"op": "exile"}]}], **top)


def test_a_choice_halfway_through_a_step_leaves_nothing_half_done():
    """The state-based actions destroy a creature two effects want to replace: the choice is
    asked with the step as it began (Ctx.rollback), and the step runs again once answered."""
    g = two_instead_on_a_dying_creature()
    g.state.battlefield[0].damage = 2
    before = g.to_dict()
    g.act("gain_life", player="p1", amount=1)          # the action, then state-based actions
    assert g.pending["kind"] == "replacement_order" and g.pending["player"] == "p1"
    assert [e["id"] for e in g.pending["options"]["effects"]] == ["e-orso", "e-rip"]
    assert g.state.perm("orso") is not None and g.state.player("p1").life == 21
    saved = Game.from_dict(g.to_dict())                 # the pending choice survives a file
    ev = saved.decide({"apply": "e-orso"})
    assert [c.id for c in saved.state.player("p1").hand] == ["orso"]
    assert [x["step"] for x in replacement_lines(ev)] == ["event", "choice", "apply", "no_longer",
                                                         "result"]
    g.undo()
    assert g.to_dict() == before


def test_a_judge_action_that_stops_on_a_choice_runs_again_once_answered():
    g = two_instead_on_a_dying_creature()
    assert g.act("destroy", object="orso") == []
    assert g.state.procedure[0].startswith("act:") and g.state.perm("orso") is not None
    ev = g.decide({"apply": "e-rip"})
    assert find(ev, "destroy") and [c.id for c in g.state.player("p1").exile] == ["orso"]
    g2 = two_instead_on_a_dying_creature()
    g2.act("destroy", object="orso")
    with pytest.raises(IllegalAction) as e:
        g2.decide({"apply": "e-nessuno"})
    assert e.value.rules == ["616.1", "616.1e"]


def test_simultaneous_damage_is_chosen_in_apnap_order():
    """Combat damage to two players, each with two effects: the affected players choose in
    APNAP order (616.1, 101.4)."""
    players = [{"id": p, "name": p.upper()} for p in ("p1", "p2", "p3")]
    g = game([perm("a", p=2, t=2, tapped=True), perm("b", p=2, t=2, tapped=True),
              enchantment("fornace")],
             [FURNACE, {"id": "e-n", "kind": "resolved", "event": "dealt_damage", "affects": "game",
                        "instead": [{"op": "prevent", "amount": 1}], "duration": "end_of_turn"}],
             variant="free-for-all", players=players, step="declare_blockers",
             combat={"defending_players": ["p2", "p3"], "attackers_declared": True,
                     "blockers_declared_by": ["p2", "p3"],
                     "attackers": [{"id": "a", "target": "p3", "blocked": False},
                                   {"id": "b", "target": "p2", "blocked": False}]})
    g.step()
    assert g.pending["player"] == "p2"
    g.decide({"apply": "e-n"})                           # p2: 2 - 1 = 1, doubled: 2
    assert g.pending["player"] == "p3"
    g.decide({"apply": "e-f"})                           # p3: 4 - 1 = 3
    assert g.state.player("p2").life == 18 and g.state.player("p3").life == 17


def test_zero_damage_is_no_event_and_nothing_replaces_it():
    g = game([perm("orso"), enchantment("fornace")], [FURNACE])
    ev = g.act("deal_damage", target="p2", amount=0, source="orso")
    assert not replacement_lines(ev) and g.state.player("p2").life == 20       # 614.7a


def test_a_redirection_to_a_creature_that_left_does_nothing():
    g = game([perm("orso"), perm("muro", controller="p2")],
             [{"id": "r", "kind": "resolved", "event": "dealt_damage", "affects": {"players": ["p2"]},
               "instead": [{"op": "redirect", "to": "muro"}], "duration": "end_of_turn"}])
    g.act("destroy", object="muro")
    ev = g.act("deal_damage", target="p2", amount=3, source="orso")
    assert "non fa nulla" in find(ev, "replacement_applied")[0].text
    assert g.state.player("p2").life == 17                                      # 614.9


def test_unpreventable_damage_does_not_reduce_a_shield():
    g = game([perm("orso")], [
        {"id": "s", "kind": "resolved", "event": "dealt_damage", "affects": {"players": ["p2"]},
         "instead": [{"op": "prevent"}], "shield": 2, "duration": "end_of_turn"},
        {"id": "c", "kind": "resolved", "event": "prevent_damage", "affects": "game", "cant": True,
         "duration": "end_of_turn"}])
    ev = g.act("deal_damage", target="p2", amount=3, source="orso")
    assert g.state.player("p2").life == 17 and g.state.effects[0].shield == 2           # 615.12
    assert "615.12" in find(ev, "replacement_applied")[0].rules


def test_a_draw_is_replaced_even_from_an_empty_library():
    g = game([enchantment("x")], [{"id": "d", "source": "x", "event": "draw",
                                   "affects": {"players": "you"}, "instead": [{"op": "skip"}]}],
             players=[{"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"}])
    ev = g.act("draw", player="p1", count=2)
    assert not find(ev, "draw_empty") and not g.state.player("p1").attempted_draw_from_empty_library
    assert len(replacement_lines(ev)) == 6                                      # 614.11, twice


def test_doubling_season_doubles_tokens_and_counters_an_effect_puts():
    g = game([enchantment("stagione")], [
        {"id": "t", "source": "stagione", "event": "tokens", "affects": {"players": "you"},
         "instead": [{"op": "double"}]},
        {"id": "c", "source": "stagione", "event": "counters", "affects": {"filter": {"controller": "you"}},
         "instead": [{"op": "double"}]}])
    g.act("create_token", controller="p1", name="Soldato", power=1, toughness=1)
    tokens = [p for p in g.state.battlefield if p.token]
    assert len(tokens) == 2
    g.act("add_counters", target=tokens[0].id, kind="+1/+1", count=1)
    assert tokens[0].counters == {"+1/+1": 2}
    g.act("create_token", controller="p2", name="Zombie", power=2, toughness=2)   # not "you"
    assert len([p for p in g.state.battlefield if p.token]) == 3


def test_the_commanders_option_declined_leaves_it_where_it_goes():
    g = game([perm("kaalia", commander=True)], variant="commander")
    g.act("move", object="kaalia", zone="hand")
    assert g.pending["kind"] == "may_apply" and g.pending["rules"] == ["903.9b", "616.1"]
    ev = g.decide({"apply": False})
    assert [c.id for c in g.state.player("p1").hand] == ["kaalia"]
    assert find(ev, "replacement_choice")[0].data["replacement"]["step"] == "declined"


def test_a_self_replacement_effect_is_applied_first():
    """616.1a: a self-replacement effect must be chosen first (614.15); no choice is asked."""
    g = game([perm("orso"), enchantment("rip", "p2")], [
        {"id": "e-rip", "source": "rip", "event": "graveyard", "affects": {"filter": {"zones": "all"}},
         "instead": [{"op": "exile"}]},
        {"id": "e-self", "kind": "resolved", "event": "destroy", "affects": {"objects": ["orso"]},
         "instead": [{"op": "put", "zone": "hand"}], "self_replacement": True}])
    ev = g.act("destroy", object="orso")
    assert g.pending is None and [c.id for c in g.state.player("p1").hand] == ["orso"]
    choice = find(ev, "replacement_choice")[0]
    assert choice.rules == ["616.1", "616.1a", "614.15"]


# --- judge actions ---------------------------------------------------------------------------------

def test_the_regenerate_action_makes_a_shield_used_the_next_time():
    g = game([perm("boa")])
    ev = g.act("regenerate", object="boa")
    assert find(ev, "effect")[0].rules == ["701.19a", "614.8"]
    g.act("destroy", object="boa")
    boa = g.state.perm("boa")
    assert boa is not None and boa.tapped and g.state.effects == []
    g.act("destroy", object="boa")
    assert g.state.perm("boa") is None


def test_the_prevent_damage_action_is_a_shield():
    g = game([perm("orso", controller="p2")])
    g.act("prevent_damage", target="p1", amount=2)
    g.act("deal_damage", target="p1", amount=3, source="orso")
    assert g.state.player("p1").life == 19 and g.state.effects == []


def test_add_replacement_refuses_a_wrong_record_in_italian():
    g = game([perm("orso")])
    with pytest.raises(IllegalAction) as e:
        g.act("add_replacement", effect={"event": "die", "instead": [{"op": "fly"}]})
    assert "operazione sconosciuta" in e.value.message
    with pytest.raises(IllegalAction) as e:
        g.act("add_replacement", effect={"event": "die", "affects": {"objects": ["x"]},
                                         "instead": [{"op": "exile"}]})
    assert 'oggetto sconosciuto "x"' in e.value.message
    g.act("add_replacement", effect={"event": "die", "affects": {"objects": ["orso"]},
                                     "instead": [{"op": "exile"}], "text": "Esiliala invece"})
    g.act("destroy", object="orso")
    assert [c.id for c in g.state.player("p1").exile] == ["orso"]


# --- properties (hypothesis) --------------------------------------------------------------------

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
OPS = st.sampled_from([{"op": "double"}, {"op": "add", "amount": 1}, {"op": "add", "amount": 2},
                       {"op": "prevent", "amount": 1}, {"op": "prevent", "amount": 2}])


def _model(amount: int, op: dict) -> int:
    if op["op"] == "double":
        return amount * 2
    if op["op"] == "add":
        return amount + op["amount"]
    return max(0, amount - op["amount"])


@SETTINGS
@given(st.lists(st.tuples(OPS, st.booleans()), min_size=1, max_size=6),
       st.integers(min_value=1, max_value=5), st.data())
def test_each_effect_applies_once_and_the_choice_offered_is_what_applies(effects, amount, data):
    """Damage to a player with N effects that all apply to it: at each decision the effects
    offered are exactly those not yet applied — the self-replacement ones first (616.1a) — each
    applies once (614.5), and the damage dealt is what applying them in the chosen order gives."""
    records = [{"id": f"e{i}", "kind": "resolved", "event": "dealt_damage", "affects": "game",
                "instead": [op], "self_replacement": selfish, "duration": "end_of_turn"}
               for i, (op, selfish) in enumerate(effects)]
    g = game([perm("orso")], records)
    g.act("deal_damage", target="p2", amount=amount, source="orso")
    selfish = {f"e{i}" for i, (_, s) in enumerate(effects) if s}
    while g.pending is not None:
        assert g.pending["kind"] == "replacement_order" and g.pending["player"] == "p2"
        already = g.pending["options"]["applied"]
        left = [f"e{i}" for i in range(len(effects)) if f"e{i}" not in already]
        first = [k for k in left if k in selfish]
        assert sorted(e["id"] for e in g.pending["options"]["effects"]) == sorted(first or left)
        g.decide({"apply": data.draw(st.sampled_from(sorted(first or left)))})
    order = [x["effect"] for x in replacement_lines(g.events) if x["step"] == "apply"]
    assert len(order) == len(set(order))                                   # once each (614.5)
    n_self = len([k for k in order if k in selfish])
    assert set(order[:n_self]) <= selfish                                  # 616.1a first
    dealt = amount
    for key in order:
        dealt = _model(dealt, effects[int(key[1:])][0])
    assert g.state.player("p2").life == 20 - dealt
    # every effect applied, unless the damage was all prevented first (nothing left to modify)
    assert len(order) == len(effects) or dealt == 0
