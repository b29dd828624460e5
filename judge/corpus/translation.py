"""The project's own Italian translation of the English rules in force (``rules_it/traduzione/``).

A layer of its own, never mixed with the community text of ``rules_it/NNN.md``: every
translated rule, title and glossary entry carries a marker naming the English edition
and a hash of the exact English text it translates, so a later edition that changes
that text makes the translation visibly outdated instead of silently wrong.

Files (Markdown, reviewable as text; the markers are HTML comments, invisible when rendered):

``NNN.md`` (one per section)::

    ---
    sezione: "704"
    ---

    # 704. Azioni generate dallo stato
    <!-- en 20260619 0123456789ab -->

    **704.1.** Le azioni generate dallo stato sono ...
    <!-- en 20260619 0123456789ab -->

    Esempio: ...

``capitoli.md``: one ``# N. Titolo`` paragraph with its marker per chapter.
``glossario.md``: one paragraph per entry: ``## English term | Termine italiano``, the
Italian definition (as many lines as the English one), then the marker.

The marker is always the last line of its paragraph.

A rule paragraph may hold several lines (the English has a few rules of several
paragraphs); they are kept as separate lines. The hash covers the English text and its
examples, so a changed example makes the translation outdated too.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError, dump, split
from judge.corpus.numbers import RuleNumber, RuleNumberError

TRANSLATION_DIR = "traduzione"
CHAPTERS_FILE = "capitoli.md"
GLOSSARY_FILE = "glossario.md"
EXAMPLE_PREFIX = "Esempio:"

MARKER = re.compile(r"^<!--\s*en\s+(?P<edition>\d{8})\s+(?P<hash>[0-9a-f]{12})\s*-->$")
_RULE = re.compile(r"^\*\*(?P<num>[1-9]\d{2}\.\d+[a-z]{0,2})(?P<dot>\.?)\*\*\s+(?P<text>\S.*)$")
_SECTION_HEADING = re.compile(r"^#\s+(?P<num>[1-9]\d{2})\.\s+(?P<title>\S.*)$")
_CHAPTER_HEADING = re.compile(r"^#\s+(?P<num>[1-9])\.\s+(?P<title>\S.*)$")
_GLOSSARY_HEADING = re.compile(r"^##\s+(?P<en>[^|]+?)\s+\|\s+(?P<it>\S.*)$")


def english_hash(*parts: str) -> str:
    """The 12-hex-digit fingerprint of an English text (rule text, then each example)."""
    return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:12]


def number_with_fingerprint(edition, digest: str) -> str | None:
    """The rule (or section title) of ``edition`` whose English has fingerprint ``digest``: where
    the English a marker names is, whatever number the translation carries now."""
    table = edition.__dict__.get("_fingerprints")
    if table is None:
        table = {english_hash(t): str(n) for n, t in edition.sections.items()}
        table.update({english_hash(r.text, *r.examples): r.number for r in edition.rules})
        edition._fingerprints = table
    return table.get(digest)


def marker(edition: str, digest: str) -> str:
    return f"<!-- en {edition} {digest} -->"


@dataclass(slots=True)
class Stamp:
    """Which English text a translation was made from."""

    edition: str
    hash: str


@dataclass(slots=True)
class TranslatedRule:
    number: str
    text: str  # lines joined with "\n"
    examples: list[str] = field(default_factory=list)
    stamp: Stamp | None = None
    line: int = 0
    dotted: bool = False  # written "704.1." as the English writes rules (not subrules)


@dataclass
class TranslatedTitle:
    number: str  # "7" or "704"
    title: str
    stamp: Stamp | None = None
    line: int = 0


@dataclass
class TranslatedEntry:
    """A glossary entry: English term (the key), Italian term and definition."""

    term: str
    it_term: str
    text: str
    stamp: Stamp | None = None
    line: int = 0


@dataclass
class TranslationFile:
    path: Path
    kind: str  # "sezione", "capitoli", "glossario"
    meta: dict[str, object]
    section: str | None = None
    title: TranslatedTitle | None = None
    rules: list[TranslatedRule] = field(default_factory=list)
    chapters: list[TranslatedTitle] = field(default_factory=list)
    entries: list[TranslatedEntry] = field(default_factory=list)


def paragraph_blocks(body: list[str], first_line: int):
    para: list[str] = []
    start = first_line
    for offset, line in enumerate(body):
        if line.strip():
            if not para:
                start = first_line + offset
            para.append(line.rstrip())
        elif para:
            yield start, para
            para = []
    if para:
        yield start, para


def take_stamp(lines: list[str], path: Path, line: int) -> tuple[list[str], Stamp | None]:
    stamps = [i for i, s in enumerate(lines) if s.strip().startswith("<!--")]
    if not stamps:
        return lines, None
    i = stamps[-1]
    m = MARKER.match(lines[i].strip())
    if not m or i != len(lines) - 1 or len(stamps) > 1:
        raise SourceFormatError(
            path, line + i,
            "marcatore non valido: atteso come ultima riga del paragrafo «<!-- en AAAAMMGG hash12 -->»",
        )
    return lines[:i], Stamp(m["edition"], m["hash"])


def _kind(path: Path) -> str:
    if path.name == CHAPTERS_FILE:
        return "capitoli"
    if path.name == GLOSSARY_FILE:
        return "glossario"
    return "sezione"


def parse_translation_file(path: Path) -> TranslationFile:
    path = Path(path)
    meta, body, first_line = split(path.read_text(encoding="utf-8"), path)
    tf = TranslationFile(path, _kind(path), meta)
    if tf.kind == "sezione":
        section = str(meta.get("sezione", "")).strip()
        try:
            if RuleNumber.parse(section).rule is not None:
                raise RuleNumberError(section)
        except RuleNumberError:
            raise SourceFormatError(path, 2, f"metadato 'sezione' mancante o non valido: «{section}»") from None
        tf.section = section
    for line, para in paragraph_blocks(body, first_line):
        lines, stamp = take_stamp(para, path, line)
        if not lines:
            raise SourceFormatError(path, line, "marcatore senza testo")
        head = lines[0].strip()
        if tf.kind == "capitoli":
            m = _CHAPTER_HEADING.match(head)
            if not m or len(lines) > 1:
                raise SourceFormatError(path, line, f"atteso «# N. Titolo del capitolo», trovato «{head[:60]}»")
            tf.chapters.append(TranslatedTitle(m["num"], m["title"].strip(), stamp, line))
            continue
        if tf.kind == "glossario":
            m = _GLOSSARY_HEADING.match(head)
            if not m:
                raise SourceFormatError(path, line, f"atteso «## Termine inglese | Termine italiano», trovato «{head[:60]}»")
            text = "\n".join(s.strip() for s in lines[1:])
            tf.entries.append(TranslatedEntry(m["en"].strip(), m["it"].strip(), text, stamp, line))
            continue
        if (h := _SECTION_HEADING.match(head)):
            if h["num"] != tf.section:
                raise SourceFormatError(path, line, f"intestazione della sezione {h['num']} in un file della sezione {tf.section}")
            if tf.title is not None or tf.rules:
                raise SourceFormatError(path, line, "l'intestazione della sezione va prima di ogni regola, una volta sola")
            if len(lines) > 1:
                raise SourceFormatError(path, line + 1, "l'intestazione della sezione occupa una riga sola")
            tf.title = TranslatedTitle(tf.section, h["title"].strip(), stamp, line)
            continue
        if (r := _RULE.match(head)):
            try:
                num = RuleNumber.parse(r["num"])
            except RuleNumberError as exc:
                raise SourceFormatError(path, line, str(exc)) from None
            if str(num.section) != tf.section:
                raise SourceFormatError(path, line, f"la regola {num} non appartiene alla sezione {tf.section}")
            # "Esempio:" lines written right under the rule (no blank line) are its examples.
            rest = [s.strip() for s in lines[1:]]
            first_example = next((i for i, s in enumerate(rest) if s.startswith(EXAMPLE_PREFIX)), len(rest))
            text = "\n".join([r["text"].strip(), *rest[:first_example]])
            examples: list[str] = []
            for s in rest[first_example:]:
                if s.startswith(EXAMPLE_PREFIX) or not examples:
                    examples.append(s)
                else:
                    examples[-1] += " " + s
            tf.rules.append(TranslatedRule(str(num), text, examples, stamp, line, bool(r["dot"])))
            continue
        if head.startswith(EXAMPLE_PREFIX):
            if not tf.rules:
                raise SourceFormatError(path, line, "esempio prima di ogni regola")
            if stamp is not None:
                raise SourceFormatError(path, line, "il marcatore va dopo il testo della regola, non dopo un esempio")
            tf.rules[-1].examples.append(" ".join(s.strip() for s in lines))
            continue
        raise SourceFormatError(
            path, line,
            f"paragrafo non riconosciuto: «{head[:60]}» (atteso '# NNN. Titolo', '**numero** testo' o 'Esempio: …')",
        )
    return tf


def translation_paths(folder: Path) -> list[Path]:
    """Translation files in ``folder`` (``rules_it/traduzione``), sections first, in numeric order."""
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("*.md") if not p.name.startswith(("_", "README"))]
    return sorted(files, key=lambda p: (not p.stem.isdigit(), p.stem.zfill(3)))


def load_translation(folder: Path) -> list[TranslationFile]:
    return [parse_translation_file(p) for p in translation_paths(folder)]


# -- writing ----------------------------------------------------------------------------
def render_section(section: str, title: TranslatedTitle | None, rules: list[TranslatedRule],
                   meta: dict[str, object] | None = None) -> str:
    out = [dump(meta or {"sezione": section})]
    if title is not None:
        out.append(f"# {section}. {title.title}" + (f"\n{marker(title.stamp.edition, title.stamp.hash)}" if title.stamp else "") + "\n")
    for r in rules:
        number = r.number + ("." if r.dotted else "")
        block = f"**{number}** {r.text}"
        if r.stamp:
            block += "\n" + marker(r.stamp.edition, r.stamp.hash)
        out.append(block + "\n")
        for ex in r.examples:
            out.append(ex + "\n")
    return "\n".join(out)


def render_chapters(chapters: list[TranslatedTitle], meta: dict[str, object] | None = None) -> str:
    out = [dump(meta or {"tipo": "capitoli"})]
    for c in chapters:
        out.append(f"# {c.number}. {c.title}" + (f"\n{marker(c.stamp.edition, c.stamp.hash)}" if c.stamp else "") + "\n")
    return "\n".join(out)


def render_glossary(entries: list[TranslatedEntry], meta: dict[str, object] | None = None) -> str:
    out = [dump(meta or {"tipo": "glossario"})]
    for e in entries:
        block = [f"## {e.term} | {e.it_term}", e.text]
        if e.stamp:
            block.append(marker(e.stamp.edition, e.stamp.hash))
        out.append("\n".join(block) + "\n")
    return "\n".join(out)


def render(tf: TranslationFile) -> str:
    if tf.kind == "capitoli":
        return render_chapters(tf.chapters, tf.meta)
    if tf.kind == "glossario":
        return render_glossary(tf.entries, tf.meta)
    return render_section(tf.section or "", tf.title, tf.rules, tf.meta)


# -- starting and stamping a translation --------------------------------------------------
def skeleton(edition, what: str, title_hints: dict[str, str] | None = None) -> TranslationFile:
    """A file for ``what`` (a section number, "capitoli" or "glossario") holding the English text
    of ``edition`` with its markers: a translator replaces every text with the Italian."""
    hints = title_hints or {}
    stamp = lambda *parts: Stamp(edition.id, english_hash(*parts))  # noqa: E731
    if what == "capitoli":
        return TranslationFile(Path(CHAPTERS_FILE), "capitoli", {"tipo": "capitoli"}, chapters=[
            TranslatedTitle(str(n), hints.get(str(n), t), stamp(t)) for n, t in edition.chapters.items()
        ])
    if what == "glossario":
        return TranslationFile(Path(GLOSSARY_FILE), "glossario", {"tipo": "glossario"}, entries=[
            TranslatedEntry(term, term, text, stamp(term, text)) for term, text in edition.glossary.items()
        ])
    section = int(what)
    if section not in edition.sections:
        raise KeyError(what)
    title = edition.sections[section]
    rules = [
        TranslatedRule(
            r.number, r.text,
            [EXAMPLE_PREFIX + ex[len("Example:"):] if ex.startswith("Example:") else ex for ex in r.examples],
            stamp(r.text, *r.examples), dotted=r.number[-1].isdigit(),
        )
        for r in edition.rules if r.number.split(".")[0] == str(section)
    ]
    return TranslationFile(Path(f"{section}.md"), "sezione", {"sezione": str(section)}, section=str(section),
                           title=TranslatedTitle(str(section), hints.get(str(section), title), stamp(title)),
                           rules=rules)


def stamp_missing(tf: TranslationFile, edition) -> list[str]:
    """Add a marker to every unit of ``tf`` that has none, from ``edition``'s English (the one
    being translated). Units already stamped are left alone: updating an outdated translation is
    a deliberate edit of its marker. Returns what was stamped."""
    done: list[str] = []
    if tf.title and tf.title.stamp is None and int(tf.section) in edition.sections:
        tf.title.stamp = Stamp(edition.id, english_hash(edition.sections[int(tf.section)]))
        done.append(tf.section)
    for r in tf.rules:
        en = edition.rule(r.number)
        if r.stamp is None and en is not None:
            r.stamp = Stamp(edition.id, english_hash(en.text, *en.examples))
            done.append(r.number)
    for c in tf.chapters:
        if c.stamp is None and int(c.number) in edition.chapters:
            c.stamp = Stamp(edition.id, english_hash(edition.chapters[int(c.number)]))
            done.append(c.number)
    for e in tf.entries:
        if e.stamp is None and e.term in edition.glossary:
            e.stamp = Stamp(edition.id, english_hash(e.term, edition.glossary[e.term]))
            done.append(e.term)
    return done
