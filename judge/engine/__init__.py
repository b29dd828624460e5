"""Rules engine for judges: load a board, step the game, see which rule acts.

Public entry points::

    from judge.engine import Game, ScenarioError, IllegalAction
    game = Game.load("scenarios/legend-rule.json")
    events = game.step()

See docs/engine.md for the API and docs/scenario-format.md for the files.

The rooms, each importing only the ones before it (tests/test_architecture.py)::

    core (the modules of this folder: state, events, errors, registry, context, seats, steps,
          terms, validation)
    <- characteristics <- mechanics <- combat, scenario <- actions <- play
"""

from judge.engine.errors import IllegalAction, ScenarioError
from judge.engine.events import Event
from judge.engine.play.game import Game

__all__ = ["Game", "Event", "ScenarioError", "IllegalAction"]
