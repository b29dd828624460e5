"""Parser for the official Comprehensive Rules TXT editions in ``rules_en/``.

``MagicCompRules-YYYYMMDD.txt`` (UTF-8, BOM or not) holds an introduction, the
contents, the numbered rules (chapters "1. Game Concepts", sections "100.
General", rules "100.1. …", subrules "100.1a …", "Example: …" lines, and a few
indented continuation paragraphs), the glossary and the credits (ignored).
The published files are irregular in small ways ("119.1d." with a dot, "606.5"
without one; no BOM in 20260116 and 20260227); the parser accepts them and keeps the
text as published.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge import build_cache
from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.rules_it import SourceRule

EDITION_FILE = re.compile(r"^MagicCompRules-(?P<id>\d{8})\.txt$")
_EFFECTIVE = re.compile(r"These rules are effective as of (?P<date>[A-Z][a-z]+ \d{1,2}, \d{4})")
_CHAPTER = re.compile(r"^(?P<num>[1-9])\.\s+(?P<title>\S.*)$")
_SECTION = re.compile(r"^(?P<num>[1-9]\d{2})\.\s+(?P<title>\S.*)$")
_RULE = re.compile(r"^(?P<num>[1-9]\d{2}\.\d+[a-z]{0,2})\.?\s+(?P<text>\S.*)$")
_EXAMPLE = re.compile(r"^Example:\s")


@dataclass
class Edition:
    """One official edition: identifier (YYYYMMDD), effective date, contents, rules, glossary."""

    id: str
    path: Path
    effective: dt.date | None
    chapters: dict[int, str]
    sections: dict[int, str]
    rules: list[SourceRule]
    glossary: dict[str, str] = field(default_factory=dict)

    @property
    def fingerprint(self) -> str:
        """A hash of what the edition says (contents, rules with their examples, glossary), computed once."""
        got = self.__dict__.get("_fingerprint")
        if got is None:
            parts = [self.id, repr(sorted(self.chapters.items())), repr(sorted(self.sections.items())),
                     repr(sorted(self.glossary.items()))]
            parts += [f"{r.number}\t{r.text}\t{r.examples!r}" for r in self.rules]
            got = self._fingerprint = build_cache.digest(*parts)
        return got

    def rule(self, number: str) -> SourceRule | None:
        if not hasattr(self, "_by_number"):
            self._by_number = {r.number: r for r in self.rules}
        return self._by_number.get(number)

    @property
    def date(self) -> dt.date:
        return dt.date(int(self.id[:4]), int(self.id[4:6]), int(self.id[6:]))

    @property
    def label(self) -> str:
        return f"Comprehensive Rules {self.date.isoformat()}"


def _parse_date(text: str) -> dt.date | None:
    try:
        return dt.datetime.strptime(text, "%B %d, %Y").date()
    except ValueError:
        return None


def parse_edition(path: Path) -> Edition:
    m = EDITION_FILE.match(path.name)
    if not m:
        raise SourceFormatError(path, 0, "nome di file non valido: atteso MagicCompRules-AAAAMMGG.txt")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceFormatError(path, 1, f"il file non è UTF-8 ({exc.reason})") from None
    lines = text.splitlines()
    effective = None
    for line in lines[:20]:
        e = _EFFECTIVE.search(line)
        if e:
            effective = _parse_date(e["date"])
            break
    # The contents end with "Credits"; the rules follow; the glossary starts at the next "Glossary".
    try:
        contents_start = lines.index("Contents")
        contents_end = lines.index("Credits", contents_start)
        glossary_start = lines.index("Glossary", contents_end)
        credits_start = lines.index("Credits", glossary_start)
    except ValueError:
        raise SourceFormatError(path, 1, "struttura non riconosciuta: mancano 'Contents', 'Glossary' o 'Credits'") from None

    chapters: dict[int, str] = {}
    sections: dict[int, str] = {}
    for line in lines[contents_start + 1 : contents_end]:
        s = line.strip()
        if (c := _CHAPTER.match(s)):
            chapters[int(c["num"])] = c["title"].strip()
        elif (sec := _SECTION.match(s)):
            sections[int(sec["num"])] = sec["title"].strip()

    rules: list[SourceRule] = []
    for i in range(contents_end + 1, glossary_start):
        raw = lines[i]
        if not raw.strip():
            continue
        if raw[:1].isspace():
            # An indented paragraph continues the rule above it.
            if not rules:
                raise SourceFormatError(path, i + 1, "paragrafo rientrato prima di ogni regola")
            rules[-1].text += "\n" + raw.strip()
            continue
        if _EXAMPLE.match(raw):
            if not rules:
                raise SourceFormatError(path, i + 1, "esempio prima di ogni regola")
            rules[-1].examples.append(raw.rstrip())
            continue
        if (r := _RULE.match(raw)):
            rules.append(SourceRule(r["num"], r["text"].rstrip(), [], i + 1))
            continue
        if _SECTION.match(raw) or _CHAPTER.match(raw):
            continue  # headings repeat the contents
        raise SourceFormatError(path, i + 1, f"riga non riconosciuta: «{raw[:60]}»")

    glossary: dict[str, str] = {}
    block: list[str] = []
    for line in lines[glossary_start + 1 : credits_start] + [""]:
        if line.strip():
            block.append(line.strip())
        elif block:
            glossary[block[0]] = "\n".join(block[1:])
            block = []
    return Edition(m["id"], path, effective, chapters, sections, rules, glossary)


def edition_paths(folder: Path) -> list[Path]:
    """Edition files in ``folder``, oldest first (the last one is in force)."""
    return sorted(p for p in folder.glob("MagicCompRules-*.txt") if EDITION_FILE.match(p.name))
