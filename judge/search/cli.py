"""`judge cerca "…"`: search the rules from the command line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from judge import ROOT


@click.command("cerca")
@click.argument("parole", nargs=-1, required=True)
@click.option("--lingua", type=click.Choice(["tutte", "it", "en"]), default="tutte", show_default=True,
              help="Lingua dei testi in cui cercare.")
@click.option("--capitolo", default=None, help="Solo un capitolo (1-9).")
@click.option("--sezione", default=None, help="Solo una sezione (es. 704).")
@click.option("-n", "--limite", type=click.IntRange(1, 100), default=10, show_default=True, help="Numero di risultati.")
@click.option("--pagina", type=click.IntRange(1, 1000), default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Risultato in JSON (come /api/cerca).")
@click.option("--instance", type=click.Path(file_okay=False), default=lambda: os.environ.get("JUDGE_INSTANCE"),
              help="Cartella dell'istanza con l'indice (env JUDGE_INSTANCE; predefinita instance/).")
def cerca(parole, lingua, capitolo, sezione, limite, pagina, as_json, instance):
    """Cerca nel Regolamento: parole, frasi tra virgolette, gergo inglese o un numero di regola."""
    from judge.search.engines import get_engine

    instance_path = Path(instance) if instance else ROOT / "instance"
    instance_path.mkdir(parents=True, exist_ok=True)
    engine = get_engine(instance_path)
    result = engine.search(" ".join(parole), lang=lingua, chapter=capitolo, section=sezione,
                           page=pagina, per_page=limite)
    if as_json:
        click.echo(json.dumps(result.as_json(), ensure_ascii=False, indent=2))
        return
    for note in result.notes:
        click.echo(note, err=True)
    if result.suggestion:
        click.echo(f"Forse cercavi: {result.suggestion}")
    for j in result.jargon:
        click.echo(f"«{j.term}» è gergo: {j.meaning}.")
    for m in result.cards:
        click.echo(f"Carta nominata: {m.face.display_name}" + (f" ({m.face.name})" if m.face.english_aside else ""))
    if result.answer:
        a = result.answer
        asks = f" (la domanda chiede: {a.asks})" if a.asks else ""
        click.echo(f"Risposta rapida{asks}: {a.number} — {a.sentence or a.text}")
    if result.nearest:
        click.echo("Regole vicine: " + ", ".join(result.nearest))
    if not result.hits:
        click.echo("Nessuna regola trovata.")
        return
    if not result.rule:
        click.echo(f"{result.total} regole trovate (pagina {result.page} di {result.pages}).")
    for h in result.hits:
        title = f" — {h.section}. {h.section_title}" if h.section_title and h.section != h.number else ""
        click.echo(f"\n{h.number} [{h.lang.upper()}]{title}")
        click.echo(f"  {h.snippet}")
        if h.index_entry:
            click.echo(f"  (indice analitico: {h.index_entry})")
