"""Checks of the tournament documents' translation against the English it translates.

Each translated unit goes through the rules' translation checks (judge/corpus/translation_checks.py:
``check_unit``, with its fidelity heuristics and the word diff of changed English), with the
terminology of the rules and of the tournaments together. What is particular here:

- a unit not translated yet is not an error: one warning per file counts them
  (``traduzione-mancante``), as the translation is done section by section;
- a paragraph whose English moved to another number of its section (a paragraph added before it)
  is ``traduzione-spostata`` with the number it has now, not a stale translation;
- a list of names (sets, cards) may stay as the English has it;
- an interjection ("Oh no, we're going to draw", IPG 4.3) is not a negation the Italian must keep.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field

from judge.corpus.findings import ERROR, WARNING, Finding
from judge.corpus.terminology import Terminology
from judge.corpus.translation import english_hash
from judge.corpus.translation_checks import Unit, check_unit, untranslated_sentences
from judge.tournament.loading import TournamentDocs
from judge.tournament.model import DOCUMENTS, HEADING, DocEdition
from judge.tournament.translation import TITLE_ID, SectionTranslation
from judge.tournament.translation import Unit as TranslatedUnit


@dataclass
class TournamentReport:
    findings: list[Finding] = field(default_factory=list)
    done: Counter = field(default_factory=Counter)  # doc -> units translated, current and faithful
    total: Counter = field(default_factory=Counter)  # doc -> units of the edition in force
    missing_sections: dict[str, list[str]] = field(default_factory=dict)  # doc -> sections without any Italian

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == ERROR]

    def count(self, code: str) -> int:
        return sum(1 for f in self.findings if f.code == code)

    def summary(self) -> str:
        parts = [f"{DOCUMENTS[d].short} {self.done[d]}/{self.total[d]}" for d in DOCUMENTS if self.total[d]]
        return (f"Traduzione dei documenti dei tornei (unità tradotte e aggiornate): {', '.join(parts)}; "
                f"{self.count('traduzione-da-aggiornare')} da aggiornare, {self.count('traduzione-spostata')} spostate, "
                f"{sum(len(v) for v in self.missing_sections.values())} sezioni ancora senza italiano")


def _english(edition: DocEdition, section: str, number: int) -> str | None:
    s = edition.section(section)
    if s is None:
        return None
    if number == TITLE_ID:
        return s.title
    p = s.paragraph(number)
    return p.text if p else None


def _is_heading(edition: DocEdition, section: str, number: int) -> bool:
    s = edition.section(section)
    p = s.paragraph(number) if s and number != TITLE_ID else None
    return number == TITLE_ID or bool(p and p.kind == HEADING)


def _moved(u: TranslatedUnit, edition: DocEdition, section: str) -> int | None:
    """The number the English this unit translates has now in its section, if it moved."""
    s = edition.section(section)
    if s is None or u.stamp is None or u.number == TITLE_ID:
        return None
    if _english(edition, section, u.number) is not None and english_hash(_english(edition, section, u.number)) == u.stamp.hash:
        return None
    return next((p.number for p in s.paragraphs if english_hash(p.text) == u.stamp.hash and p.number != u.number), None)


# "Oh no," / "Ah no!": an exclamation, not a negation; a following word ("Oh, no cards…") keeps it one.
_INTERJECTION = re.compile(r"\b(oh|ah),?\s+no\b(?=\s*[,.!?…])", re.IGNORECASE)


def _compared(parts: list[str]) -> str:
    """The English the fidelity checks read: the unit's text, its interjections reduced to "Oh"."""
    return _INTERJECTION.sub(lambda m: m.group(1), "\n".join(parts))


# Checks that judge the translation of words, moot for a unit that is a name copied as written.
VERBATIM_NAME_EXEMPT = frozenset({"traduzione-terminologia", "traduzione-modale"})


