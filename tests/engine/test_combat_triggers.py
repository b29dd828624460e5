"""The combat keywords' triggered abilities: when they trigger (with the rule cited), in APNAP
order, and what they do as they resolve."""

from __future__ import annotations

import pytest

from engine_helpers import find, four_players, perm, scenario, until_end_of_turn
from judge.engine import Game, IllegalAction


def declare(bf, attackers, step="beginning_of_combat", **top) -> tuple[Game, list]:
    """From the beginning of combat: Alice declares ``attackers``; returns the events."""
    g = Game.from_dict(scenario(bf, step=step, **top))
    ev = g.step()
    ev += g.decide({"attackers": attackers})
    return g, ev


def settle(g: Game) -> list:
    """Answer every pending decision with its default and resolve the stack."""
    ev = []
    while g.pending or g.state.stack or g.state.waiting_triggers:
        ev += g.decide() if g.pending else g.step()
    return ev


def on_stack(ev) -> list:
    return find(ev, "trigger")


# --- exalted (702.83a, 506.5) ------------------------------------------------------------------

def test_two_exalted_triggers_for_a_creature_attacking_alone():
    bf = [perm("orso", p=2, t=2), perm("e1", types=("enchantment",), keywords=["exalted"]),
          perm("e2", keywords=["esaltato"], tapped=True)]
    g, ev = declare(bf, [{"id": "orso", "target": "p2"}])
    ev += settle(g)
    triggered = on_stack(ev)
    assert len(triggered) == 2
    assert all(["702.83a", "506.5", "603.3"] == t.rules for t in triggered)
    pumps = [e for e in find(ev, "effect") if "orso" in e.objects]
    assert [e.rules for e in pumps] == [["702.83a"], ["702.83a"]]
    assert until_end_of_turn(g.state, "orso") == {"power": 2, "toughness": 2}


def test_no_exalted_when_two_creatures_attack():
    bf = [perm("orso"), perm("lupo"), perm("e1", keywords=["exalted"], tapped=True)]
    g, ev = declare(bf, [{"id": "orso", "target": "p2"}, {"id": "lupo", "target": "p2"}])
    assert not on_stack(ev) and not g.state.waiting_triggers


def test_exalted_counters_each_trigger():
    bf = [perm("orso"), perm("e1", counters={"exalted": 2}, tapped=True)]
    g, ev = declare(bf, [{"id": "orso", "target": "p2"}])
    assert len(on_stack(ev)) == 2


def test_opponents_exalted_does_not_trigger():
    bf = [perm("orso"), perm("e1", controller="p2", keywords=["exalted"])]
    g, ev = declare(bf, [{"id": "orso", "target": "p2"}])
    assert not on_stack(ev)


# --- triggers on attack ----------------------------------------------------------------------

def test_battle_cry_gives_the_other_attackers_plus_one():
    bf = [perm("capo", keywords=["grido di guerra"]), perm("lupo", p=1, t=1)]
    g, ev = declare(bf, [{"id": "capo", "target": "p2"}, {"id": "lupo", "target": "p2"}])
    assert on_stack(ev)[0].rules == ["702.91a", "603.3"]
    settle(g)
    assert until_end_of_turn(g.state, "lupo") == {"power": 1}
    assert until_end_of_turn(g.state, "capo") == {}


def test_annihilator_defending_player_sacrifices():
    bf = [perm("eldrazi", keywords=["annihilator 2"]),
          *[perm(f"t{i}", controller="p2", types=("land",)) for i in range(3)]]
    g, ev = declare(bf, [{"id": "eldrazi", "target": "p2"}])
    assert on_stack(ev)[0].rules == ["702.86a", "603.3"]
    g.step()                                                   # resolves: Bruno chooses
    assert g.pending["kind"] == "sacrifice_permanents" and g.pending["player"] == "p2"
    with pytest.raises(IllegalAction) as ei:
        g.decide({"permanents": ["t0"]})
    assert ei.value.rules == ["701.21a"]
    ev = g.decide({"permanents": ["t0", "t2"]})
    assert [e.rules for e in find(ev, "sacrifice")] == [["702.86a", "701.21a"]] * 2
    assert [p.id for p in g.state.battlefield if p.controller == "p2"] == ["t1"]


def test_melee_counts_the_opponents_attacked():
    g = Game.from_dict(scenario([perm("m", keywords=["melee"], p=1, t=1), perm("x"), perm("y")],
                                step="beginning_of_combat", players=four_players(),
                                variant="free-for-all"))
    g.step()
    g.decide({"attackers": [{"id": "m", "target": "p2"}, {"id": "x", "target": "p3"},
                            {"id": "y", "target": "p3"}]})
    ev = settle(g)
    assert find(ev, "effect")[0].rules == ["702.121a"]
    assert until_end_of_turn(g.state, "m") == {"power": 2, "toughness": 2}


