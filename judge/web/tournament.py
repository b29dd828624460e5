"""The tournament documents' pages and JSON: ``/mtr``, ``/ipg``, ``/jar`` (contents), ``/mtr/2.5``,
``/ipg/2.1``, ``/jar/2.1`` (a section: the official English and the project's Italian side by side,
with the rule pages' labels; on an IPG infraction, its penalty first), ``/api/mtr/2.5`` (the same
as JSON), ``/tornei`` (the three documents). Forgiving addresses (``/mtr/2-5``, ``/IPG/3.2``,
``/mtr/appendice-b``) redirect to the canonical one; an unknown section is an Italian 404 with the
document's contents.
"""

from __future__ import annotations

import datetime as dt

from flask import Blueprint, jsonify, redirect, render_template, url_for

from judge.corpus.model import Text, italian_date
from judge.tournament.diff import counts as diff_counts
from judge.tournament.diff import diff_editions, section_history
from judge.tournament.loading import load_documents
from judge.tournament.model import DOCUMENTS, DocEdition, Section
from judge.tournament.numbers import normalise_section, parse_reference
from judge.tournament.rule_links import for_section
from judge.tournament.terminology import load_tournament_terminology
from judge.tournament.view import SectionView, load_translations, section_view
from judge.web.cache import prepared
from judge.web.errors import error_response
from judge.web.tournament_citations import link_document_text, section_url, sections_about

bp = Blueprint("tornei", __name__)

_DOC = "any(mtr,ipg,jar,MTR,IPG,JAR,Mtr,Ipg,Jar)"


def english_text(edition: DocEdition, text: str) -> Text:
    d = edition.document
    version = f"{d.title}, edizione del {italian_date(edition.date)}"
    return Text("en", text, [], version, edition.date, edition.path.name, layer="ufficiale")


def italian_text(it) -> Text | None:
    """The project's Italian of a paragraph as a rule page's text: labelled with the English edition it translates."""
    if it is None:
        return None
    date = dt.date(int(it.edition[:4]), int(it.edition[4:6]), int(it.edition[6:]))
    version = f"Traduzione non ufficiale del progetto judge dall'edizione inglese del {italian_date(date)}"
    return Text("it", it.text, [], version, date, "", layer="traduzione", edition=it.edition, current=it.current)


bp.add_app_template_filter(link_document_text, "citazioni_torneo")


@bp.app_context_processor
def _helpers() -> dict:
    return {"tornei_en": english_text, "tornei_it": italian_text, "tornei_url": section_url,
            "tornei_per_regola": sections_about, "tornei_regole": for_section}


def _gloss(name: str | None) -> str | None:
    return load_tournament_terminology().gloss(name) if name else None


def _neighbours(edition: DocEdition, section: Section) -> tuple[Section | None, Section | None]:
    i = edition.sections.index(section)
    return (edition.sections[i - 1] if i else None, edition.sections[i + 1] if i + 1 < len(edition.sections) else None)


def _not_found(doc: str, asked: str):
    edition = load_documents().in_force(doc)
    d = DOCUMENTS[doc]
    sections = ", ".join(s.number for s in edition.sections if s.kind != "premessa") if edition else ""
    return error_response(404, f"La sezione «{asked[:30]}» non esiste in {d.short} (in vigore): sezioni {sections}.",
                          documento=doc)


def payload(view: SectionView, external: bool = True) -> dict:
    s, e = view.section, view.edition
    return {
        "documento": e.doc,
        "citazione": view.citation,
        "sezione": s.number,
        "titolo": s.title,
        "titolo_it": view.title_it.text if view.title_it else None,
        "sanzione": s.penalty,
        "sanzione_it": view.penalty_gloss,
        "edizione": e.id,
        "in_vigore_dal": e.date.isoformat(),
        "numerazione_del_progetto": not e.document.numbered,
        "etichetta_inglese": view.en_label,
        "etichetta_traduzione": view.it_label,
        "paragrafi": [{
            "numero": p.number,
            "tipo": p.paragraph.kind,
            "segno": p.paragraph.mark or None,
            "en": p.paragraph.text,
            "it": p.it.text if p.it else None,
            "it_aggiornato": p.it.current if p.it else None,
        } for p in view.paragraphs],
        "parti": [name for name, _ in s.parts if name] if s.penalty else [],
        "url": section_url(e.doc, s.number, external=external),
    }


@bp.get("/tornei")
def documents():
    docs = load_documents()
    translations = load_translations()
    rows = []
    for code, d in DOCUMENTS.items():
        e = docs.in_force(code)
        if e is None:
            continue
        done = sum(1 for (doc, _), st in translations.files.items() if doc == code and any(u.italian for u in st.units))
        rows.append((d, e, done))
    from judge.tournament.analytic_index import read_index

    return render_template("tornei.html", rows=rows, editions=docs.editions, index=read_index())


