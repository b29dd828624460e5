"""Watching for new editions of the tournament documents, beside the rules (``judge edizione
controlla``): the official page of the documents links the MTR, IPG and JAR files, their names
dated ("MTG_MTR_2026Feb27_EN.pdf", "MTR-20260227.txt"); a file of an edition the project does not
have is downloaded into ``tornei_en/in-arrivo/`` with its SHA-256, never put in force.

The official files are PDFs: the project reads their text extraction (docs/tornei.md), so a new
edition is then extracted (``pdftotext``), checked (``judge verifica``) and copied into
``tornei_en/`` with its line in ``edizioni.tsv`` by a maintainer.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

from judge.corpus.edition_watch import DEADLINE, MAX_PAGE_BYTES, WatchError, _get, allowed_hosts
from judge.tournament.model import DOCUMENTS

DEFAULT_DOCUMENTS_PAGE = "https://wpn.wizards.com/en/rules-documents"
STAGING = "in-arrivo"
MAX_BYTES = 16 * 1024 * 1024
_HREF = re.compile(r"""href\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_DATE_DIGITS = re.compile(r"(20\d{2})(\d{2})(\d{2})")
_DATE_WORDS = re.compile(r"(20\d{2})[_\- ]?([A-Za-z]{3})[a-z]*[_\- ]?(\d{1,2})(?!\d)")


@dataclass
class DocumentWatch:
    doc: str
    url: str
    edition: str
    status: str  # "nessuna novità", "nuova edizione", "già scaricata"
    staged: Path | None = None
    sha256: str | None = None


def edition_of(name: str) -> str | None:
    """The edition (AAAAMMGG) a file's name carries: "MTR-20260227.txt", "MTG_IPG_2024Sep23_EN.pdf"."""
    if (m := _DATE_DIGITS.search(name)):
        return "".join(m.groups())
    if (m := _DATE_WORDS.search(name)) and m[2].lower() in _MONTHS:
        try:
            return dt.date(int(m[1]), _MONTHS[m[2].lower()], int(m[3])).strftime("%Y%m%d")
        except ValueError:
            return None
    return None


def find_document_links(html: str, page: str) -> dict[str, tuple[str, str]]:
    """doc → (absolute URL, edition) of the newest file the page links for each document."""
    found: dict[str, tuple[str, str]] = {}
    for href in _HREF.findall(html):
        url = urllib.parse.urljoin(page, href.strip())
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        for doc, d in DOCUMENTS.items():
            if re.search(rf"(?<![A-Za-z]){d.short}(?![A-Za-z])", name) and (ident := edition_of(name)):
                if doc not in found or ident > found[doc][1]:
                    found[doc] = (url, ident)
    return found


def check_for_documents(tornei_en: Path, page: str, known: dict[str, set[str]], timeout: float = 30.0,
                        deadline: float = DEADLINE, hosts=()) -> list[DocumentWatch]:
    """Look at the documents' page; stage the file of any edition not in ``known`` (doc → editions).
    Within ``deadline`` seconds, from http(s) addresses on the page's host or ``hosts`` only
    (judge/corpus/edition_watch.py)."""
    until = time.monotonic() + deadline
    allowed = allowed_hosts(page, hosts)
    html = _get(page, MAX_PAGE_BYTES, timeout, until, allowed).decode("utf-8", "replace")
    out = []
    for doc, (url, ident) in sorted(find_document_links(html, page).items()):
        if ident in known.get(doc, set()):
            out.append(DocumentWatch(doc, url, ident, "nessuna novità"))
            continue
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        suffix = Path(name).suffix.lower() or ".pdf"
        staged = Path(tornei_en) / STAGING / f"{DOCUMENTS[doc].short}-{ident}{suffix}"
        data = _get(url, MAX_BYTES, timeout, until, allowed)
        digest = hashlib.sha256(data).hexdigest()
        if staged.exists() and staged.read_bytes() == data:
            out.append(DocumentWatch(doc, url, ident, "già scaricata", staged, digest))
            continue
        staged.parent.mkdir(parents=True, exist_ok=True)
        staged.write_bytes(data)
        meta = {"url": url, "page": page, "sha256": digest, "size": len(data),
                "downloaded": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
        staged.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        out.append(DocumentWatch(doc, url, ident, "nuova edizione", staged, digest))
    return out


__all__ = ["DEFAULT_DOCUMENTS_PAGE", "DocumentWatch", "WatchError", "check_for_documents", "edition_of",
           "find_document_links"]
