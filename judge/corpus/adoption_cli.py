"""`judge edizione`: the editions, their verification, and adopting a new one.

    judge edizione elenco              the editions, dates, changes and whether each text is verified
    judge edizione riferimenti         every rule number the project writes, and its state
    judge edizione timbra [NUMERI]     pin references to the edition in force (after reading them)
    judge edizione adotta AAAAMMGG     bring the project to a new edition: moves what only moved
    judge edizione controlla           look for a new edition on the official page (daily job)
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import click

from judge import ROOT
from judge.corpus.cli import _fail


@click.group("edizione")
@click.option("--progetto", type=click.Path(file_okay=False, exists=True, path_type=Path), default=ROOT,
              show_default=False, help="Cartella del progetto (predefinita: quella di questa installazione).")
@click.pass_context
def edizione(ctx: click.Context, progetto: Path) -> None:
    """Le edizioni inglesi del Regolamento: elenco, verifica, riferimenti, adozione di una nuova edizione."""
    ctx.obj = progetto.resolve()


def _load(root: Path):
    from judge.corpus.loading import load_corpus

    try:
        return load_corpus(root / "rules_it", root / "rules_en", max_age=0)
    except ValueError as exc:  # SourceFormatError, or no edition at all
        _fail(f"Errore nei dati: {exc}", 2)


@edizione.command("elenco")
@click.option("--json", "as_json", is_flag=True, help="Risultato in JSON (come /api/edizioni).")
@click.pass_obj
def elenco(root: Path, as_json: bool) -> None:
    """Le edizioni presenti, con data, modifiche rispetto alla precedente e verifica del testo."""
    from judge.corpus.edition_list import edition_rows

    corpus = _load(root)
    rows = edition_rows(corpus)
    if as_json:
        click.echo(json.dumps([r.to_dict() for r in rows], ensure_ascii=False, indent=2))
        return
    for r in rows:
        state = "in vigore" if r.in_force else ("assente" if not r.present else "")
        changes = f", {r.summary} rispetto al {r.previous}" if r.summary else ""
        click.echo(f"{r.id} ({r.date_it}){' — ' + state if state else ''}: {r.verification_label}{changes}")
        if r.note:
            click.echo(f"    {r.note}")


@edizione.command("riferimenti")
@click.option("--tutti", is_flag=True, help="Anche i riferimenti in regola (altrimenti solo quelli da sistemare).")
@click.option("--json", "as_json", is_flag=True, help="Risultato in JSON.")
@click.pass_obj
def riferimenti(root: Path, tutti: bool, as_json: bool) -> None:
    """I numeri di regola scritti dal progetto (motore, scenari, indici, glossario, test, documenti) e
    il loro stato rispetto all'edizione in vigore."""
    from judge.corpus.references import OK, check

    corpus = _load(root)
    refs, findings = check(root, corpus.lineage)
    shown = refs if tutti else [r for r in refs if r.status != OK]
    if as_json:
        click.echo(json.dumps([{"number": r.number, "status": r.status, "now": r.now,
                                "edition": r.pin.edition if r.pin else None,
                                "places": [f"{o.path}:{o.line}" for o in r.occurrences]} for r in shown],
                              ensure_ascii=False, indent=2))
        return
    for r in shown:
        target = f" → {r.now}" if r.now and r.now != r.number else ""
        click.echo(f"{r.number}{target} ({r.status}, edizione {r.pin.edition if r.pin else '—'}): {r.places}")
    counts = Counter(r.status for r in refs)
    click.echo(f"{len(refs)} numeri scritti in {sum(len(r.occurrences) for r in refs)} punti: "
               + ", ".join(f"{n} {s}" for s, n in counts.most_common()) + ".")


@edizione.command("timbra")
@click.argument("numeri", nargs=-1)
@click.pass_obj
def timbra(root: Path, numeri: tuple[str, ...]) -> None:
    """Lega all'edizione in vigore i riferimenti indicati (dopo averli riletti), o tutti quelli non
    ancora nel registro."""
    from judge.corpus.adoption import pin

    corpus = _load(root)
    done, refused = pin(root, corpus.lineage, list(numeri) or None)
    click.echo(f"{len(done)} riferimenti legati all'edizione {corpus.in_force.id}.")
    if refused:
        _fail(f"Non esistono nell'edizione in vigore: {', '.join(refused)}.")


