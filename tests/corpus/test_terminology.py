"""The terminology table: well formed, its terms really come from the sources it names,
and its matching does what the translation check relies on."""

from __future__ import annotations

import re

import pytest

from judge import RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.terminology import italian_form_pattern, load_terminology, parse_terminology


@pytest.fixture(scope="module")
def terms():
    return load_terminology()


def test_table_loads_with_the_issue_terms(terms):
    expected = {
        "library": "grimorio", "graveyard": "cimitero", "battlefield": "campo di battaglia", "exile": "esilio",
        "stack": "pila", "untap": "STAPpare", "tap": "TAPpare", "upkeep": "sottofase di mantenimento",
        "cleanup step": "sottofase di cancellazione", "state-based actions": "azioni generate dallo stato",
        "turn-based actions": "azioni generate dal turno", "trample": "travolgere", "deathtouch": "tocco letale",
        "lifelink": "legame vitale", "first strike": "attacco improvviso", "double strike": "doppio attacco",
        "vigilance": "cautela", "haste": "rapidità", "flying": "volare", "reach": "raggiungere",
        "hexproof": "anti-malocchio", "indestructible": "indistruttibile", "token": "pedina", "counter": "segnalino",
        "sacrifice": "sacrificare",
    }
    for english, italian in expected.items():
        assert terms.italian(english) == italian, english


def test_english_forms_are_unique(terms):
    seen: dict[str, int] = {}
    for t in terms:
        for form in t.english:
            key = form if form[:1].isupper() else form.lower()
            assert key not in seen, f"«{form}» alla riga {t.line} e alla riga {seen[key]}"
            seen[key] = t.line


def test_every_term_is_in_the_source_it_names(terms):
    """Terms said to come from a community file or the wiki index really appear there."""
    for t in terms:
        if t.source == "indice":
            path = RULES_IT_DIR / "indice.md"
        elif t.source.startswith("rules_it/"):
            path = RULES_IT_DIR / t.source.removeprefix("rules_it/")
        else:
            continue
        text = path.read_text(encoding="utf-8").lower()
        forms = [t.italian, *t.forms]
        assert any(re.search(italian_form_pattern(f), text) for f in forms), f"{t.term} → {t.italian} non è in {t.source}"


@pytest.mark.parametrize(
    ("english", "present"),
    [
        ("Put it into its owner's library.", True),
        ("Shuffle your libraries.", True),
        ("LIBRARY", True),
        ("the librarian", False),
    ],
)
def test_english_matching(terms, english, present):
    assert terms.get("library").in_english(english) is present


def test_italian_forms_and_avoided_words(terms):
    library = terms.get("library")
    assert library.in_italian("Il giocatore pesca dal suo grimorio.")
    assert not library.in_italian("Il giocatore pesca dalla sua biblioteca.")
    assert library.avoided_in("dalla sua Biblioteca") == "bibliotec"
    hand = terms.get("hand")
    assert hand.in_italian("la sua mano") and not hand.in_italian("il mana")
    assert terms.get("Aura").in_english("an Aura") and not terms.get("Aura").in_english("an aura of mystery")


def test_malformed_table_names_the_line(tmp_path):
    path = tmp_path / "terminologia.tsv"
    path.write_text("inglese\titaliano\tforme\tevitare\tfonte\nlibrary\tgrimorio\tgrimori\n", encoding="utf-8")
    with pytest.raises(SourceFormatError) as err:
        parse_terminology(path)
    assert err.value.line == 2 and "5 campi" in err.value.message
