"""Mechanics: the rules that act on the state.  Primitive operations (ops: move, draw, life,
damage), triggered abilities and the stack (triggers, resolve, targeting), state-based actions
(state_actions, sba_acts) and turn-based actions outside combat (turn_actions), and one module
per mechanic with its own rules (attachment, battles, dungeon, sectors, planechase, variants,
designations, leaving the game).

May import: the core and characteristics.
"""
