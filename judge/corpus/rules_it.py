"""The Italian rules in ``rules_it/``: one Markdown file per section.

Format (written by ``judge importa-wiki``, editable by hand)::

    ---
    sezione: "703"
    aggiornato_a: "Avatar: La leggenda di Aang, 21 Novembre 2025"
    ...provenance...
    ---

    # 703. Azioni generate dal turno

    **703.1.** Le azioni generate dal turno sono ...

    **703.1a** Le abilità che attendono ...

    Esempio: ...

A paragraph starting with a bold number opens a rule; an "Esempio" paragraph
belongs to the rule above it. The heading line is optional (some wiki pages
have none; the title then comes from the navigation index).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError, split
from judge.corpus.numbers import RuleNumber, RuleNumberError

INDEX_FILE = "indice.md"

_RULE = re.compile(r"^\*\*(?P<num>[1-9]\d{2}\.\d+[a-z]{0,2})\.?\*\*\s(?P<text>.+)$")
_HEADING = re.compile(r"^#\s+(?P<num>[1-9]\d{2})(?:\.|\s+-|\s+–)\s*(?P<title>.+)$")
_EXAMPLE = re.compile(r"^Esempi?o?\b", re.IGNORECASE)

MONTHS_IT = {
    "gennaio": 1, "febbraio": 2, "marzo": 3, "aprile": 4, "maggio": 5, "giugno": 6,
    "luglio": 7, "agosto": 8, "settembre": 9, "ottobre": 10, "novembre": 11, "dicembre": 12,
}
_DATE_IT = re.compile(r"(?P<day>\d{1,2})\s+(?P<month>[A-Za-zàèéìòù]+)\s+(?P<year>\d{4})\s*$")


def parse_italian_date(text: str) -> dt.date | None:
    """"21 Novembre 2025" -> date(2025, 11, 21); None when the text is no such date."""
    m = _DATE_IT.search(text.strip())
    if not m:
        return None
    month = MONTHS_IT.get(m["month"].lower())
    if not month:
        return None
    try:
        return dt.date(int(m["year"]), month, int(m["day"]))
    except ValueError:
        return None


def split_updated(label: str) -> tuple[str, str]:
    """"Avatar: La leggenda di Aang, 21 Novembre 2025" -> (set name, date as written)."""
    name, _, date = label.rpartition(",")
    return name.strip(), date.strip()


@dataclass(slots=True)
class SourceRule:
    """A numbered rule as written in a source file."""

    number: str
    text: str
    examples: list[str] = field(default_factory=list)
    line: int = 0


@dataclass
class ItalianSection:
    section: str
    title: str | None
    meta: dict[str, object]
    rules: list[SourceRule]
    path: Path

    @property
    def updated_label(self) -> str:
        return str(self.meta.get("aggiornato_a", ""))

    @property
    def updated_date(self) -> dt.date | None:
        iso = self.meta.get("data_iso")
        if isinstance(iso, str):
            try:
                return dt.date.fromisoformat(iso)
            except ValueError:
                return None
        return None


def parse_section_file(path: Path) -> ItalianSection:
    text = path.read_text(encoding="utf-8")
    meta, body, first_line = split(text, path)
    section = str(meta.get("sezione", "")).strip()
    try:
        sec_num = RuleNumber.parse(section)
    except RuleNumberError:
        raise SourceFormatError(path, 2, f"metadato 'sezione' mancante o non valido: «{section}»") from None
    if sec_num.rule is not None:
        raise SourceFormatError(path, 2, f"'sezione' deve essere una sezione (es. 703), non «{section}»")
    iso = meta.get("data_iso")
    if iso is not None:
        try:
            dt.date.fromisoformat(str(iso))
        except ValueError:
            raise SourceFormatError(path, 2, f"'data_iso' non è una data ISO (AAAA-MM-GG): «{iso}»") from None
    title: str | None = None
    rules: list[SourceRule] = []
    # Paragraphs: runs of non-blank lines.
    para: list[str] = []
    para_line = first_line

    def flush() -> None:
        nonlocal title
        if not para:
            return
        joined = " ".join(s.strip() for s in para)
        h = _HEADING.match(joined)
        if h:
            if h["num"] != section:
                raise SourceFormatError(path, para_line, f"intestazione della sezione {h['num']} in un file della sezione {section}")
            title = h["title"].strip()
            return
        m = _RULE.match(joined)
        if m:
            num = m["num"]
            try:
                parsed = RuleNumber.parse(num)
            except RuleNumberError as exc:
                raise SourceFormatError(path, para_line, str(exc)) from None
            if str(parsed.section) != section:
                raise SourceFormatError(path, para_line, f"la regola {num} non appartiene alla sezione {section}")
            rules.append(SourceRule(str(parsed), m["text"].strip(), [], para_line))
            return
        if _EXAMPLE.match(joined) and rules:
            rules[-1].examples.append(joined)
            return
        raise SourceFormatError(
            path, para_line,
            f"paragrafo non riconosciuto: «{joined[:60]}» (atteso '**numero** testo' o 'Esempio: …')",
        )

    for offset, line in enumerate(body):
        if line.strip():
            if not para:
                para_line = first_line + offset
            para.append(line)
        else:
            flush()
            para = []
    flush()
    return ItalianSection(section, title, meta, rules, path)


def render_section_file(meta: dict[str, object], heading: str | None, rules: list[tuple[str, str, list[str]]]) -> str:
    """The Markdown text of a section file. ``rules`` holds (number as written, text, examples)."""
    from judge.corpus.frontmatter import dump

    out = [dump(meta)]
    if heading:
        out.append(f"# {heading}\n")
    for number, text, examples in rules:
        out.append(f"**{number}** {text}\n")
        for ex in examples:
            out.append(f"{ex}\n")
    return "\n".join(out)


def load_sections(folder: Path) -> list[ItalianSection]:
    sections = []
    for path in sorted(folder.glob("*.md")):
        if path.name == INDEX_FILE or path.name.startswith(("_", "README")):
            continue
        sections.append(parse_section_file(path))
    return sections


@dataclass
class NavIndex:
    """Italian chapter and section titles from the wiki's navigation box, numbered as the box numbers them."""

    chapters: dict[int, str]
    sections: list[tuple[int, str]]  # (number as in the box, title), in box order
    meta: dict[str, object]


