"""Differences between two English editions, as the rule trace sees them: rules added,
removed, modified, moved (same text under a new number) and moved and modified, with a
word-level diff of changed text and a flag for changes that only follow renumbering
("See rule 726" -> "See rule 727"); section and chapter titles added, removed, moved or
renamed."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from judge.corpus.rules_en import Edition
from judge.corpus.trace import KINDS, Step, Trace, full_text, only_renumbering

_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass
class RuleChange:
    """One rule's change. ``number`` is its number in the new edition (the old one when removed);
    ``old_number`` its number in the old edition (None when added)."""

    number: str
    kind: str  # "aggiunta", "rimossa", "modificata", "spostata", "spostata e modificata"
    old: str | None
    new: str | None
    words: list[tuple[str, str]] = field(default_factory=list)  # (op, text): op in "=", "+", "-"
    old_number: str | None = None
    renumbering_only: bool = False  # the text differs only in citations that follow the renumbering

    @property
    def moved(self) -> bool:
        return self.old_number is not None and self.kind != "rimossa" and self.old_number != self.number

    def to_dict(self) -> dict:
        return {"number": self.number, "kind": self.kind, "old_number": self.old_number,
                "renumbering_only": self.renumbering_only, "old": self.old, "new": self.new,
                "words": [{"op": op, "text": t} for op, t in self.words]}


@dataclass
class HeadingChange:
    """A section or chapter whose title or number changed (``level``: "sezione" or "capitolo")."""

    number: str
    kind: str
    level: str
    old_number: str | None
    old_title: str | None
    new_title: str | None

    def to_dict(self) -> dict:
        return {"number": self.number, "kind": self.kind, "level": self.level, "old_number": self.old_number,
                "old_title": self.old_title, "new_title": self.new_title}


@dataclass
class GlossaryChange:
    """A glossary entry added, removed, renamed (same definition, new term) or modified."""

    term: str  # the term in the new edition (the old one when removed)
    kind: str  # "aggiunta", "rimossa", "rinominata", "modificata"
    old_term: str | None
    old: str | None
    new: str | None
    words: list[tuple[str, str]] = field(default_factory=list)
    renumbering_only: bool = False

    def to_dict(self) -> dict:
        return {"term": self.term, "kind": self.kind, "old_term": self.old_term, "old": self.old, "new": self.new,
                "renumbering_only": self.renumbering_only, "words": [{"op": op, "text": t} for op, t in self.words]}


def glossary_changes(old: Edition, new: Edition, trace: Trace | None = None) -> list[GlossaryChange]:
    """The glossary from ``old`` to ``new``, in the new glossary's order; a definition that only
    follows the renumbering is flagged (the rule trace says where each cited rule went)."""
    trace = trace or Trace(old, new)
    gone = [t for t in old.glossary if t not in new.glossary]
    out: list[GlossaryChange] = []
    for term, text in new.glossary.items():
        before = old.glossary.get(term)
        if before is None:
            renamed = next((g for g in gone if old.glossary[g] == text), None)
            if renamed is not None:
                gone.remove(renamed)
                out.append(GlossaryChange(term, "rinominata", renamed, text, text))
            else:
                out.append(GlossaryChange(term, "aggiunta", None, None, text))
        elif before != text:
            out.append(GlossaryChange(term, "modificata", term, before, text, word_diff(before, text),
                                      only_renumbering(before, text, trace.where)))
    out += [GlossaryChange(t, "rimossa", t, old.glossary[t], None) for t in gone]
    return out


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    out: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(("=", "".join(a[i1:i2])))
        else:
            if i2 > i1:
                out.append(("-", "".join(a[i1:i2])))
            if j2 > j1:
                out.append(("+", "".join(b[j1:j2])))
    return out


def in_part(number: str | None, part: str | None) -> bool:
    """Whether a rule or section number lies in ``part``: a section ("704") or a chapter ("7")."""
    if part is None:
        return True
    if number is None:
        return False
    head = number.split(".")[0]
    if len(part) == 1:
        return head[:1] == part and (len(head) == 3 or head == part)
    return head == part


def _rule_change(step: Step, old: Edition, new: Edition) -> RuleChange:
    a = full_text(old.rule(step.old)) if step.old else None
    b = full_text(new.rule(step.new)) if step.new else None
    words = word_diff(a, b) if a is not None and b is not None and a != b else []
    return RuleChange(step.number, step.kind, a, b, words, step.old, step.renumbering_only)


def diff_editions(old: Edition, new: Edition, section: str | None = None, trace: Trace | None = None) -> list[RuleChange]:
    """Rule changes from ``old`` to ``new``, in the new edition's order; ``section`` keeps one
    section ("704") or chapter ("7"), on either side of a move."""
    trace = trace or Trace(old, new)
    return [_rule_change(s, old, new) for s in trace.changes if in_part(s.new, section) or in_part(s.old, section)]


def heading_changes(old: Edition, new: Edition, section: str | None = None, trace: Trace | None = None) -> list[HeadingChange]:
    """Sections and chapters added, removed, moved or retitled from ``old`` to ``new``."""
    trace = trace or Trace(old, new)
    out = []
    for s in trace.heading_changes:
        if not (in_part(s.new, section) or in_part(s.old, section)):
            continue
        titles_old = old.chapters if s.level == "capitolo" else old.sections
        titles_new = new.chapters if s.level == "capitolo" else new.sections
        out.append(HeadingChange(
            s.number, s.kind, s.level, s.old,
            titles_old.get(int(s.old)) if s.old else None, titles_new.get(int(s.new)) if s.new else None,
        ))
    return out


def count_changes(changes: list[RuleChange]) -> dict[str, int]:
    """How many changes of each kind (every kind, zero included)."""
    return {k: sum(1 for c in changes if c.kind == k) for k in KINDS}


def count_renumbering_only(changes: list[RuleChange]) -> int:
    return sum(1 for c in changes if c.renumbering_only)