def test_myriad_creates_attacking_tokens_exiled_at_end_of_combat():
    g = Game.from_dict(scenario([perm("m", keywords=["miriade"], p=3, t=3)],
                                step="beginning_of_combat", players=four_players(),
                                variant="free-for-all"))
    g.step()
    g.decide({"attackers": [{"id": "m", "target": "p2"}]})
    g.step()
    assert g.pending["kind"] == "myriad_tokens"
    assert {o["player"] for o in g.pending["options"]["opponents"]} == {"p3", "p4"}
    ev = g.decide({"attack": {"p3": "p3", "p4": None}})
    tokens = [e.objects[0] for e in find(ev, "create_token")]
    assert len(tokens) == 1 and find(ev, "create_token")[0].rules == ["702.116a", "508.4"]
    tok = g.state.perm(tokens[0])
    assert tok.token and tok.tapped and tok.keywords == ["myriad"]
    assert {"id": tok.id, "target": "p3", "blocked": False} in g.state.combat.attackers
    ev = g.step_to("end_of_combat", defaults=True)
    ev += settle(g)
    assert tok.id not in [p.id for p in g.state.battlefield]
    trig = [t for t in on_stack(ev) if "702.116a" in t.rules]
    assert trig and trig[0].rules == ["702.116a", "511.2", "603.3"]


def test_training_needs_a_stronger_attacker():
    bf = [perm("t", keywords=["training"], p=1, t=1), perm("big", p=3, t=3)]
    g, ev = declare(bf, [{"id": "t", "target": "p2"}, {"id": "big", "target": "p2"}])
    assert on_stack(ev)[0].rules == ["702.149a", "603.3"]
    settle(g)
    assert g.state.perm("t").counters == {"+1/+1": 1}
    g2, ev2 = declare([perm("t", keywords=["training"], p=1, t=1)], [{"id": "t", "target": "p2"}])
    assert not on_stack(ev2)


@pytest.mark.parametrize("life,triggers", [(20, True), (25, True), (10, False)])
def test_dethrone_attacking_the_player_with_most_life(life, triggers):
    players = [{"id": "p1", "name": "Alice", "life": 20}, {"id": "p2", "name": "Bruno", "life": life}]
    g, ev = declare([perm("d", keywords=["dethrone"])], [{"id": "d", "target": "p2"}],
                    players=players)
    assert bool(on_stack(ev)) == triggers
    if triggers:
        assert on_stack(ev)[0].rules == ["702.105a", "603.3"]
        settle(g)
        assert g.state.perm("d").counters == {"+1/+1": 1}


def test_mentor_targets_an_attacking_creature_with_less_power():
    bf = [perm("m", keywords=["mentor"], p=3, t=3), perm("small", p=1, t=1),
          perm("veil", p=1, t=1, keywords=["shroud"]), perm("big", p=4, t=4)]
    g, ev = declare(bf, [{"id": x, "target": "p2"} for x in ("m", "small", "veil", "big")])
    assert g.pending["kind"] == "choose_target"
    opts = g.pending["options"]
    assert [t["id"] for t in opts["targets"]] == ["small"]      # shroud is refused, big too big
    assert opts["cannot_target"][0]["rules"] == ["702.18a"]
    with pytest.raises(IllegalAction) as ei:
        g.decide({"target": "veil"})
    assert ei.value.rules == ["702.18a"]
    ev = g.decide({"target": "small"})
    assert on_stack(ev)[0].rules == ["702.134a", "603.3", "603.3d"]
    settle(g)
    assert g.state.perm("small").counters == {"+1/+1": 1}


def test_mentor_without_a_legal_target_is_removed():
    g, ev = declare([perm("m", keywords=["mentor"], p=1, t=1)], [{"id": "m", "target": "p2"}])
    removed = find(ev, "trigger_removed")
    assert removed and removed[0].rules == ["702.134a", "603.3d"] and not g.state.stack


def test_decayed_creature_is_sacrificed_at_end_of_combat():
    g, ev = declare([perm("z", keywords=["decayed"])], [{"id": "z", "target": "p2"}])
    settle(g)
    ev = g.step_to("end_of_combat", defaults=True)
    ev += settle(g)
    assert find(ev, "sacrifice")[0].rules == ["702.147a", "701.21a"]
    assert g.state.perm("z") is None


# --- provoke (702.39a), with hexproof and ward ----------------------------------------------------

