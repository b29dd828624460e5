"""Commands about editions and citations: `judge diff` (what changed between two editions,
moves included) and `judge collega` (the citations of a text, read in the edition it was
written under and brought to the edition in force)."""

from __future__ import annotations

import json
import re
import sys

import click

from judge.corpus.cli import _fail, _load

MARKS = {"aggiunta": "+", "rimossa": "-", "modificata": "~", "spostata": ">", "spostata e modificata": "~>"}
PLURALS = {"aggiunta": "aggiunte", "rimossa": "rimosse", "modificata": "modificate", "spostata": "spostate",
           "spostata e modificata": "spostate e modificate"}


def _edition(corpus, ident: str):
    found = corpus.edition(ident)
    if found is None:
        available = ", ".join(e.id for e in corpus.editions)
        _fail(f"Edizione «{ident[:20]}» non trovata. Edizioni disponibili: {available}.")
    return found


def _indent(text: str) -> str:
    return "    " + text.replace("\n", "\n    ")


def summary(counts: dict[str, int], renumbered: dict[str, int]) -> str:
    """"45 aggiunte, 1 rimosse, 50 modificate (17 solo nei rinvii), ..." """
    parts = []
    for kind, plural in PLURALS.items():
        extra = f" ({renumbered[kind]} solo nei rinvii alla nuova numerazione)" if renumbered.get(kind) else ""
        parts.append(f"{counts[kind]} {plural}{extra}")
    return ", ".join(parts) + "."


@click.command("diff")
@click.argument("vecchia")
@click.argument("nuova")
@click.option("--sezione", help="Solo una sezione (es. 704) o un capitolo (es. 7), prima o dopo gli spostamenti.")
@click.option("--json", "as_json", is_flag=True, help="Risultato in JSON (come /api/modifiche).")
@click.option("--documento", type=click.Choice(["mtr", "ipg", "jar"]), default=None,
              help="Un documento dei tornei invece del Regolamento (es. --documento mtr 20251110 20260227).")
def diff(vecchia: str, nuova: str, sezione: str | None, as_json: bool, documento: str | None) -> None:
    """Regole aggiunte, rimosse, modificate e spostate tra due edizioni inglesi (AAAAMMGG); con
    --documento, le sezioni e i paragrafi cambiati tra due edizioni dell'MTR, dell'IPG o di JAR."""
    from judge.corpus.diff import count_changes, diff_editions, glossary_changes, heading_changes

    if documento:
        from judge.tournament.cli import print_diff

        print_diff(documento, vecchia, nuova, sezione, as_json)
        return

    corpus = _load()
    old, new = _edition(corpus, vecchia), _edition(corpus, nuova)
    if sezione is not None and not re.fullmatch(r"[1-9]|[1-9][0-9]{2}", sezione):  # not isdigit(): "²"
        _fail(f"Sezione «{sezione[:20]}» non valida: usa un numero di sezione (es. 704) o di capitolo (es. 7).")
    trace = corpus.lineage.trace(old, new)
    changes = diff_editions(old, new, sezione, trace)
    headings = heading_changes(old, new, sezione, trace)
    glossary = glossary_changes(old, new, trace) if sezione is None else []
    counts = count_changes(changes)
    renumbered = {k: sum(1 for c in changes if c.kind == k and c.renumbering_only) for k in counts}
    if as_json:
        click.echo(json.dumps({
            "from": old.id, "to": new.id, "section": sezione, "counts": counts,
            "renumbering_only": sum(renumbered.values()),
            "changes": [c.to_dict() for c in changes], "headings": [h.to_dict() for h in headings],
            "glossary": [g.to_dict() for g in glossary],
        }, ensure_ascii=False, indent=2))
        return
    for h in headings:
        what = "capitolo" if h.level == "capitolo" else "sezione"
        where = f"{h.number} (era {h.old_number})" if h.old_number and h.old_number != h.number else h.number
        titles = h.new_title if h.old_title in (None, h.new_title) else f"{h.old_title} → {h.new_title}"
        click.echo(f"{MARKS[h.kind]} {what} {where} ({h.kind}): {titles or h.old_title}")
    for ch in changes:
        moved = f" (era {ch.old_number})" if ch.moved else ""
        note = ", solo rinvii alla nuova numerazione" if ch.renumbering_only else ""
        click.echo(f"{MARKS[ch.kind]} {ch.number}{moved} ({ch.kind}{note})")
        if ch.kind in ("modificata", "spostata e modificata"):
            click.echo(_indent("".join(t if op == "=" else f"[{op}{t}{op}]" for op, t in ch.words)))
        elif ch.kind != "spostata":
            click.echo(_indent(ch.new or ch.old or ""))
    for g in glossary:
        renamed = f" (era «{g.old_term}»)" if g.kind == "rinominata" else ""
        note = ", solo rinvii alla nuova numerazione" if g.renumbering_only else ""
        click.echo(f"{MARKS.get(g.kind, '~')} glossario «{g.term}»{renamed} ({g.kind}{note})")
        if g.words:
            click.echo(_indent("".join(t if op == "=" else f"[{op}{t}{op}]" for op, t in g.words)))
    click.echo(summary(counts, renumbered) + (f" Glossario: {len(glossary)} voci cambiate." if glossary else ""))


