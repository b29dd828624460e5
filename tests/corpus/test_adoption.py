"""A planted renumbering: a fake edition after the one in force inserts a new 704.5z, so the Role
rule becomes 704.5aa and speed 704.5ab. `judge verifica`'s checks must flag the stale citations
(engine, library scenario, analytic index, translation) and `judge edizione adotta` must move them,
leaving only the new rule to a person."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.corpus.adoption import adopt
from judge.corpus.lineage import Lineage
from judge.corpus.references import MOVED, check
from judge.corpus.rules_en import edition_paths, parse_edition
from judge.corpus.terminology import load_terminology
from judge.corpus.translation import TRANSLATION_DIR, load_translation
from judge.corpus.translation_checks import check_translation
from tests.corpus.planted import FAKE, plant, project


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("piantata"))
    plant(root / "rules_en")
    return root


def _lineage(root: Path) -> Lineage:
    return Lineage([parse_edition(p) for p in edition_paths(root / "rules_en")])


def test_the_planted_edition_is_traced_as_a_renumbering(planted):
    lineage = _lineage(planted)
    assert lineage.in_force.id == FAKE
    trace = lineage.trace(lineage.editions[-2], lineage.in_force)
    assert trace.where("704.5z") == "704.5aa" and trace.where("704.5aa") == "704.5ab"
    assert trace.step_to("704.5z").kind == "aggiunta"


def test_checks_flag_every_kind_of_stale_citation(planted):
    lineage = _lineage(planted)
    refs, findings = check(planted, lineage)
    role = next(r for r in refs if r.number == "704.5z")
    assert role.status == MOVED and role.now == "704.5aa" and not role.text_changed
    where = {o.path for o in role.occurrences}
    assert any(p.startswith("judge/engine/") for p in where)                    # the engine's citation
    assert "scenarios/ruoli-sulla-stessa-creatura.json" in where                # a library scenario
    assert "rules_it/indice_analitico.tsv" in where                             # an analytic index entry
    assert {f.code for f in findings if f.rule == "704.5z"} == {"riferimento-spostato"}
    assert [f.level for f in findings if f.rule == "704.5z"] == ["errore"]
    translation = load_translation(planted / "rules_it" / TRANSLATION_DIR)
    report = check_translation(translation, lineage.editions, load_terminology(planted / "rules_it"))
    moved = {f.rule: f.related for f in report.findings if f.code == "traduzione-spostata"}
    assert moved["704.5z"] == ("704.5aa",) and moved["704.5aa"] == ("704.5ab",)   # the translation


def test_adopt_moves_them_and_leaves_the_new_rule_to_people(planted):
    lineage = _lineage(planted)
    role_code = (planted / "judge/engine/mechanics/designations.py").read_text(encoding="utf-8")
    report = adopt(planted, lineage)
    assert report.moved == {"704.5z": "704.5aa", "704.5aa": "704.5ab"} and not report.moved_to_review
    assert ("704.5z", "704.5aa") in report.translation.moved
    # the engine registers the Role rule under its new number, and speed under its own
    sba_files = "".join(p.read_text(encoding="utf-8") for p in (planted / "judge/engine").rglob("*.py"))
    assert '@sba("704.5aa"' in sba_files and '@sba("704.5ab"' in sba_files and '@sba("704.5z"' not in sba_files
    assert role_code != (planted / "judge/engine/mechanics/designations.py").read_text(encoding="utf-8")
    scenario = (planted / "scenarios/ruoli-sulla-stessa-creatura.json").read_text(encoding="utf-8")
    assert '"704.5aa"' in scenario and "704.5z" not in scenario
    index = (planted / "rules_it/indice_analitico.tsv").read_text(encoding="utf-8")
    assert "due Ruoli sulla stessa creatura, resta il più recente\t704.5aa" in index
    section = (planted / "rules_it" / TRANSLATION_DIR / "704.md").read_text(encoding="utf-8")
    role = section.index("**704.5aa** Se a un permanente è assegnato più di un Ruolo")
    assert f"<!-- en {FAKE} " in section[role:role + 400]
    # Nothing stale is left; the new 704.5z is the only thing to translate.
    refs, findings = check(planted, lineage)
    assert not [f for f in findings if f.level == "errore"]
    translation = load_translation(planted / "rules_it" / TRANSLATION_DIR)
    report = check_translation(translation, lineage.editions, load_terminology(planted / "rules_it"))
    todo = {(f.code, f.rule) for f in report.findings if f.code.startswith("traduzione-")}
    assert ("traduzione-mancante", "704.5z") in todo
    assert not {t for t in todo if t[0] == "traduzione-spostata" or t[1] in ("704.5aa", "704.5ab")}


def test_the_command_line_adopts_a_staged_edition(tmp_path):
    """`judge edizione adotta` takes the file from rules_en/in-arrivo/ and says what it moved."""
    root = project(tmp_path)
    staging = root / "rules_en" / "in-arrivo"
    staging.mkdir()
    plant(root / "rules_en", staging)
    runner = CliRunner()
    dry = runner.invoke(main, ["edizione", "--progetto", str(root), "adotta", FAKE, "--prova"])
    assert dry.exit_code == 0 and "Riferimenti sposterebbe: 2 numeri" in dry.output, dry.output
    assert (staging / f"MagicCompRules-{FAKE}.txt").exists()                  # a dry run moves nothing
    result = runner.invoke(main, ["edizione", "--progetto", str(root), "adotta", FAKE])
    assert result.exit_code == 0, result.output
    assert f"l'edizione {FAKE} è in vigore" in result.output
    assert "704.5z → 704.5aa" in result.output and "704.5aa → 704.5ab" in result.output
    assert (root / "rules_en" / f"MagicCompRules-{FAKE}.txt").exists() and not any(staging.iterdir())
    again = runner.invoke(main, ["edizione", "--progetto", str(root), "riferimenti"])
    assert "spostato" not in again.output