def test_provoke_untaps_the_target_which_must_block():
    bf = [perm("p", keywords=["provoke"], p=2, t=2), perm("lupo", controller="p2", tapped=True),
          perm("altro", controller="p2")]
    g, ev = declare(bf, [{"id": "p", "target": "p2"}])
    assert g.pending["kind"] == "choose_target"
    g.decide({"target": "lupo"})
    ev = settle(g)
    assert find(ev, "untap")[0].rules == ["702.39a"] and not g.state.perm("lupo").tapped
    assert g.state.combat.requirements == [{"blocker": "lupo", "attacker": "p", "rules": ["702.39a"]}]
    g.step()                                                    # declare blockers
    assert g.pending["default"] == {"blockers": [{"id": "lupo", "blocking": ["p"]}]}
    with pytest.raises(IllegalAction) as ei:
        g.decide({"blockers": [{"id": "altro", "blocking": "p"}]})
    assert ei.value.rules == ["509.1c", "702.39a"] and "provocazione" in ei.value.message
    g.decide({"blockers": [{"id": "lupo", "blocking": "p"}]})


def test_provoke_cannot_target_hexproof_and_triggers_ward():
    bf = [perm("p", keywords=["provoke"]), perm("hex", controller="p2", keywords=["hexproof"]),
          perm("w", controller="p2", keywords=["egida {2}"], tapped=True)]
    g, ev = declare(bf, [{"id": "p", "target": "p2"}])
    opts = g.pending["options"]
    assert [t["id"] for t in opts["targets"]] == ["w"]
    assert opts["cannot_target"][0]["rules"] == ["702.11b"]
    ev = g.decide({"target": "w"})
    ward = [t for t in on_stack(ev) if "702.21a" in t.rules]
    assert ward and ward[0].rules == ["702.21a", "603.3"] and ward[0].players == ["p2"]
    g.step()                                                   # ward resolves first
    assert g.pending["kind"] == "ward_payment" and g.pending["player"] == "p1"
    ev = g.decide({"pay": False})
    assert find(ev, "counter")[0].rules == ["702.21a", "701.6a"]
    assert not g.state.stack


# --- triggers on block ---------------------------------------------------------------------------

def blocked(att: dict, *blockers: dict, blocks=None) -> tuple[Game, list]:
    g = Game.from_dict(scenario([perm("a", tapped=True, **att), *blockers], step="declare_attackers",
                                combat={"defending_players": ["p2"],
                                        "attackers": [{"id": "a", "target": "p2"}]}))
    g.step()
    ev = g.decide({"blockers": blocks or [{"id": b["id"], "blocking": "a"} for b in blockers]})
    return g, ev


def test_bushido_on_both_sides_apnap_order():
    g, ev = blocked({"keywords": ["bushido 1"]}, perm("s", controller="p2", keywords=["bushido 2"]))
    order = find(ev, "trigger_order")
    assert [o.players for o in order] == [["p1"], ["p2"]]     # AP's first: it resolves last
    assert [t.rules for t in on_stack(ev)] == [["702.45a", "603.3"]] * 2
    settle(g)
    assert until_end_of_turn(g.state, "a") == {"power": 1, "toughness": 1}
    assert until_end_of_turn(g.state, "s") == {"power": 2, "toughness": 2}


def test_rampage_counts_blockers_beyond_the_first_as_it_resolves():
    blockers = [perm(f"m{i}", controller="p2", p=0, t=5) for i in range(3)]
    g, ev = blocked({"keywords": ["furia 2"], "p": 1, "t": 1}, *blockers)
    ev = settle(g)
    assert find(ev, "effect")[0].rules == ["702.23a", "702.23b"]
    assert until_end_of_turn(g.state, "a") == {"power": 4, "toughness": 4}


def test_afflict_defending_player_loses_life():
    g, ev = blocked({"keywords": ["afflict 3"]}, perm("m", controller="p2"))
    ev = settle(g)
    assert find(ev, "life")[0].rules == ["702.130a"] and g.state.player("p2").life == 17


def test_flanking_weakens_each_blocker_without_flanking():
    g, ev = blocked({"keywords": ["flanking"]}, perm("w", controller="p2", p=1, t=1),
                    perm("f", controller="p2", keywords=["aggirare"]))
    assert len(on_stack(ev)) == 1 and on_stack(ev)[0].rules == ["702.25a", "603.3"]
    ev = settle(g)
    assert find(ev, "destroy") == [] and g.state.perm("w") is None     # 0/0: 704.5f
    assert "704.5f" in {r for e in ev for r in e.rules}