@click.command("collega")
@click.argument("file", type=click.File("r", encoding="utf-8"), default="-")
@click.option("--edizione", help="Edizione in cui è stato scritto il testo (AAAAMMGG); predefinita: quella in vigore.")
@click.option("--json", "as_json", is_flag=True, help="Risultato in JSON (come /api/collega).")
def collega(file, edizione: str | None, as_json: bool) -> None:
    """Le citazioni di regole in un testo (file o standard input), lette nell'edizione in cui è
    stato scritto e riportate ai numeri dell'edizione in vigore. Esce con 1 se qualche regola
    citata non esiste (più)."""
    from judge.corpus.citations import find_citations
    from judge.corpus.pinned import known, resolve

    corpus = _load()
    edition = _edition(corpus, edizione) if edizione else corpus.in_force
    text = file.read()
    found = []
    for c in find_citations(text, known=known(corpus)):
        found.append({"start": c.start, "end": c.end, "text": c.text,
                      "numbers": [resolve(n, corpus, edition).to_dict() for n in c.numbers]})
    problems = sum(1 for span in found for n in span["numbers"] if n["now"] is None)
    # The tournament documents' sections cited («IPG 2.1», «MTR 4.2»: judge/tournament/citations.py).
    from judge.tournament.citations import find_document_citations
    from judge.tournament.loading import section_exists

    documents = [{"start": c.start, "end": c.end, "text": c.text, "document": c.doc, "section": c.section,
                  "citation": c.label} for c in find_document_citations(text, exists=section_exists)]
    if as_json:
        click.echo(json.dumps({"edition": edition.id, "in_force": corpus.in_force.id, "spans": found,
                               "documents": documents}, ensure_ascii=False, indent=2))
        sys.exit(1 if problems else 0)
    click.echo(f"Citazioni lette nell'edizione {edition.id}"
               + ("" if edition is corpus.in_force else f", riportate all'edizione in vigore {corpus.in_force.id}") + ":")
    for span in found:
        for n in span["numbers"]:
            target = f" → {n['now']}" if n["now"] and n["now"] != n["number"] else ""
            notice = f": {n['notice']}" if n["notice"] else ""
            click.echo(f"  {n['number']}{target} ({n['status']}){notice}")
    if documents:
        click.echo("Documenti dei tornei citati: " + ", ".join(d["citation"] for d in documents) + ".")
    if not found and not documents:
        click.echo("  nessuna citazione trovata.")
    sys.exit(1 if problems else 0)


COMMANDS = [diff, collega]
