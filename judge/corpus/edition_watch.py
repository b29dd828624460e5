"""Watching for the next edition: a daily job that reads the official rules page.

``check_for_edition()`` reads the page (its address is configurable: ``--pagina`` or
``JUDGE_RULES_PAGE``), finds the link to the TXT file, downloads a file the project does not
have into ``rules_en/in-arrivo/`` with its SHA-256 and size, and traces it against the editions
present: what the project's references and translation would need. It never changes the
edition in force: ``judge edizione adotta`` does, when a maintainer decides (``bring_in``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.rules_en import EDITION_FILE, parse_edition

STAGING = "in-arrivo"  # in rules_en/: downloaded, not yet in force
DEFAULT_PAGE = "https://magic.wizards.com/en/rules"
MAX_BYTES = 8 * 1024 * 1024  # an edition is about 1 MB; anything far larger is not one
_LINK = re.compile(r"""href\s*=\s*["']([^"']+?\.txt)["']""", re.IGNORECASE)
_DATE = re.compile(r"(20\d{6})")


class WatchError(Exception):
    """What went wrong, in Italian, for the job's log."""


@dataclass
class WatchReport:
    page: str
    url: str | None = None
    edition: str | None = None
    status: str = ""  # "nessuna novità", "nuova edizione", "file ufficiale", "già scaricata"
    sha256: str | None = None
    size: int | None = None
    staged: Path | None = None
    lines: list[str] = field(default_factory=list)  # what the new edition needs, in Italian


def find_txt_link(html: str, page: str) -> tuple[str, str]:
    """(absolute URL, edition id) of the rules TXT file the page links to (the newest if several)."""
    found = []
    for href in _LINK.findall(html):
        url = urllib.parse.urljoin(page, href.strip())
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        date = _DATE.search(name)
        if "comprules" in name.replace(" ", "").lower() and date:
            found.append((date.group(1), url))
    if not found:
        raise WatchError("nella pagina non c'è un collegamento al file TXT del Regolamento")
    ident, url = max(found)
    return url, ident


def _get(url: str, limit: int, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "judge-edizione-controlla/1"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (configured address)
            data = response.read(limit + 1)
    except OSError as exc:
        raise WatchError(f"impossibile scaricare {url}: {exc}") from None
    if len(data) > limit:
        raise WatchError(f"{url} supera {limit} byte: non è un'edizione del Regolamento")
    return data


def staged_path(rules_en: Path, ident: str) -> Path:
    return rules_en / STAGING / f"MagicCompRules-{ident}.txt"


def check_for_edition(rules_en: Path, page: str, timeout: float = 30.0) -> WatchReport:
    """Look at the official page; stage a file the project does not have. Raises WatchError."""
    report = WatchReport(page)
    html = _get(page, 2 * 1024 * 1024, timeout).decode("utf-8", "replace")
    report.url, report.edition = find_txt_link(html, page)
    current = rules_en / f"MagicCompRules-{report.edition}.txt"
    staged = staged_path(rules_en, report.edition)
    data = _get(report.url, MAX_BYTES, timeout)
    report.sha256, report.size = hashlib.sha256(data).hexdigest(), len(data)
    if current.exists() and _lf(current.read_bytes()) == _lf(data) and not _verifies_copy(rules_en, report):
        report.status = "nessuna novità"
        return report
    if staged.exists() and staged.read_bytes() == data:
        report.status = "già scaricata"
        report.staged = staged
        return report
    staged.parent.mkdir(parents=True, exist_ok=True)
    part = staged.with_suffix(".part")
    part.write_bytes(data)
    part.replace(staged)
    try:
        parse_edition(staged)
    except Exception as exc:  # not an edition (an error page, a moved file): keep nothing
        staged.unlink(missing_ok=True)
        raise WatchError(f"il file scaricato non è un'edizione leggibile del Regolamento: {exc}") from None
    meta = {"url": report.url, "page": page, "sha256": report.sha256, "size": report.size,
            "downloaded": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")}
    staged.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    report.staged = staged
    report.status = "file ufficiale" if current.exists() else "nuova edizione"
    return report


def _lf(data: bytes) -> bytes:
    return data.replace(b"\r\n", b"\n")


def _verifies_copy(rules_en: Path, report: WatchReport) -> bool:
    """Whether the download is the official file of an edition whose copy here is not verified."""
    from judge.corpus.edition_register import REGISTER_FILE, read_register, verify

    known = read_register(rules_en / REGISTER_FILE).get(report.edition)
    ours = verify(rules_en / f"MagicCompRules-{report.edition}.txt", known)
    return not ours.verified and known is not None and known.sha256 == report.sha256


def bring_in(rules_en: Path, ident: str, dry_run: bool = False) -> str | None:
    """Put a staged edition in force (rules_en/), replacing an unverified copy of the same
    edition if that is what was staged. Returns the file name moved in, or None when the edition
    is already in rules_en/ and nothing is staged. Raises ValueError (Italian) when it is nowhere."""
    if not EDITION_FILE.match(f"MagicCompRules-{ident}.txt"):
        raise ValueError(f"«{ident[:20]}» non è un'edizione: usa la data AAAAMMGG (per esempio 20260925).")
    target = rules_en / f"MagicCompRules-{ident}.txt"
    staged = staged_path(rules_en, ident)
    if not staged.exists():
        if target.exists():
            return None
        raise ValueError(f"L'edizione {ident} non è né in rules_en/ né in rules_en/{STAGING}/: "
                         "copiala lì o lancia `judge edizione controlla`.")
    if not dry_run:
        meta = staged.with_suffix(".json")
        shutil.move(str(staged), target)
        if meta.exists():
            _register(rules_en, ident, json.loads(meta.read_text(encoding="utf-8")))
            meta.unlink()
    return target.name


def _register(rules_en: Path, ident: str, meta: dict) -> None:
    """Record a downloaded edition in the register, unless it already knows the official file."""
    from judge.corpus.edition_register import REGISTER_FILE, Known, read_register, write_register

    path = rules_en / REGISTER_FILE
    known = read_register(path)
    if ident in known and known[ident].sha256:
        return
    date = dt.date(int(ident[:4]), int(ident[4:6]), int(ident[6:]))
    known[ident] = Known(ident, date, meta.get("size"), meta.get("sha256"),
                         f"Scaricata da {meta.get('url')} il {meta.get('downloaded', '')[:10]}.")
    write_register(path, known)
