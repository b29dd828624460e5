"""Every rule number the project writes outside the rules themselves, pinned to an edition.

The engine's registrations and log, the library scenarios, the analytic indexes, the search's
glossary and jargon notes, the terminology notes, the question sets, templates, tests and docs
all hold rule numbers. A number means something only in an edition
(704.5y was the Role rule on 19 June 2026 and is a battle rule on 25 September 2026),
so each reference is *pinned*, as the
translation is: the ledger ``rules_en/riferimenti.tsv`` holds, for every number the holders
write, the edition it was written against, its number there and a fingerprint of the English
text it relies on. When a new edition comes into force the rule trace says, for every pinned
reference, whether its rule moved (``adoption.py`` rewrites it everywhere), changed (a person
reviews it, then re-pins it) or is gone.

Which references are *historical* and never move: a line that names an edition (its id
``20251114`` or its date, «14 novembre 2025», "November 14, 2025") reads its numbers in the
edition it names; a file that says ``riferimenti: edizione AAAAMMGG`` in its first lines is
read in that edition as a whole; a line that says ``riferimenti: nessuno`` holds no reference
(an invalid number in a test). Everything else in a holder is *live*: read in the edition
its pin names and kept in step with the edition in force.
"""

from __future__ import annotations

import bisect
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from judge import build_cache
from judge.corpus.findings import ERROR, WARNING, Finding
from judge.corpus.lineage import Lineage
from judge.corpus.numbers import sort_key
from judge.corpus.rules_en import Edition
from judge.corpus.text_dates import DATE_EN_DMY, DATE_EN_MDY, DATE_IT, MONTHS_EN, MONTHS_IT
from judge.corpus.trace import full_text
from judge.corpus.translation import english_hash

LEDGER_FILE = "riferimenti.tsv"  # in rules_en/

# Where the project writes rule numbers, and how each file is read. The community text
# (rules_it/NNN.md, verbatim data), the project's translation (its own markers), the linker's
# test texts (written under many editions) and the tests of the edition machinery itself
# (tests/corpus, tests/web/test_editions.py: they are about old editions) are not holders.
HOLDERS: tuple[tuple[str, str], ...] = (
    ("judge/**/*.py", "python"),
    ("judge/**/*.tsv", "text"),
    ("templates/**/*.html", "text"),
    ("static/**/*.js", "text"),
    ("scenarios/*.json", "text"),
    ("rules_it/indice_analitico*.tsv", "text"),
    ("rules_it/terminologia.tsv", "text"),
    ("tests/search/questions*.json", "text"),
    ("tests/engine/*.py", "python"),
    ("tests/scenario_web/*.py", "python"),
    ("tests/e2e_scenario/*.py", "python"),
    ("docs/*.md", "text"),
    ("README.md", "text"),
)

# A rule or subrule number as holders write it ("704.5a", "/regole/310.9", two letters since 20260925).
# Sections alone ("704") are too ambiguous in code and prose to be tracked.
NUMBER = re.compile(r"(?<![\w.])(?P<num>[1-9]\d{2}\.[1-9]\d{0,2}[a-z]{0,2})(?![\w])(?!\.\d)")
# The same number in a Python name: test_704_5g_lethal_damage.
NAME_NUMBER = re.compile(r"(?<![0-9])(?P<num>[1-9]\d{2}_[1-9]\d{0,2}[a-z]{0,2})(?=_|$)")
_NO_REFERENCE = "riferimenti: nessuno"
_FILE_MARKER = re.compile(r"riferimenti:\s*edizion[ei]\s+(?P<ids>\d{8}(?:[\s,]+\d{8})*)")
_EDITION_ID = re.compile(r"(?<!\d)(20\d{6})(?!\d)")


@dataclass(frozen=True)
class Occurrence:
    """One rule number written in a holder: ``path`` relative to the project root, its 1-based
    ``line``, its character span in the file, and the editions it is read in when historical."""

    path: str
    line: int
    start: int
    end: int
    number: str
    historical: tuple[str, ...] = ()
    separator: str = "."  # "_" in a Python name (test_704_5g_…)

    def written(self, number: str) -> str:
        """``number`` written the way this occurrence writes its own."""
        return number.replace(".", self.separator, 1)

    @property
    def live(self) -> bool:
        return not self.historical


