"""Data for the pages and API about editions: changes between two editions (/modifiche), a
rule's history across numbers (/regole/<n>/storia), a rule read in an older edition
(/regole/<n>?edizione=AAAAMMGG). Routes live in rules.py and api.py; this module
turns requests into data and errors."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from flask import request

from judge.corpus import Corpus
from judge.corpus.model import italian_date
from judge.corpus.diff import (GlossaryChange, HeadingChange, RuleChange, count_changes, diff_editions,
                               glossary_changes, heading_changes, word_diff)
from judge.corpus.rules_en import Edition
from judge.lru import ByteLRU, text_size
from judge.web.errors import error_response

MAX_NUMBER_INPUT = 60  # longest rule number input echoed back in a message

KIND_LABELS = {
    "aggiunta": "Aggiunta",
    "rimossa": "Rimossa",
    "modificata": "Modificata",
    "spostata": "Spostata",
    "spostata e modificata": "Spostata e modificata",
}


@dataclass
class Changes:
    """What /modifiche/<old>..<new> shows."""

    old: Edition
    new: Edition
    section: str | None
    rules: list[RuleChange]
    headings: list[HeadingChange] = field(default_factory=list)
    glossary: list[GlossaryChange] = field(default_factory=list)  # only for the whole edition

    @property
    def counts(self) -> dict[str, int]:
        return count_changes(self.rules)

    @property
    def renumbering_only(self) -> int:
        return sum(1 for c in self.rules if c.renumbering_only)


def edition_choices(corpus: Corpus) -> str:
    return ", ".join(e.id for e in corpus.editions)


def parse_interval(corpus: Corpus, intervallo: str):
    """(old, new) editions from "20251114..20260619", or an error response."""
    m = re.fullmatch(r"(\d{8})\.\.(\d{8})", intervallo or "")
    available = [e.id for e in corpus.editions]
    if not m:
        return None, error_response(
            400,
            "Intervallo non valido: usa <vecchia>..<nuova> con le date delle edizioni (AAAAMMGG), "
            f"per esempio {available[0]}..{available[-1]}.",
            editions=available,
        )
    old, new = corpus.edition(m[1]), corpus.edition(m[2])
    missing = [x for x, e in ((m[1], old), (m[2], new)) if e is None]
    if missing:
        return None, error_response(
            404, f"Edizione sconosciuta: {', '.join(missing)}. Edizioni disponibili: {', '.join(available)}.",
            editions=available,
        )
    if old.id == new.id:
        return None, error_response(400, "Le due edizioni sono la stessa: scegline due diverse.", editions=available)
    return (old, new), None


def read_edition(corpus: Corpus, value: str | None) -> tuple[Edition | None, int, str | None]:
    """(edition, status, message) for ``edizione=AAAAMMGG``: the edition (None when absent or
    empty), or the error status and its Italian message."""
    v = (value or "").strip()
    if not v:
        return None, 200, None
    dated = re.fullmatch(r"\d{8}", v) is not None
    found = corpus.edition(v) if dated else None
    if found is not None:
        return found, 200, None
    return None, 404 if dated else 400, (
        f"Edizione «{v[:20]}» sconosciuta: indica la data di un'edizione del Regolamento (AAAAMMGG). "
        f"Edizioni disponibili: {edition_choices(corpus)}."
    )


def parse_edition(corpus: Corpus, value: str | None):
    """The edition named by ``?edizione=AAAAMMGG`` (None when absent or empty), or an error response."""
    found, status, message = read_edition(corpus, value)
    if message:
        return None, error_response(status, message, editions=[e.id for e in corpus.editions])
    return found, None


def parse_section_filter(corpus: Corpus, value: str | None):
    """A chapter ("7") or section ("704") filter, None for all, or an error response."""
    v = value or ""
    if not v:
        return None, None
    if re.fullmatch(r"[1-9]|[1-9]\d{2}", v):
        known = {str(c) for e in corpus.editions for c in e.chapters} | {str(s) for e in corpus.editions for s in e.sections}
        if v in known:
            return v, None
        return None, error_response(
            404, f"Il capitolo o la sezione «{v}» non esiste in nessuna edizione del Regolamento."
        )
    shown = v[:MAX_NUMBER_INPUT]
    return None, error_response(
        400, f"Filtro «{shown}» non valido: indica un capitolo (es. 7) o una sezione (es. 704) del Regolamento."
    )


def _size(found: tuple) -> int:
    rules, headings, glossary = found
    return (sum(400 + text_size(c.old, c.new) + 120 * len(c.words) for c in rules) + 400 * len(headings)
            + sum(300 + text_size(g.old, g.new) + 120 * len(g.words) for g in glossary))


# The changes between two editions, per section filter: up to 4 MB of them kept.
_kept: ByteLRU[tuple] = ByteLRU(4 * 1024 * 1024, _size)


def changes(corpus: Corpus, old: Edition, new: Edition, section: str | None) -> Changes:
    key = (corpus.content_hash, old.id, new.id, section)
    found = _kept.get(key)
    if found is None:
        trace = corpus.lineage.trace(old, new)
        found = _kept.put(key, (tuple(diff_editions(old, new, section, trace)),
                                tuple(heading_changes(old, new, section, trace)),
                                tuple(glossary_changes(old, new, trace)) if section is None else ()))
    rules, headings, glossary = found
    return Changes(old, new, section, list(rules), list(headings), list(glossary))


def changes_request(corpus: Corpus, intervallo: str):
    """(error response, Changes) for "/modifiche/<a>..<b>?sezione=…"."""
    pair, err = parse_interval(corpus, intervallo)
    if err:
        return err, None
    section, err = parse_section_filter(corpus, request.args.get("sezione"))
    if err:
        return err, None
    return None, changes(corpus, *pair, section)


def changes_payload(found: Changes) -> dict:
    """The /api/modifiche document (without the URLs, which need a request)."""
    return {
        "section": found.section,
        "counts": found.counts,
        "renumbering_only": found.renumbering_only,
        "changes": [c.to_dict() for c in found.rules],
        "headings": [h.to_dict() for h in found.headings],
        "glossary": [g.to_dict() for g in found.glossary],
    }


# -- a rule across editions ---------------------------------------------------------------


@dataclass
class HistoryEntry:
    """One edition in a rule's history, ready for the page."""

    edition: Edition
    number: str | None
    text: str | None
    kind: str | None  # how it came from the edition before (None for the first edition)
    renumbering_only: bool
    words: list[tuple[str, str]] | None
    homonym: bool  # the rule's current number meant another rule in this edition...
    homonym_now: str | None  # ...now numbered so (None: removed)


