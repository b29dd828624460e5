"""The tournament documents' citations on the site: links inside a document's own text (its
sections, the rules it cites, at their number today), the linker's spans for «IPG 2.1» in any text
(/collega, /api/citazioni), the previews (/api/anteprima/IPG 2.1) and the sections a rule page lists.
The finding is judge/tournament/citations.py's; this is the web's side of it."""

from __future__ import annotations

from flask import url_for
from markupsafe import Markup, escape

from judge.corpus import load_corpus
from judge.corpus.citations import find_citations
from judge.corpus.pinned import known
from judge.tournament.citations import find_document_citations, merge_spans
from judge.tournament.loading import load_documents, section_exists
from judge.tournament.numbers import parse_reference
from judge.tournament.rule_links import corrected, for_rule
from judge.tournament.view import section_view
from judge.web.render import cited_target, rule_url


def section_url(doc: str, number: str | None = None, external: bool = False) -> str:
    if number is None:
        return url_for("tornei.contents", documento=doc, _external=external)
    return url_for("tornei.section", documento=doc, sezione=number, _external=external)



# The rules' citations that a tournament document makes ("rule …", "Comprehensive Rules …" with a
# number); its "section 4.3" is its own (judge/tournament/citations.py), never a chapter of the rules.
_RULE_KEYWORDS = ("rul", "regol", "reg.", "cr", "c.r.")


def _rule_span(c, corpus, doc: str | None, section: str | None) -> dict | None:
    fix = corrected(doc, section, c.first) if doc and section else None
    if fix is not None:  # a number the rules have moved since the document was written
        return {"start": c.start, "end": c.end, "url": rule_url(fix.rule), "title": fix.note, "class": "cit cit-obsoleta"}
    target = cited_target(c, corpus)
    return {"start": c.start, "end": c.end, "url": rule_url(target), "title": f"Regola {target}"} if target else None


def link_document_text(text: str, doc: str | None = None, section: str | None = None) -> Markup:
    """``text`` escaped, with the tournament documents' citations (``doc``'s own sections too)
    and the rules' citations linked (to their number today, judge/tournament/regole.tsv)."""
    corpus = load_corpus()
    spans = [{"start": c.start, "end": c.end, "url": section_url(c.doc, c.section), "title": c.label}
             for c in find_document_citations(text, doc, load_documents().has)]
    rules = [span for c in find_citations(text, known=known(corpus))
             if (c.keyword is None or c.keyword.lower().startswith(_RULE_KEYWORDS))
             and (span := _rule_span(c, corpus, doc, section))]
    out, pos = [], 0
    for s in merge_spans(spans, rules):
        out += [str(escape(text[pos:s["start"]])),
                f'<a class="{s.get("class", "cit")}" href="{escape(s["url"])}" title="{escape(s["title"])}">'
                f'{escape(text[s["start"]:s["end"]])}</a>']
        pos = s["end"]
    out.append(str(escape(text[pos:])))
    return Markup("".join(out).replace("\n", "<br>\n"))


def sections_about(number: str) -> list[dict]:
    """The tournament sections that cite or concern rule ``number`` (for its page's «Citata da»)."""
    out = []
    for link in for_rule(number):
        edition = load_documents().in_force(link.doc)
        section = edition.section(link.section) if edition else None
        if section is not None:
            out.append({"citation": f"{edition.document.short} {section.number}", "title": section.title,
                        "url": section_url(link.doc, section.number), "kind": link.kind, "rule": link.rule,
                        "note": link.note})
    return out


# A preview is a glance (judge/web/previews.py): the section's start, cut.
PREVIEW_CHARS = 900


def document_preview(reference: str, external: bool = True) -> dict | None:
    """The preview of «IPG 2.1» or «JAR» for /api/anteprima, shaped as a rule's: the title, the
    penalty, how the section begins (the project's Italian where there is one), its label."""
    found = parse_reference(reference)
    if found is None or not section_exists(*found):
        return None
    doc, number = found
    edition = load_documents().in_force(doc)
    number = number or edition.sections[0].number
    view = section_view(doc, number)
    words = [p for p in view.paragraphs if p.paragraph.kind != "titoletto"][:3]
    italian = bool(words) and all(p.it for p in words)
    text = " ".join((p.it.text if italian else p.paragraph.text) for p in words)
    if view.section.penalty:
        gloss = f" ({view.penalty_gloss})" if view.penalty_gloss else ""
        text = f"Sanzione: {view.section.penalty}{gloss}. {text}"
    if len(text) > PREVIEW_CHARS:
        text = text[:PREVIEW_CHARS].rsplit(" ", 1)[0].rstrip(",;:") + "…"
    title = view.title_it.text if view.title_it else view.section.title
    label = view.it_label if italian else view.en_label
    return {
        "number": f"{view.document.short} {number}" if found[1] else view.document.short,
        "title": f"{view.citation} {title}" if found[1] else f"{view.document.short} — {view.document.title}",
        "text": text,
        "lang": "it" if italian else "en",
        "layer": "traduzione" if italian else "ufficiale",
        "label": label,
        "url": section_url(doc, found[1], external=external),
    }


def document_spans(text: str, external: bool = False, stop=None) -> list[dict]:
    """The tournament documents' citations of a text as the linker's spans (judge/web/linker.py);
    ``stop``: find_document_citations's budget. The documents are read once for the text
    (``load_documents`` looks at their folder on every call: 150 µs a citation)."""
    return [{"start": c.start, "end": c.end, "text": c.text, "keyword": None, "numbers": [],
             "documento": c.doc, "sezione": c.section, "citazione": c.label,
             "url": section_url(c.doc, c.section, external=external)}
            for c in find_document_citations(text, exists=load_documents().has, stop=stop)]


def link_with_documents(text: str, link_rest) -> Markup:
    """``text`` with its tournament citations linked, and ``link_rest`` (the rules' and cards'
    linker) applied to what lies between them."""
    out, pos = [], 0
    # the documents read once for the whole text (load_documents looks at the folder each time)
    for c in find_document_citations(text, exists=load_documents().has):
        out += [str(link_rest(text[pos:c.start])),
                f'<a class="cit" href="{escape(section_url(c.doc, c.section))}" title="{escape(c.label)}">'
                f'{escape(c.text)}</a>']
        pos = c.end
    out.append(str(link_rest(text[pos:])))
    return Markup("".join(out))
