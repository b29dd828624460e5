"""The editions as users see them listed: date, what changed from the one before, verification.

One row per edition the project has a copy of, plus the editions the register knows of without
a copy (the edition of 7 August 2026), so that the history says where it has a gap.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from judge.corpus.edition_register import UNKNOWN, Verification
from judge.corpus.model import Corpus, italian_date
from judge.corpus.trace import KINDS

_PLURALS = {"aggiunta": "aggiunte", "rimossa": "rimosse", "modificata": "modificate", "spostata": "spostate",
            "spostata e modificata": "spostate e modificate"}


@dataclass
class EditionRow:
    id: str
    date: dt.date
    present: bool
    in_force: bool = False
    previous: str | None = None  # the edition present before it, compared with it
    counts: dict[str, int] = field(default_factory=dict)
    verification: Verification | None = None
    note: str = ""  # for an edition without a copy: what the register says

    @property
    def date_it(self) -> str:
        return italian_date(self.date)

    @property
    def summary(self) -> str:
        """"13 aggiunte, 6 modificate, …" (empty for the oldest edition)."""
        if not self.previous:
            return ""
        return ", ".join(f"{self.counts[k]} {_PLURALS[k]}" for k in KINDS if self.counts.get(k)) or "nessuna modifica"

    @property
    def verification_label(self) -> str:
        if not self.present:
            return "nessuna copia"
        if self.verification is None or self.verification.status == UNKNOWN:
            return "testo non verificato"
        return "testo verificato" if self.verification.verified else "testo non verificato"

    def to_dict(self) -> dict:
        return {"id": self.id, "date": self.date.isoformat(), "present": self.present, "in_force": self.in_force,
                "previous": self.previous, "counts": self.counts,
                "verification": self.verification.to_dict() if self.verification else None, "note": self.note or None}


def _date(ident: str) -> dt.date:
    return dt.date(int(ident[:4]), int(ident[4:6]), int(ident[6:]))


def edition_rows(corpus: Corpus) -> list[EditionRow]:
    """Every edition, oldest first."""
    rows: list[EditionRow] = []
    previous = None
    for e in corpus.editions:
        row = EditionRow(e.id, e.date, True, e is corpus.in_force, previous.id if previous else None,
                         verification=corpus.verification.get(e.id))
        if previous is not None:
            changes = corpus.lineage.trace(previous, e).changes
            row.counts = {k: sum(1 for s in changes if s.kind == k) for k in KINDS}
        rows.append(row)
        previous = e
    present = {e.id for e in corpus.editions}
    for known in corpus.register.values():
        if known.id not in present:
            rows.append(EditionRow(known.id, known.effective or _date(known.id), False, note=known.source))
    return sorted(rows, key=lambda r: r.id)
