"""The scenario format (docs/scenario-format.md): JSON data to a State and back (parse,
scenario_refs, scenario_fields, scenario_combat, scenario_json), new scenarios and card
defaults for the builder (templates, card_defaults), and the shape of a library scenario's
``expected`` block (expected).

May import: the core, characteristics and mechanics (what the format names: keywords, rooms,
procedure tasks), never combat, the judge actions or the game that plays it.
"""
