"""The scenario library: ``scenarios/*.json``, with their titles and the rules they exercise.

``scenarios_for_rule("704.5j")`` is what a rule page calls for its "Prova nel
simulatore" block.  The files are read once and re-read only when the folder
changes (names, sizes or modification times), so calling it per request is cheap.
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from judge import ROOT

LIBRARY_DIR = ROOT / "scenarios"
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,80}$")
MAX_LIBRARY_FILE = 2_000_000


@dataclass(frozen=True)
class LibraryEntry:
    slug: str
    title: str
    description: str
    rules: tuple[str, ...]
    variant: str = "two-player"
    path: Path = field(default=Path(), compare=False)
    question: str = ""
    answer: str = ""

    @property
    def section(self) -> str:
        """The section of the scenario's main rule (its first): "704" for 704.5g."""
        return self.rules[0].split(".")[0] if self.rules else ""


_lock = threading.Lock()
_cache: dict[str, object] = {"key": None, "entries": []}


def _fingerprint(folder: Path) -> tuple:
    try:
        files = sorted(folder.glob("*.json"))
    except OSError:
        return ()
    out = []
    for p in files:
        try:
            st = p.stat()
        except OSError:
            continue
        out.append((p.name, st.st_mtime_ns, st.st_size))
    return (str(folder), tuple(out))


def _read(path: Path) -> LibraryEntry | None:
    slug = path.stem
    if not SLUG_RE.match(slug):
        return None
    try:
        if path.stat().st_size > MAX_LIBRARY_FILE:
            return None
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    title = data.get("title") if isinstance(data.get("title"), str) else ""
    desc = data.get("description") if isinstance(data.get("description"), str) else ""
    rules = data.get("rules") if isinstance(data.get("rules"), list) else []
    variant = data.get("variant") if isinstance(data.get("variant"), str) else "two-player"
    text = {k: data[k].strip() if isinstance(data.get(k), str) else "" for k in ("question", "answer")}
    return LibraryEntry(slug=slug, title=title.strip() or slug, description=desc.strip(),
                        rules=tuple(r.strip() for r in rules if isinstance(r, str) and r.strip()),
                        variant=variant, path=path, **text)


# The folder is looked at again at most this often: a busy server pays no directory scan per request.
RECHECK_SECONDS = 1.0


def library(folder: Path | None = None) -> list[LibraryEntry]:
    """Every readable library scenario, sorted by title."""
    folder = Path(folder) if folder else LIBRARY_DIR
    now = time.monotonic()
    with _lock:
        if _cache.get("folder") == str(folder) and now - _cache.get("checked", -1e9) < RECHECK_SECONDS:
            return list(_cache["entries"])  # type: ignore[arg-type]
    key = _fingerprint(folder)
    with _lock:
        if _cache["key"] == key:
            _cache["folder"], _cache["checked"] = str(folder), now
            return list(_cache["entries"])  # type: ignore[arg-type]
    entries = [e for e in (_read(p) for p in sorted(folder.glob("*.json"))) if e is not None]
    entries.sort(key=lambda e: (e.title.casefold(), e.slug))
    with _lock:
        _cache["key"], _cache["entries"] = key, entries
        _cache["folder"], _cache["checked"] = str(folder), now
    return list(entries)


def by_section(entries: list[LibraryEntry]) -> list[tuple[str, list[LibraryEntry]]]:
    """Entries grouped by the section of their main rule, sections in rule order."""
    groups: dict[str, list[LibraryEntry]] = {}
    for e in entries:
        groups.setdefault(e.section, []).append(e)
    return sorted(groups.items(), key=lambda kv: (not kv[0].isdigit(), int(kv[0]) if kv[0].isdigit() else 0))


_versions: dict[tuple, int] = {}


def version(folder: Path | None = None) -> int:
    """Changes whenever the library's content does (for caches of pages that list scenarios).
    Computed once per library state: every cached page asks, on every request."""
    entries = library(folder)
    key = (str(folder), _cache["key"])
    got = _versions.get(key)
    if got is None:
        got = hash(tuple((e.slug, e.title, e.rules, e.question) for e in entries))
        if len(_versions) > 64:
            _versions.clear()
        _versions[key] = got
    return got


def entry(slug: str, folder: Path | None = None) -> LibraryEntry | None:
    if not SLUG_RE.match(slug or ""):
        return None
    return next((e for e in library(folder) if e.slug == slug), None)


def load(slug: str, folder: Path | None = None) -> dict | None:
    """The scenario data of a library entry (not yet validated), or None."""
    e = entry(slug, folder)
    if e is None:
        return None
    try:
        data = json.loads(e.path.read_text(encoding="utf-8-sig"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def exercises(cited: str, number: str) -> bool:
    """Does a scenario citing ``cited`` exercise the rule ``number``?

    Exact matches, and rules below ``number``: page 704.5 lists a scenario for
    704.5j, page 704 one for 704.5j, but page 704.5j not one for 704.5.
    """
    cited, number = cited.strip().lower(), number.strip().lower()
    if cited == number:
        return True
    if not cited.startswith(number):
        return False
    rest = cited[len(number):]
    if "." not in number:                          # a section ("704") or chapter
        return rest.startswith(".") or (len(number) == 1 and rest[:1].isdigit())
    return number[-1].isdigit() and rest.isalpha()  # 704.5 → 704.5j; nothing is below 704.5a (704.5aa isn't)


_by_rule: dict[tuple, dict[str, list[tuple[str, str]]]] = {}


def scenarios_for_rule(number: str, folder: Path | None = None) -> list[tuple[str, str]]:
    """``[(slug, title)]`` of the library scenarios that exercise a rule (exact match first).
    The rule -> scenarios table is built once per library state: every rule page asks, and
    real traffic asks for a different rule each time."""
    entries = library(folder)
    key = (str(folder), _cache["key"])
    table = _by_rule.get(key)
    if table is None:
        _by_rule.clear()  # one library state at a time
        table = _by_rule[key] = _rule_table(entries)
    return list(table.get(number.strip().lower(), ()))


def _ancestors(cited: str) -> set[str]:
    """The chapter, section and rule above a cited number: "704.5j" -> {"7", "704", "704.5"}."""
    out = {cited[:1], cited[:3]}
    rule = re.match(r"\d{3}\.\d+", cited)
    if rule:
        out.add(rule.group(0))
    out.discard(cited)
    return {a for a in out if exercises(cited, a)}


def _rule_table(entries: list[LibraryEntry]) -> dict[str, list[tuple[str, str]]]:
    """Every rule a scenario exercises -> the scenarios, those citing it exactly first, each in
    library order (the order ``exercises`` implies, computed once instead of per page)."""
    exact: dict[str, list[LibraryEntry]] = {}
    below: dict[str, list[LibraryEntry]] = {}
    for e in entries:
        cited = {r.strip().lower() for r in e.rules}
        for r in cited:
            exact.setdefault(r, []).append(e)
        for a in set().union(*(_ancestors(r) for r in cited)) - cited if cited else ():
            below.setdefault(a, []).append(e)
    return {n: [(e.slug, e.title) for e in exact.get(n, []) + below.get(n, [])] for n in exact.keys() | below.keys()}