_NAV_CHAPTER = re.compile(r"^##\s+(?P<num>[1-9])\.\s+(?P<title>.+)$")
_NAV_SECTION = re.compile(r"^-\s+(?P<num>[1-9]\d{2})\.?\s+(?P<title>.+)$")


def parse_index_file(path: Path) -> NavIndex:
    meta, body, first_line = split(path.read_text(encoding="utf-8"), path)
    chapters: dict[int, str] = {}
    sections: list[tuple[int, str]] = []
    for offset, line in enumerate(body):
        if not line.strip() or line.startswith("# "):
            continue
        m = _NAV_CHAPTER.match(line)
        if m:
            chapters[int(m["num"])] = m["title"].strip()
            continue
        m = _NAV_SECTION.match(line)
        if m:
            sections.append((int(m["num"]), m["title"].strip()))
            continue
        raise SourceFormatError(path, first_line + offset, f"riga dell'indice non riconosciuta: «{line[:60]}»")
    return NavIndex(chapters, sections, meta)


def render_index_file(meta: dict[str, object], chapters: list[tuple[int, str, list[tuple[str, str]]]]) -> str:
    from judge.corpus.frontmatter import dump

    out = [dump(meta), "# Indice del Regolamento (box di navigazione del wiki)\n"]
    for num, title, secs in chapters:
        out.append(f"## {num}. {title}\n")
        out.append("\n".join(f"- {n} {t}" for n, t in secs) + "\n")
    return "\n".join(out)
