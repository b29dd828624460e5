"""Glossary changes between editions (the trace compares rules; the glossary is diffed by term)."""

from __future__ import annotations

from judge.corpus.diff import glossary_changes


def _changes(corpus, a, b):
    old, new = corpus.edition(a), corpus.edition(b)
    return {g.term: g for g in glossary_changes(old, new, corpus.lineage.trace(old, new))}


def test_20260925_glossary_changes(corpus):
    changes = _changes(corpus, "20260619", "20260925")
    added = {t for t, g in changes.items() if g.kind == "aggiunta"}
    assert added == {"Empower Jace", "Enduring Story", "Heartwood Token", "Hone Counter", "Recruit", "Storied"}
    protect = changes["Protect, Protector"]
    assert protect.kind == "modificata" and protect.renumbering_only
    assert ("-", "310.8.") in protect.words and ("+", "310.9.") in protect.words


def test_a_renamed_entry_and_removed_ones(corpus):
    changes = _changes(corpus, "20260227", "20260417")
    renamed = changes["Remove from Combat"]
    assert renamed.kind == "rinominata" and renamed.old_term == "Removed from Combat"
    assert {t for t, g in changes.items() if g.kind == "rimossa"} == {"Paris Mulligan", "Vancouver Mulligan"}
    # the 722 shift of 20260417 renumbers citations in the glossary too: flagged, not a change of meaning
    assert sum(1 for g in changes.values() if g.renumbering_only) >= 10


def test_a_real_change_is_not_renumbering(corpus):
    changes = _changes(corpus, "20251114", "20260925")
    assert not any(g.renumbering_only for g in changes.values() if g.kind == "modificata" and g.term == "Mana Ability")