def check_file(st: SectionTranslation, docs: TournamentDocs, terms: Terminology) -> tuple[list[Finding], int]:
    """The findings of one file and how many of its units are translated, current and faithful."""
    editions = docs.editions.get(st.doc) or []
    file = f"{st.doc}/{st.path.name}"
    short = DOCUMENTS[st.doc].short
    where = f"{short} {st.section}"
    if not editions:
        return [Finding(ERROR, "traduzione-orfana", file, 0, where, f"nessuna edizione inglese di {short}")], 0
    in_force = editions[-1]
    section = in_force.section(st.section)
    if section is None:
        return [Finding(WARNING, "traduzione-orfana", file, 0, where,
                        f"la sezione {st.section} non esiste nell'edizione in vigore di {short} ({in_force.id})")], 0
    findings: list[Finding] = []
    good = 0
    for u in st.units:
        if not u.italian:
            continue
        if (now := _moved(u, in_force, st.section)) is not None:
            findings.append(Finding(WARNING, "traduzione-spostata", file, u.line, where,
                                    f"{where} {u.label}: traduce l'inglese che oggi è ¶{now}: va spostata a ¶{now}", (str(now),)))
            continue
        unit = Unit(f"{where} {u.label}", None, u.line, u.stamp, u.italian,
                    lambda e, n=u.number: [t] if (t := _english(e, st.section, n)) is not None else None,
                    compared=_compared, is_title=_is_heading(in_force, st.section, u.number))
        found, ok = check_unit(unit, file, editions, terms)
        if u.italian.strip() == u.english.strip() and not untranslated_sentences(u.italian):
            # Names (a set, a card, "Magic Online") stay as the English writes them: a card called
            # "Flash" or "This Town Ain't Big Enough" is neither a term to translate nor a negation.
            found = [f for f in found if not (f.code == "traduzione-inglese" and "identico" in f.message)
                     and f.code not in VERBATIM_NAME_EXEMPT]
            current = bool(u.stamp) and u.stamp.hash == english_hash(_english(in_force, st.section, u.number) or "")
            ok = current and not any(f.level == ERROR for f in found)
        findings += [dataclasses.replace(f, rule=where) for f in found]
        good += ok
    numbers = {u.number for u in st.units if u.italian}
    wanted = [TITLE_ID, *(p.number for p in section.paragraphs)]
    missing = [n for n in wanted if n not in numbers]
    if missing and len(missing) < len(wanted):
        labels = ", ".join("titolo" if n == TITLE_ID else f"¶{n}" for n in missing[:12])
        more = f" e altri {len(missing) - 12}" if len(missing) > 12 else ""
        findings.append(Finding(WARNING, "traduzione-mancante", file, 0, where,
                                f"{where}: {len(missing)} unità su {len(wanted)} senza traduzione ({labels}{more})"))
    return findings, good


def check_translations(files: list[SectionTranslation], docs: TournamentDocs, terms: Terminology) -> TournamentReport:
    report = TournamentReport()
    by_doc: dict[str, set[str]] = {}
    for st in files:
        found, good = check_file(st, docs, terms)
        report.findings += found
        report.done[st.doc] += good
        if any(u.italian for u in st.units):
            by_doc.setdefault(st.doc, set()).add(st.section)
    for doc in DOCUMENTS:
        edition = docs.in_force(doc)
        if edition is None:
            continue
        report.total[doc] = sum(1 + len(s.paragraphs) for s in edition.sections)
        untouched = [s.number for s in edition.sections if s.number not in by_doc.get(doc, set())]
        report.missing_sections[doc] = untouched
        if untouched:
            short = DOCUMENTS[doc].short
            report.findings.append(Finding(
                WARNING, "traduzione-mancante", f"{doc}/", 0, short,
                f"{short}: {len(untouched)} sezioni su {len(edition.sections)} ancora senza italiano "
                f"({', '.join(untouched[:10])}{'…' if len(untouched) > 10 else ''})"))
    return report
