"""Extra phases and steps (500.8, 500.9, 500.10, 500.10a): the records, the turn's list of
phases they change, the log and its rules; skips with «then …» (614.10b); the first lines of a
turn under the step that happens."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine_helpers import RULES
from judge.engine import Game
from judge.engine.errors import IllegalAction, ScenarioError
from judge.engine.mechanics import addition_schema, skip_schema


def lib(p: str, n: int = 30) -> list[dict]:
    return [{"id": f"{p}{i}", "name": "Isola", "types": ["land"]} for i in range(n)]


def board(turn=None, effects=(), battlefield=(), variant="two-player", players=None,
          **extra) -> Game:
    ps = players or [{"id": "p1", "name": "Alice", "library": lib("a")},
                     {"id": "p2", "name": "Bruno", "library": lib("b")}]
    return Game.from_dict({"format": "judge-scenario", "version": 1, "variant": variant,
                           "players": ps, "battlefield": list(battlefield),
                           "effects": list(effects),
                           "turn": turn or {"number": 4, "active_player": "p1",
                                            "step": "precombat_main"}, **extra})


def adds(what="phases", parts=("combat", "postcombat_main"), after=None, before=None,
         card="Relentless Assault", controller="p1", **kw) -> dict:
    d = {"card": card, "controller": controller, "adds": {what: list(parts)}, **kw}
    if before is not None:
        d["before"] = before
    else:
        d["after"] = after or {"phase": "main"}
    return d


RELENTLESS = adds(text="Dopo questa fase principale, c'è una fase di combattimento aggiuntiva "
                       "seguita da una fase principale aggiuntiva.")


def begun(events, turn=None) -> list[str]:
    return [e.step for e in events if e.kind == "step" and (turn is None or e.turn == turn)]


def to_turn_end(g: Game) -> list:
    """Step to the next turn's upkeep, taking the defaults; the events."""
    n, evs = g.state.turn.number, []
    for _ in range(200):
        evs += g.step()
        while g.pending is not None:
            evs += g.decide(None)
        if g.state.turn.number > n and g.state.turn.step != "untap":
            return evs
    raise AssertionError("the turn never ended")


COMBAT = ["beginning_of_combat", "declare_attackers", "end_of_combat"]     # nobody attacks (508.8)


# --- the records ----------------------------------------------------------------------------

def test_a_record_is_read_and_written_back():
    rec, errs = addition_schema.parse_one({**RELENTLESS, "id": "e1", "you_get": True})
    assert not errs and (rec["what"], rec["parts"], rec["after"]) == (
        "phases", ["combat", "postcombat_main"], {"phase": "main"})
    again, errs = addition_schema.parse_one(addition_schema.to_json(rec))
    assert not errs and again == rec


@pytest.mark.parametrize("record, path, words", [
    (adds(parts=("precombat_main",)), "effect.adds.phases[0]", "505.1a"),
    (adds(what="steps", parts=("declare_blockers",)), "effect.adds.steps[0]", "508.8"),
    (adds(what="steps", parts=("cleanup",), after={"step": "end"}), "effect.adds.steps[0]",
     "514.3a"),
    (adds(what="steps", parts=("postcombat_main",)), "effect.adds.steps[0]", "505.2"),
    (adds(what="steps", parts=("upkeep", "end"), after={"phase": "combat"}), "effect.adds.steps",
     "una stessa fase"),
    (adds(what="steps", parts=("end",), after={"step": "upkeep"}), "effect.after", "500.9"),
    (adds(after={"step": "upkeep"}), "effect.after", "500.8"),
    (adds(after={"phase": "ending"}), "effect.after.phase", "500.7"),
    (adds(what="steps", parts=("upkeep",), before={"step": "untap"}), "effect.before.step",
     "500.10"),
    (adds(before={"phase": "combat"}), "effect.before", "500.8"),
    ({**adds(), "before": {"step": "draw"}}, "effect", "uno solo fra after"),
    ({**adds(), "adds": {"phases": []}}, "effect.adds.phases", "da 1 a 10"),
    ({**adds(), "kind": "static"}, "effect.kind", "resolved"),
    ({**adds(), "controller": None}, "effect.controller", "null"),
    ({**adds(), "shield": 1}, "effect.shield", "campo sconosciuto"),
])
def test_a_wrong_record_gets_an_italian_error_with_its_path(record, path, words):
    _, errs = addition_schema.parse_one(record)
    assert any(p == path and words in m for p, m in errs), errs


