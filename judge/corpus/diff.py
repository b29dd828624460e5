"""Differences between two English editions: added, removed and changed rules,
with a word-level diff of changed text."""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from judge.corpus.numbers import sort_key
from judge.corpus.rules_en import Edition

_TOKEN = re.compile(r"\s+|[^\s]+")


@dataclass
class RuleChange:
    number: str
    kind: str  # "aggiunta", "rimossa", "modificata"
    old: str | None
    new: str | None
    words: list[tuple[str, str]] = field(default_factory=list)  # (op, text): op in "=", "+", "-"

    def to_dict(self) -> dict:
        return {"number": self.number, "kind": self.kind, "old": self.old, "new": self.new,
                "words": [{"op": op, "text": t} for op, t in self.words]}


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


def _full(rule) -> str:
    return "\n".join([rule.text, *rule.examples])


def diff_editions(old: Edition, new: Edition, section: str | None = None) -> list[RuleChange]:
    """Changes from ``old`` to ``new``, in rule order; ``section`` keeps one section ("704") or chapter ("7")."""
    def keep(n: str) -> bool:
        if section is None:
            return True
        head = n.split(".")[0]
        return head == section or (len(section) == 1 and head.startswith(section) and len(head) == 3)

    a = {r.number: _full(r) for r in old.rules if keep(r.number)}
    b = {r.number: _full(r) for r in new.rules if keep(r.number)}
    changes: list[RuleChange] = []
    for n in sorted(set(a) | set(b), key=sort_key):
        if n not in a:
            changes.append(RuleChange(n, "aggiunta", None, b[n]))
        elif n not in b:
            changes.append(RuleChange(n, "rimossa", a[n], None))
        elif a[n] != b[n]:
            changes.append(RuleChange(n, "modificata", a[n], b[n], word_diff(a[n], b[n])))
    return changes
