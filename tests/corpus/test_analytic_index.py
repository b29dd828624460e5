"""The analytic index (rules_it/indice_analitico.tsv): its format, its order, and the corpus check
that keeps every entry pointing at a rule that exists."""

from __future__ import annotations

import shutil

import pytest
from hypothesis import given, strategies as st

from judge.corpus import load_corpus
from judge.corpus.analytic_index import ANALYTIC_INDEX_FILE, ANALYTIC_INDEX_FILES, MAX_RULES, initial, parse_analytic_index, sort_key
from judge.corpus.checks import ERROR, check
from judge.corpus.frontmatter import SourceFormatError

from .conftest import RULES_EN_DIR, RULES_IT_DIR

HEADER = "# commento\nvoce\tsottovoce\tregole\n"


def _write(tmp_path, body: str):
    path = tmp_path / ANALYTIC_INDEX_FILE
    path.write_text(HEADER + body, encoding="utf-8")
    return path


def test_entries_are_read_and_found_by_rule(tmp_path):
    index = parse_analytic_index(_write(tmp_path, "danno\tsi rimuove a fine turno\t514.2\n"
                                                   "planeswalker\tattaccarlo\t508.1b 506.3\n"))
    assert len(index) == 2
    [entry] = index.for_rule("506.3")
    assert (entry.heading, entry.topic, entry.rules, entry.line) == ("planeswalker", "attaccarlo", ("508.1b", "506.3"), 4)
    assert index.for_rule("100.1") == []
    assert index.rules == {"514.2", "508.1b", "506.3"}


@pytest.mark.parametrize("body, message", [
    ("danno\tsi rimuove\n", "campi"),
    ("danno\t\t514.2\n", "campi"),
    ("danno\tsi rimuove\t514,2\n", "«514,2»"),
    ("danno\tsi rimuove\tregola 514.2\n", "«regola»"),
    ("danno\tsi rimuove\t514.2 514.2\n", "regole diverse"),
    ("danno\tsi rimuove\t" + " ".join(f"100.{i}" for i in range(1, MAX_RULES + 2)) + "\n", "regole diverse"),
    ("danno\tsi rimuove\t514.2\nDanno\tSi rimuove\t514.1\n", "già alla riga 3"),
])
def test_a_malformed_line_is_refused_with_its_line(tmp_path, body, message):
    with pytest.raises(SourceFormatError) as err:
        parse_analytic_index(_write(tmp_path, body))
    assert message in err.value.message
    assert err.value.line >= 3


def test_a_table_without_its_header_is_refused(tmp_path):
    path = tmp_path / ANALYTIC_INDEX_FILE
    path.write_text("danno\tsi rimuove\t514.2\n", encoding="utf-8")
    with pytest.raises(SourceFormatError, match="intestazione"):
        parse_analytic_index(path)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzàèéìòùáíóú '", max_size=30))
def test_dictionary_order_ignores_case_and_accents(text):
    key = sort_key(text)
    assert key == sort_key(text.upper())
    assert key.isascii() and len(key) == len(text)
    assert initial(text) == (key[:1].upper() if key[:1].isalpha() else "#")


def test_accented_headwords_file_under_their_letter():
    assert initial("èsilio") == "E" and initial("Ùltimo") == "U" and initial("2HG") == "#"
    assert sorted(["esilio", "è", "Eco"], key=sort_key) == ["è", "Eco", "esilio"]


@pytest.mark.parametrize("lang", ["it", "en"])
def test_every_entry_of_the_real_indexes_points_at_a_rule_in_force(lang):
    corpus = load_corpus()
    index = corpus.analytic_indexes[lang]
    assert index.lang == lang and index.path.name == ANALYTIC_INDEX_FILES[lang]
    assert len(index) > 0
    assert all(n in corpus for e in index.entries for n in e.rules)
    # Every chapter of the rules has entries (the index covers the whole Comprehensive Rules).
    assert {n[0] for n in index.rules} == set("123456789")


def test_the_indexes_are_kept_apart():
    """The English index is not mixed into the Italian one (the page, the rule page and the
    search each say which index an entry comes from)."""
    corpus = load_corpus()
    italian, english = corpus.analytic_index, corpus.analytic_indexes["en"]
    assert corpus.analytic_indexes["it"] is italian
    assert not {e.text for e in italian.entries} & {e.text for e in english.entries}


@pytest.mark.parametrize("lang", ["it", "en"])
def test_an_entry_pointing_nowhere_is_a_corpus_error(tmp_path, lang):
    it = tmp_path / "rules_it"
    shutil.copytree(RULES_IT_DIR, it)
    path = it / ANALYTIC_INDEX_FILES[lang]
    lines = path.read_text(encoding="utf-8").splitlines()
    lines.append("voce inventata\tuna regola che non c'è\t514.2 999.9z")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [f for f in check(load_corpus(it, RULES_EN_DIR)) if f.code == "indice-analitico-irrisolto"]
    assert [(f.level, f.file, f.rule, f.line) for f in found] == [(ERROR, path.name, "999.9z", len(lines))]
    assert "voce inventata" in found[0].message
