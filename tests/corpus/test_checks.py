import shutil

import pytest

from judge.corpus.checks import ERROR, WARNING, check
from judge.corpus import load_corpus

from .conftest import RULES_EN_DIR, RULES_IT_DIR


def _copy(tmp_path):
    it = tmp_path / "rules_it"
    shutil.copytree(RULES_IT_DIR, it)
    return it


def _edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_real_corpus_has_no_structural_errors(corpus):
    findings = check(corpus)
    assert [str(f) for f in findings if f.level == ERROR] == []


def test_stale_italian_citations_are_found(corpus):
    stale = {f.rule: f for f in check(corpus) if f.code == "citazione-obsoleta"}
    # 703.4g cites 701.49 (Roll to visit your attractions) where the English now cites 701.52.
    assert "703.4g" in stale
    assert stale["703.4g"].related == tuple(n for n in corpus.citations("703.4g", "en") if n not in corpus.citations("703.4g", "it"))
    assert stale["703.4g"].file == "703.md" and stale["703.4g"].line > 0
    # Every stale finding really differs from the English citations.
    for number, f in stale.items():
        assert set(corpus.citations(number, "it")) != set(corpus.citations(number, "en"))


def test_unknown_titles_are_warnings_not_guesses(corpus):
    unknown = {f.rule for f in check(corpus) if f.code == "titolo-sconosciuto"}
    assert unknown == {s.number for s in corpus.sections() if s.it is None and s.tr is None}
    # The wiki box lacks 721 and 722; the project's translation titles them, so nothing is guessed.
    for number in ("721", "722"):
        section = next(s for s in corpus.sections() if s.number == number)
        assert section.it is None and section.tr is not None and number not in unknown


def test_english_changed_after_translation(corpus):
    changed = [f for f in check(corpus) if f.code == "inglese-modificato"]
    for f in changed:
        old, new = (corpus.edition(e) for e in f.related)
        assert old.rule(f.rule).text != new.rule(f.rule).text or old.rule(f.rule).examples != new.rule(f.rule).examples
        section = corpus.italian_sections[f.rule.split(".")[0]]
        assert new.date > section.updated_date


@pytest.mark.parametrize("old,new,code", [
    ("**121.3**", "**121.2**", "numero-duplicato"),
    ("**121.2a**", "**121.2l**", "lettera-vietata"),
    ("**121.6**", "**121.60**", "fuori-ordine"),
])
def test_planted_structural_errors_are_caught(tmp_path, old, new, code):
    it = _copy(tmp_path)
    _edit(it / "121.md", old, new)
    findings = check(load_corpus(it, RULES_EN_DIR))
    hits = [f for f in findings if f.code == code]
    assert hits and all(f.level == ERROR and f.file == "121.md" and f.line > 0 for f in hits)


def test_planted_missing_parent(tmp_path):
    it = _copy(tmp_path)
    path = it / "119.md"
    _edit(path, "**119.4b**", "**119.44b**")
    findings = check(load_corpus(it, RULES_EN_DIR))
    assert any(f.code == "genitore-mancante" and f.rule == "119.44b" and f.level == ERROR for f in findings)


def test_planted_unresolved_and_stale_citation(tmp_path):
    it = _copy(tmp_path)
    _edit(it / "121.md", "Vedi regola 616.1g.", "Vedi regola 616.99z.")
    findings = check(load_corpus(it, RULES_EN_DIR))
    assert any(f.code == "citazione-irrisolta" and f.rule == "121.2a" and f.level == WARNING for f in findings)
    assert any(f.code == "citazione-obsoleta" and f.rule == "121.2a" for f in findings)


def test_italian_rule_absent_from_english(tmp_path):
    it = _copy(tmp_path)
    path = it / "121.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n**121.99** Regola inventata per il test.\n", encoding="utf-8")
    findings = check(load_corpus(it, RULES_EN_DIR))
    assert any(f.code == "assente-in-inglese" and f.rule == "121.99" for f in findings)
