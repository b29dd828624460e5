"""Search results as the site, the API and the command line show them."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from judge.search.answers import Ambiguous, QuickAnswer
from judge.search.glossary import Jargon


@dataclass
class Hit:
    number: str
    lang: str
    kind: str
    section: str
    section_title: str
    text: str
    snippet: str
    snippet_html: str
    version: str
    score: float
    layer: str = ""  # "comunità", "traduzione" (the project's translation) or "ufficiale" (English)
    # The analytic index's entry for this rule that matches the query best ("danno: si rimuove a fine
    # turno"): why a rule whose text words it otherwise was found.
    index_entry: str = ""
    index_entry_html: str = ""
    index_entry_lang: str = ""  # "it" or "en": which analytic index it comes from
    label: str = ""  # «Traduzione del progetto · 19 giugno 2026»: the text's label, as on every page
    index_entry_units: int = 0  # how many of the query's units the index entry holds

    @property
    def url(self) -> str:
        return f"/regole/{self.number}"

    def as_json(self) -> dict:
        return {
            "number": self.number,
            "lang": self.lang,
            "section": self.section,
            "section_title": self.section_title,
            "snippet": self.snippet,
            "snippet_html": self.snippet_html,
            "version": self.version,
            "layer": self.layer,
            "label": self.label,
            "url": self.url,
            "score": round(self.score, 4),
            "indice": self.index_entry or None,
        }


@dataclass
class SearchResult:
    query: str  # what was searched (cleaned)
    lang: str = "tutte"
    rule: str | None = None  # the rule named by the query, when it is only a reference
    hits: list[Hit] = field(default_factory=list)  # this page
    total: int = 0  # rules matched
    page: int = 1
    per_page: int = 10
    suggestion: str | None = None  # "did you mean"
    corrections: dict[str, list[str]] = field(default_factory=dict)
    nearest: list[str] = field(default_factory=list)  # existing rules near a missing number
    notes: list[str] = field(default_factory=list)  # messages for the user (Italian)
    jargon: list[Jargon] = field(default_factory=list)  # what the jargon in the query means ("fizzle")
    answer: QuickAnswer | None = None  # what answers the question: its frame's rule or an index entry (answers.py)
    ambiguous: list[Ambiguous] = field(default_factory=list)  # words with two meanings («livello»)
    cards: list = field(default_factory=list)  # the cards the query names (judge.cards.lookup.Match)

    @property
    def pages(self) -> int:
        return max(1, math.ceil(self.total / self.per_page)) if self.per_page else 1

    def as_json(self) -> dict:
        return {
            "query": self.query,
            "total": self.total,
            "results": [h.as_json() for h in self.hits],
            "lingua": self.lang,
            "pagina": self.page,
            "pagine": self.pages,
            "regola": self.rule,
            "forse_cercavi": self.suggestion,
            "correzioni": self.corrections,
            "vicine": self.nearest,
            "note": self.notes,
            "gergo": [j.as_json() for j in self.jargon],
            "risposta": self.answer.as_json() if self.answer else None,
            "significati": [a.as_json() for a in self.ambiguous],
        }