@bp.get(f"/<{_DOC}:documento>")
def contents(documento: str):
    doc = documento.lower()
    if documento != doc:
        return redirect(url_for("tornei.contents", documento=doc), code=301)
    docs = load_documents()
    edition = docs.in_force(doc)
    if edition is None:
        return error_response(404, f"Nessuna edizione di {doc.upper()} disponibile.")
    if doc == "jar":  # short: the whole document on one page
        views = [section_view(doc, s.number, docs) for s in edition.sections]
        return render_template("torneo_sezione.html", views=views, view=views[0], whole=True, **_common(edition))
    translations = load_translations()
    rows = []
    for s in edition.sections:
        st = translations.get(doc, s.number)
        title_it = st.title.italian if st and st.title and st.title.italian else None
        rows.append((s, title_it, _gloss(s.penalty)))
    return render_template("torneo_indice.html", rows=rows, **_common(edition))


def _common(edition: DocEdition) -> dict:
    docs = load_documents()
    return {"edition": edition, "document": edition.document, "editions": docs.editions.get(edition.doc, []),
            "section_url": section_url, "en_badge": english_text(edition, "")}


@bp.get(f"/<{_DOC}:documento>/<path:sezione>")
def section(documento: str, sezione: str):
    doc = documento.lower()
    canonical = normalise_section(sezione.replace("appendice-", "").replace("appendix-", ""))
    if canonical is None:
        return _not_found(doc, sezione)
    if canonical != sezione or documento != doc:
        return redirect(url_for("tornei.section", documento=doc, sezione=canonical), code=301)
    view = section_view(doc, canonical)
    if view is None:
        return _not_found(doc, sezione)
    previous, following = _neighbours(view.edition, view.section)
    return render_template("torneo_sezione.html", views=[view], view=view, whole=False, previous=previous,
                           following=following, permalink=section_url(doc, canonical, external=True),
                           **_common(view.edition))


@bp.get("/api/tornei")
def api_documents():
    docs = load_documents()
    return jsonify({"documenti": [{
        "documento": code, "sigla": d.short, "titolo": d.title, "titolo_it": d.title_it,
        "numerazione_del_progetto": not d.numbered,
        "edizioni": [{"edizione": e.id, "in_vigore_dal": e.date.isoformat(), "file": e.path.name, "sha256": e.sha256}
                     for e in docs.editions.get(code, [])],
        "url": section_url(code, external=True),
    } for code, d in DOCUMENTS.items()]})


@bp.get(f"/api/<{_DOC}:documento>")
def api_contents(documento: str):
    doc = documento.lower()
    edition = load_documents().in_force(doc)
    if edition is None:
        return error_response(404, f"Nessuna edizione di {doc.upper()} disponibile.")
    return jsonify({
        "documento": doc, "edizione": edition.id, "in_vigore_dal": edition.date.isoformat(),
        "sezioni": [{"sezione": s.number, "titolo": s.title, "tipo": s.kind, "sanzione": s.penalty,
                     "url": section_url(doc, s.number, external=True)} for s in edition.sections],
    })


@bp.get(f"/api/<{_DOC}:documento>/<path:sezione>")
def api_section(documento: str, sezione: str):
    doc = documento.lower()
    canonical = normalise_section(sezione)
    view = section_view(doc, canonical) if canonical else None
    if view is None:
        return _not_found(doc, sezione)
    return jsonify(payload(view))


def reference_url(text: str) -> str | None:
    """The page of a typed reference («MTR 2.5», «ipg 3.2», «JAR»), or None if it names none."""
    found = parse_reference(text)
    if found is None:
        return None
    doc, number = found
    edition = load_documents().in_force(doc)
    if edition is None or (number is not None and edition.section(number) is None):
        return None
    return section_url(doc, number)


# -- editions: what changed, a section's history ------------------------------------------------

def _pair(doc: str, interval: str | None):
    """(old, new) editions of ``doc`` from "20251110..20260227" (default: the last two)."""
    editions = load_documents().editions.get(doc, [])
    if interval is None:
        return (editions[-2], editions[-1]) if len(editions) > 1 else (None, None)
    a, _, b = interval.partition("..")
    by_id = {e.id: e for e in editions}
    return by_id.get(a.strip()), by_id.get(b.strip())


def _bad_interval(doc: str, interval: str):
    ids = ", ".join(e.id for e in load_documents().editions.get(doc, []))
    return error_response(404, f"Intervallo «{interval[:40]}» non valido per {doc.upper()}: usa AAAAMMGG..AAAAMMGG "
                               f"con due edizioni tra {ids}.")


