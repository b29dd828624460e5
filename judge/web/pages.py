"""Home page and site-wide routes."""

from __future__ import annotations

from flask import Blueprint, render_template

from judge.corpus import load_corpus
from judge.web.cache import cached

bp = Blueprint("pages", __name__)


@bp.get("/")
@cached
def home():
    corpus = load_corpus()
    return render_template("home.html", corpus=corpus)