# --- 500.8: phases after a phase ----------------------------------------------------------------

def test_relentless_assault_in_the_first_main_phase():
    g = board()
    [ev] = g.act("add_extra_phases", effect=RELENTLESS)
    assert ev.rules == ["500.8"] and ev.kind == "extra_phase" and ev.players == ["p1"]
    assert ("dopo questa fase principale pre-combattimento si aggiungono una fase di "
            "combattimento e una fase principale post-combattimento") in ev.text
    assert "fase di combattimento aggiunta da Relentless Assault" in ev.text
    evs = to_turn_end(g)
    assert begun(evs, 4) == [*COMBAT, "postcombat_main", *COMBAT, "postcombat_main", "end",
                             "cleanup"]
    firsts = [e for e in evs if e.kind == "step" and "500.8" in e.rules]
    assert [e.step for e in firsts] == ["beginning_of_combat", "postcombat_main"]
    assert firsts[0].rules == ["506.1", "500.8"] and firsts[1].rules == ["505.1", "500.8"]
    assert "fase di combattimento aggiunta da Relentless Assault" in firsts[0].text
    assert g.state.turn.phases is None                  # the next turn has its own phases
    assert {r for e in evs for r in e.rules} <= RULES


def test_the_most_recent_phases_after_the_same_phase_come_first():
    g = board()
    g.act("add_extra_phases", effect=adds(parts=("combat",), card="Primo"))
    [ev] = g.act("add_extra_phases", effect=adds(parts=("beginning",), card="Secondo"))
    assert "la più recente si svolge per prima" in ev.text
    assert [e.get("by") for e in g.state.turn.phases] == [None, None, "Secondo", "Primo", None,
                                                          None, None]
    evs = to_turn_end(g)
    assert begun(evs, 4) == ["untap", "upkeep", "draw", *COMBAT, *COMBAT, "postcombat_main",
                             "end", "cleanup"]


def test_world_at_war_after_the_first_postcombat_main_phase_and_not_later():
    """The ruling of World at War (2010-06-15): two are cumulative, after the original
    postcombat main phase and before the newest combat; cast in the third main phase it adds
    nothing."""
    waw = adds(card="World at War", after={"phase": "postcombat_main", "first": True})
    g = board()
    g.act("add_extra_phases", effect=waw)
    g.act("add_extra_phases", effect={**waw, "card": "World at War 2"})
    assert [e.get("by") for e in g.state.turn.phases][3:8] == [
        None, "World at War 2", "World at War 2", "World at War", "World at War"]
    g.step_to("postcombat_main")
    g.step_to("beginning_of_combat")
    g.step_to("postcombat_main")                        # the third main phase of the turn
    assert g.state.turn.phase_at == 5
    [ev] = g.act("add_extra_phases", effect={**waw, "card": "World at War 3"})
    assert ev.rules == ["500.8"] and "la prima fase principale post-combattimento di questo " \
                                     "turno è già finita" in ev.text
    assert len(g.state.turn.phases) == 9


def test_outside_a_main_phase_relentless_assault_adds_nothing():
    """Its ruling (2004-10-04): only during a main phase."""
    g = board(turn={"number": 4, "active_player": "p1", "step": "end"})
    [ev] = g.act("add_extra_phases", effect=RELENTLESS)
    assert ev.rules == ["500.8"] and "non si aggiunge nulla" in ev.text
    assert g.state.turn.phases is None


def test_an_added_combat_with_an_attack_and_the_main_phases_count():
    """505.1a: the main phases after the first are all postcombat; a creature tapped by the
    first attack can't attack in the next combat."""
    bear = {"id": "orso", "name": "Orso", "types": ["creature"], "power": 2, "toughness": 2,
            "controller": "p1"}
    g = board(battlefield=[bear])
    g.act("add_extra_phases", effect=RELENTLESS)
    g.step_to("declare_attackers")
    g.decide({"attackers": [{"id": "orso", "target": "p2"}]})
    evs = to_turn_end(g)
    assert g.state.player("p2").life == 18
    assert any(e.kind == "attack" and "non ha creature che possano attaccare" in e.text
               for e in evs)


# --- 500.9: steps after or before a step --------------------------------------------------------

