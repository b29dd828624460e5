"""The working context passed to every rule function: state, events, choices."""

from __future__ import annotations

import pickle
import random

from judge.engine import italian
from judge.engine.events import Event
from judge.engine.state import State


# Events after which every characteristic is what it was (the changes they report are not read
# by the layers, or are made by the primitive operations that touch the state themselves; the
# lines explaining a replacement or prevention effect, 614–616, change nothing: an effect used
# up touches the state itself).
# tests/engine/test_layers_cache.py checks every library scenario against a fresh computation.
SAME_CHARACTERISTICS = frozenset((
    "priority", "no_priority", "step", "skip_step", "step_to_stop", "trigger", "trigger_order",
    "extra_turn", "extra_phase", "after_skip",
    "note", "assign", "life", "life_prevented", "poison", "commander_damage", "mana_empty",
    "add_mana", "damage", "deathtouch", "damage_prevented", "damage_removed", "attack", "block",
    "blocked", "unblocked", "defending_player", "first_strike", "no_combat_damage", "tap",
    "untap", "doesnt_untap", "speed", "monarch", "initiative", "summoning_sickness",
    "replacement_event", "replacement_note", "replacement_result", "replacement_applied",
    "replacement_choice"))


class NeedDecision(Exception):
    """Raised inside a rule function to stop the engine on a pending decision.

    ``replay``: the choice came up halfway through changing the state (a replacement effect's,
    616.1): the step that asked it goes back to where it started and runs again once the
    choice is made (``savepoint`` / ``rollback``)."""

    def __init__(self, decision_id: str, replay: bool = False):
        super().__init__(decision_id)
        self.replay = replay


class Ctx:
    def __init__(self, state: State):
        self.s = state
        self.events: list[Event] = []
        self.phased_in: list | None = None   # phased-in permanents during one SBA check
        self._namer = italian.Namer()         # permanents' names in sentences (italian.py)
        # A point to go back to is saved (``savepoint``): a choice halfway through may be asked.
        self.replay_ok = False
        # What the engine held about objects now leaving their zones, by key (400.7): the
        # log says it once each arrives as a new object (ops.take, ops.put).
        self.leaving: dict[str, list] = {}
        # Events waiting for the event about the same object (its id) to be logged first.
        self.after: dict[str, list[Event]] = {}

    def emit(self, rules: list[str], text: str, kind: str, objects=(), players=(),
             **data) -> Event:
        ev = Event(rules=list(rules), text=self._sentence(text, objects), kind=kind, objects=list(objects),
                   players=list(players), turn=self.s.turn.number, step=self.s.turn.step,
                   data=data)
        self.events.append(ev)
        if kind not in SAME_CHARACTERISTICS:
            self.s.touch()      # what happened may change a characteristic (613)
        if self.after:
            for oid in ev.objects:
                self.events += self.after.pop(oid, [])
        return ev

    def _sentence(self, text: str, objects) -> str:
        """The sentence as a judge pastes it (judge/engine/italian.py): permanents that share a
        name with their controller (a permanent that just left keeps its last name), «ad»,
        articulated prepositions."""
        if objects:
            text = italian.with_labels(text, objects, self._namer.labels(self.s), self.s)
        return italian.tidy(text)

    def emit_after(self, oid: str, rules: list[str], text: str, kind: str, objects=(),
                   players=(), **data) -> None:
        """An event that follows the next one about object ``oid`` (what a move did to it
        comes after the sentence saying it moved); at the latest, at the end of the
        operation (:meth:`flush`)."""
        ev = Event(rules=list(rules), text=self._sentence(text, objects), kind=kind, objects=list(objects),
                   players=list(players), turn=self.s.turn.number, step=self.s.turn.step,
                   data=data)
        self.after.setdefault(oid, []).append(ev)

    def flush(self) -> None:
        """Log the events still waiting (:meth:`emit_after`)."""
        for evs in self.after.values():
            self.events += evs
        self.after.clear()

    def ask(self, decision: dict, replay: bool = False):
        """Return the answer to ``decision`` if given, else stop with it pending.

        A stored answer is checked again against the decision as it stands now
        (a saved file may hold anything); one that no longer fits is asked again.
        A choice that falls on a player who has left the game is made by the next
        player in turn order (800.4h)."""
        from judge.engine.seats import turn_order_from
        from judge.engine.errors import IllegalAction
        from judge.engine.registry import DECISIONS
        st = self.s
        chooser = decision["player"]
        if st.has_player(chooser) and st.player(chooser).lost:
            heir = next((p.id for p in turn_order_from(st, chooser)), None)
            if heir is not None:
                decision = {**decision, "player": heir, "rules": decision["rules"] + ["800.4h"],
                            "prompt": f"{st.name_of(chooser)} ha lasciato la partita: sceglie "
                                      f"{st.name_of(heir)}. " + decision["prompt"]}
        if decision["id"] in st.answers:
            try:
                return DECISIONS[decision["kind"]](st, decision, st.answers[decision["id"]])
            except (IllegalAction, KeyError, TypeError, ValueError, AttributeError, IndexError):
                del st.answers[decision["id"]]
        st.pending = decision
        raise NeedDecision(decision["id"], replay)

    # --- going back to the start of a step, for a choice asked halfway through --------------
    def savepoint(self) -> tuple[bytes, int]:
        """The state and the events so far, to go back to (``rollback``)."""
        self.replay_ok = True
        return pickle.dumps(self.s, pickle.HIGHEST_PROTOCOL), len(self.events)

    def rollback(self, mark: tuple[bytes, int]) -> None:
        """Back to ``mark``, keeping the decision just asked: what was done since is done again,
        identically, once it is answered (the engine is deterministic)."""
        pending = self.s.pending
        saved = pickle.loads(mark[0])
        self.s.__dict__.clear()
        self.s.__dict__.update(saved.__dict__)
        self.s.pending = pending
        self.s.touch()
        del self.events[mark[1]:]

    def rng(self) -> random.Random:
        """A deterministic random generator (seed + number of draws so far)."""
        r = random.Random(f"{self.s.seed}:{self.s.random_calls}")
        self.s.random_calls += 1
        return r

    def name(self, oid: str | None) -> str:
        return self.s.name_of(oid)
