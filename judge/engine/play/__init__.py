"""Playing a scenario: the Game (the transactional API of judge.engine), the turn's procedure
that runs every other room (procedure), stepping to a named step (step_target), checking a
library scenario's expected outcome by playing it (library), and the `judge scenario`
command line (cli).

May import: every other room of the engine.  Nothing in the engine imports it, except
judge/engine/__init__.py, which exports Game.
"""