def test_paradox_haze_an_upkeep_after_this_upkeep_and_its_triggers():
    """Paradox Haze's ruling (2006-09-25): «at the beginning of your upkeep» triggers at the
    beginning of each additional upkeep too."""
    g = board(turn={"number": 4, "active_player": "p1", "step": "upkeep"},
              step_triggers=[{"id": "t", "controller": "p1", "step": "upkeep", "whose": "you",
                              "text": "Peschi una carta e perdi 1 punto vita."}])
    [ev] = g.act("add_extra_phases", effect=adds("steps", ("upkeep",), {"step": "upkeep"},
                                                 card="Paradox Haze"))
    assert ev.rules == ["500.9"] and "dopo questa sottofase di mantenimento si aggiunge una " \
                                     "sottofase di mantenimento" in ev.text
    evs = g.step_to("draw", defaults=True)
    assert begun(evs) == ["upkeep", "draw"]
    [added] = [e for e in evs if e.kind == "step" and e.step == "upkeep"]
    assert added.rules == ["501.1", "500.9"] and "aggiunta da Paradox Haze" in added.text
    assert len([e for e in evs if e.kind == "trigger"]) == 1


def test_steps_before_a_step_come_directly_before_it():
    g = board(turn={"number": 4, "active_player": "p1", "step": "untap"})
    g.act("add_extra_phases", effect=adds("steps", ("upkeep",), before={"step": "draw"},
                                          card="A"))
    g.act("add_extra_phases", effect=adds("steps", ("untap",), before={"step": "draw"},
                                          card="B"))
    g.act("add_extra_phases", effect=adds("steps", ("end",), before={"step": "cleanup"},
                                          card="C"))
    evs = to_turn_end(g)
    assert begun(evs, 4) == ["upkeep", "upkeep", "untap", "draw", "precombat_main", *COMBAT,
                             "postcombat_main", "end", "end", "cleanup"]


def test_the_starting_players_draw_step_is_still_skipped_with_added_steps():
    g = board(turn={"number": 1, "active_player": "p1", "step": "upkeep"})
    g.act("add_extra_phases", effect=adds("steps", ("upkeep",), {"step": "upkeep"}))
    evs = g.step_to("precombat_main")
    assert begun(evs) == ["upkeep", "precombat_main"]
    assert [e.rules for e in evs if e.kind == "skip_step"] == [["103.8a"]]


# --- 500.10: steps after a phase ------------------------------------------------------------------

def test_obeka_upkeeps_after_the_combat_phase_in_a_phase_of_their_own():
    g = board(turn={"number": 4, "active_player": "p1", "step": "combat_damage"})
    [ev] = g.act("add_extra_phases", effect=adds("steps", ("upkeep", "upkeep"),
                                                 {"phase": "combat"}, you_get=True,
                                                 card="Obeka, Splitter of Seconds"))
    assert ev.rules == ["500.10", "500.11"]
    assert "si crea una fase iniziale con 2 sottofasi di mantenimento" in ev.text
    assert "(sottofase di STAP, sottofase di acquisizione) si saltano" in ev.text
    evs = to_turn_end(g)
    assert begun(evs, 4) == ["end_of_combat", "upkeep", "upkeep", "postcombat_main", "end",
                             "cleanup"]
    [skip] = [e for e in evs if e.kind == "skip_step"]
    assert skip.rules == ["500.10", "500.11"] and skip.step == "upkeep"
    assert not any(e.kind in ("draw", "untap") for e in evs if e.turn == 4)


# --- 500.10a and 805.8 ----------------------------------------------------------------------------

def test_you_get_adds_nothing_in_another_players_turn():
    g = board(turn={"number": 4, "active_player": "p2", "step": "precombat_main"})
    [ev] = g.act("add_extra_phases", effect={**RELENTLESS, "you_get": True})
    assert ev.rules == ["500.10a"] and "turno di Bruno, non di chi lo controlla (Alice)" in ev.text
    assert g.state.turn.phases is None
    [ev] = g.act("add_extra_phases", effect=RELENTLESS)            # «there is»: it adds
    assert ev.rules == ["500.8"]


def test_in_two_headed_giant_the_teams_turn_is_its_controllers():
    ps = [{"id": f"p{i}", "name": n, "team": "AB"[i > 2], "library": lib(f"x{i}")}
          for i, n in ((1, "Alice"), (2, "Carla"), (3, "Bruno"), (4, "Dario"))]
    g = board(variant="two-headed-giant", players=ps,
              turn={"number": 3, "active_player": "p1", "step": "precombat_main"})
    [ev] = g.act("add_extra_phases", effect={**RELENTLESS, "controller": "p2", "you_get": True})
    assert ev.rules == ["500.8"]


