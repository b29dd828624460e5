"""The citation linker: paste a text (Italian or English), get it back with every
rule citation linked and the list of cited rules with their text."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, render_template, request

from judge.corpus.citations import find_citations
from judge.corpus import Corpus, Rule, load_corpus
from judge.web import render

bp = Blueprint("linker", __name__)

# Longest text the linker accepts (characters): a long ruling or forum thread, not a book.
MAX_LINKER_CHARS = 20_000


def too_long_message(length: int) -> str:
    return (
        f"Testo troppo lungo: il limite è di {MAX_LINKER_CHARS:,} caratteri".replace(",", ".")
        + f" (ne hai inviati {length:,}).".replace(",", ".")
        + " Dividilo in più parti."
    )


EMPTY_MESSAGE = "Incolla un testo che contenga citazioni di regole (per esempio «regola 704.5a» o «CR 117.3a»)."


@dataclass
class LinkReport:
    text: str
    spans: list[dict] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)  # cited rules that exist, in order of first citation
    unknown: list[str] = field(default_factory=list)  # cited numbers that do not exist


def link_report(text: str, corpus: Corpus, external: bool = False) -> LinkReport:
    report = LinkReport(text)
    seen: dict[str, None] = {}
    unknown: dict[str, None] = {}
    for c in find_citations(text):
        numbers = []
        for n in c.numbers:
            exists = n in corpus
            numbers.append({"number": n, "exists": exists, "url": render.rule_url(n, external=external) if exists else None})
            (seen if exists else unknown).setdefault(n, None)
        target = render.cited_target(c, corpus)
        report.spans.append({
            "start": c.start,
            "end": c.end,
            "text": c.text,
            "keyword": c.keyword,
            "numbers": numbers,
            "url": render.rule_url(target, external=external) if target else None,
        })
    report.rules = [corpus.rules[n] for n in seen]
    report.unknown = list(unknown)
    return report


@bp.route("/collega", methods=["GET", "POST"])
def collega():
    corpus = load_corpus()
    if request.method == "GET":
        return render_template("collega.html", corpus=corpus, text="", report=None, error=None, limit=MAX_LINKER_CHARS)
    text = request.form.get("testo", "")
    if len(text) > MAX_LINKER_CHARS:
        return render_template(
            "collega.html", corpus=corpus, text="", report=None, error=too_long_message(len(text)),
            limit=MAX_LINKER_CHARS,
        ), 413
    if not text.strip():
        return render_template(
            "collega.html", corpus=corpus, text="", report=None, error=EMPTY_MESSAGE, limit=MAX_LINKER_CHARS
        ), 400
    report = link_report(text, corpus)
    return render_template(
        "collega.html", corpus=corpus, text=text, report=report, error=None, limit=MAX_LINKER_CHARS,
        linked=render.link_text(text, corpus),
    )
