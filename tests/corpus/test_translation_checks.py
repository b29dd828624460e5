"""The translation checker catches what a translator can get wrong (planted errors in a
faithful translation of 704.1–704.5c), and the file format round-trips."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge import RULES_EN_DIR
from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.rules_en import edition_paths, parse_edition
from judge.corpus.terminology import load_terminology
from judge.corpus.translation import parse_translation_file, render, skeleton, stamp_missing
from judge.corpus.translation_checks import check_translation, fidelity_problems, untranslated_sentences

GOOD = Path(__file__).parents[1] / "data" / "traduzione" / "704.md"


@pytest.fixture(scope="module")
def editions():
    return [parse_edition(p) for p in edition_paths(RULES_EN_DIR)]


@pytest.fixture(scope="module")
def terms():
    return load_terminology()


def run(path: Path, editions, terms):
    return check_translation([parse_translation_file(path)], editions, terms, complete=False)


def planted(tmp_path: Path, old: str, new: str) -> Path:
    text = GOOD.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "704.md"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def codes_for(report, rule: str) -> set[str]:
    return {f.code for f in report.findings if f.rule == rule}


def test_faithful_translation_passes(editions, terms):
    report = run(GOOD, editions, terms)
    assert report.errors == []
    # 704.1 … 704.5c: nine rules and the title, all current.
    assert report.rules[0] == 9 and report.sections[0] == 1


@pytest.mark.parametrize(
    ("rule", "old", "new", "code"),
    [
        ("704.5c", "vedi invece la regola 704.6b", "vedi invece le regole successive", "traduzione-citazioni"),
        ("704.5a", "perde la partita.", "perde la partita (vedi regola 104.3a).", "traduzione-citazioni"),
        ("704.5b", "da un grimorio senza carte", "da una biblioteca senza carte", "traduzione-terminologia"),
        ("704.1", "non usano la pila", "non usano lo stack", "traduzione-terminologia"),
        ("704.5a", "quel giocatore perde la partita.", "that player loses the game.", "traduzione-inglese"),
        ("704.2", "e non sono controllate da alcun giocatore", "e sono controllate da un giocatore", "traduzione-modale"),
        ("704.4", "A differenza delle abilità innescate, ", "", "traduzione-terminologia"),
        ("704.5c", "dieci o più segnalini veleno", "dieci o più veleni", "traduzione-terminologia"),
        ("704.4", "costituzione 7", "costituzione sette", "traduzione-simboli"),
    ],
)
def test_planted_error_is_caught(tmp_path, editions, terms, rule, old, new, code):
    report = run(planted(tmp_path, old, new), editions, terms)
    assert code in codes_for(report, rule), [str(f) for f in report.findings]


def test_dropped_example_is_caught(tmp_path, editions, terms):
    text = GOOD.read_text(encoding="utf-8")
    start = text.index("Esempio: Un giocatore controlla Maro")
    end = text.index("\n", start) + 1
    path = tmp_path / "704.md"
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    assert "traduzione-esempi" in codes_for(run(path, editions, terms), "704.4")


def test_summary_is_caught(tmp_path, editions, terms):
    text = GOOD.read_text(encoding="utf-8")
    start = text.index("**704.3.**")
    end = text.index("<!--", start)
    path = tmp_path / "704.md"
    path.write_text(text[:start] + "**704.3.** Quando un giocatore riceverebbe priorità (vedi regola 117) si "
                    "controllano le azioni generate dallo stato, anche nella sottofase di cancellazione (vedi regola 514).\n"
                    + text[end:], encoding="utf-8")
    assert "traduzione-breve" in codes_for(run(path, editions, terms), "704.3")


def test_missing_rule_and_marker(tmp_path, editions, terms):
    text = GOOD.read_text(encoding="utf-8")
    start = text.index("**704.5b**")
    end = text.index("**704.5c**")
    no_rule = tmp_path / "704.md"
    no_rule.write_text(text[:start] + text[end:], encoding="utf-8")
    assert "traduzione-mancante" in codes_for(run(no_rule, editions, terms), "704.5b")
    marker_line = text.index("<!--", text.index("**704.5a**"))
    no_marker = tmp_path / "sub" / "704.md"
    no_marker.parent.mkdir()
    no_marker.write_text(text[:marker_line] + text[text.index("\n", marker_line) + 1:], encoding="utf-8")
    assert "marcatore-mancante" in codes_for(run(no_marker, editions, terms), "704.5a")


def test_stale_hash_lists_the_english_diff(tmp_path, terms):
    """A new edition that rewords 704.5a makes its translation outdated, with the English diff;
    a rule whose text did not change stays current."""
    en_dir = tmp_path / "rules_en"
    en_dir.mkdir()
    for p in edition_paths(RULES_EN_DIR):
        shutil.copy(p, en_dir / p.name)
    newest = edition_paths(RULES_EN_DIR)[-1]
    text = newest.read_bytes().decode("utf-8-sig")
    old = "704.5a If a player has 0 or less life, that player loses the game."
    assert old in text
    (en_dir / "MagicCompRules-20991231.txt").write_bytes(
        b"\xef\xbb\xbf" + text.replace(old, "704.5a If a player has 0 or less life, that player loses the game immediately.").encode()
    )
    editions = [parse_edition(p) for p in edition_paths(en_dir)]
    report = run(GOOD, editions, terms)
    stale = [f for f in report.findings if f.code == "traduzione-da-aggiornare"]
    assert [f.rule for f in stale] == ["704.5a"]
    assert "[-game.-]{+game immediately.+}" in stale[0].message and "20260619" in stale[0].message
    assert stale[0].level == "avviso"
    assert report.rules[0] == 8  # the other eight are still current


def test_orphan_translation(tmp_path, editions, terms):
    text = GOOD.read_text(encoding="utf-8") + "\n**704.99** Una regola che l'inglese non ha.\n<!-- en 20260619 000000000000 -->\n"
    path = tmp_path / "704.md"
    path.write_text(text, encoding="utf-8")
    assert "traduzione-orfana" in codes_for(run(path, editions, terms), "704.99")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("**704.1.** Testo.\n<!-- en 2026 abc -->", 6, "marcatore non valido"),
        ("Esempio: prima di ogni regola.", 5, "esempio prima di ogni regola"),
        ("**705.1.** Regola di un'altra sezione.", 5, "non appartiene alla sezione 704"),
        ("Testo senza numero.", 5, "paragrafo non riconosciuto"),
        ("**704.1.** Testo.\n<!-- en 20260619 0123456789ab -->\n\n# 704. Titolo dopo le regole", 8, "prima di ogni regola"),
    ],
)
def test_format_errors_name_file_and_line(tmp_path, text, line, message):
    path = tmp_path / "704.md"
    path.write_text(f'---\nsezione: "704"\n---\n\n{text}\n', encoding="utf-8")
    with pytest.raises(SourceFormatError) as err:
        parse_translation_file(path)
    assert err.value.line == line and message in err.value.message


@pytest.mark.parametrize("what", ["100", "205", "509", "702", "capitoli", "glossario"])
def test_skeleton_round_trips_and_stamps_match(tmp_path, editions, terms, what):
    tf = skeleton(editions[-1], what)
    path = tmp_path / tf.path.name
    path.write_text(render(tf), encoding="utf-8")
    parsed = parse_translation_file(path)
    assert render(parsed) == path.read_text(encoding="utf-8")
    # Every unit is stamped with the English in force: none is outdated (the text is still English).
    report = check_translation([parsed], editions, terms, complete=False)
    assert report.count("traduzione-da-aggiornare") == 0 and report.count("marcatore-mancante") == 0


def test_stamping_adds_only_missing_markers(tmp_path, editions):
    text = GOOD.read_text(encoding="utf-8")
    start = text.index("<!--", text.index("**704.5a**"))
    path = tmp_path / "704.md"
    # One marker removed, another one altered by hand: only the first is stamped again.
    altered = text[:start] + text[text.index("\n", start) + 1:]
    altered = altered.replace(text[text.index("<!--", text.index("**704.5b**")):].split("\n")[0],
                              "<!-- en 20251114 0123456789ab -->")
    path.write_text(altered, encoding="utf-8")
    tf = parse_translation_file(path)
    assert stamp_missing(tf, editions[-1]) == ["704.5a"]
    stamps = {r.number: r.stamp for r in tf.rules}
    assert stamps["704.5b"].hash == "0123456789ab"


@pytest.mark.parametrize(
    ("english", "italian"),
    [
        ("It gets +1/+1 until end of turn.", "Ottiene +2/+2 fino alla fine del turno."),
        ("{T}: Add {G}.", "{T}: Aggiungi {U}."),
        ("Put a -1/-1 counter on it.", "Metti un segnalino +1/+1 su di essa."),
    ],
)
def test_changed_symbols_are_caught(terms, english, italian):
    assert "traduzione-simboli" in {code for code, _ in fidelity_problems(english, italian, terms)}


def test_untranslated_detector_ignores_card_names_and_citations():
    assert untranslated_sentences("Esempio: Sword of Fire and Ice è assegnata a Essence of the Wild (vedi regola 702.6a).") == []
    assert untranslated_sentences("Se un giocatore would draw a card from the library, that player loses.") != []


_WORDS = st.text(alphabet=st.characters(whitelist_categories=("Ll", "Lu", "Nd", "Zs", "Po")), max_size=200)


@settings(max_examples=200, deadline=None)
@given(_WORDS, _WORDS)
def test_fidelity_never_raises(terms, english, italian):
    for code, message in fidelity_problems(english, italian, terms, 0, 0):
        assert code.startswith("traduzione-") and message