@edizione.command("adotta")
@click.argument("edizione_id", metavar="AAAAMMGG")
@click.option("--prova", is_flag=True, help="Dice che cosa farebbe, senza scrivere niente.")
@click.pass_obj
def adotta(root: Path, edizione_id: str, prova: bool) -> None:
    """Porta il progetto all'edizione AAAAMMGG: la mette in vigore (da rules_en/in-arrivo/ se è lì),
    sposta ovunque i riferimenti e le traduzioni delle regole che hanno solo cambiato numero, e
    elenca ciò che una persona deve rileggere."""
    from judge.corpus.adoption import adopt
    from judge.corpus.edition_watch import bring_in, staged_path
    from judge.corpus.lineage import Lineage
    from judge.corpus.rules_en import parse_edition

    corpus = _load(root)
    staged = staged_path(root / "rules_en", edizione_id)
    editions = corpus.editions
    if staged.exists():  # downloaded by `controlla` (or the official file of an unverified copy)
        editions = sorted([e for e in editions if e.id != edizione_id] + [parse_edition(staged)], key=lambda e: e.id)
    if editions[-1].id != edizione_id:
        _fail(f"L'edizione più recente è {editions[-1].id}, non «{edizione_id[:20]}»: si adotta solo la più recente "
              "(copiala in rules_en/ o in rules_en/in-arrivo/, o lancia `judge edizione controlla`).")
    if prova:
        lineage = Lineage(editions)
    else:
        try:
            brought = bring_in(root / "rules_en", edizione_id)
        except ValueError as exc:
            _fail(str(exc))
        if brought:
            click.echo(f"{brought} messo in rules_en/: l'edizione {edizione_id} è in vigore.")
        lineage = _load(root).lineage
    report = adopt(root, lineage, dry_run=prova)
    verb = "sposterebbe" if prova else "spostati"
    click.echo(f"Riferimenti {verb}: {len(report.moved)} numeri ({report.occurrences_rewritten} punti in "
               f"{len(report.files_rewritten)} file), {len(report.moved_to_review)} dei quali con il testo cambiato.")
    for old, new in {**report.moved, **report.moved_to_review}.items():
        click.echo(f"  {old} → {new}{' (testo cambiato: da rileggere)' if old in report.moved_to_review else ''}")
    click.echo(f"Riferimenti confermati nell'edizione {edizione_id} (testo invariato): {report.repinned}.")
    t = report.translation
    click.echo(f"Traduzione: {len(t.moved)} regole spostate, {len(t.renumbered)} con i rinvii rinumerati, "
               f"{len(t.moved_to_update)} spostate ma da aggiornare; file scritti: {', '.join(t.files_written) or 'nessuno'}.")
    if report.to_review:
        click.echo(f"Da rileggere ({len(report.to_review)}): il testo inglese è cambiato o la regola non c'è più.")
        for r in report.to_review:
            click.echo(f"  {r.number} ({r.status}): {r.places}")
    if report.unpinned:
        click.echo(f"Non ancora nel registro ({len(report.unpinned)}): `judge edizione timbra` dopo averli controllati.")
    click.echo("Poi: `judge verifica` per le traduzioni da scrivere o aggiornare (docs/edizioni.md).")
    sys.exit(0)


@edizione.command("controlla")
@click.option("--pagina", envvar="JUDGE_RULES_PAGE", default=None,
              help="Indirizzo della pagina ufficiale delle regole (predefinito: JUDGE_RULES_PAGE o quella di Wizards).")
@click.option("--pagina-documenti", "documents_page", envvar="JUDGE_DOCUMENTS_PAGE", default=None,
              help="Pagina dei documenti dei tornei (MTR, IPG, JAR); predefinita: JUDGE_DOCUMENTS_PAGE, altrimenti "
                   "la stessa di --pagina se indicata, altrimenti quella di Wizards.")
@click.option("--timeout", default=30.0, show_default=True, help="Secondi di attesa al più per la rete, ogni volta.")
@click.option("--scadenza", default=120.0, show_default=True,
              help="Secondi per tutto il controllo (pagine e file, regole e documenti): oltre, si ferma con un errore.")
@click.option("--host", "hosts", multiple=True, envvar="JUDGE_RULES_HOSTS",
              help="Host da cui possono venire i file, oltre a quello della pagina (ripetibile; env "
                   "JUDGE_RULES_HOSTS, separati da spazi). Solo indirizzi http(s) di questi host si "
                   "seguono, collegamenti e rinvii compresi.")
@click.pass_obj
def controlla(root: Path, pagina: str | None, documents_page: str | None, timeout: float, scadenza: float,
              hosts: tuple[str, ...]) -> None:
    """Per un job quotidiano: cerca sulla pagina ufficiale il file TXT del Regolamento; se è
    un'edizione che il progetto non ha (o il file ufficiale di una copia non verificata), lo
    scarica in rules_en/in-arrivo/ e dice che cosa richiede la sua adozione; lo stesso per i file
    dell'MTR, dell'IPG e di JAR (in tornei_en/in-arrivo/). Non cambia l'edizione in vigore. Esce
    con 0 se non c'è niente di nuovo, 3 se c'è un file nuovo, 1 in caso di errore."""
    from judge.corpus.adoption import needs
    from judge.corpus.edition_watch import DEFAULT_PAGE, WatchError, check_for_edition
    from judge.corpus.rules_en import parse_edition
    from judge.tournament.cli import watch_documents

    page = pagina or DEFAULT_PAGE
    until = time.monotonic() + scadenza          # one deadline for the whole check
    documents_new = watch_documents(root, documents_page or pagina, timeout, deadline=scadenza, hosts=hosts)
    try:
        report = check_for_edition(root / "rules_en", page, timeout, deadline=max(0.0, until - time.monotonic()),
                                   hosts=hosts)
    except WatchError as exc:
        _fail(f"Controllo non riuscito: {exc}.")
    click.echo(f"{page}: {report.url} (edizione {report.edition}, {report.size} byte, sha256 {report.sha256}).")
    if report.status == "nessuna novità":
        click.echo("Nessuna novità: il progetto ha già questa edizione.")
        sys.exit(3 if documents_new else 0)
    corpus = _load(root)
    staged = parse_edition(report.staged)
    editions = [e for e in corpus.editions if e.id != staged.id] + [staged]
    editions.sort(key=lambda e: e.id)
    what = ("Il file ufficiale dell'edizione, che può sostituire la copia non verificata"
            if report.status == "file ufficiale" else "Nuova edizione")
    click.echo(f"{what}: scaricata in {report.staged.relative_to(root)}. L'edizione in vigore resta {corpus.in_force.id}.")
    if editions[-1] is staged and len(editions) > 1:
        for line in needs(root, editions, corpus.terminology, corpus.translation):
            click.echo(line)
    click.echo(f"Per adottarla: `judge edizione adotta {staged.id}` (docs/edizioni.md, «Adottare una nuova edizione»).")
    sys.exit(3)


COMMANDS = [edizione]
