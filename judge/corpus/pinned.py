"""Citations read in the edition a text was written under, resolved to the edition in force.

"726.1" in a ruling written under the edition of 14 November 2025 is Restarting the Game,
today 727.1: the linker links it there and says so, instead of linking today's 726.1.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.corpus.lineage import ABSENT, GONE, Whereabouts
from judge.corpus.model import Corpus, italian_date
from judge.corpus.rules_en import Edition
from judge.corpus.trace import UNCHANGED


@dataclass(frozen=True)
class Resolved:
    """A cited number: ``now`` is the number in force to link (None: nothing to link);
    ``status`` one of the trace kinds by meaning, "rimossa" or "inesistente"; ``notice`` an
    Italian sentence when the reader should know something (None otherwise)."""

    number: str
    now: str | None
    exists: bool
    status: str
    notice: str | None = None
    edition: str | None = None  # the edition it was read in, when not the one in force

    def to_dict(self) -> dict:
        return {"number": self.number, "exists": self.exists, "now": self.now, "status": self.status,
                "notice": self.notice}


def whereabouts_notice(w: Whereabouts) -> str:
    """One Italian sentence on where a number read in an older edition is today."""
    when = f"nell'edizione del {italian_date(w.edition.date)}"
    if not w.exists:
        return f"{w.cited} non esiste {when}."
    if w.now is None:
        gone = f" (rimossa nell'edizione del {italian_date(w.removed_in.date)})" if w.removed_in else ""
        return f"{w.cited} {when} non esiste più nell'edizione in vigore{gone}."
    changed = ", con il testo modificato" if w.text_changed else ""
    if w.now != w.cited:
        return f"{w.cited} {when} è oggi {w.now}{changed}."
    if w.text_changed:
        return f"{w.cited} {when} ha lo stesso numero oggi, ma il testo è stato modificato."
    return f"{w.cited} {when} è invariata oggi."


def resolve(number: str, corpus: Corpus, edition: Edition | None = None) -> Resolved:
    """``number`` read in ``edition`` (default: the edition in force)."""
    if edition is None or edition is corpus.in_force:
        exists = number in corpus
        return Resolved(number, number if exists else None, exists, UNCHANGED if exists else ABSENT,
                        None if exists else f"{number} non esiste nell'edizione in vigore.")
    w = corpus.lineage.follow(number, edition)
    now = w.now if w.now in corpus else None
    status = w.status if (now is not None or w.status in (GONE, ABSENT)) else GONE
    notice = None if status == UNCHANGED else whereabouts_notice(w)
    return Resolved(number, now, w.exists, status, notice, edition.id)


def known(corpus: Corpus):
    """The linker's test for a citation without a proper keyword: the number names a rule,
    section or chapter of some edition (in force or older)."""
    older = corpus.editions[:-1]

    def test(number: str) -> bool:
        return number in corpus or any(corpus.lineage.exists(e, number) for e in older)

    return test


def homonym_notice(number: str, corpus: Corpus) -> str | None:
    """For a number read in the edition in force: a notice when an older edition gave it to
    another rule (726.1 was Restarting the Game before 20260417), so that a text written then is
    not read as today's rule without a word."""
    for edition in reversed(corpus.editions[:-1]):
        w = corpus.lineage.follow(number, edition)
        if w.exists and w.now != number:
            then = f"oggi {w.now}" if w.now else "poi rimossa"
            after = italian_date(corpus.editions[corpus.editions.index(edition) + 1].date)
            return (f"{number} nell'edizione del {italian_date(edition.date)} indicava un'altra regola ({then}): "
                    f"se il testo è stato scritto prima del {after}, indica quell'edizione.")
    return None
