"""An object that starts resolving is the one that finishes (608.2), even when the engine
stops mid-resolution for its controller's choice and the stack changes meanwhile: the
procedure names the resolving object (``resolve:<id>``), not «the top of the stack»."""

from __future__ import annotations

import json

import pytest

from engine_helpers import ROOT, find, game
from judge.engine import Game, IllegalAction, ScenarioError

UNDERCITY = json.loads((ROOT / "scenarios" / "iniziativa-e-undercity.json")
                       .read_text(encoding="utf-8"))["players"][0]["command"][0]
NEW = {"id": "nuova", "kind": "ability", "controller": "p2", "text": "Abilità messa dal giudice"}


def venture_pending(players=None, **top) -> Game:
    """Alice's initiative venture is resolving and waits for her room (a branch, 701.49b);
    Bruno's ability is under it."""
    players = players or [{"id": "p1", "name": "Alice", "command": [UNDERCITY]},
                          {"id": "p2", "name": "Bruno"}]
    stack = [{"id": "sotto", "kind": "ability", "controller": "p2", "text": "Abilità di Bruno"},
             {"id": "ab", "kind": "ability", "controller": "p1", "text": "Iniziativa di Alice",
              "effect": {"kind": "initiative_venture"}}]
    g = game(players=players, stack=stack, initiative="p1", **top)
    g.step()
    assert g.pending["kind"] == "venture_room" and g.pending["player"] == "p1"
    return g


def stack_ids(g: Game) -> list[str]:
    return [i.id for i in g.state.stack]


@pytest.mark.parametrize("where", ["above", "below"])
def test_608_2_an_object_put_on_the_stack_during_the_choice_does_not_resolve_instead(where):
    """The bug: the judge edits the board while the choice is pending (the builder keeps the
    decision) and puts an ability on the stack; the resumed resolution took the top object."""
    d = venture_pending().to_dict()
    d["stack"].insert(len(d["stack"]) if where == "above" else 0, dict(NEW))
    g = Game.from_dict(d)
    ev = g.decide({"room": "Lost Well"})
    assert [e.objects[0] for e in find(ev, "resolve")] == ["ab"]
    assert find(ev, "venture")[0].rules == ["726.2", "701.49b", "309.5a"]
    assert g.state.player("p1").command[0].venture_marker == "Lost Well"
    # the new object waits where the judge put it; the room's ability goes on top (309.4c)
    assert stack_ids(g)[:2] == (["sotto", "nuova"] if where == "above" else ["nuova", "sotto"])
    assert g.state.stack[2].rules == ["309.4c"]
    assert find(ev, "priority")[0].rules == ["117.3b"]
    # undo and redo are exact
    after = g.to_dict()
    g.undo()
    assert g.to_dict() == d and g.pending["kind"] == "venture_room"
    g.redo()
    assert g.to_dict() == after


def test_608_2_a_judge_action_on_a_saved_procedure_does_not_change_the_resolving_object():
    """A state saved mid-resolution without the decision (a procedure to finish): a judge
    action puts a triggered ability on the stack, the next step finishes the same object."""
    d = venture_pending().to_dict()
    del d["pending"]
    g = Game.from_dict(d)
    g.act("trigger", controller="p2", text="Abilità messa dal giudice")
    assert stack_ids(g)[-1] != "ab"
    g.step()                                             # the choice is asked again
    assert g.pending["kind"] == "venture_room"
    ev = g.decide({"room": "Forge"})
    assert [e.objects[0] for e in find(ev, "resolve")] == ["ab"]
    assert stack_ids(g)[0] == "sotto" and len(stack_ids(g)) == 3      # + the judge's, the room's


def test_the_resolving_object_removed_from_a_saved_state_is_refused():
    """The judge removes the resolving object but keeps its pending choice: refused, in
    Italian, so that they put it back or discard the choice (608.2m)."""
    d = venture_pending().to_dict()
    d["stack"] = [i for i in d["stack"] if i["id"] != "ab"]
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(d)
    [(path, msg)] = ei.value.errors
    assert path == "procedure[0]" and '"ab"' in msg and "608.2m" in msg and "non è in pila" in msg
    for key in ("pending", "procedure", "answers"):       # the builder's «discard» checkbox
        d.pop(key, None)
    g = Game.from_dict(d)
    ev = g.step()
    assert [e.objects[0] for e in find(ev, "resolve")] == ["sotto"]


def test_a_judge_action_that_removes_the_resolving_object_is_refused():
    """Outside a player leaving the game (800.4a), a resolving object that leaves the stack
    would still finish resolving (608.2m): the action is refused and nothing changes."""
    d = game(stack=[{"id": "s1", "kind": "spell", "controller": "p1", "text": "Orso",
                     "card": {"id": "s1", "name": "Orso", "types": ["creature"], "power": 2,
                              "toughness": 2}}],
             procedure=["resolve:s1", "sba", "priority_after_resolve"]).to_dict()
    g = Game.from_dict(d)
    with pytest.raises(IllegalAction) as ei:
        g.act("exile", object="s1")
    assert ei.value.rules == ["608.2m"] and "si sta risolvendo" in ei.value.message
    assert g.to_dict() == d and not g.history
    ev = g.step()
    assert find(ev, "resolve")[0].rules == ["405.5", "608.3a"] and "s1" in [p.id for p in g.state.battlefield]


