"""Combat (506–511): whom a player may attack (attack_scope), declaring attackers (attackers)
and blockers (blocks) with their restrictions (evasion) and requirements
(combat_requirements), the combat keywords' triggers and effects (combat_triggers,
combat_effects) and combat damage (combat_damage).

May import: the core, characteristics and mechanics.
"""
