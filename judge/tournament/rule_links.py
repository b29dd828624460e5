"""The rules a tournament document's section cites or concerns (``judge/tournament/regole.tsv``):
the project's data, so that a rule page lists the sections about it, and a section's citation
of a rule renumbered since («rule 103.4» for the mulligan) links to the rule's number today."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError
from judge.tournament.tsv import rows

LINKS_FILE = Path(__file__).with_name("regole.tsv")
_COLUMNS = ("documento", "sezione", "stampato", "regola", "legame", "nota")
KINDS = ("cita", "riguarda")


@dataclass(frozen=True)
class RuleLink:
    doc: str
    section: str
    printed: str | None  # the number as the document prints it ("cita" only)
    rule: str  # its number in the edition in force
    kind: str  # "cita" or "riguarda"
    note: str


@lru_cache(maxsize=4)
def _read(path: Path, stamp: tuple) -> tuple[RuleLink, ...]:
    out = []
    for number, (doc, section, printed, rule, kind, note) in rows(path, _COLUMNS):
        if kind not in KINDS:
            raise SourceFormatError(path, number, f"legame «{kind}»: atteso «cita» o «riguarda»")
        out.append(RuleLink(doc, section, None if printed == "-" else printed, rule, kind, note))
    return tuple(out)


def rule_links(path: Path = LINKS_FILE) -> tuple[RuleLink, ...]:
    st = path.stat()
    return _read(path, (st.st_mtime_ns, st.st_size))


def for_section(doc: str, section: str) -> list[RuleLink]:
    return [r for r in rule_links() if r.doc == doc and r.section == section]


def for_rule(number: str) -> list[RuleLink]:
    """The links to ``number`` or to a rule or section containing it (IPG 2.1 concerns 603, so
    every rule of 603 lists it)."""
    return [r for r in rule_links() if number == r.rule or number.startswith(r.rule + ".")
            or (len(r.rule) == 3 and number.startswith(r.rule) and number[3:4] == ".")]


def corrected(doc: str, section: str, printed: str) -> RuleLink | None:
    """The link that says where a number the section prints is today, if the table has one."""
    return next((r for r in for_section(doc, section) if r.kind == "cita" and r.printed == printed), None)
