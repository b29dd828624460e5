"""The analytic index page: ``/indice-analitico``, headwords A–Z, each doubt linked to its rules.

``/indice-analitico?q=danno`` keeps the entries whose headword or doubt holds every word typed
(stems, accents and inflections aside: "danni" finds "danno"). ``?lingua=en`` shows the English
index (the doubts in English game jargon), searched with English stems.
"""

from __future__ import annotations

import re

from flask import Blueprint, render_template, request, url_for

from judge.corpus import load_corpus
from judge.corpus.analytic_index import AnalyticIndex, Entry, initial, sort_key
from judge.search.analysis import terms
from judge.search.answers import entry_terms
from judge.web import parts
from judge.web.cache import cached

bp = Blueprint("indice", __name__)

MAX_QUERY_CHARS = 100


@bp.app_template_global("index_anchor")
def anchor(heading: str) -> str:
    """The headword's id on the index page: readable, and distinct for "+1/+1" and "-1/-1"."""
    spelled = re.sub(r"-(?=[\dx])", " meno ", sort_key(heading).replace("+", " piu "))
    return "v-" + (re.sub(r"[^a-z0-9]+", "-", spelled).strip("-") or "voce")


def matching(index: AnalyticIndex, query: str) -> list[Entry]:
    """The entries holding every word of ``query`` (none for a query of stop words or symbols only)."""
    wanted = set(terms(query, index.lang))
    if not wanted:
        return []
    return [e for e in index.entries if _holds(entry_terms(index, e.text), wanted)]


def _holds(held: tuple[str, ...], wanted: set[str]) -> bool:
    return all(w in held for w in wanted)


def grouped(entries: list[Entry], query: str = "", lang: str = "it") -> list[dict]:
    """Headwords in dictionary order with their letter and anchor, doubts in dictionary order. For a
    search (``query``), the headword written as typed comes first, then those with the same stems
    («danni» finds the headword «danno»), then the others."""
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        groups.setdefault(e.heading, []).append(e)
    typed, stems = sort_key(" ".join(query.split())), terms(query, lang) if query else []

    def rank(h: str) -> int:
        if not query:
            return 0
        if sort_key(h) == typed:
            return 0
        return 1 if terms(h, lang) == stems else 2

    return [
        {"heading": h, "letter": initial(h), "anchor": anchor(h),
         "entries": sorted(groups[h], key=lambda e: sort_key(e.topic))}
        for h in sorted(groups, key=lambda h: (rank(h), sort_key(h), h))
    ]


def index_letters(index: AnalyticIndex) -> list[str]:
    """The letters an index's pages go by (one page each)."""
    return list(dict.fromkeys(h["letter"] for h in grouped(index.entries)))


def selected(corpus) -> tuple[str, str, AnalyticIndex, list[Entry]]:
    """What the request asks for: the language (``lingua``: "it" or "en"; anything else is Italian,
    as the search treats an unknown filter), the words (``q``), that index and its entries holding them."""
    lang = "en" if request.args.get("lingua", "").strip().lower() == "en" else "it"
    q = " ".join(request.args.get("q", "").split())[:MAX_QUERY_CHARS]
    index = corpus.analytic_indexes[lang]
    return lang, q, index, (matching(index, q) if q else index.entries)


@bp.app_template_global("index_entry_url")
def entry_url(heading: str, lang: str = "it") -> str:
    """Where a headword is listed: its letter's page of the index (judge/web/parts.py), at its anchor."""
    return url_for("indice.indice_analitico", lingua="en" if lang == "en" else None,
                   lettera=parts.letter_slug(initial(heading))) + "#" + anchor(heading)


@bp.get("/indice-analitico")
@cached
def indice_analitico():
    corpus = load_corpus()
    lang, q, index, entries = selected(corpus)
    headings = grouped(entries, q, lang)
    letters = index_letters(index)
    letter = None
    if not q:
        # One letter at a time: the whole Italian index is 420 KB.
        letter, err = parts.chosen_letter(letters, "l'indice")
        if err:
            return err
        headings = [h for h in headings if h["letter"] == letter]
    english = "en" if lang == "en" else None
    return render_template("indice_analitico.html", corpus=corpus, q=q, lang=lang, headings=headings,
                           found=len(entries), total=len(index), rules=len(index.rules),
                           other=len(corpus.analytic_indexes["it" if lang == "en" else "en"]),
                           letters=letters, letter=letter,
                           letter_url=lambda x: url_for("indice.indice_analitico", lingua=english,
                                                        lettera=parts.letter_slug(x)))
