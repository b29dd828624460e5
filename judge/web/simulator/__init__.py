"""The scenario simulator on the web: the builder and the stepper (blueprint "scenario").

Routes (documented in docs/simulatore.md):

    GET  /simulatore                              start: variant, import, library
    POST /simulatore/nuovo                        a new scenario from a variant
    POST /simulatore/importa                      a scenario or game from a file or pasted JSON
    GET  /simulatore/libreria                     the library, by rule section, questions and answers
    GET  /simulatore/libreria/<slug>              a library scenario in the builder
    GET  /simulatore/libreria/<slug>/avvia        a library scenario in the stepper
    GET  /simulatore/modifica/<id>                the builder (a saved draft)
    POST /simulatore/modifica/<id>                save the builder form (→ a new id)
    GET  /simulatore/modifica/<id>/scenario.json  the draft as a file
    GET  /s/<id>                                  permalink: the stepper (or the builder for a draft)
    POST /s/<id>                                  step, step to, next turn, undo, redo, decide
    GET  /s/<id>/modifica                         the current state of a game in the builder
    GET  /s/<id>/scenario.json                    the current state as a scenario file
    GET  /s/<id>/partita.json                     starting scenario + actions
    GET  /s/<id>/registro.md                      the log as Markdown with rule links
    GET  /api/scenari/<id>                        a saved document (and for a game: state, events)
    POST /api/scenari                             save a scenario or a game (JSON body)
    POST /api/scenari/<id>/azioni                 perform one action on a saved game (JSON body)

Every state is saved under a content-addressed id (see store), so any
URL above is a permalink that survives restarts and works for anybody.

Modules: ``blueprint`` (the blueprint, what it adds to every page, its errors), ``documents``
(loading and saving documents, JSON bodies, downloads), ``builder`` (start page, import,
library, builder), ``game`` (stepper, games' JSON API), ``views`` (what the stepper shows),
``actions`` (judge-action forms), ``forms`` and ``state_fields`` (builder form <-> scenario),
``play`` (the game document), ``history`` (opening a game without replaying it), ``store``
(SQLite), ``library`` (``scenarios/``).
"""

from judge.web.simulator import builder, game  # noqa: F401  (their routes, on the blueprint)
from judge.web.simulator.blueprint import bp

__all__ = ["bp"]