def history(corpus: Corpus, number: str) -> list[HistoryEntry]:
    """The rule ``number`` of the edition in force through every edition, oldest first."""
    out: list[HistoryEntry] = []
    previous: str | None = None
    for i, v in enumerate(corpus.lineage.history(number)):
        kind = v.step.kind if v.step else ("aggiunta" if i and v.number else None)
        words = word_diff(previous, v.text) if previous is not None and v.text is not None and v.text != previous else None
        out.append(HistoryEntry(v.edition, v.number, v.text, kind, bool(v.step and v.step.renumbering_only), words,
                                v.homonym, v.homonym_now))
        previous = v.text
    return out


@dataclass(frozen=True)
class LastChange:
    """When a rule in force last changed: its most recent addition, change of text (beyond
    following the renumbering) or move, or none in the editions present."""

    kind: str  # "aggiunta", "modificata", "spostata", "spostata e modificata", "invariata"
    edition: Edition  # the edition it happened in (for "invariata": the oldest present)
    old_number: str | None = None  # for a move: its number before

    def sentence(self) -> str:
        when = f"nell'edizione del {italian_date(self.edition.date)}"
        if self.kind == "aggiunta":
            return f"Aggiunta {when}."
        if self.kind == "invariata":
            return f"Invariata in tutte le edizioni presenti, dal {italian_date(self.edition.date)}."
        moved = f" (era {self.old_number})" if self.old_number else ""
        return {"modificata": f"Modificata {when}.", "spostata": f"Spostata{moved} {when}, con lo stesso testo.",
                "spostata e modificata": f"Spostata{moved} e modificata {when}."}[self.kind]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "edition": self.edition.id, "old_number": self.old_number,
                "text": self.sentence()}


def last_change(corpus: Corpus, number: str) -> LastChange | None:
    """The latest edition in which ``number`` (a rule, section or chapter in force) was added,
    changed in meaning or moved; a change that only follows the renumbering does not count."""
    entries = history(corpus, number)
    if not entries or entries[-1].number is None:
        return None
    for previous, e in zip(reversed(entries[:-1]), reversed(entries[1:])):
        if e.kind == "aggiunta" or previous.number is None:
            return LastChange("aggiunta", e.edition)
        moved = previous.number != e.number
        changed = e.kind in ("modificata", "spostata e modificata") and not e.renumbering_only
        if moved or changed:
            kind = ("spostata e modificata" if changed else "spostata") if moved else "modificata"
            return LastChange(kind, e.edition, previous.number if moved else None)
    first = next(e for e in entries if e.number is not None)
    if first is entries[0]:
        return LastChange("invariata", first.edition)
    return LastChange("aggiunta", first.edition)


def old_text(edition: Edition, number: str) -> tuple[str, list[str]] | None:
    """(text, examples) of a rule, section or chapter in ``edition``."""
    if "." in number:
        r = edition.rule(number)
        return (r.text, list(r.examples)) if r else None
    table = edition.chapters if len(number) == 1 else edition.sections
    title = table.get(int(number)) if number.isdigit() else None
    return (title, []) if title is not None else None


def earlier_numbers(corpus: Corpus, number: str) -> list[HistoryEntry]:
    """The editions in which the rule ``number`` had another number, or the number meant another
    rule: what a rule page says so that an old citation is never read as today's rule."""
    if len(corpus.editions) < 2:
        return []
    return [e for e in history(corpus, number)[:-1] if e.number != number or e.homonym]


@dataclass(frozen=True)
class NumberingSummary:
    """The numbering history of a rule page in one sentence: the most recent run of editions in
    which the rule had another number, or its number meant another rule (``earlier_numbers``), and
    whether older editions differ again (the rule's history tells the rest)."""

    first: Edition  # the run's oldest edition
    last: Edition  # ... and its most recent
    entry: HistoryEntry  # what the run's editions say (the same in all of them)
    older: bool  # editions before the run with another numbering still

    @property
    def period(self) -> str:
        if self.first is self.last:
            return f"Nell'edizione del {italian_date(self.last.date)}"
        return f"Dal {italian_date(self.first.date)} al {italian_date(self.last.date)}"


def numbering_summary(entries: list[HistoryEntry]) -> NumberingSummary | None:
    """One sentence for ``earlier_numbers``' entries (oldest first), or None when there are none."""
    if not entries:
        return None
    last = entries[-1]
    key = (last.number, last.homonym, last.homonym_now)
    run = [last]
    for e in reversed(entries[:-1]):
        if (e.number, e.homonym, e.homonym_now) != key:
            break
        run.insert(0, e)
    return NumberingSummary(run[0].edition, last.edition, last, older=len(run) < len(entries))