@bp.get(f"/<{_DOC}:documento>/modifiche")
@bp.get(f"/<{_DOC}:documento>/modifiche/<intervallo>")
def changes(documento: str, intervallo: str | None = None):
    doc = documento.lower()
    old, new = _pair(doc, intervallo)
    if old is None or new is None:
        if intervallo is None:
            return error_response(404, f"{doc.upper()} ha una sola edizione: nessuna modifica da mostrare.")
        return _bad_interval(doc, intervallo)
    if intervallo is None:
        return redirect(url_for("tornei.changes", documento=doc, intervallo=f"{old.id}..{new.id}"), code=302)
    found = diff_editions(old, new)
    return render_template("torneo_modifiche.html", old=old, new=new, changes=found, counts=diff_counts(found),
                           **_common(new))


@bp.get(f"/api/<{_DOC}:documento>/modifiche/<intervallo>")
def api_changes(documento: str, intervallo: str):
    doc = documento.lower()
    old, new = _pair(doc, intervallo)
    if old is None or new is None:
        return _bad_interval(doc, intervallo)
    found = diff_editions(old, new)
    return jsonify({"documento": doc, "da": old.id, "a": new.id, "conteggi": diff_counts(found),
                    "sezioni": [c.to_dict() for c in found]})


@bp.get(f"/<{_DOC}:documento>/<sezione>/storia")
def history(documento: str, sezione: str):
    doc = documento.lower()
    canonical = normalise_section(sezione)
    editions = load_documents().editions.get(doc, [])
    if canonical is None or not any(e.section(canonical) for e in editions):
        return _not_found(doc, sezione)
    if canonical != sezione or documento != doc:
        return redirect(url_for("tornei.history", documento=doc, sezione=canonical), code=301)
    steps = section_history(editions, canonical)
    title = next(e.section(canonical).title for e in reversed(editions) if e.section(canonical))
    return render_template("torneo_storia.html", number=canonical, title=title, steps=steps,
                           **_common(editions[-1]))


# -- search: the documents' sections beside the rules (judge/tournament/search.py) ----------------------

DOCUMENT_FILTERS = ("tutti", "regole", *DOCUMENTS)
# With every document searched, the sections shown above the rules' results.
TOURNAMENT_ON_TOP = 3


def document_filter(raw: str | None) -> str:
    value = (raw or "tutti").strip().lower()
    return value if value in DOCUMENT_FILTERS else "tutti"


def tournament_hits(query: str, document: str, page: int = 1) -> list:
    """The sections to show for a search: none for the rules alone, the top few with everything,
    a page of them for one document."""
    if not (query or "").strip() or document == "regole" or (document == "tutti" and page > 1):
        return []
    from judge.tournament.search import search_documents

    if document == "tutti":  # above the rules only what the query names (a title, an infraction's name)
        return [h for h in search_documents(query[:300], None, TOURNAMENT_ON_TOP) if h.named]
    return search_documents(query[:300], document, 30)


def tournament_payload(hit) -> dict:
    return {"citazione": hit.citation, "documento": hit.doc, "sezione": hit.section, "titolo": hit.title,
            "paragrafo": hit.paragraph, "estratto": hit.snippet, "punteggio": hit.score,
            "url": section_url(hit.doc, hit.section, external=True)}


# -- offline: the documents' pages and a small search in the offline copy (judge/web/offline.py) ----

def offline_pages() -> list[str]:
    """Every page of the documents, kept by the offline copy on install."""
    docs = load_documents()
    pages = [url_for("tornei.documents")]
    for code in DOCUMENTS:
        edition = docs.in_force(code)
        if edition is not None:
            pages.append(section_url(code))
            pages += [section_url(code, s.number) for s in edition.sections]
    return pages


def offline_data() -> dict:
    """What the offline search of the documents needs (static/js/tornei-offline.js): each section's
    citation, title, address and names (the same names the server's search weighs most)."""
    from judge.tournament.search import tournament_index

    return {"sezioni": [{"c": f"{DOCUMENTS[d.doc].short} {d.section}", "t": d.title,
                         "u": section_url(d.doc, d.section), "n": " ".join(sorted(d.names))}
                        for d in tournament_index().docs]}


def _offline_body() -> tuple[bytes, str]:
    import hashlib
    import json

    body = json.dumps(offline_data(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return body, hashlib.sha256(body).hexdigest()[:16]


def offline_data_url() -> str:
    return url_for("tornei.offline_file", ident=_offline_body()[1])


@bp.get("/offline/tornei-<ident>.json")
@prepared(cache_control="public, max-age=31536000, immutable")    # the name holds the version
def offline_file(ident: str):
    body, digest = _offline_body()
    if ident != digest:
        return error_response(404, "Copia offline di un'altra versione dei documenti dei tornei: ricarica la pagina.")
    from flask import Response

    resp = Response(body, mimetype="application/json")
    resp.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return resp