@pytest.mark.parametrize("step,last", [
    ("precombat_main", ("priority", ["505.6", "117.3a", "800.4j"])),   # not 117.3b: nothing resolved
    ("cleanup", ("priority", ["514.3a", "800.4j"])),
    ("untap", ("no_priority", ["502.4"])),                             # a board the judge built
])
def test_800_4a_the_resolving_ability_leaves_with_its_controller_and_the_choice_is_dropped(step, last):
    """Alice concedes while choosing her room (104.3a): her ability ceases to exist (800.4a),
    its choice is dropped, nothing resolves in its place, and priority is the step's."""
    g = venture_pending(variant="free-for-all", step=step,
                        players=[{"id": "p1", "name": "Alice", "command": [UNDERCITY]},
                                 {"id": "p2", "name": "Bruno"}, {"id": "p3", "name": "Carla"}])
    ev = g.act("concede", player="p1")
    stopped = find(ev, "resolve_stopped")
    assert len(stopped) == 1 and stopped[0].rules == ["800.4a"] and stopped[0].objects == ["ab"]
    assert "scelta in sospeso" in stopped[0].text
    assert not find(ev, "resolve") and g.pending is None
    assert "ab" not in stack_ids(g) and stack_ids(g)[0] == "sotto"       # nothing in its place
    assert (ev[-1].kind, ev[-1].rules) == last


def test_old_saved_procedure_with_plain_resolve_still_loads(tmp_path):
    """Saved before the resolving object was named: plain "resolve" is the top of the stack,
    as it was then; it is named at load, so later edits of the stack cannot change it."""
    d = venture_pending().to_dict()
    assert d["procedure"] == ["resolve:ab", "sba", "priority_after_resolve"]   # the new form
    d["procedure"] = ["resolve", "sba", "priority_after_resolve"]
    g = Game.from_dict(d)
    assert g.state.procedure[0] == "resolve:ab" and g.to_dict()["procedure"][0] == "resolve:ab"
    ev = g.decide({"room": "Lost Well"})
    assert [e.objects[0] for e in find(ev, "resolve")] == ["ab"] and stack_ids(g)[0] == "sotto"
    # as a file, and edited afterwards: the object named at load is the one that finishes
    path = tmp_path / "vecchio.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    edited = Game.load(path).to_dict()
    edited["stack"].append(dict(NEW))
    ev = Game.from_dict(edited).decide()
    assert [e.objects[0] for e in find(ev, "resolve")] == ["ab"]
    # an old file with nothing to resolve is a validation error, not a crash on resuming
    d["stack"] = []
    with pytest.raises(ScenarioError) as ei:
        Game.from_dict(d)
    assert "procedure[0]" in [p for p, _ in ei.value.errors]


def test_514_3a_priority_in_cleanup_after_a_conceded_choice_brings_another_cleanup_step():
    """The bug: Alice concedes while choosing her room in the cleanup step; priority is given
    there (514.3a, to Bruno: 800.4j) but the engine did not note that another cleanup step
    follows, and went on to the next turn once all passed."""
    g = venture_pending(variant="free-for-all", step="cleanup",
                        players=[{"id": "p1", "name": "Alice", "command": [UNDERCITY]},
                                 {"id": "p2", "name": "Bruno"}, {"id": "p3", "name": "Carla"}])
    assert not g.state.turn.cleanup_again
    before = g.to_dict()
    ev = g.act("concede", player="p1")
    prio = find(ev, "priority")
    assert len(prio) == 1 and prio[0].rules == ["514.3a", "800.4j"] and prio[0].step == "cleanup"
    assert g.state.turn.cleanup_again and g.to_dict()["turn"]["cleanup_again"] is True
    assert "un'altra sottofase di cancellazione" in prio[0].text
    after = g.to_dict()
    g.undo()                                             # undo and redo are exact
    assert g.to_dict() == before and not g.state.turn.cleanup_again
    g.redo()
    assert g.to_dict() == after
    resolved = []
    while g.state.stack:      # Bruno's new initiative (726.4) and room, then his own ability
        ev = g.step()
        resolved += [e.objects[0] for e in find(ev, "resolve")]
        assert find(ev, "priority")[0].rules == ["117.3b", "800.4j"]
        assert g.state.turn.step == "cleanup" and g.pending is None
    assert resolved[-1] == "sotto"
    ev = g.step()                                        # all pass, the stack is empty
    assert find(ev, "skip_step")[0].rules == ["514.3a"]
    assert find(ev, "step")[0].step == "cleanup" and not find(ev, "turn")
    assert find(ev, "no_priority")[0].rules == ["514.3"] and not g.state.turn.cleanup_again
    ev = g.step()                                        # 514.3: nobody got priority this time
    assert find(ev, "turn") and g.state.turn.step == "untap"


def test_514_3a_every_way_of_getting_priority_in_cleanup_brings_another_cleanup_step():
    """A board saved in the cleanup step with abilities waiting (603.3) or an object on the
    stack: players get priority there, so another cleanup step follows (514.3a)."""
    waiting = game(step="cleanup", waiting_triggers=[
        {"id": "t1", "controller": "p2", "text": "Abilità in attesa"}])
    ev = waiting.step()
    assert find(ev, "trigger") and find(ev, "priority")[0].rules == ["514.3a"]
    assert waiting.state.turn.cleanup_again
    on_stack = game(step="cleanup", stack=[dict(NEW)])
    ev = on_stack.step()
    assert find(ev, "resolve") and find(ev, "priority")[0].rules == ["117.3b", "514.3a"]
    assert "un'altra sottofase di cancellazione" in find(ev, "priority")[0].text
    for g in (waiting, on_stack):
        while g.state.stack:
            ev = g.step()
            assert find(ev, "priority")[0].rules == ["117.3b"]      # announced once
        ev = g.step()
        assert find(ev, "skip_step")[0].rules == ["514.3a"] and g.state.turn.step == "cleanup"
        g.step()
        assert g.state.turn.step == "untap"
