"""The project's translation follows a new edition where only numbers changed.

When an edition renumbers rules, a translated rule whose English text only moved
(20260925: 310.8 → 310.9) goes to its new number, in its new section's file if the section changed; a
translation whose English changed only in the numbers it cites
(20260925: "See rule 506.7" → "See rule 506.8") gets the same citations renumbered. Both are stamped again with the edition in force,
because the English they translate is, by meaning, the same. A translation whose English really
changed is moved too but keeps its old marker: the checks then show it as to update, with the
English diff, for a person to rewrite (docs/traduzione.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.lineage import Lineage
from judge.corpus.numbers import RuleNumber, sort_key
from judge.corpus.rules_en import Edition
from judge.corpus.translation import (
    Stamp,
    TranslatedRule,
    TranslatedTitle,
    TranslationFile,
    english_hash,
    number_with_fingerprint,
    render,
)

# Numbers an Italian text cites: sections ("726") and rules ("726.1", "701.50a").
_CITED = re.compile(r"(?<![\w.])[1-9]\d{2}(?:\.[1-9]\d{0,2}[a-z]{0,2})?(?![\w])(?!\.\d)")


@dataclass
class MovesReport:
    moved: list[tuple[str, str]] = field(default_factory=list)  # (old, new): English only moved
    moved_to_update: list[tuple[str, str]] = field(default_factory=list)  # moved, English changed
    renumbered: list[str] = field(default_factory=list)  # citations renumbered, stamped again
    files_written: list[str] = field(default_factory=list)
    files_removed: list[str] = field(default_factory=list)


def _source(stamp: Stamp, written: str, lineage: Lineage) -> str | None:
    """The number, in the marker's edition, of the English the unit translates."""
    edition = lineage.edition(stamp.edition)
    if edition is None:
        return None
    here = _rule_parts(edition, written)
    if here is not None and english_hash(*here) == stamp.hash:
        return written
    return number_with_fingerprint(edition, stamp.hash)


def _rule_parts(edition: Edition, number: str):
    if "." not in number:
        title = edition.sections.get(int(number))
        return [title] if title is not None else None
    r = edition.rule(number)
    return [r.text, *r.examples] if r else None


def renumber_citations(text: str, edition: Edition, lineage: Lineage) -> str:
    """``text``'s citations, read in ``edition``, with the numbers they have in force."""
    def now(m: re.Match) -> str:
        w = lineage.follow(m.group(0), edition)
        return w.now if w.exists and w.now else m.group(0)
    return _CITED.sub(now, text)


def _follow(unit_number: str, stamp: Stamp | None, lineage: Lineage):
    """(target number, source edition, English changed beyond renumbering) or None to leave alone."""
    if stamp is None:
        return None
    source = _source(stamp, unit_number, lineage)
    edition = lineage.edition(stamp.edition)
    if source is None or edition is None:
        return None
    w = lineage.follow(source, edition)
    if w.now is None:
        return None
    return w.now, edition, w.text_changed


def move_sections(files: list[TranslationFile], lineage: Lineage, folder: Path) -> tuple[list[TranslationFile], MovesReport]:
    """The section files regrouped by the numbers in force; glossary and chapters renumbered in
    their citations. Returns the files as they should be (unwritten) and what was done."""
    in_force = lineage.in_force
    report = MovesReport()
    titles: dict[str, TranslatedTitle] = {}
    rules: dict[str, list[TranslatedRule]] = {}
    metas: dict[str, dict] = {}
    others: list[TranslationFile] = []

    def place(number: str, stamp: Stamp | None) -> tuple[str, Stamp | None, Edition | None]:
        """Where a unit goes, its marker, and the edition to read its citations in when only
        they changed (None: its text stays as it is)."""
        found = _follow(number, stamp, lineage)
        if found is None:
            return number, stamp, None
        target, edition, changed = found
        current = _rule_parts(in_force, target)
        if changed or current is None:
            if target != number:
                report.moved_to_update.append((number, target))
            return target, stamp, None
        new_stamp = Stamp(in_force.id, english_hash(*current))
        renumber = new_stamp.hash != stamp.hash
        if renumber:
            report.renumbered.append(target)
        elif target == number:
            return number, stamp, None  # the same English under the same number: nothing to do
        if target != number:
            report.moved.append((number, target))
        return target, new_stamp, edition if renumber else None

    def cited(text: str, edition: Edition | None) -> str:
        return renumber_citations(text, edition, lineage) if edition is not None else text

    for tf in files:
        if tf.kind != "sezione":
            others.append(tf)
            continue
        metas[tf.section] = tf.meta
        if tf.title is not None:
            number, stamp, edition = place(tf.title.number, tf.title.stamp)
            titles[number] = TranslatedTitle(number, cited(tf.title.title, edition), stamp, tf.title.line)
        for r in tf.rules:
            number, stamp, edition = place(r.number, r.stamp)
            moved = TranslatedRule(number, cited(r.text, edition), [cited(e, edition) for e in r.examples],
                                   stamp, r.line, dotted=number[-1].isdigit())
            rules.setdefault(str(RuleNumber.parse(number).section), []).append(moved)
    out: list[TranslationFile] = []
    for section in sorted(set(titles) | set(rules), key=sort_key):
        meta = dict(metas.get(section, {}))
        meta["sezione"] = section
        out.append(TranslationFile(folder / f"{section}.md", "sezione", meta, section, titles.get(section),
                                   sorted(rules.get(section, []), key=lambda r: sort_key(r.number))))
    for tf in others:
        _renumber_other(tf, lineage, in_force, report)
        out.append(tf)
    report.files_removed = sorted(str(f.path.name) for f in files if f.kind == "sezione"
                                  and f.section not in titles and f.section not in rules)
    return out, report


def _renumber_other(tf: TranslationFile, lineage: Lineage, in_force: Edition, report: MovesReport) -> None:
    """Glossary entries whose English changed only in the numbers it cites."""
    for e in tf.entries:
        if e.stamp is None or e.term not in in_force.glossary:
            continue
        now = english_hash(e.term, in_force.glossary[e.term])
        source = lineage.edition(e.stamp.edition)
        if now == e.stamp.hash or source is None or e.term not in source.glossary:
            continue
        old_text = source.glossary[e.term]
        if english_hash(e.term, old_text) != e.stamp.hash:
            continue
        if renumber_citations(old_text, source, lineage) == in_force.glossary[e.term]:
            e.text = renumber_citations(e.text, source, lineage)
            e.stamp = Stamp(in_force.id, now)
            report.renumbered.append(e.term)


def write(files: list[TranslationFile], before: list[TranslationFile], report: MovesReport) -> None:
    """Write the files that changed; remove the section files left empty."""
    kept = {f.path.name for f in files}
    for tf in files:
        text = render(tf)
        if not tf.path.exists() or tf.path.read_text(encoding="utf-8") != text:
            tf.path.write_text(text, encoding="utf-8")
            report.files_written.append(tf.path.name)
    for tf in before:
        if tf.path.name not in kept and tf.path.exists():
            tf.path.unlink()
