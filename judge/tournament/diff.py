"""What changed between two editions of a tournament document (MTR 20251110 → 20260227):
sections added, removed, retitled, and within each section the paragraphs added, removed and
changed (with the word diff of the rules' editions, judge/corpus/diff.py)."""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field

from judge.corpus.diff import word_diff
from judge.tournament.model import DocEdition
from judge.tournament.numbers import section_key
from judge.tournament.structure import words

# Paragraphs this similar (difflib ratio) are the same paragraph changed, not one removed and one added.
SAME_PARAGRAPH = 0.5


@dataclass
class ParagraphChange:
    kind: str  # "aggiunto", "rimosso", "modificato"
    old_number: int | None
    new_number: int | None
    old: str | None
    new: str | None
    words: list[tuple[str, str]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "old_number": self.old_number, "new_number": self.new_number,
                "old": self.old, "new": self.new, "words": [{"op": op, "text": t} for op, t in self.words]}


@dataclass
class SectionChange:
    number: str
    kind: str  # "aggiunta", "rimossa", "modificata"
    old_title: str | None
    new_title: str | None
    paragraphs: list[ParagraphChange] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"section": self.number, "kind": self.kind, "old_title": self.old_title, "new_title": self.new_title,
                "paragraphs": [p.to_dict() for p in self.paragraphs]}


def _paragraph_changes(old: list[str], new: list[str]) -> list[ParagraphChange]:
    out: list[ParagraphChange] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        a, b = list(range(i1, i2)), list(range(j1, j2))
        # Pair each removed paragraph with the most similar added one, in order.
        while a and b:
            i, j = a[0], b[0]
            if difflib.SequenceMatcher(None, old[i], new[j], autojunk=False).ratio() >= SAME_PARAGRAPH:
                out.append(ParagraphChange("modificato", i + 1, j + 1, old[i], new[j], word_diff(old[i], new[j])))
                a.pop(0)
                b.pop(0)
            elif len(a) >= len(b):
                out.append(ParagraphChange("rimosso", i + 1, None, old[i], None))
                a.pop(0)
            else:
                out.append(ParagraphChange("aggiunto", None, j + 1, None, new[j]))
                b.pop(0)
        out += [ParagraphChange("rimosso", i + 1, None, old[i], None) for i in a]
        out += [ParagraphChange("aggiunto", None, j + 1, None, new[j]) for j in b]
    return out


def _same_words(a, b) -> bool:
    return Counter(w for p in a.paragraphs for w in words(p.text)) == Counter(w for p in b.paragraphs for w in words(p.text))


def diff_editions(old: DocEdition, new: DocEdition, section: str | None = None) -> list[SectionChange]:
    """The changes from ``old`` to ``new``, by section number, in document order."""
    numbers = sorted({s.number for s in old.sections} | {s.number for s in new.sections}, key=section_key)
    out: list[SectionChange] = []
    for n in numbers:
        if section is not None and n != section and not n.startswith(section + "."):
            continue
        a, b = old.section(n), new.section(n)
        if a is None:
            out.append(SectionChange(n, "aggiunta", None, b.title,
                                     [ParagraphChange("aggiunto", None, p.number, None, p.text) for p in b.paragraphs]))
        elif b is None:
            out.append(SectionChange(n, "rimossa", a.title, None,
                                     [ParagraphChange("rimosso", p.number, None, p.text, None) for p in a.paragraphs]))
        elif _same_words(a, b) and a.title == b.title and a.penalty == b.penalty:
            continue  # the same words laid out otherwise (a table read from another extraction)
        else:
            changes = _paragraph_changes([p.text for p in a.paragraphs], [p.text for p in b.paragraphs])
            if changes or a.title != b.title or a.penalty != b.penalty:
                out.append(SectionChange(n, "modificata", a.title, b.title, changes))
    return out


def counts(changes: list[SectionChange]) -> dict[str, int]:
    out = {"sezioni": len(changes), "aggiunti": 0, "rimossi": 0, "modificati": 0}
    for c in changes:
        for p in c.paragraphs:
            out[{"aggiunto": "aggiunti", "rimosso": "rimossi", "modificato": "modificati"}[p.kind]] += 1
    return out


def section_history(editions: list[DocEdition], number: str) -> list[tuple[DocEdition, SectionChange | None, bool]]:
    """For each edition (oldest first): the edition, what changed in the section since the one
    before (None: unchanged, or the first), and whether the section is there."""
    out = []
    previous = None
    for e in editions:
        change = None
        if previous is not None:
            found = diff_editions(previous, e, number)
            change = next((c for c in found if c.number == number), None)
        out.append((e, change, e.section(number) is not None))
        previous = e
    return out
