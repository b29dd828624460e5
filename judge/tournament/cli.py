"""Commands for the tournament documents: `judge mtr 2.5`, `judge ipg 2.1`, `judge jar` print a
section (or the contents) with its labels; `judge tornei bozza|verifica` start and check the
project's translation (tornei_it/)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from judge.corpus.frontmatter import SourceFormatError


def _fail(message: str, code: int = 1):
    click.echo(message, err=True)
    sys.exit(code)


def _print_contents(doc: str) -> None:
    from judge.tournament.loading import load_documents

    edition = load_documents().in_force(doc)
    if edition is None:
        _fail(f"Nessuna edizione di {doc.upper()} in tornei_en/.")
    d = edition.document
    click.echo(f"{d.short} — {d.title} ({d.title_it}), edizione in vigore dal {edition.date.isoformat()}")
    if not d.numbered:
        click.echo("(JAR non numera le sue parti: i numeri sono del progetto)")
    for s in edition.sections:
        indent = "  " if s.kind == "sezione" else ""
        penalty = f" — {s.penalty}" if s.penalty else ""
        click.echo(f"{indent}{s.number} {s.title}{penalty}")


def _print_section(doc: str, number: str | None, which: str | None) -> None:
    from judge.tournament.numbers import normalise_section
    from judge.tournament.view import section_view

    if number is None:
        if doc != "jar":
            _print_contents(doc)
            return
        # JAR is short: the whole document, section by section.
        from judge.tournament.loading import load_documents

        for k, s in enumerate(load_documents().in_force(doc).sections):
            if k:
                click.echo("\n" + "-" * 40)
            _print_section(doc, s.number, which)
        return
    wanted = normalise_section(number)
    view = section_view(doc, wanted) if wanted else None
    if view is None:
        _fail(f"Sezione «{number.strip()[:30]}» di {doc.upper()} non trovata: `judge {doc}` elenca le sezioni.")
    s = view.section
    click.echo(f"{view.citation} — {s.title}")
    if s.penalty:
        gloss = f" ({view.penalty_gloss})" if view.penalty_gloss else ""
        click.echo(f"Sanzione: {s.penalty}{gloss}")
    if which != "inglese" and view.title_it:
        click.echo(f"Titolo italiano: {view.title_it.text}")
    show_it = which != "inglese" and view.translated
    if show_it:
        stale = f"; {view.stale} paragrafi DA AGGIORNARE" if view.stale else ""
        click.echo(f"[it] {view.it_label} (traduzione non ufficiale del progetto: prevale l'inglese{stale})")
    if which != "progetto" or not show_it:
        click.echo(f"[en] {view.en_label} ({view.document.title})")
    if which == "progetto" and not view.translated:
        click.echo("(Traduzione del progetto non ancora disponibile per questa sezione: testo inglese)")
    for p in view.paragraphs:
        mark = f"{p.paragraph.mark} " if p.paragraph.mark else ""
        click.echo()
        if show_it and p.it:
            flag = " [da aggiornare]" if not p.it.current else ""
            click.echo(f"¶{p.number}{flag} {mark}{p.it.text}")
            if which is None:
                click.echo(f"   en: {mark}{p.paragraph.text}")
        else:
            click.echo(f"¶{p.number} {mark}{p.paragraph.text}")


def _document_command(doc: str, short: str):
    @click.command(doc, help=f"Mostra una sezione di {short} (es. `judge {doc} 2.1`) o, senza numero, l'indice.")
    @click.argument("sezione", required=False)
    @click.option("--testo", "which", type=click.Choice(["inglese", "progetto"]), default=None,
                  help="Solo l'inglese ufficiale o solo la traduzione del progetto (senza: entrambi, l'italiano prima).")
    def command(sezione: str | None, which: str | None) -> None:
        _print_section(doc, sezione, which)

    return command


mtr = _document_command("mtr", "MTR (Magic Tournament Rules)")
ipg = _document_command("ipg", "IPG (Infraction Procedure Guide)")
jar = _document_command("jar", "JAR (Judging at Regular REL)")


@click.group("tornei")
def tornei() -> None:
    """La traduzione dei documenti dei tornei (tornei_it/): bozze e verifica."""


@tornei.command("bozza")
@click.argument("documento", type=click.Choice(["mtr", "ipg", "jar", "tutti"]), default="tutti")
@click.option("--sezione", default=None, help="Solo questa sezione (es. 2.1).")
@click.option("--scrivi", is_flag=True, help="Scrive i file in tornei_it/ (mai sopra una traduzione esistente).")
@click.option("--aggiorna", is_flag=True,
              help="Nei file esistenti, porta all'inglese in vigore le unità non ancora tradotte e aggiunge i paragrafi nuovi.")
def bozza(documento: str, sezione: str | None, scrivi: bool, aggiorna: bool) -> None:
    """I file da tradurre: per ogni sezione l'inglese in vigore paragrafo per paragrafo, con il
    marcatore di ciascuno e lo spazio vuoto per l'italiano."""
    from judge.tournament.loading import TORNEI_IT_DIR, load_documents
    from judge.tournament.numbers import normalise_section
    from judge.tournament.translation import parse_file, refresh, render, skeleton

    docs = load_documents()
    codes = ["mtr", "ipg", "jar"] if documento == "tutti" else [documento]
    wanted = normalise_section(sezione) if sezione else None
    if sezione and wanted is None:
        _fail(f"«{sezione[:20]}» non è un numero di sezione.")
    written = refreshed = 0
    for doc in codes:
        edition = docs.in_force(doc)
        sections = [s for s in edition.sections if wanted in (None, s.number)] if edition else []
        if wanted and not sections:
            _fail(f"La sezione {wanted} non esiste in {doc.upper()} {edition.id if edition else ''}.")
        for section in sections:
            path = TORNEI_IT_DIR / doc / f"{section.number}.md"
            if not scrivi and not aggiorna:
                click.echo(render(skeleton(edition, section), edition), nl=False)
                continue
            if path.exists():
                if aggiorna:
                    try:
                        st = parse_file(path)
                    except SourceFormatError as exc:
                        _fail(f"Errore: {exc}", 2)
                    if refresh(st, edition, section):
                        path.write_text(render(st, edition), encoding="utf-8")
                        refreshed += 1
                continue
            if scrivi:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(render(skeleton(edition, section), edition), encoding="utf-8")
                written += 1
    if scrivi or aggiorna:
        click.echo(f"{written} file scritti, {refreshed} aggiornati in {TORNEI_IT_DIR}.")


