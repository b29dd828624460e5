"""A card's type line in Italian (judge/cards/types_it.py): types in Italian order, supertypes agreeing
with the first type, subtypes as the project's translation of rule 205.3's lists names them."""

from __future__ import annotations

import pytest

from judge.cards import types_it


@pytest.mark.parametrize("english, italian", [
    ("Grizzly Bears", "Creatura — Orso"),
    ("Thalia, Guardian of Thraben", "Creatura Leggendaria — Umano Soldato"),
    ("Karn, Silver Golem", "Creatura Artefatto Leggendaria — Golem"),        # the noun first, feminine
    ("Jace, the Mind Sculptor", "Planeswalker Leggendario — Jace"),           # masculine
    ("Snow-Covered Forest", "Terra Base Innevata — Foresta"),
    ("Bonesplitter", "Artefatto — Equipaggiamento"),
    ("Urza's Tower", "Terra — Torre di Urza"),                               # the genitive after its noun
    ("Goblin Guide", "Creatura — Goblin Esploratore"),                       # kept in English by the list
    ("Lightning Bolt", "Istantaneo"),
])
def test_italian_type_lines(table, corpus, english, italian):
    face = table.by_name(english)
    assert types_it.italian_type_line(face.types, face.supertypes, face.subtypes, corpus) == italian


def test_every_subtype_of_the_lists_is_read_from_the_translation(corpus):
    names = types_it.subtype_names(corpus)
    assert names["bear"] == "Orso" and names["equipment"] == "Equipaggiamento" and names["forest"] == "Foresta"
    assert names["powerstone"] == "Pietra del Potere" and len(names) > 200
    assert all("regol" not in k and len(v.split()) <= 4 for k, v in names.items())
