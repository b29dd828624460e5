"""`judge traduzione`: start, stamp and check the project's translation (rules_it/traduzione/)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError


def _editions():
    from judge.corpus.rules_en import edition_paths, parse_edition

    return [parse_edition(p) for p in edition_paths(RULES_EN_DIR)]


def _fail(message: str, code: int = 1):
    click.echo(message, err=True)
    sys.exit(code)


@click.group("traduzione")
def traduzione() -> None:
    """La traduzione italiana del progetto (rules_it/traduzione/): bozza, timbro, verifica."""


@traduzione.command("bozza")
@click.argument("cosa")
@click.option("--scrivi", is_flag=True, help="Scrive il file in rules_it/traduzione/ (mai sopra un file esistente).")
def bozza(cosa: str, scrivi: bool) -> None:
    """Il file da tradurre per una sezione (es. 704), «capitoli» o «glossario»: il testo inglese
    in vigore con i suoi marcatori, da sostituire paragrafo per paragrafo con l'italiano."""
    from judge.corpus.translation import TRANSLATION_DIR, render, skeleton

    edition = _editions()[-1]
    try:
        tf = skeleton(edition, cosa.strip())
    except (KeyError, ValueError):
        _fail(f"«{cosa[:20]}» non è una sezione dell'edizione {edition.id}, né «capitoli» o «glossario».")
    text = render(tf)
    if not scrivi:
        click.echo(text, nl=False)
        return
    path = RULES_IT_DIR / TRANSLATION_DIR / tf.path.name
    if path.exists():
        _fail(f"{path} esiste già: non lo sovrascrivo.")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    click.echo(f"Scritto {path}.")


@traduzione.command("timbra")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def timbra(files: tuple[Path, ...]) -> None:
    """Aggiunge il marcatore (edizione e hash dell'inglese in vigore) a ogni regola, titolo o voce
    che non lo ha ancora. Non tocca i marcatori esistenti."""
    from judge.corpus.translation import parse_translation_file, render, stamp_missing

    edition = _editions()[-1]
    for path in files:
        try:
            tf = parse_translation_file(path)
        except (OSError, SourceFormatError) as exc:
            _fail(f"Errore: {exc}", 2)
        done = stamp_missing(tf, edition)
        if done:
            path.write_text(render(tf), encoding="utf-8")
        click.echo(f"{path}: {len(done)} marcatori aggiunti (edizione {edition.id}).")


@traduzione.command("verifica")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Risultati in JSON.")
def verifica(files: tuple[Path, ...], as_json: bool) -> None:
    """Controlla la traduzione (tutta, o i file indicati) contro l'inglese: struttura, citazioni,
    simboli, terminologia, frasi non tradotte, forza di «may/must/can't», aggiornamento."""
    from judge.corpus.terminology import load_terminology
    from judge.corpus.translation import TRANSLATION_DIR, parse_translation_file, translation_paths
    from judge.corpus.translation_checks import check_translation

    paths = list(files) or translation_paths(RULES_IT_DIR / TRANSLATION_DIR)
    try:
        parsed = [parse_translation_file(p) for p in paths]
        terms = load_terminology()
    except (OSError, SourceFormatError) as exc:
        _fail(f"Errore: {exc}", 2)
    report = check_translation(parsed, _editions(), terms, complete=not files)
    if as_json:
        click.echo(json.dumps({"summary": report.summary(), "findings": [f.to_dict() for f in report.findings]},
                              ensure_ascii=False, indent=2))
    else:
        for f in report.findings:
            click.echo(str(f))
        click.echo(report.summary())
        click.echo(f"{len(report.errors)} errori, {len(report.findings) - len(report.errors)} avvisi.")
    sys.exit(1 if report.errors else 0)
