"""Adopting an edition: what only moved follows by itself, what changed is left to people.

``adopt()`` reads every reference of the project (references.py) and the project's translation
against the edition in force, rewrites the references whose rule only moved (in every holder, all
at once, so that 704.5y → 704.5z and 704.5z → 704.5aa of 20260925 never collide), pins again those whose
English is unchanged, moves the translations that only moved (translation_moves.py), and returns
what a person still has to read: references whose rule text changed or is gone, translations to
update or write. ``pin()`` is the person's stamp after that reading.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus import references as refs_mod
from judge.corpus.lineage import Lineage
from judge.corpus.references import CHANGED, FINGERPRINT, MOVED, OK, REMOVED, UNPINNED, Pin, Reference
from judge.corpus.translation import TRANSLATION_DIR, parse_translation_file, translation_paths
from judge.corpus.translation_moves import MovesReport, move_sections, write


@dataclass
class AdoptionReport:
    edition: str
    moved: dict[str, str] = field(default_factory=dict)  # written -> number in force (English unchanged)
    moved_to_review: dict[str, str] = field(default_factory=dict)  # moved, and the English changed
    occurrences_rewritten: int = 0
    files_rewritten: list[str] = field(default_factory=list)
    repinned: int = 0
    to_review: list[Reference] = field(default_factory=list)  # changed, removed, fingerprint differs
    unpinned: list[Reference] = field(default_factory=list)
    translation: MovesReport = field(default_factory=MovesReport)


def rewrite(text: str, spans: list[tuple[int, int, str]]) -> str:
    """``text`` with each (start, end) replaced by its new number, all at once."""
    out, last = [], 0
    for start, end, new in sorted(spans):
        out += [text[last:start], new]
        last = end
    return "".join(out) + text[last:]


def adopt(root: Path, lineage: Lineage, dry_run: bool = False) -> AdoptionReport:
    """Bring the project at ``root`` to the edition in force of ``lineage`` (see the module doc)."""
    in_force = lineage.in_force
    report = AdoptionReport(in_force.id)
    ledger_path = root / "rules_en" / refs_mod.LEDGER_FILE
    pins = refs_mod.read_ledger(ledger_path)
    refs, _ = refs_mod.check(root, lineage)
    new_pins: dict[str, Pin] = {}
    by_file: dict[str, list[tuple[int, int, str]]] = {}
    for ref in refs:
        if ref.status == MOVED:
            for o in ref.occurrences:
                by_file.setdefault(o.path, []).append((o.start, o.end, o.written(ref.now)))
            if ref.text_changed:
                report.moved_to_review[ref.number] = ref.now
                old = ref.pin
                new_pins[ref.now] = Pin(ref.now, old.edition, old.then, old.fingerprint, old.excerpt)
                report.to_review.append(ref)
            else:
                report.moved[ref.number] = ref.now
                new_pins[ref.now] = refs_mod.pin_for(in_force, ref.now)
        elif ref.status == OK:
            if ref.stale_pin:
                report.repinned += 1
            new_pins[ref.number] = refs_mod.pin_for(in_force, ref.number) if ref.stale_pin else ref.pin
        elif ref.status in (CHANGED, REMOVED, FINGERPRINT):
            new_pins[ref.number] = ref.pin
            report.to_review.append(ref)
        elif ref.status == UNPINNED:
            report.unpinned.append(ref)
    for rel, spans in sorted(by_file.items()):
        path = root / rel
        text = path.read_text(encoding="utf-8")
        report.occurrences_rewritten += len(spans)
        report.files_rewritten.append(rel)
        if not dry_run:
            path.write_text(rewrite(text, spans), encoding="utf-8")
    # A number written by no holder any more (it moved away) leaves the ledger; pins of numbers
    # that a moved one now takes over are replaced.
    written = {r.number for r in refs} - set(report.moved) - set(report.moved_to_review)
    kept = {n: p for n, p in pins.items() if n in written and n not in new_pins}
    kept.update(new_pins)
    folder = root / "rules_it" / TRANSLATION_DIR
    before = [parse_translation_file(p) for p in translation_paths(folder)]
    after, report.translation = move_sections(before, lineage, folder)
    if not dry_run:
        refs_mod.write_ledger(ledger_path, kept)
        write(after, before, report.translation)
    return report


def pin(root: Path, lineage: Lineage, numbers: list[str] | None = None) -> tuple[list[str], list[str]]:
    """Pin references to the edition in force: ``numbers`` (a person has read them), or else every
    reference not yet in the ledger. Returns (pinned, refused: not in the edition in force)."""
    in_force = lineage.in_force
    ledger_path = root / "rules_en" / refs_mod.LEDGER_FILE
    pins = refs_mod.read_ledger(ledger_path)
    refs, _ = refs_mod.check(root, lineage)
    wanted = set(numbers) if numbers else {r.number for r in refs if r.status == UNPINNED}
    done, refused = [], []
    for number in sorted(wanted):
        p = refs_mod.pin_for(in_force, number)
        if p is None:
            refused.append(number)
            continue
        pins[number] = p
        done.append(number)
    written = {r.number for r in refs}
    refs_mod.write_ledger(ledger_path, {n: p for n, p in pins.items() if n in written or n in done})
    return done, refused


def needs(root: Path, editions: list, terminology, translation_files) -> list[str]:
    """What adopting the newest of ``editions`` would need, in Italian lines: the changes, the
    references the command would move and those a person would read, the translation to do."""
    from collections import Counter

    from judge.corpus.translation_checks import check_translation
    from judge.corpus.trace import KINDS

    lineage = Lineage(editions)
    new, old = editions[-1], editions[-2]
    changes = Counter(s.kind for s in lineage.trace(old, new).changes)
    lines = [f"Modifiche rispetto a {old.id}: " + (", ".join(f"{changes[k]} {k}" for k in KINDS if changes[k])
                                                   or "nessuna") + "."]
    refs, _ = refs_mod.check(root, lineage)
    moved = [r for r in refs if r.status == MOVED]
    review = [r for r in refs if r.status in (CHANGED, REMOVED, FINGERPRINT) or (r.status == MOVED and r.text_changed)]
    lines.append(f"Riferimenti che `judge edizione adotta {new.id}` sposterebbe: {len(moved)}"
                 + (f" ({', '.join(f'{r.number} → {r.now}' for r in moved[:12])}{'…' if len(moved) > 12 else ''})" if moved else "")
                 + ".")
    lines.append(f"Riferimenti da rileggere: {len(review)}"
                 + (f" ({', '.join(r.number for r in review[:12])}{'…' if len(review) > 12 else ''})" if review else "") + ".")
    report = check_translation(translation_files, editions, terminology)
    lines.append(f"Traduzione: {report.count('traduzione-spostata')} da spostare (le sposta il comando), "
                 f"{report.count('traduzione-da-aggiornare')} da aggiornare, {report.count('traduzione-mancante')} da scrivere.")
    return lines