@dataclass(frozen=True)
class Pin:
    """A ledger line: ``number`` as the holders write it was written against ``edition``, where
    the rule it means was numbered ``then`` and read ``fingerprint`` (english_hash of text and
    examples)."""

    number: str
    edition: str
    then: str
    fingerprint: str
    excerpt: str = ""

    def line(self) -> str:
        return "\t".join((self.number, self.edition, self.then, self.fingerprint, self.excerpt))


# -- reading holders ---------------------------------------------------------------------------
def holder_paths(root: Path) -> list[tuple[Path, str]]:
    seen: dict[Path, str] = {}
    for pattern, kind in HOLDERS:
        for p in sorted(root.glob(pattern)):
            if p.is_file() and ".venv" not in p.parts and p not in seen:
                seen[p] = kind
    return list(seen.items())


def editions_named(line: str) -> tuple[str, ...]:
    """The edition ids a line names, by id or by date, in order."""
    found: list[str] = list(_EDITION_ID.findall(line))
    for d, m, y in DATE_IT.findall(line):
        found.append(f"{y}{MONTHS_IT.index(m.lower()) + 1:02d}{int(d):02d}")
    for d, m, y in DATE_EN_DMY.findall(line):
        found.append(f"{y}{MONTHS_EN.index(m.lower()) + 1:02d}{int(d):02d}")
    for m, d, y in DATE_EN_MDY.findall(line):
        found.append(f"{y}{MONTHS_EN.index(m.lower()) + 1:02d}{int(d):02d}")
    return tuple(dict.fromkeys(found))


def _python_spans(text: str) -> list[tuple[int, int, re.Pattern]]:
    """Character spans of a Python source where rule numbers are written, with how: strings and
    comments ("704.5g"), and names (``test_704_5g_…``); numbers elsewhere are arithmetic."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    kinds = {tokenize.STRING, tokenize.COMMENT}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE")} if hasattr(tokenize, "FSTRING_MIDDLE") else set()
    spans = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            pattern = NUMBER if tok.type in kinds else NAME_NUMBER if tok.type == tokenize.NAME else None
            if pattern is not None:
                spans.append((starts[tok.start[0] - 1] + tok.start[1], starts[tok.end[0] - 1] + tok.end[1], pattern))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [(0, len(text), NUMBER)]
    return spans


def scan_text(text: str, rel: str, kind: str, known: set[str]) -> list[Occurrence]:
    """The rule numbers of one holder's text. ``known``: the edition ids a line may name."""
    head = "\n".join(text.splitlines()[:10])
    marker = _FILE_MARKER.search(head)
    whole = tuple(re.findall(r"\d{8}", marker["ids"])) if marker else ()
    spans = _python_spans(text) if kind == "python" else [(0, len(text), NUMBER)]
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    named_cache: dict[int, tuple[str, ...] | None] = {}
    out: list[Occurrence] = []
    for a, b, pattern in spans:
        for m in pattern.finditer(text, a, b):
            line = bisect.bisect_right(line_starts, m.start())
            if line not in named_cache:
                lo = line_starts[line - 1]
                hi = line_starts[line] if line < len(line_starts) else len(text)
                here = text[lo:hi]
                named_cache[line] = (None if _NO_REFERENCE in here
                                     else tuple(e for e in editions_named(here) if e in known))
            if named_cache[line] is None:
                continue
            historical = whole or named_cache[line]
            number, sep = (m["num"].replace("_", ".", 1), "_") if pattern is NAME_NUMBER else (m["num"], ".")
            out.append(Occurrence(rel, line, m.start("num"), m.end("num"), number, historical, sep))
    return out


def scan(root: Path, known: Iterable[str]) -> list[Occurrence]:
    """Every rule number in the project's holders under ``root``. Each file's numbers are kept in
    the build cache by the file's hash: a run after an edit scans only the files edited."""
    known = set(known)
    memo = build_cache.Memo("riferimenti", build_cache.digest(build_cache.code_digest("corpus"), str(root.resolve()),
                                                             *sorted(known)))
    out: list[Occurrence] = []
    for path, kind in holder_paths(root):
        rel = path.relative_to(root).as_posix()
        try:
            digest = build_cache.file_digest(path)
        except OSError:
            continue

        def read(path=path, rel=rel, kind=kind) -> list[Occurrence]:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return []
            return scan_text(text, rel, kind, known)

        out += memo.get((rel, kind, digest), read)
    memo.save()
    return out


