"""Importer: a text extract of an Italian wiki page -> a section file in ``rules_it/``.

The wiki format: optional "URL:" / "Aggiornato a:" lines, introductory prose,
a "Tratto dal Regolamento (Aggiornato a SET, DATA)" line, an optional heading
("703. Azioni generate dal turno", "101 - Le Regole d’Oro di Magic"), bulleted
rules ("  • 703.1. …", a stray "*" before the first), "Esempio:" lines, then the
navigation box ("1. Concetti di Base 100. Generale • 101. …") and page chrome.
Rule text is copied verbatim: only bullets and indentation are dropped.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.rules_it import (
    INDEX_FILE,
    parse_index_file,
    parse_italian_date,
    render_index_file,
    render_section_file,
    split_updated,
)

_TRATTO = re.compile(r"Tratto dal Regolamento \(Aggiornato a (?P<label>.+)\)\s*$")
_URL = re.compile(r"^URL:\s*(?P<url>\S+)\s*$")
_HEADING = re.compile(r"^(?P<num>[1-9]\d{2})(?:\.|\s+[-–])\s+(?P<title>\S.*)$")
_RULE = re.compile(r"^[\s•*]*(?P<num>[1-9]\d{2}\.\d+[a-z]{0,2}\.?)\s+(?P<text>\S.*)$")
_EXAMPLE = re.compile(r"^[\s•]*(?P<text>Esempi?o?\b.*)$")
_NAV_LINE = re.compile(r"^(?P<num>[1-9])\.\s+(?P<rest>.+\b[1-9]\d{2}\.?\s.+)$")
_NAV_ENTRY = re.compile(r"(?P<num>[1-9]\d{2})(?P<dot>\.?)\s+(?P<title>.+?)\s*$")
_CHROME = {"advertisement", "magic: the gathering wiki", "regolamento[]"}


@dataclass
class ImportResult:
    section: str
    section_path: Path
    rules: int
    index_written: bool


def _nav_line(line: str) -> tuple[int, str, list[tuple[str, str]]] | None:
    m = _NAV_LINE.match(line.strip())
    if not m or "•" not in line:
        return None
    parts = [p.strip() for p in m["rest"].split("•")]
    # The chapter title runs into its first entry: "Concetti di Base 100. Generale".
    head = re.match(r"^(?P<title>.+?)\s+(?P<entry>[1-9]\d{2}\.?\s+.+)$", parts[0])
    if not head:
        return None
    entries = []
    for raw in [head["entry"], *parts[1:]]:
        e = _NAV_ENTRY.fullmatch(raw)
        if not e:
            return None
        entries.append((e["num"] + e["dot"], e["title"]))
    return int(m["num"]), head["title"].strip(), entries


def parse_wiki(text: str, path: Path | str) -> dict:
    """Parse a wiki extract into its parts; raises SourceFormatError with the line."""
    lines = text.splitlines()
    url = None
    start = None
    label = None
    for i, line in enumerate(lines):
        u = _URL.match(line)
        if u and url is None:
            url = u["url"]
        t = _TRATTO.search(line)
        if t:
            start, label = i, t["label"].strip()
            break
    if start is None or label is None:
        raise SourceFormatError(path, 1, "manca la riga «Tratto dal Regolamento (Aggiornato a …)»")
    heading = None
    rules: list[list] = []  # [number as written, text, examples]
    nav: list[tuple[int, str, list[tuple[str, str]]]] = []
    for i in range(start + 1, len(lines)):
        raw = lines[i]
        stripped = raw.strip()
        if not stripped or stripped.lower() in _CHROME:
            continue
        nav_entry = _nav_line(stripped)
        if nav_entry:
            nav.append(nav_entry)
            continue
        if nav:
            # Only page chrome may follow the navigation box.
            continue
        m = _RULE.match(raw)
        if m:
            rules.append([m["num"], m["text"].rstrip(), []])
            continue
        e = _EXAMPLE.match(raw)
        if e and rules:
            rules[-1][2].append(e["text"].rstrip())
            continue
        h = _HEADING.match(stripped)
        if h and not rules and heading is None:
            heading = stripped
            continue
        raise SourceFormatError(path, i + 1, f"riga non riconosciuta: «{stripped[:60]}»")
    if not rules:
        raise SourceFormatError(path, start + 1, "nessuna regola numerata dopo «Tratto dal Regolamento»")
    section = rules[0][0].split(".")[0]
    for num, _text, _ex in rules:
        if num.split(".")[0] != section:
            raise SourceFormatError(path, start + 1, f"la regola {num} non appartiene alla sezione {section}")
    return {"url": url, "label": label, "heading": heading, "rules": rules, "nav": nav, "section": section}


def _provenance(parsed: dict, source: Path, data: bytes) -> dict[str, object]:
    set_name, date_text = split_updated(parsed["label"])
    iso = parse_italian_date(date_text)
    return {
        "fonte": "Magic: the Gathering Wiki (it)",
        "url": parsed["url"],
        "file_sorgente": source.name,
        "sha256_sorgente": hashlib.sha256(data).hexdigest(),
        "aggiornato_a": parsed["label"],
        "set": set_name,
        "data": date_text,
        "data_iso": iso.isoformat() if iso else None,
    }


def import_wiki(source: Path, rules_dir: Path) -> ImportResult:
    """Write ``rules_dir/<section>.md`` from ``source``; refresh ``indice.md`` when the
    source carries a navigation box at least as new as the current one."""
    data = source.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise SourceFormatError(source, 1, f"il file non è UTF-8 ({exc.reason})") from None
    parsed = parse_wiki(text, source)
    meta = {"sezione": parsed["section"], **_provenance(parsed, source, data)}
    rules_dir.mkdir(parents=True, exist_ok=True)
    out = rules_dir / f"{parsed['section']}.md"
    out.write_text(render_section_file(meta, parsed["heading"], [tuple(r) for r in parsed["rules"]]), encoding="utf-8")
    index_written = False
    if parsed["nav"]:
        index_path = rules_dir / INDEX_FILE
        current = None
        if index_path.exists():
            current = parse_index_file(index_path).meta.get("data_iso")
        new = meta["data_iso"]
        # The newest seed wins; equal dates keep the existing file unless it is the same source.
        if current is None or (new and new >= str(current)):
            index_meta = {k: v for k, v in meta.items() if k != "sezione"}
            index_path.write_text(render_index_file(index_meta, parsed["nav"]), encoding="utf-8")
            index_written = True
    return ImportResult(parsed["section"], out, len(parsed["rules"]), index_written)
