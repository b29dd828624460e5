import subprocess
import sys

import pytest
from click.testing import CliRunner

from judge.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_regola_shows_italian_with_version(corpus):
    res = run("regola", "703.4d")
    assert res.exit_code == 0
    assert corpus.get("703.4d").it.text in res.output
    assert corpus.get("703.4d").it.version in res.output


def test_regola_en_and_fallback(corpus):
    res = run("regola", "703.4d", "--en")
    assert corpus.get("703.4d").en.text in res.output and "in vigore" in res.output
    res = run("regola", "704.5a")
    assert "Traduzione non ufficiale del progetto" in res.output
    assert corpus.get("704.5a").tr.text in res.output and corpus.get("704.5a").en.text not in res.output
    res = run("regola", "704.5a", "--en")
    assert corpus.get("704.5a").en.text in res.output and "Traduzione" not in res.output


@pytest.mark.parametrize("bad", ["999.9", "abc", "<script>alert(1)</script>", "704.5l", ""])
def test_unknown_numbers_exit_1_with_italian_message(bad):
    res = run("regola", bad)
    assert res.exit_code == 1
    assert "non trovata" in res.output
    assert "Traceback" not in res.output


def test_unknown_number_suggests_nearest(corpus):
    res = run("regola", "703.4o")
    assert "Regole più vicine" in res.output and "703.4p" in res.output


def test_verifica_passes_and_lists_warnings():
    res = run("verifica")
    assert res.exit_code == 0, res.output
    assert "0 errori" in res.output
    assert "citazione-obsoleta" in res.output


def test_diff_between_editions(corpus):
    old, new = corpus.editions[0].id, corpus.editions[-1].id
    res = run("diff", old, new, "--sezione", "7")
    assert res.exit_code == 0
    assert "aggiunte" in res.output and "722.1" in res.output
    res = run("diff", "19990101", new)
    assert res.exit_code == 1 and "non trovata" in res.output
    for odd in ("²", "0", "70", "7044"):  # not a section or chapter number: said, not an empty diff
        res = run("diff", old, new, "--sezione", odd)
        assert res.exit_code == 1 and "non valida" in res.output, odd


def test_importa_wiki_errors_are_clean(tmp_path):
    res = run("importa-wiki", str(tmp_path / "manca.txt"))
    assert res.exit_code != 0 and "non trovato" in res.output.lower()
    bad = tmp_path / "x.txt"
    bad.write_text("niente", encoding="utf-8")
    res = run("importa-wiki", str(bad), "--cartella", str(tmp_path / "out"))
    assert res.exit_code == 2 and "x.txt:1" in res.output


def test_console_script_entry_point():
    out = subprocess.run([sys.executable, "-m", "judge", "regola", "101.1"], capture_output=True, text=True)
    assert out.returncode == 0 and "101.1" in out.stdout


def test_every_rule_in_force_reads_in_italian_in_the_cli(corpus):
    for r in corpus.in_force.rules:
        rule = corpus.get(r.number)
        res = run("regola", r.number)
        assert res.exit_code == 0 and rule.italian.text in res.output, r.number
