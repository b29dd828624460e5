"""Skipping steps, phases and turns (500.11, 614.1b, 614.10, 614.10a), extra turns (500.7) and
abilities «at the beginning of» a step (603.2b, 603.7b): the records, the turn structure that
consults them, the log and its rules."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import RULES
from judge.engine import Game
from judge.engine.errors import IllegalAction
from judge.engine.mechanics import skip_schema


def lib(p: str, n: int = 30) -> list[dict]:
    return [{"id": f"{p}{i}", "name": "Isola", "types": ["land"]} for i in range(n)]


def board(effects=(), turn=None, battlefield=(), variant="two-player", players=None, **extra):
    ps = players or [{"id": "p1", "name": "Alice", "library": lib("a")},
                     {"id": "p2", "name": "Bruno", "library": lib("b")}]
    return Game.from_dict({"format": "judge-scenario", "version": 1, "variant": variant,
                           "players": ps, "battlefield": list(battlefield),
                           "effects": list(effects),
                           "turn": turn or {"number": 3, "active_player": "p2", "step": "end"},
                           **extra})


def skip(eid="e1", event="step", part="draw", players=("p1",), uses=None, **kw) -> dict:
    d = {"id": eid, "kind": "resolved", "controller": "p2", "text": f"Salta ({eid})",
         "event": event, "affects": {"players": list(players)}, "instead": [{"op": "skip"}], **kw}
    if event != "turn":
        d["when"] = {event: part}
    if uses is not None:
        d["uses"] = uses
    return d


def begun(events) -> list[tuple[int, str]]:
    return [(e.turn, e.step) for e in events if e.kind == "step"]


def skips(events) -> list:
    return [e for e in events if e.kind == "skip_step" and "614.10" in e.rules]


def errors_of(record: dict) -> list[tuple[str, str]]:
    return skip_schema.parse_one(record)[1]


# --- the records ----------------------------------------------------------------------------

def test_a_record_is_read_and_written_back():
    e, errs = skip_schema.parse_one(skip(uses=2, duration="end_of_turn"))
    assert not errs
    assert (e.event, e.when, e.uses, e.instead) == ("step", {"step": "draw"}, 2, [{"op": "skip"}])
    again, errs = skip_schema.parse_one(skip_schema.to_json(e))
    assert not errs and again == e


@pytest.mark.parametrize("record, path, words", [
    (skip(part="precombat_main"), "effect.when.step", "usa l'evento phase"),
    (skip(event="phase", part="draw"), "effect.when.phase", "fase sconosciuta"),
    ({**skip(event="turn"), "when": {"step": "draw"}}, "effect.when", "togli when"),
    (skip(players=("p1", "p2"), uses=1), "effect.uses", "un record per giocatore"),
    ({**skip(), "affects": "self"}, "effect.affects", "riguarda giocatori"),
    ({**skip(), "instead": [{"op": "exile"}]}, "effect.instead", "614.10"),
    ({**skip(), "kind": "static"}, "effect.source", "611.3"),
    (skip(uses=0), "effect.uses", "non minore di 1"),
    ({**skip(), "shield": 2}, "effect.shield", "campo sconosciuto"),
])
def test_a_wrong_record_gets_an_italian_error_with_its_path(record, path, words):
    errs = errors_of(record)
    assert any(p == path and words in m for p, m in errs), errs


def test_a_scenario_file_with_a_wrong_record_is_refused():
    with pytest.raises(Exception) as info:
        board([skip(part="nowhere")])
    assert "effects[0].when.step" in str(info.value)


# --- steps ------------------------------------------------------------------------------------

def test_a_skipped_step_does_not_begin_and_the_log_says_why():
    g = board([skip(eid="e-fatica", uses=1, text="Alice salta la sua prossima sottofase di "
                    "acquisizione.", card="Fatigue")])
    evs = g.step_to("precombat_main")
    assert (4, "draw") not in begun(evs) and (4, "upkeep") in begun(evs)
    assert not any(e.kind == "draw" for e in evs)                 # no 703.4d
    [ev] = skips(evs)
    assert ev.rules == ["614.10", "614.10a"] and ev.players == ["p1"]
    assert "Alice salta la sua sottofase di acquisizione (turno 4)" in ev.text
    assert ("per l'effetto di Fatigue («Alice salta la sua prossima sottofase di "
            "acquisizione.»)") in ev.text
    r = ev.data["replacement"]
    assert (r["step"], r["effect"], r["card"], r["skipped"], r["part"], r["player"],
            r["used_up"]) == ("skipped", "e-fatica", "Fatigue", "step", "draw", "p1", True)
    assert r["event"] == {"kind": "step", "player": "p1", "part": "draw"}
    assert r["seq"] == next(e.data["replacement"]["seq"] for e in evs
                            if e.data.get("replacement", {}).get("step") == "apply")
    assert not g.state.effects                                    # used up (614.3)
    assert {x for e in evs for x in e.rules} <= RULES


def test_every_time_while_the_source_is_there_then_no_more():
    necro = {"id": "e-necro", "source": "necro", "text": "Salta la tua sottofase di acquisizione.",
             "event": "step", "when": {"step": "draw"}, "affects": {"players": "you"}}
    g = board([necro], battlefield=[{"id": "necro", "name": "Necropotence",
                                     "types": ["enchantment"], "controller": "p1"}])
    g.step_to("precombat_main")
    g.step_to("precombat_main")                    # Bruno's turn 5: Bruno draws
    g.step_to("precombat_main")                    # Alice's turn 6: skipped again
    assert len(g.state.player("p1").hand) == 0 and len(g.state.player("p2").hand) == 1
    assert len(skips(g.events)) == 2
    g.act("destroy", object="necro")
    g.step_to("precombat_main")
    evs = g.step_to("precombat_main")              # Alice's turn 8: she draws
    assert (8, "draw") in begun(evs) and len(g.state.player("p1").hand) == 1


def test_a_skip_created_during_its_step_waits_for_the_next_one():
    g = board(turn={"number": 4, "active_player": "p1", "step": "draw"})
    g.act("add_replacement", effect=skip(eid="e-f", uses=1))
    assert g.events[-1].rules[:1] == ["614.10"]
    g.step_to("precombat_main")                    # the same turn: the step has begun
    assert not skips(g.events) and g.state.effects
    g.step_to("precombat_main")
    evs = g.step_to("precombat_main")
    assert [e.data["replacement"]["effect"] for e in skips(evs)] == ["e-f"]
    assert (6, "draw") not in begun(evs)


def test_two_next_effects_skip_the_next_two_and_the_player_chooses_the_first():
    g = board([skip(eid="e-a", uses=1), skip(eid="e-b", uses=1)])
    g.step_to("precombat_main")
    assert g.pending["kind"] == "replacement_order" and g.pending["player"] == "p1"
    assert [x["id"] for x in g.pending["options"]["effects"]] == ["e-a", "e-b"]
    g.decide({"apply": "e-b"})
    assert [e.data["replacement"]["effect"] for e in skips(g.events)] == ["e-b"]
    assert [e.id for e in g.state.effects] == ["e-a"]             # it waits (614.10a)
    for _ in range(3):
        g.step_to("precombat_main")
    assert [e.data["replacement"]["effect"] for e in skips(g.events)] == ["e-b", "e-a"]
    assert len(g.state.player("p1").hand) == 0
    g.step_to("precombat_main")
    g.step_to("precombat_main")                    # Alice's turn 8: she draws again
    assert len(g.state.player("p1").hand) == 1


def test_the_choice_survives_saving_and_undo():
    g = board([skip(eid="e-a", uses=1), skip(eid="e-b", uses=1)])
    g.step_to("precombat_main")
    saved = Game.from_json(g.to_json())
    assert saved.state.procedure[:1] == ["advance"]
    saved.decide({"apply": "e-b"})
    assert [e.id for e in saved.state.effects] == ["e-a"]
    assert saved.state.turn.step == "precombat_main"
    g.decide(None)
    g.undo()
    assert g.pending["kind"] == "replacement_order"


def test_skipping_the_upkeep_goes_on_to_the_draw_and_the_untap_to_the_upkeep():
    g = board([skip(eid="u", part="untap"), skip(eid="k", part="upkeep")])
    evs = g.step_to("draw")
    assert [s for t, s in begun(evs) if t == 4] == ["draw"]
    assert [e.data["replacement"]["part"] for e in skips(evs)] == ["untap", "upkeep"]


def test_a_skipped_untap_step_leaves_permanents_tapped():
    g = board([{**skip(eid="stasi", part="untap"), "affects": "game"}],
              battlefield=[{"id": "orso", "name": "Orso", "types": ["creature"], "power": 2,
                            "toughness": 2, "controller": "p1", "tapped": True}])
    g.step_to("upkeep")
    assert g.state.perm("orso").tapped


# --- phases -----------------------------------------------------------------------------------

def test_a_skipped_combat_phase_goes_straight_to_the_second_main_phase():
    g = board(turn={"number": 4, "active_player": "p1", "step": "precombat_main"})
    g.act("add_replacement", effect=skip(eid="pace", event="phase", part="combat",
                                         duration="end_of_turn", text="Falsa Pace"))
    evs = g.step()
    assert g.state.turn.step == "postcombat_main" and g.state.combat is None
    [ev] = skips(evs)
    assert "la sua fase di combattimento" in ev.text and ev.rules == ["614.10"]
    assert not any(e.step in ("beginning_of_combat", "end_of_combat") for e in evs
                   if e.kind == "step")


def test_a_phase_that_has_begun_is_not_skipped():
    g = board(turn={"number": 4, "active_player": "p1", "step": "beginning_of_combat"})
    g.act("add_replacement", effect=skip(eid="pace", event="phase", part="combat", uses=1))
    g.step()
    assert g.state.turn.step == "declare_attackers"              # still this combat
    g.step_to("end")
    assert not skips(g.events) and g.state.effects


def test_skipping_the_ending_phase_starts_the_next_turn():
    g = board([skip(eid="fine", event="phase", part="ending", uses=1)],
              turn={"number": 4, "active_player": "p1", "step": "postcombat_main"})
    evs = g.step()
    assert (g.state.turn.number, g.state.turn.step) == (5, "untap")
    assert [e.kind for e in evs if e.kind in ("turn", "skip_step")] == ["skip_step", "turn"]


TEAMS = [{"id": f"p{i}", "name": n, "team": "AB"[i > 2], "library": lib(f"x{i}")}
         for i, n in ((1, "Alice"), (2, "Carla"), (3, "Bruno"), (4, "Dario"))]


def test_a_team_skips_together_in_two_headed_giant():
    g = board([skip(eid="e1", players=("p2",), uses=1)], variant="two-headed-giant",
              players=TEAMS, turn={"number": 3, "active_player": "p3", "step": "end"})
    evs = g.step_to("precombat_main")
    assert g.state.turn.active_player == "p1" and len(skips(evs)) == 1       # 805.8
    assert not any(e.kind == "draw" for e in evs)


def test_a_team_turn_is_skipped_for_a_teammate_in_two_headed_giant():
    g = board([skip(eid="e1", event="turn", players=("p2",), uses=1)],
              variant="two-headed-giant", players=TEAMS,
              turn={"number": 3, "active_player": "p3", "step": "end"})
    g.step_to("upkeep")
    assert g.state.turn.active_player == "p3" and g.state.turn.number == 4   # 805.8


# --- turns and extra turns (500.7) ------------------------------------------------------------

def test_extra_turns_most_recent_first_and_the_order_goes_on():
    g = board(turn={"number": 5, "active_player": "p1", "step": "end"})
    g.act("add_extra_turn", player="p2")
    g.act("add_extra_turn", player="p1")
    assert g.state.turn.extra_turns == ["p1", "p2"]
    seen = []
    for _ in range(4):
        evs = g.step_to("upkeep")
        turn = next(e for e in evs if e.kind == "turn")
        seen.append((turn.players[0], turn.rules))
    assert seen == [("p1", ["500.1", "500.7"]), ("p2", ["500.1", "500.7"]),
                    ("p2", ["500.1"]), ("p1", ["500.1"])]


def test_skip_your_next_turn_skips_the_extra_turn_first():
    g = board([skip(eid="vapori", event="turn", uses=1)],
              turn={"number": 5, "active_player": "p1", "step": "end", "extra_turns": ["p1"]})
    evs = g.step_to("upkeep")
    [ev] = skips(evs)
    assert ev.rules == ["614.10", "614.10a", "500.7"] and "il suo turno extra" in ev.text
    assert (g.state.turn.number, g.state.turn.active_player) == (6, "p2")
    g.step_to("upkeep")
    assert g.state.turn.active_player == "p1" and not g.state.effects


def test_every_turn_skipped_is_refused_with_104_4b_and_nothing_changes():
    g = board([{**skip(eid="tutti", event="turn"), "affects": "game"}])
    g.step_to("cleanup")
    before = g.to_json()
    with pytest.raises(IllegalAction) as info:
        g.step()
    assert "104.4b" in info.value.rules
    assert g.to_json() == before


def test_extra_turns_in_the_file_are_checked():
    with pytest.raises(Exception) as info:
        board(turn={"number": 2, "active_player": "p1", "step": "end", "extra_turns": ["p9"]})
    assert "turn.extra_turns[0]" in str(info.value)


def test_add_extra_turn_refuses_bad_input():
    g = board()
    for params in ({"player": "p9"}, {"player": "p1", "count": 0}, {"player": "p1", "count": 99}):
        with pytest.raises(IllegalAction):
            g.act("add_extra_turn", **params)


# --- «at the beginning of» (603.2b) and «the next» (603.7b, 614.10a) ------------------------

def test_a_delayed_trigger_waits_for_the_first_end_step_not_skipped():
    g = board([skip(eid="fine", part="end", uses=1)],
              turn={"number": 4, "active_player": "p1", "step": "postcombat_main"},
              step_triggers=[{"id": "t", "controller": "p1", "step": "end", "whose": "you",
                              "next": True, "text": "Metti la carta esiliata nella tua mano"}])
    g.step()                                        # Alice's end step is skipped
    assert not any(e.kind == "trigger" for e in g.events) and g.state.step_triggers
    g.step_to("end")                                # Bruno's end step: not Alice's
    g.step_to("end", defaults=True)                 # Alice's next end step: it triggers
    trig = [e for e in g.events if e.kind == "trigger"]
    assert len(trig) == 1 and trig[0].turn == 6 and trig[0].rules[:2] == ["603.7b", "603.2b"]
    assert not g.state.step_triggers


def test_a_step_trigger_of_a_permanent_needs_the_permanent():
    g = board(battlefield=[{"id": "miniera", "name": "Howling Mine", "types": ["artifact"],
                            "controller": "p2"}],
              step_triggers=[{"id": "t", "source": "miniera", "step": "draw",
                              "text": "Pesca una carta aggiuntiva"}])
    g.step_to("precombat_main", defaults=True)
    assert [e.rules for e in g.events if e.kind == "trigger"] == [["603.2b", "603.3"]]
    g.act("destroy", object="miniera")
    g.step_to("precombat_main", defaults=True)
    assert len([e for e in g.events if e.kind == "trigger"]) == 1
    assert json.loads(g.to_json())["step_triggers"][0]["source"] == "miniera"


# --- a property: counts are never exceeded, nothing begun is skipped --------------------------

RECORD = st.tuples(st.sampled_from(["upkeep", "draw", "end", "combat", "ending", "turn"]),
                   st.sampled_from(["p1", "p2"]), st.integers(1, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RECORD, max_size=5), st.integers(0, 12), st.integers(4, 9))
def test_skips_respect_their_counts_and_never_skip_what_has_begun(records, added_at, n_steps):
    effects = []
    for i, (part, pid, uses) in enumerate(records):
        event = "turn" if part == "turn" else "phase" if part in ("combat", "ending") else "step"
        effects.append(skip(eid=f"r{i}", event=event, part=part, players=(pid,), uses=uses))
    late = skip(eid="late", part="draw", players=("p2",), uses=1)
    g = board(effects[:-1] if effects else [], turn={"number": 1, "active_player": "p2",
                                                        "step": "upkeep"})
    events = []
    for k in range(n_steps * 4):
        if k == added_at and effects:
            g.act("add_replacement", effect={**effects[-1], "kind": "resolved"})
        if k == added_at + 1:
            at = (g.state.turn.number, g.state.turn.step, g.state.turn.active_player)
            g.act("add_replacement", effect=late)
        events += g.step()
        while g.pending is not None:
            events += g.decide(None)
    by_effect: dict[str, int] = {}
    for e in skips(events):
        by_effect[e.data["replacement"]["effect"]] = by_effect.get(
            e.data["replacement"]["effect"], 0) + 1
    uses = {f"r{i}": u for i, (_, _, u) in enumerate(records)} | {"late": 1}
    for key, n in by_effect.items():
        assert n <= uses[key]
    # a step that began was never skipped: each (turn, step) either begins or is skipped
    started = set(begun(events))
    for e in skips(events):
        r = e.data["replacement"]
        if r["skipped"] == "step":
            assert (e.turn, r["part"]) not in started
    # the «late» record, added during a step, never skipped that same step
    if added_at + 1 < n_steps * 4 and at[1] == "draw" and at[2] == "p2":
        assert not any(e.turn == at[0] and e.data["replacement"]["effect"] == "late"
                       for e in skips(events))
    assert {x for e in events for x in e.rules} <= RULES


def test_step_triggers_in_the_file_are_checked():
    bad = [{"id": "t", "step": "untap", "controller": "p1"},
           {"id": "u", "step": "draw", "whose": "nessuno", "controller": "p1"},
           {"id": "w", "step": "draw"},
           {"id": "x", "step": "draw", "source": "nulla"}]
    with pytest.raises(Exception) as info:
        board(step_triggers=bad)
    msg = str(info.value)
    for path in ("step_triggers[0].step", "step_triggers[1].whose", "step_triggers[2]",
                 "step_triggers[3].source"):
        assert path in msg, path