# --- skipping what was added (614.10) -------------------------------------------------------------

def skip(eid, event, part, **kw) -> dict:
    return {"id": eid, "kind": "resolved", "controller": "p2", "event": event,
            "when": {event: part}, "affects": {"players": ["p1"]}, **kw}


def test_skip_effects_skip_added_phases_and_steps_too():
    g = board(effects=[skip("pace", "phase", "combat", duration="end_of_turn")])
    g.act("add_extra_phases", effect=RELENTLESS)
    evs = to_turn_end(g)
    assert begun(evs, 4) == ["postcombat_main", "postcombat_main", "end", "cleanup"]
    assert len([e for e in evs if e.kind == "skip_step" and "614.10" in e.rules]) == 2
    g = board(turn={"number": 4, "active_player": "p1", "step": "upkeep"},
              effects=[skip("una", "step", "upkeep", uses=1)])
    g.act("add_extra_phases", effect=adds("steps", ("upkeep",), {"step": "upkeep"}))
    evs = g.step_to("precombat_main")
    assert begun(evs) == ["draw", "precombat_main"]           # the added upkeep was the next


def test_a_whole_added_phase_skipped_leaves_the_rest_of_the_turn():
    g = board(turn={"number": 4, "active_player": "p1", "step": "combat_damage"},
              effects=[skip("inizio", "phase", "beginning", uses=1)])
    g.act("add_extra_phases", effect=adds("steps", ("upkeep", "upkeep"), {"phase": "combat"}))
    evs = to_turn_end(g)
    assert begun(evs, 4) == ["end_of_combat", "postcombat_main", "end", "cleanup"]
    assert not g.state.effects


# --- the file ----------------------------------------------------------------------------------

def test_a_record_in_the_file_is_applied_as_it_loads_and_the_game_writes_the_turn():
    g = board(effects=[{**RELENTLESS, "id": "e-assalto"}])
    assert g.state.effects == []
    d = g.to_dict()
    assert "effects" not in d
    assert [e.get("by") for e in d["turn"]["phases"]] == [
        None, None, "Relentless Assault", "Relentless Assault", None, None, None]
    assert d["turn"]["phase_at"] == 1
    g.step_to("declare_attackers")
    again = Game.from_dict(g.to_dict())
    assert again.to_dict() == g.to_dict()
    assert begun(to_turn_end(again), 4) == ["end_of_combat", "postcombat_main", *COMBAT,
                                            "postcombat_main", "end", "cleanup"]


def test_a_record_that_adds_nothing_or_names_no_player_is_an_error_of_the_file():
    with pytest.raises(ScenarioError) as info:
        board(turn={"number": 4, "active_player": "p1", "step": "end"},
              effects=[{**RELENTLESS, "id": "e1"}])
    assert any(p == "effects[0]" and "non aggiungerebbe nulla" in m and "500.8" in m
               for p, m in info.value.errors)
    with pytest.raises(ScenarioError) as info:
        board(effects=[{**RELENTLESS, "id": "e1", "controller": "p9"}])
    assert ("effects[0].controller", 'giocatore sconosciuto "p9"') in info.value.errors


PLAN = [{"phase": "beginning"}, {"phase": "precombat_main"}, {"phase": "combat", "by": "X"},
        {"phase": "combat"}, {"phase": "postcombat_main"}, {"phase": "ending"}]


@pytest.mark.parametrize("turn, path, words", [
    ({"phases": PLAN}, "turn.phase_at", "indice della fase attuale"),
    ({"phases": PLAN, "phase_at": 3}, "turn.phase_at", 'turn.step "precombat_main"'),
    ({"phases": PLAN[1:], "phase_at": 0}, "turn.phases", "500.1"),
    ({"phases": [*PLAN[:5], {"phase": "combat", "by": "X"}, PLAN[5]], "phase_at": 1,
      "step_at": 0}, "turn.step_at", "togli il campo"),
    ({"phases": [{"phase": "beginning", "steps": ["untap", "draw"]}, *PLAN[1:]], "phase_at": 1},
     "turn.phases[0].steps", "una volta"),
    ({"phases": [*PLAN[:2], {"phase": "combat", "by": "X", "steps": ["beginning_of_combat"]},
                 *PLAN[3:]], "phase_at": 1}, "turn.phases[2].steps", "508.8"),
    ({"phases": [*PLAN[:2], {"phase": "precombat_main", "by": "X"}, *PLAN[3:]], "phase_at": 1},
     "turn.phases[2].by", "505.1a"),
    ({"phase_at": 2}, "turn.phase_at", "togli il campo"),
])
def test_the_turns_phases_in_the_file_are_checked(turn, path, words):
    with pytest.raises(ScenarioError) as info:
        board(turn={"number": 4, "active_player": "p1", "step": "precombat_main", **turn})
    assert any(p == path and words in m for p, m in info.value.errors), info.value.errors


