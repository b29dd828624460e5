"""Opening a saved game without replaying it from the start.

A game document (starting scenario + actions, see play) stays the whole
truth.  Beside it the store caches, for each prefix of a game's history, the
events of its last action and a snapshot of the engine's state after it (every
action made in the browser; every ``SNAPSHOT_EVERY`` actions when an old or
imported game is replayed).  A prefix is named by its *history key*: a hash of
the engine build, the starting scenario and the actions so far, chained one
action at a time, so

* undo is the parent key, redo and a new action one more link: no replay;
* the ``redo`` list is not part of a key: a game and its undone copy share states;
* a new engine build (any change under judge/engine/ or to play) starts a new
  set of keys, so a snapshot is only ever read by the code that wrote it; old games
  replay once, then are cached again;
* the cache can be deleted at any time (or turned off: ``SCENARIO_SNAPSHOTS=False``,
  env ``JUDGE_SCENARIO_SNAPSHOTS=0``, which replays every game on every request as
  before).

Opening a cached game reads one snapshot and the events of the last actions
shown (``LOG_EVENTS``): the cost does not grow with the length of the game.
"""

from __future__ import annotations

import copy
import hashlib
import sys
from pathlib import Path
from typing import Any

import judge.engine
from judge.engine import Game, IllegalAction
from judge.engine.events import Event
from judge.web.simulator import play
from judge.web.simulator.store import (MAX_JSON_DEPTH, HistoryRow, ScenarioStore, canonical,
                                       canonical_edited, check_document, check_size,
                                       json_depth)

SNAPSHOT_EVERY = 32          # when replaying a game nobody cached: a snapshot every N actions
LOG_EVENTS = 150             # events the stepper shows (the exports have them all)
SNAPSHOT_FORMAT = "1"


def engine_build() -> str:
    """Identifies the code that turns a document into states (the engine, and play
    which maps a document's actions to it): snapshots and cached events are valid for this
    build only."""
    h = hashlib.sha256(f"{SNAPSHOT_FORMAT}:{sys.version_info[:2]}".encode())
    engine = Path(judge.engine.__file__).parent          # its packages included
    sources = [(p.relative_to(engine).as_posix(), p) for p in sorted(engine.rglob("*.py"))]
    for name, path in sources + [("play.py", Path(play.__file__))]:
        h.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


ENGINE = engine_build()


def start_key(scenario: Any) -> str:
    return hashlib.sha256(ENGINE.encode() + b"\0" + canonical(scenario)).hexdigest()[:32]


def next_key(key: str, action: dict) -> str:
    return hashlib.sha256(key.encode() + b"\0" + canonical(action)).hexdigest()[:32]


def events_from(dicts: list[dict]) -> list[Event]:
    return [Event(**d) for d in dicts]