# -- the ledger ---------------------------------------------------------------------------------
_LEDGER_HEADER = """\
# Riferimenti a regole scritti dal progetto fuori dal testo delle regole (motore, scenari, indici
# analitici, glossario della ricerca, terminologia, domande di prova, modelli, test, documentazione),
# ciascuno legato all'edizione per cui è stato scritto. Scritto da `judge edizione timbra` e
# `judge edizione adotta`: non va modificato a mano (docs/edizioni.md).
# numero scritto	edizione	numero in quell'edizione	impronta del testo inglese	inizio del testo inglese
"""


def read_ledger(path: Path) -> dict[str, Pin]:
    pins: dict[str, Pin] = {}
    if not path.exists():
        return pins
    for i, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        parts = raw.split("\t")
        if len(parts) < 4 or not re.fullmatch(r"\d{8}", parts[1]) or not re.fullmatch(r"[0-9a-f]{12}", parts[3]):
            raise ValueError(f"{path.name}:{i}: riga non valida: «{raw[:60]}»")
        pins[parts[0]] = Pin(parts[0], parts[1], parts[2], parts[3], parts[4] if len(parts) > 4 else "")
    return pins


def write_ledger(path: Path, pins: dict[str, Pin]) -> None:
    lines = [pins[n].line() for n in sorted(pins, key=sort_key)]
    path.write_text(_LEDGER_HEADER + "\n".join(lines) + "\n", encoding="utf-8")


def rule_text(edition: Edition, number: str) -> str | None:
    rule = edition.rule(number)
    return full_text(rule) if rule else None


def fingerprint(edition: Edition, number: str) -> str | None:
    rule = edition.rule(number)
    return english_hash(rule.text, *rule.examples) if rule else None


def pin_for(edition: Edition, number: str, written: str | None = None) -> Pin | None:
    rule = edition.rule(number)
    if rule is None:
        return None
    excerpt = " ".join(rule.text.split())[:70]
    return Pin(written or number, edition.id, number, english_hash(rule.text, *rule.examples), excerpt)


# -- status of every reference -------------------------------------------------------------------
OK = "ok"
UNPINNED = "non-timbrato"
MISSING = "inesistente"
MOVED = "spostato"
CHANGED = "modificato"
REMOVED = "rimosso"
FINGERPRINT = "impronta-diversa"


@dataclass
class Reference:
    """A number the live holders write, with its pin and what the edition in force says of it."""

    number: str
    pin: Pin | None
    status: str
    now: str | None = None  # its number in force (moved: the new one)
    text_changed: bool = False
    occurrences: list[Occurrence] = field(default_factory=list)
    stale_pin: bool = False  # unchanged, but pinned to an older edition: adoption re-pins it

    @property
    def places(self) -> str:
        shown = [f"{o.path}:{o.line}" for o in self.occurrences[:4]]
        more = len(self.occurrences) - len(shown)
        return ", ".join(shown) + (f" e altri {more}" if more > 0 else "")


def assess(number: str, pin: Pin | None, lineage: Lineage) -> Reference:
    in_force = lineage.in_force
    if pin is None:
        status = UNPINNED if in_force.rule(number) else MISSING
        return Reference(number, None, status, number if status == UNPINNED else None)
    edition = lineage.edition(pin.edition)
    if edition is None or edition.rule(pin.then) is None:
        return Reference(number, pin, MISSING)
    if fingerprint(edition, pin.then) != pin.fingerprint:
        return Reference(number, pin, FINGERPRINT, pin.then)
    w = lineage.follow(pin.then, edition)
    if w.now is None:
        return Reference(number, pin, REMOVED)
    if w.now != number:
        return Reference(number, pin, MOVED, w.now, w.text_changed)
    if w.text_changed:
        return Reference(number, pin, CHANGED, w.now, True)
    return Reference(number, pin, OK, w.now, stale_pin=edition is not in_force)


