"""The simulator's Italian names for the engine's values are the terminology table's
(rules_it/terminologia.tsv) wherever the table names the thing, as in the engine's log; no
label uses a word the table says to avoid."""

from __future__ import annotations

from judge.corpus.terminology import load_terminology
from judge.engine import terms
from judge.engine.characteristics import keywords as kw
from judge.web.simulator import actions as acts
from judge.web.simulator import forms

TABLE = load_terminology()


def test_names_of_things_the_table_names_are_the_tables():
    for zone, label in forms.ZONE_LABELS.items():
        assert label.lower() == TABLE.italian(terms.ZONE_TERMS[zone]).lower(), zone
    assert set(forms.ZONES_IT) <= set(forms.ZONE_LABELS) and acts.ZONE_LABELS == forms.ZONE_LABELS
    assert forms.TYPES_IT == {t: TABLE.italian(t) for t in forms.TYPES_IT}
    # keywords are the table's; the engine's abilities that are not keywords are phrases
    assert {k: forms.KEYWORDS_IT[k] for k in kw.NAMES} == {k: TABLE.italian(k) for k in kw.NAMES}
    assert set(forms.KEYWORDS_IT) == set(kw.NAMES) | set(kw.ABILITIES)
    assert forms.COUNTERS_IT == {k: TABLE.italian(terms.COUNTER_TERMS[k]).removeprefix("segnalino ")
                                 for k in forms.COUNTERS_IT}
    assert forms.MANA_IT == {m: TABLE.italian(terms.MANA_TERMS[m]) for m in forms.MANA_IT}
    assert forms.SUPERTYPES_IT["legendary"] == TABLE.italian("legendary")
    for variant, term in (("two-headed-giant", "Two-Headed Giant"), ("commander", "Commander"),
                          ("archenemy", "Archenemy"), ("vanguard", "Vanguard")):
        assert forms.VARIANTS_IT[variant] == TABLE.italian(term)


def test_counter_kinds_read_the_tables_name_and_old_spellings():
    loyalty = TABLE.italian("loyalty")
    assert forms.counter_kind(loyalty) == forms.counter_kind(loyalty.upper()) == "loyalty"
    assert forms.counter_kind("lealtà") == "loyalty"              # typed by habit: still understood
    assert forms.counter_kind("sopravvivenza") == "sopravvivenza"  # any other kind, as written


def test_no_label_uses_a_word_the_table_avoids():
    labels = [*forms.VARIANTS_IT.values(), *forms.ZONE_LABELS.values(), *forms.TYPES_IT.values(),
              *forms.SUPERTYPES_IT.values(), *forms.KEYWORDS_IT.values(), *forms.COUNTERS_IT.values(),
              *forms.DAY_NIGHT_IT.values(), *acts.ACTION_LABELS.values(), *acts.PARAM_LABELS.values(),
              *acts.LABEL_OVERRIDES.values()]
    labels += [s.summary for _, specs in acts.catalog() for s in specs]
    for label in labels:
        for term in TABLE:
            assert term.avoided_in(label) is None, (term.term, label)
