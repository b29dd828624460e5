"""What the offline copy holds, as data the browser renders (static/js/offline.js): the edition's
rules with every label, note and preview their pages show online, and the glossary with what its
search needs. judge/web/offline.py builds these files once per corpus version and serves them.

The rules (``regole-<version>.json``):

- ``etichette``, ``versioni``: each text's label («Inglese ufficiale · 25 settembre 2026») and
  its full wording (the label's title on hover), by index;
- ``regole``: per rule ``n`` number, ``k`` kind, ``t`` title («702.19 Travolgere»), ``h`` a
  chapter's heading as its page writes it, ``p`` parent; ``it``, ``en``, ``alt`` (the other
  Italian text, shown under the first as online) as [text, examples, label, layer, current, the
  date a translation to update was made for]; ``w`` the warnings its page shows ([code, sentence,
  numbers the English cites instead]); ``a`` a section's or chapter's preview as
  /api/anteprima gives it ([text, label or null, layer, lang]); ``s`` a section's provenance
  (``c``: [date, source, «Aggiornato a …»] of a community text, ``tr``: translated by the project);
- ``edizione``: the edition in force, whether its copy is verified, the banner of a section with
  no Italian.

The glossary (``glossario-<version>.json``): every entry (terms, texts, anchor) with
the stems its search compares (judge/web/glossary_search.py) and the glossary concepts that name
it; the jargon notes by their stems.
"""

from __future__ import annotations

from judge.corpus import Corpus, italian_date
from judge.search.analysis import fold, terms
from judge.search.glossary import get_glossary
from judge.web import render

FORMAT = 2


def _text(t, labels: dict[tuple[str, str], int]) -> list | None:
    if t is None:
        return None
    idx = labels.setdefault((t.label, t.version), len(labels))
    redo = italian_date(t.date) if t.layer == "traduzione" and not t.current and t.date else None
    return [t.text, list(t.examples), idx, t.layer, bool(t.current), redo]


def _label_index(labels: dict[tuple[str, str], int], label: str | None) -> int | None:
    """The index of a label already listed (with any wording), or a new one."""
    if not label:
        return None
    found = next((i for (lab, _), i in labels.items() if lab == label), None)
    return found if found is not None else labels.setdefault((label, ""), len(labels))


def _other_italian(rule):
    """The Italian text a rule page shows under the first one (judge/web/templates' italian_texts)."""
    first = rule.italian
    if first is None:
        return None
    if first.layer == "comunità":
        return rule.tr
    return rule.it if first.layer == "traduzione" else None


def edition_data(corpus: Corpus, version: str) -> dict:
    from judge.web.previews import preview_text
    from judge.web.rules import plain_warnings, translation_banner

    labels: dict[tuple[str, str], int] = {}
    rules = []
    for n in corpus.numbers:
        r = corpus.rules[n]
        item = {"n": n, "k": r.kind, "t": render.rule_heading(r, corpus),
                "p": r.parent if r.parent in corpus else None,
                "it": _text(r.italian, labels), "en": _text(r.en, labels)}
        alt = _other_italian(r)
        if alt is not None:
            item["alt"] = _text(alt, labels)
        if r.kind in ("capitolo", "sezione"):
            preview = preview_text(corpus, r)
            item["a"] = [preview["text"], _label_index(labels, preview["label"]), preview["layer"], preview["lang"]]
        warnings = plain_warnings(corpus, n)
        if warnings:
            item["w"] = [[w["code"], w["message"], w.get("english_citations", [])] for w in warnings]
        if r.kind == "capitolo":
            item["h"] = f"Capitolo {n}. {r.best.text}" if r.best else f"Capitolo {n}"
        if r.kind == "sezione":
            item["s"] = _provenance(corpus, n)
        rules.append(item)
    return {
        "formato": FORMAT,
        "versione": version,
        "edizione": {"id": corpus.in_force.id, "data": italian_date(corpus.in_force.date),
                     "verificata": all(r.en.verified for r in corpus.rules.values() if r.en is not None),
                     "avviso": translation_banner(corpus)},
        "etichette": [label for label, _ in labels],
        "versioni": [v for _, v in labels],
        "regole": rules,
    }


def _provenance(corpus: Corpus, section: str) -> dict:
    """Where a section's Italian comes from, as its page and its chapter's page say it: the
    community text's date, source and «Aggiornato a …» (``c``), and whether the project translates
    it (``tr``)."""
    italian = corpus.italian_sections.get(section)
    community = None
    if italian is not None:
        community = [render.date_it(italian.updated_date), italian.meta.get("fonte") or "Magic: the Gathering Wiki",
                     italian.updated_label]
    return {"c": community, "tr": section in corpus.translated_sections}


def glossary_data(corpus: Corpus, version: str) -> dict:
    """The glossary's entries and what its search compares (judge/web/glossary_search.py)."""
    from judge.web.rules import glossary_entries

    glossary = get_glossary(corpus=corpus)
    named: dict[str, set[int]] = {}
    for c in glossary.concepts:
        for t in c.all_terms:
            named.setdefault(fold(t), set()).add(c.id)
    entries = []
    for e in glossary_entries(corpus):
        concepts = named.get(fold(e["term"]), set()) | (named.get(fold(e["it_term"]), set()) if e["it_term"] else set())
        entries.append({
            "term": e["term"], "it_term": e["it_term"], "text": e["text"], "it_text": e["it_text"],
            "current": e["current"], "anchor": e["anchor"],
            "f": [fold(e["term"]), fold(e["it_term"]) if e["it_term"] else None],
            "r": [terms(e["it_term"], "it") if e["it_term"] else [], terms(e["term"], "en")],
            "c": sorted(concepts),
        })
    jargon: dict[str, dict[str, list]] = {"it": {}, "en": {}}
    for (lang, seq), items in glossary._jargon.items():
        jargon[lang][" ".join(seq)] = [[j.term, j.meaning] for j in items]
    return {"formato": FORMAT, "versione": version, "voci": entries, "gergo": jargon}