def test_undo_takes_the_added_phases_back():
    g = board()
    g.act("add_extra_phases", effect=RELENTLESS)
    g.undo()
    assert g.state.turn.phases is None


def test_a_wrong_action_is_refused_and_changes_nothing():
    g = board()
    before = g.to_json()
    for effect in ({**RELENTLESS, "controller": "p9"}, {"controller": "p1"}, "combat"):
        with pytest.raises(IllegalAction) as info:
            g.act("add_extra_phases", effect=effect)
        assert info.value.rules == ["500.8"]
    assert g.to_json() == before


# --- a property: the turn's steps follow 500.8 and 500.9, and the turn ends with cleanup -------

ADD_PHASES = st.lists(st.sampled_from(["beginning", "combat", "postcombat_main", "ending"]),
                      min_size=1, max_size=3)
ADD_STEPS = st.lists(st.sampled_from(["untap", "upkeep", "draw"]), min_size=1, max_size=2)
OWN = {"beginning": ["untap", "upkeep", "draw"], "combat": COMBAT, "ending": ["end", "cleanup"],
       "postcombat_main": ["postcombat_main"]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ADD_STEPS, max_size=3), st.lists(ADD_STEPS, max_size=2),
       st.lists(ADD_PHASES, max_size=3), st.integers(0, 25))
def test_added_phases_and_steps_come_in_the_order_of_500_8_and_500_9(
        after_upkeep, before_draw, after_main, save_at):
    g = board(turn={"number": 4, "active_player": "p1", "step": "upkeep"})
    for i, parts in enumerate(after_upkeep):
        g.act("add_extra_phases", effect=adds("steps", parts, {"step": "upkeep"}, card=f"u{i}"))
    for i, parts in enumerate(before_draw):
        g.act("add_extra_phases", effect=adds("steps", parts, before={"step": "draw"},
                                              card=f"d{i}"))
    events = g.step_to("precombat_main")
    for i, parts in enumerate(after_main):
        g.act("add_extra_phases", effect=adds("phases", parts, card=f"m{i}"))
    for k in range(200):
        if k == save_at:                                    # a saved game goes on the same way
            d = g.to_dict()
            g = Game.from_dict(d)
            assert g.to_dict() == d == json.loads(json.dumps(d))
        events += g.step()
        while g.pending is not None:
            events += g.decide(None)
        if g.state.turn.number == 5:
            break
    # 500.9: the newest after the same step first; each directly before the next step named
    # (an added draw step is the next one)
    expected: list[str] = []
    for parts in reversed(after_upkeep):
        expected += parts
    expected.append("draw")
    for parts in before_draw:
        at = expected.index("draw")
        expected[at:at] = parts
    expected.append("precombat_main")
    # 500.8: the newest after the same phase first, then the turn's own phases
    for parts in reversed(after_main):
        for phase in parts:
            expected += OWN[phase]
    expected += [*COMBAT, "postcombat_main", "end", "cleanup"]
    assert begun(events, 4) == expected
    assert begun(events, 5)[:1] == ["untap"] and g.state.turn.phases is None
    marked = [e for e in events if e.kind == "step" and {"500.8", "500.9"} & set(e.rules)]
    assert len(marked) == sum(map(len, after_upkeep + before_draw)) + sum(map(len, after_main))
    assert {r for e in events for r in e.rules} <= RULES


# --- 614.10b: «skip …, then …» ---------------------------------------------------------------------

VAULT = {"id": "vault", "name": "Time Vault", "types": ["artifact"], "controller": "p1",
         "tapped": True}
VAULT_SKIP = {"id": "e-vault", "source": "vault", "card": "Time Vault", "event": "turn",
              "affects": {"players": "you"}, "optional": True,
              "text": "Se stai per iniziare il tuo turno mentre Time Vault è TAPpato, puoi invece "
                      "saltare quel turno. Se lo fai, STAPpa Time Vault.",
              "then": {"act": "untap", "object": "vault"}}


