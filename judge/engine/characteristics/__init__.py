"""Characteristics: what an object is and has right now (power, toughness, keywords and their
parameters, colours, protection's qualities), computed from the object's printed values, its
counters and the effects on it.  The layer system (613) and copiable values (707) belong here.

May import: the core (the top-level modules of judge.engine) only.  Other rooms should ask it
for an object's current characteristics; many places still read a Card's printed fields
(``types``, ``power``) directly, which the layer system will have to route through here.
"""