@tornei.command("verifica")
@click.argument("files", nargs=-1, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Risultati in JSON.")
def verifica(files: tuple[Path, ...], as_json: bool) -> None:
    """Controlla la traduzione dei documenti (tutta, o i file indicati) contro l'inglese: marcatori,
    terminologia, citazioni, frasi rimaste in inglese, forza di «may/must», aggiornamento."""
    from judge.tournament.loading import TORNEI_IT_DIR, load_documents
    from judge.tournament.terminology import combined_terminology
    from judge.tournament.translation import parse_file, translation_paths
    from judge.tournament.translation_checks import check_translations

    paths = list(files) or translation_paths(TORNEI_IT_DIR)
    try:
        parsed = [parse_file(p) for p in paths]
        terms = combined_terminology()
    except (OSError, SourceFormatError) as exc:
        _fail(f"Errore: {exc}", 2)
    report = check_translations(parsed, load_documents(), terms)
    findings = report.findings
    if files:  # the given files only: not the sections that no file translates yet
        findings = [f for f in findings if not f.file.endswith("/")]
    if as_json:
        click.echo(json.dumps({"summary": report.summary(), "findings": [f.to_dict() for f in findings]},
                              ensure_ascii=False, indent=2))
    else:
        for f in findings:
            click.echo(str(f))
        click.echo(report.summary())
        errors = [f for f in findings if f.level == "errore"]
        click.echo(f"{len(errors)} errori, {len(findings) - len(errors)} avvisi.")
    sys.exit(1 if any(f.level == "errore" for f in findings) else 0)


COMMANDS = [mtr, ipg, jar, tornei]


def watch_documents(root: Path, page: str | None, timeout: float, deadline: float = 120.0,
                    hosts: tuple[str, ...] = ()) -> bool:
    """`judge edizione controlla`'s part for the tournament documents: prints what it finds;
    True when a new file was downloaded. A page that cannot be read is reported, not fatal
    (the rules' check goes on). ``deadline`` and ``hosts``: as for the rules (edition_watch)."""
    from judge.tournament.loading import source_paths
    from judge.tournament.structure import SOURCE_FILE
    from judge.tournament.watch import DEFAULT_DOCUMENTS_PAGE, WatchError, check_for_documents

    page = page or DEFAULT_DOCUMENTS_PAGE
    known: dict[str, set[str]] = {}
    for p in source_paths(root / "tornei_en"):
        m = SOURCE_FILE.match(p.name)
        known.setdefault(m["doc"].lower(), set()).add(m["id"])
    try:
        found = check_for_documents(root / "tornei_en", page, known, timeout, deadline=deadline, hosts=hosts)
    except WatchError as exc:
        click.echo(f"Documenti dei tornei: controllo non riuscito ({exc}).")
        return False
    if not found:
        click.echo(f"Documenti dei tornei: {page} non collega file dell'MTR, dell'IPG o di JAR.")
    for w in found:
        short = w.doc.upper()
        if w.status == "nessuna novità":
            click.echo(f"{short}: nessuna novità (edizione {w.edition}).")
        else:
            click.echo(f"{short}: nuova edizione {w.edition}, {w.status} in {w.staged.relative_to(root)} (sha256 {w.sha256}). "
                       f"Estrarne il testo (pdftotext), copiarlo in tornei_en/{short}-{w.edition}.txt con la sua riga in "
                       "tornei_en/edizioni.tsv, poi `judge verifica` e `judge tornei bozza --aggiorna` (docs/tornei.md).")
    return any(w.status != "nessuna novità" for w in found)


def print_diff(doc: str, old_id: str, new_id: str, section: str | None, as_json: bool) -> None:
    """`judge diff --documento mtr 20251110 20260227`: the sections and paragraphs that changed."""
    from judge.tournament.diff import counts, diff_editions
    from judge.tournament.loading import load_documents
    from judge.tournament.numbers import normalise_section

    docs = load_documents()
    old, new = docs.edition(doc, old_id.strip()), docs.edition(doc, new_id.strip())
    if old is None or new is None:
        ids = ", ".join(e.id for e in docs.editions.get(doc, []))
        _fail(f"Edizioni di {doc.upper()} disponibili: {ids}.")
    wanted = normalise_section(section) if section else None
    if section and wanted is None:
        _fail(f"Sezione «{section[:20]}» non valida.")
    changes = diff_editions(old, new, wanted)
    if as_json:
        click.echo(json.dumps({"document": doc, "from": old.id, "to": new.id, "counts": counts(changes),
                               "sections": [c.to_dict() for c in changes]}, ensure_ascii=False, indent=2))
        return
    for c in changes:
        title = c.new_title or c.old_title
        click.echo(f"{doc.upper()} {c.number} ({c.kind}): {title}")
        for p in c.paragraphs:
            number = p.new_number or p.old_number
            if p.kind == "modificato":
                text = "".join(t if op == "=" else f"[{op}{t}{op}]" for op, t in p.words)
            else:
                text = p.new or p.old or ""
            click.echo(f"  {'+' if p.kind == 'aggiunto' else '-' if p.kind == 'rimosso' else '~'} ¶{number} {text}")
    n = counts(changes)
    click.echo(f"{n['sezioni']} sezioni cambiate: {n['aggiunti']} paragrafi aggiunti, {n['rimossi']} rimossi, "
               f"{n['modificati']} modificati.")
