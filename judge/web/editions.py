"""The editions page: every official English edition with its date, what changed from the one
before, and whether the project's copy is the published file (/edizioni, /api/edizioni)."""

from __future__ import annotations

from flask import Blueprint, render_template

from judge.corpus import load_corpus
from judge.corpus.edition_list import edition_rows
from judge.web.cache import cached

bp = Blueprint("editions", __name__)


@bp.get("/edizioni")
@cached
def edizioni():
    corpus = load_corpus()
    return render_template("edizioni.html", corpus=corpus, rows=edition_rows(corpus))