def test_time_vault_untaps_first_thing_in_the_next_turn():
    """Time Vault's ruling (2008-10-01): it untaps before anything else happens in the next turn."""
    g = board(turn={"number": 4, "active_player": "p2", "step": "end"}, battlefield=[VAULT],
              effects=[VAULT_SKIP])
    g.step_to("cleanup")
    evs = g.step()
    assert g.pending["kind"] == "may_apply"
    evs = g.decide(None)
    kinds = [(e.kind, e.step, e.turn) for e in evs if e.kind in ("skip_step", "turn", "step",
                                                                  "after_skip", "untap")]
    assert kinds[:4] == [("skip_step", "cleanup", 4), ("turn", "untap", 5),
                         ("step", "untap", 5), ("after_skip", "untap", 5)]
    [then] = [e for e in evs if e.kind == "after_skip"]
    assert then.rules == ["614.10b"] and "Alice ha saltato il suo turno" in then.text
    i = evs.index(then)
    assert evs[i + 1].rules == ["701.26b"] and not g.state.perm("vault").tapped
    assert g.state.turn.active_player == "p2" and not g.state.turn.after_skip


def test_an_action_that_cant_be_done_is_said_and_the_game_goes_on():
    g = board(turn={"number": 4, "active_player": "p2", "step": "cleanup"},
              battlefield=[{**VAULT, "tapped": False}], effects=[{**VAULT_SKIP, "optional": False}])
    evs = g.step_to("upkeep")
    assert any(e.kind == "note" and e.rules == ["614.10b"] and "non si può fare" in e.text
               for e in evs)
    assert g.state.turn.step == "upkeep"


def test_then_is_read_checked_and_written_back():
    e, errs = skip_schema.parse_one({**VAULT_SKIP, "kind": "resolved", "controller": "p1"})
    assert not errs and e.then == {"act": "untap", "object": "vault"}
    assert skip_schema.to_json(e)["then"] == {"act": "untap", "object": "vault"}
    for then, path, words in (({"act": "vola"}, "effect.then.act", "sconosciuta"),
                              ({"act": "set_tapped", "object": "x"}, "effect.then.act",
                               "modifiche dirette"),
                              ({"act": "untap"}, "effect.then.object", "obbligatorio"),
                              ({"act": "untap", "object": "x", "forte": 1}, "effect.then.forte",
                               "parametro sconosciuto"),
                              ("untap", "effect.then", "614.10b")):
        _, errs = skip_schema.parse_one({**VAULT_SKIP, "then": then})
        assert any(p == path and words in m for p, m in errs), (then, errs)


def test_an_action_waiting_after_a_skip_is_saved_with_the_game():
    waiting = [{"act": "untap", "params": {"object": "vault"}, "by": "l'effetto di Time Vault",
                "skipped": "il suo turno", "player": "p1"}]
    g = board(turn={"number": 5, "active_player": "p2", "step": "cleanup",
                    "after_skip": waiting}, battlefield=[VAULT])
    assert g.to_dict()["turn"]["after_skip"] == waiting
    g.step()
    assert not g.state.perm("vault").tapped and "after_skip" not in g.to_dict()["turn"]
    with pytest.raises(ScenarioError) as info:
        board(turn={"number": 5, "active_player": "p2", "step": "cleanup",
                    "after_skip": [{"act": "vola"}]})
    assert any(p == "turn.after_skip[0].act" for p, _ in info.value.errors)


# --- the log: a turn whose untap step is skipped -----------------------------------------------

def test_a_turns_first_lines_sit_under_the_step_that_happens():
    stasis = {"id": "stasi", "kind": "resolved", "controller": "p1", "event": "step",
              "when": {"step": "untap"}, "affects": "game"}
    g = board(turn={"number": 4, "active_player": "p1", "step": "cleanup"}, effects=[stasis])
    evs = g.step()
    new_turn = [e for e in evs if e.turn == 5]
    assert [e.kind for e in new_turn][:3] == ["turn", "replacement_event", "replacement_applied"]
    assert {e.step for e in new_turn} == {"upkeep"}
    g = board(turn={"number": 4, "active_player": "p1", "step": "cleanup"})
    assert {e.step for e in g.step() if e.turn == 5} == {"untap"}