def references(occurrences: list[Occurrence], pins: dict[str, Pin], lineage: Lineage) -> list[Reference]:
    """One Reference per number written live, in rule order."""
    by_number: dict[str, list[Occurrence]] = {}
    for o in occurrences:
        if o.live:
            by_number.setdefault(o.number, []).append(o)
    out = []
    for number in sorted(by_number, key=sort_key):
        ref = assess(number, pins.get(number), lineage)
        ref.occurrences = by_number[number]
        out.append(ref)
    return out


def historical_findings(occurrences: list[Occurrence], lineage: Lineage) -> list[Finding]:
    """A historical number must exist in (one of) the editions its line or file names."""
    out = []
    for o in occurrences:
        if o.historical and not any(
            (e := lineage.edition(ident)) is not None and lineage.exists(e, o.number) for ident in o.historical
        ):
            out.append(Finding(ERROR, "riferimento-storico-inesistente", o.path, o.line, o.number,
                               f"{o.number} non esiste nell'edizione {' né nella '.join(o.historical)} che la riga nomina"))
    return out


def findings(refs: list[Reference], occurrences: list[Occurrence], lineage: Lineage) -> list[Finding]:
    """What `judge verifica` says of the references: a moved, removed or unknown number is an error
    (the project would cite another rule, or none); a changed text is a warning to review; an
    unpinned number is a warning (pin it with `judge edizione timbra`)."""
    in_force = lineage.in_force.id
    out: list[Finding] = []
    for ref in refs:
        first = ref.occurrences[0]
        where = f" (scritto in {ref.places})"
        if ref.status == UNPINNED:
            out.append(Finding(WARNING, "riferimento-non-timbrato", first.path, first.line, ref.number,
                               f"{ref.number} non è nel registro dei riferimenti: dopo averlo controllato, "
                               f"`judge edizione timbra {ref.number}`{where}"))
        elif ref.status == MISSING:
            what = (f"non esiste nell'edizione {ref.pin.edition} a cui è legato" if ref.pin
                    else f"non esiste nell'edizione in vigore ({in_force})")
            out.append(Finding(ERROR, "riferimento-inesistente", first.path, first.line, ref.number,
                               f"{ref.number} {what}{where}"))
        elif ref.status == FINGERPRINT:
            out.append(Finding(WARNING, "riferimento-impronta-diversa", first.path, first.line, ref.number,
                               f"il testo inglese di {ref.pin.then} nell'edizione {ref.pin.edition} non è più "
                               f"quello su cui il riferimento si basa (file dell'edizione cambiato): da rileggere{where}"))
        elif ref.status == REMOVED:
            out.append(Finding(ERROR, "riferimento-rimosso", first.path, first.line, ref.number,
                               f"{ref.number} (edizione {ref.pin.edition}) non esiste più nell'edizione in vigore "
                               f"({in_force}){where}"))
        elif ref.status == MOVED:
            changed = ", e il testo è cambiato: da rileggere" if ref.text_changed else ""
            out.append(Finding(ERROR, "riferimento-spostato", first.path, first.line, ref.number,
                               f"{ref.number} (edizione {ref.pin.edition}) è oggi {ref.now}{changed}: "
                               f"`judge edizione adotta` lo sposta{where}", (ref.now,)))
        elif ref.status == CHANGED:
            out.append(Finding(WARNING, "riferimento-modificato", first.path, first.line, ref.number,
                               f"il testo inglese di {ref.number} è cambiato dopo l'edizione {ref.pin.edition}: "
                               f"da rileggere, poi `judge edizione timbra {ref.number}`{where}"))
    return out + historical_findings(occurrences, lineage)


def check(root: Path, lineage: Lineage) -> tuple[list[Reference], list[Finding]]:
    """The references of the project at ``root`` against the editions of ``lineage``."""
    sections = {str(n) for e in lineage.editions for n in e.sections}
    # "978.896 byte": an Italian thousands separator, not a rule (there is no section 978).
    occurrences = [o for o in scan(root, (e.id for e in lineage.editions))
                   if not re.fullmatch(r"\d{3}\.\d{3}", o.number) or o.number[:3] in sections]
    pins = read_ledger(root / "rules_en" / LEDGER_FILE)
    refs = references(occurrences, pins, lineage)
    return refs, findings(refs, occurrences, lineage)