class Histories:
    """Game histories over one store (``enabled=False``: replay every time, cache nothing)."""

    def __init__(self, store: ScenarioStore, enabled: bool = True):
        self.store, self.enabled = store, enabled

    # --- reading ----------------------------------------------------------------------
    def open(self, ident: str, doc: dict, log: int | None = LOG_EVENTS) -> play.Played:
        """The game of a saved document with the events of its last actions: at least
        ``log`` of them (0: none; None: all).  ScenarioError if its scenario is invalid."""
        if not self.enabled:
            return play.trim(play.replay(doc), log)
        actions = doc.get("actions") or []
        key, found = self.store.game_snapshot(ident, ENGINE, SNAPSHOT_EVERY)
        played = self._from_cache(key, actions, found) if key else None
        if played is None:
            played = self._replay(ident, doc)
        if log != 0 and played.key is not None:
            rows, complete = self.store.history_events(played.key, log)
            if not complete and (log is None or sum(len(e) for _, e in rows) < log):
                # The walk stopped short of the start: history rows were pruned (judge/store/
                # pruning.py). Replay from the start once, which puts them back.
                return play.trim(self._replay(ident, doc, from_start=True), log)
            played.steps = [(n - 1, actions[n - 1], events_from(evs)) for n, evs in rows]
            played.complete = complete
        return played

    def _from_cache(self, key: str, actions: list[dict], found=False) -> play.Played | None:
        if found is False:
            found = self.store.nearest_snapshot(key, SNAPSHOT_EVERY)
        if found is None:
            return None
        n, data = found
        try:
            game = Game.from_snapshot(data)
        except ValueError:
            return None
        for a in actions[n:]:                       # at most SNAPSHOT_EVERY - 1 actions
            try:
                play.perform(game, a)
            except IllegalAction:
                return None                         # cannot happen with a sound cache: replay
        if n < len(actions):
            self.store.add_snapshot(key, game.snapshot())
        return play.Played(game, key=key, complete=False, n_actions=len(actions))

    def _replay(self, ident: str, doc: dict, from_start: bool = False) -> play.Played:
        """Replay from the deepest cached prefix (or the start), caching what it computes."""
        actions = doc.get("actions") or []
        keys = [start_key(doc["scenario"])]
        for a in actions:
            keys.append(next_key(keys[-1], a))
        have = {} if from_start else self.store.snapshots_among(keys)
        m = max((have[k] for k in keys if k in have), default=None)
        game = None
        if m is not None:
            found = self.store.snapshot(keys[m])
            try:
                game = Game.from_snapshot(found[1]) if found else None
            except ValueError:
                game = None
        rows: list[HistoryRow] = []
        if game is None:
            m = 0
            game = Game.from_dict(copy.deepcopy(doc["scenario"]))
            rows.append(HistoryRow(keys[0], None, 0, [], game.snapshot()))
        played = play.Played(game, n_actions=len(actions))
        for i in range(m, len(actions)):
            try:
                events = play.perform(game, actions[i])
            except IllegalAction as e:
                played.broken = play.broken_at(i, actions[i], e)
                break
            last = i + 1 == len(actions)
            snap = game.snapshot() if last or (i + 1) % SNAPSHOT_EVERY == 0 else None
            rows.append(HistoryRow(keys[i + 1], keys[i], i + 1, [e.to_dict() for e in events], snap))
            played.steps.append((i, actions[i], events))
        good = played.broken[0] if played.broken else len(actions)
        played.key = keys[good]
        self.store.put_history(rows, [] if played.broken else [(ident, ENGINE, keys[-1])])
        played.complete = m == 0
        return played

    # --- writing ------------------------------------------------------------------------
    def perform(self, played: play.Played, doc: dict, action: dict,
                new: dict | None = None) -> tuple[dict, list[Event], "Save"]:
        """Perform ``action`` on an open game (IllegalAction: refused, nothing changed) and
        prepare the new document's save (``new``: that document, when it is not ``doc``
        plus the action, as for redo)."""
        if played.broken:
            raise IllegalAction("la partita salvata non si riproduce più fino in fondo: "
                                "annulla l'ultima azione")
        if json_depth(action) + 2 > MAX_JSON_DEPTH:      # the action sits 2 levels deep in a game
            raise IllegalAction(f"azione troppo annidata (il limite del documento è {MAX_JSON_DEPTH} livelli)")
        events = play.perform(played.game, action)
        new = play.with_action(doc, action) if new is None else new
        if not self.enabled or played.key is None:
            return new, events, Save(new)
        key = next_key(played.key, action)
        row = HistoryRow(key, played.key, played.n_actions + 1, [e.to_dict() for e in events],
                         played.game.snapshot())
        played.key, played.n_actions = key, played.n_actions + 1
        return new, events, Save(new, key, [row], base=(played.doc_data, doc, action, False))

    def redo(self, played: play.Played, doc: dict) -> "tuple[list[Event], Save] | None":
        new = play.redone(doc)
        if new is None:
            return None
        _, events, save = self.perform(played, doc, doc["redo"][0], new)
        return events, save

    def opened(self, ident: str, save: "Save") -> play.Played:
        """The game of a document just saved (no log), without loading it again."""
        played = self._from_cache(save.key, save.doc.get("actions") or []) if save.key else None
        return played or self.open(ident, save.doc, log=0)

    def undo(self, played: play.Played, doc: dict) -> "Save | None":
        new = play.undone(doc)
        if new is None:
            return None
        parent = self.store.history_parent(played.key) if self.enabled and played.key else None
        return Save(new, parent[0] if parent else None, base=(played.doc_data, doc, None, True))

    def save(self, save: "Save", kind: str) -> str:
        """Save a document made by perform/undo/redo from a saved one (so its depth is known
        to be within the limit), with its history rows, in one transaction.  Its canonical
        JSON is kept in ``save.data`` (the API answers with it instead of encoding it again)."""
        data = None
        if save.base and save.base[0]:          # the saved document's JSON, edited
            old, doc, append, drop_last = save.base
            data = canonical_edited(old, doc, save.doc["redo"], append, drop_last)
        save.data = check_document(save.doc, depth_checked=True) if data is None else check_size(data)
        return self.store.save(save.doc, kind, history=save.rows, engine=ENGINE, key=save.key,
                               data=save.data)


class Save:
    """A game document ready to be saved, with what the history cache learns from it."""

    def __init__(self, doc: dict, key: str | None = None, rows: list[HistoryRow] | None = None,
                 base: tuple[bytes, dict, dict | None, bool] | None = None):
        self.doc, self.key, self.rows = doc, key, rows or []
        # (canonical JSON of the document it was made from, that document, the action
        # appended or None, whether its last action was dropped)
        self.base = base
        self.data = b""
