"""Corpus commands: `judge regola`, `judge verifica`, `judge importa-wiki` (`judge diff` and
`judge collega` are in edition_cli.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge import RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError


def _load():
    from judge.corpus.loading import load_corpus

    try:
        return load_corpus()
    except SourceFormatError as exc:
        click.echo(f"Errore nei dati: {exc}", err=True)
        sys.exit(2)


def _fail(message: str, code: int = 1) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def _echo_text(number: str, text) -> None:
    click.echo(f"{number} [{text.lang}] — {text.label} ({text.version})")
    click.echo(text.text)
    for ex in text.examples:
        click.echo(ex)


# --testo: which of the three texts to print (accents and case aside).
TEXT_CHOICES = ("comunita", "progetto", "inglese")
_TEXT_ALIASES = {"comunita": "comunita", "comunità": "comunita", "progetto": "progetto", "traduzione": "progetto",
                 "inglese": "inglese", "en": "inglese", "ufficiale": "inglese"}


def _which_text(value: str | None) -> str | None:
    if value is None:
        return None
    which = _TEXT_ALIASES.get(value.strip().lower())
    if which is None:
        _fail(f"--testo «{value[:30]}» non valido: scegli comunita, progetto o inglese.", 2)
    return which


def _about(r, text) -> str:
    """What the printed text is, in a line before it (the label says the rest)."""
    if text.layer == "traduzione":
        stale = "DA AGGIORNARE: l'inglese è cambiato dopo la traduzione; " if not text.current else ""
        community = ("; il testo della comunità, non più allineato: --testo comunita" if r.it is not None
                     and r.community_outdated else "")
        return f"(Traduzione non ufficiale del progetto; {stale}prevale il testo inglese: --testo inglese{community})"
    if text.layer == "comunità":
        if r.community_outdated:
            return ("(Testo della comunità, verbatim: NON più allineato all'inglese in vigore; "
                    "prevale il testo inglese: --testo inglese; la traduzione del progetto: --testo progetto)")
        return "(Testo della comunità dal wiki italiano, verbatim; prevale il testo inglese: --testo inglese)"
    return "(Testo ufficiale inglese: prevale)"


@click.command("regola")
@click.argument("numero")
@click.option("--testo", "which", metavar="comunita|progetto|inglese",
              help="Quale testo: della comunità (wiki), la traduzione del progetto o l'inglese ufficiale. "
                   "Senza: l'italiano mostrato per primo dal sito.")
@click.option("--en", "english", is_flag=True, help="Mostra il testo ufficiale inglese (come --testo inglese).")
@click.option("--figli/--no-figli", default=False, help="Mostra anche le sottoregole.")
def regola(numero: str, which: str | None, english: bool, figli: bool) -> None:
    """Mostra una regola e dice quale testo stampa: in italiano dove c'è (il testo della comunità se
    aggiornato, altrimenti la traduzione del progetto), oppure il testo scelto con --testo."""
    which = "inglese" if english else _which_text(which)
    corpus = _load()
    rule = corpus.resolve(numero)
    if rule is None:
        near = ", ".join(r.number for r in corpus.nearest(numero))
        hint = f" Regole più vicine: {near}." if near else ""
        _fail(f"Regola «{numero.strip()[:40]}» non trovata.{hint}")
    rules = [rule, *(corpus.descendants(rule.number) if figli else [])]
    shown = 0
    for r in rules:
        text = {"inglese": r.en, "progetto": r.tr, "comunita": r.it, None: r.best}[which]
        if text is None:
            if which == "comunita" and len(rules) == 1:
                sections = ", ".join(sorted(corpus.italian_sections))
                _fail(f"La regola {r.number} non ha un testo della comunità: c'è solo per le sezioni {sections}. "
                      "Prova --testo progetto o --testo inglese.")
            if which == "progetto" and len(rules) == 1:
                _fail(f"La regola {r.number} non ha ancora la traduzione del progetto: --testo inglese.")
            continue
        if shown:
            click.echo()
        if which is None and r.italian is None:
            click.echo("(Traduzione italiana non disponibile: testo ufficiale inglese)")
        else:
            click.echo(_about(r, text))
        _echo_text(r.number, text)
        shown += 1


@click.command("verifica")
@click.option("--json", "as_json", is_flag=True, help="Risultati in JSON.")
def verifica(as_json: bool) -> None:
    """Controlla il corpus (errori strutturali, che falliscono, e avvisi sui testi), la traduzione,
    i riferimenti a regole del progetto e la verifica dei testi delle edizioni."""
    from judge import ROOT, build_cache
    from judge.cards.checks import check_table, summary
    from judge.cards.table import default_directory
    from judge.corpus.checks import ERROR, corpus_findings
    from judge.corpus.findings import WARNING, Finding
    from judge.corpus.references import check as check_references

    build_cache.set_reporter(lambda message: click.echo(message, err=True))
    corpus = _load()
    findings = list(corpus_findings(corpus))
    refs, ref_findings = check_references(ROOT, corpus.lineage)
    findings += ref_findings
    findings += [Finding(WARNING, "edizione-non-verificata", f"MagicCompRules-{ident}.txt", 0, None, v.note)
                 for ident, v in corpus.verification.items() if not v.verified]
    # The card table is data with its own provenance, checked beside the rules (judge.cards.checks).
    card_findings = check_table(default_directory(), corpus)
    findings += card_findings
    # The tournament documents (MTR, IPG, JAR) and their translation (judge.tournament.checks).
    from judge.tournament.checks import tournament_findings

    tournament, tournament_summary = tournament_findings(rule_exists=corpus.__contains__)
    findings += tournament
    errors = [f for f in findings if f.level == ERROR]
    if as_json:
        import json

        click.echo(json.dumps([f.to_dict() for f in findings], ensure_ascii=False, indent=2))
        sys.exit(1 if errors else 0)
    for f in findings:
        click.echo(str(f))
    if corpus.translation:
        from judge.corpus.checks import translation_report

        click.echo(translation_report(corpus).summary())
    click.echo(summary(default_directory(), card_findings))
    click.echo(tournament_summary)
    occurrences = sum(len(r.occurrences) for r in refs)
    flagged = sum(1 for f in ref_findings if f.code != "riferimento-storico-inesistente")
    click.echo(f"Riferimenti a regole del progetto: {len(refs)} numeri in {occurrences} punti, {flagged} da sistemare.")
    verified = sum(1 for v in corpus.verification.values() if v.verified)
    click.echo(
        f"{len(corpus)} regole, {len(corpus.italian_sections)} sezioni in italiano, "
        f"{len(corpus.editions)} edizioni inglesi ({verified} verificate; in vigore: {corpus.in_force.id}): "
        f"{len(errors)} errori, {len(findings) - len(errors)} avvisi."
    )
    sys.exit(1 if errors else 0)


@click.command("importa-wiki")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--cartella", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Cartella delle regole italiane (predefinita: rules_it/).")
def importa_wiki(file: Path, cartella: Path | None) -> None:
    """Importa una pagina del wiki italiano (formato testo) in rules_it/."""
    from judge.corpus.wiki_import import import_wiki

    if not file.exists():
        _fail(f"File non trovato: {file}")
    try:
        result = import_wiki(file, cartella or RULES_IT_DIR)
    except SourceFormatError as exc:
        _fail(f"Errore: {exc}", 2)
    extra = " (aggiornato anche l'indice dei titoli)" if result.index_written else ""
    click.echo(f"Sezione {result.section}: {result.rules} regole scritte in {result.section_path}{extra}.")


COMMANDS = [regola, verifica, importa_wiki]
