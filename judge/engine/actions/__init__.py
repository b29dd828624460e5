"""Judge actions (``@action``, run by ``Game.act``): the judge's changes to a board, each citing
the rule that governs it.  general: life, damage, cards, zones, counters, tokens, mana,
designations, conceding, and the checks of actions' parameters (player_arg, perm_arg, …);
permanent_actions: tap, attach, goad, effects until end of turn; stack_actions: spells,
copies, triggered abilities; mechanic_actions: venture and planeswalk.

May import: the core, characteristics, mechanics, combat and the scenario format.
"""
