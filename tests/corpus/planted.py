"""A planted renumbering shared by the adoption and watch tests: a fake edition after the one in
force that inserts a new 704.5z, so the Role rule becomes 704.5aa and speed 704.5ab."""

from __future__ import annotations

import shutil
from pathlib import Path

from judge import ROOT
from judge.corpus.rules_en import edition_paths

FAKE = "20270101"
NEW_RULE = "704.5z If a permanent has a planted designation and no counters, it's put into its owner's graveyard."
COPIED = ("judge", "scenarios", "rules_it", "rules_en", "docs", "templates", "static", "tests/search", "tests/engine")


def project(tmp: Path) -> Path:
    root = tmp / "progetto"
    for part in COPIED:
        shutil.copytree(ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__", "in-arrivo"))
    shutil.copy(ROOT / "README.md", root / "README.md")
    return root


def plant(rules_en: Path, into: Path | None = None) -> None:
    """The edition in force with a new 704.5z: 704.5z → 704.5aa, 704.5aa → 704.5ab."""
    in_force = edition_paths(rules_en)[-1]
    lines = in_force.read_text(encoding="utf-8-sig").split("\n")
    out = []
    for line in lines:
        if line.startswith("These rules are effective as of"):
            line = "These rules are effective as of January 1, 2027."
        if line.startswith("704.5aa "):
            line = "704.5ab " + line[len("704.5aa "):]
        elif line.startswith("704.5z "):
            out += [NEW_RULE, ""]
            line = "704.5aa " + line[len("704.5z "):]
        out.append(line)
    ((into or rules_en) / f"MagicCompRules-{FAKE}.txt").write_text("\n".join(out), encoding="utf-8")
