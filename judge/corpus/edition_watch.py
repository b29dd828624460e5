"""Watching for the next edition: a daily job that reads the official rules page.

``check_for_edition()`` reads the page (its address is configurable: ``--pagina`` or
``JUDGE_RULES_PAGE``), finds the link to the TXT file, downloads a file the project does not
have into ``rules_en/in-arrivo/`` with its SHA-256 and size, and traces it against the editions
present: what the project's references and translation would need. It never changes the
edition in force: ``judge edizione adotta`` does, when a maintainer decides (``bring_in``).

A job that runs unattended, on what a web page says (issue 38): the whole check ends within its
deadline (a page sent at one byte a second ran past 45 s with ``--timeout 3``), each download has
a size limit, and only http(s) addresses on the page's own host (or the hosts given) are followed,
links and redirects alike (a ``file://`` link on the page was opened).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from judge.corpus.rules_en import EDITION_FILE, parse_edition

STAGING = "in-arrivo"  # in rules_en/: downloaded, not yet in force
DEFAULT_PAGE = "https://magic.wizards.com/en/rules"
# The official pages (the rules', the tournament documents') link their files on Wizards' media host.
DEFAULT_HOSTS = {"magic.wizards.com": ("media.wizards.com",), "wpn.wizards.com": ("media.wizards.com",)}
MAX_PAGE_BYTES = 2 * 1024 * 1024
MAX_BYTES = 8 * 1024 * 1024  # an edition is about 1 MB; anything far larger is not one
DEADLINE = 120.0             # seconds for the whole check: the page and the file
CHUNK = 64 * 1024
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


def allowed_hosts(page: str, hosts: Iterable[str] = ()) -> set[str]:
    """The hosts a check may fetch from: the page's own, the ones given, and for the official
    page the host its files are on."""
    own = (urllib.parse.urlsplit(page).hostname or "").lower()
    return {own, *DEFAULT_HOSTS.get(own, ()), *(h.strip().lower() for h in hosts if h.strip())} - {""}


def _allowed(url: str, hosts: set[str]) -> bool:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in ("http", "https") and (parts.hostname or "").lower() in hosts


def find_txt_link(html: str, page: str, hosts: Iterable[str] | None = None) -> tuple[str, str]:
    """(absolute URL, edition id) of the rules TXT file the page links to (the newest if several),
    among the http(s) links on ``hosts`` (default: the page's host and DEFAULT_HOSTS)."""
    hosts = allowed_hosts(page) if hosts is None else set(hosts)
    found, elsewhere = [], []
    for href in _LINK.findall(html):
        url = urllib.parse.urljoin(page, href.strip())
        name = urllib.parse.unquote(urllib.parse.urlsplit(url).path.rsplit("/", 1)[-1])
        date = _DATE.search(name)
        if "comprules" in name.replace(" ", "").lower() and date:
            (found if _allowed(url, hosts) else elsewhere).append((date.group(1), url))
    if not found:
        if elsewhere:
            _, url = max(elsewhere)
            raise WatchError(f"il collegamento al file TXT ({url[:200]}) non è un indirizzo http(s) di "
                             f"{', '.join(sorted(hosts))}: se il file sta davvero altrove, indica il suo host "
                             "con --host")
        raise WatchError("nella pagina non c'è un collegamento al file TXT del Regolamento")
    ident, url = max(found)
    return url, ident


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects are followed only to http(s) addresses on the allowed hosts."""

    def __init__(self, hosts: set[str]):
        self.hosts = hosts

    def http_error_302(self, req, fp, code, msg, headers):
        newurl = urllib.parse.urljoin(req.full_url, headers.get("location") or headers.get("uri") or "")
        if not _allowed(newurl, self.hosts):
            raise WatchError(f"{req.full_url[:200]} rimanda a {newurl[:200]}, che non è un indirizzo "
                             f"http(s) di {', '.join(sorted(self.hosts))}")
        return super().http_error_302(req, fp, code, msg, headers)

    http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302


def _opener(hosts: set[str]) -> urllib.request.OpenerDirector:
    """An opener that speaks only HTTP(S): no file://, ftp:// or data: handler at all."""
    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.HTTPHandler(), urllib.request.HTTPSHandler(),
                    _Redirects(hosts), urllib.request.HTTPDefaultErrorHandler(),
                    urllib.request.HTTPErrorProcessor()):
        opener.add_handler(handler)
    return opener


def _get(url: str, limit: int, timeout: float, deadline: float, hosts: set[str]) -> bytes:
    """The body at ``url``: at most ``limit`` bytes, all of it before ``deadline`` (time.monotonic),
    each wait at most ``timeout`` seconds; WatchError (Italian) otherwise."""
    if not _allowed(url, hosts):
        raise WatchError(f"{url[:200]} non è un indirizzo http(s) di {', '.join(sorted(hosts))} (altri host "
                         "si ammettono con --host)")
    request = urllib.request.Request(url, headers={"User-Agent": "judge-edizione-controlla/1"})
    late = WatchError(f"{url[:200]}: non scaricato entro il tempo massimo del controllo (--scadenza)")
    chunks, size = [], 0
    try:
        with _opener(hosts).open(request, timeout=max(0.1, min(timeout, deadline - time.monotonic()))) as response:
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limit:
                raise WatchError(f"{url[:200]} dichiara {int(declared)} byte, oltre il limite di {limit}: "
                                 "non è un'edizione del Regolamento")
            sock = getattr(getattr(response.fp, "raw", None), "_sock", None)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise late
                if sock is not None:          # no single wait goes past the deadline either
                    sock.settimeout(max(0.05, min(timeout, left)))
                chunk = response.read1(CHUNK) if hasattr(response, "read1") else response.read(CHUNK)
                if not chunk:
                    break
                chunks.append(chunk)
                size += len(chunk)
                if size > limit:
                    raise WatchError(f"{url[:200]} supera {limit} byte: non è un'edizione del Regolamento")
    except WatchError:
        raise
    except (OSError, ValueError, urllib.error.URLError) as exc:
        if time.monotonic() >= deadline:
            raise late from None
        raise WatchError(f"impossibile scaricare {url[:200]}: {exc}") from None
    return b"".join(chunks)


def staged_path(rules_en: Path, ident: str) -> Path:
    return rules_en / STAGING / f"MagicCompRules-{ident}.txt"


def check_for_edition(rules_en: Path, page: str, timeout: float = 30.0, deadline: float = DEADLINE,
                      hosts: Iterable[str] = ()) -> WatchReport:
    """Look at the official page; stage a file the project does not have. Raises WatchError.
    ``timeout``: the longest wait for the network; ``deadline``: seconds for the whole check;
    ``hosts``: hosts besides the page's from which the file may come."""
    report = WatchReport(page)
    until = time.monotonic() + deadline
    allowed = allowed_hosts(page, hosts)
    html = _get(page, MAX_PAGE_BYTES, timeout, until, allowed).decode("utf-8", "replace")
    report.url, report.edition = find_txt_link(html, page, allowed)
    current = rules_en / f"MagicCompRules-{report.edition}.txt"
    staged = staged_path(rules_en, report.edition)
    data = _get(report.url, MAX_BYTES, timeout, until, allowed)
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
