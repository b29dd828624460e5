"""Why an Italian community rule cites other numbers than the English in force.

Two different truths hide behind the same symptom:

* the cited rule moved: "vedi regola 730, “Gestione delle azioni illegali”" was right when
  written, and Handling Illegal Actions is 733 today — the citation is stale, cite 733;
* the Italian rule is outdated: the Italian 507.2 describes triggers at the beginning of
  combat and cites 603, “Gestione delle abilità innescate”, which is still 603; the
  English 507.2 is now another rule ("the active player gets priority", citing 117). The
  citation is right for its own text: the text is what is outdated, and 117 is no
  replacement for 603.

Evidence, strongest first: the title the Italian quotes after the number (whichever
section or named rule bears that title today is the rule it meant), then the rule trace
between the English editions (the number existed in an older edition and the trace took it
to a number the English in force cites). Without evidence the verdict is "unknown" and
the wording stays a hedge.
"""

from __future__ import annotations

import re
import unicodedata

from judge.corpus.citations import find_citations

MOVED = "spostata"  # the cited rule is elsewhere today
VALID = "valida"  # the cited number still names the rule the Italian meant
UNKNOWN = "ignota"

_QUOTED = re.compile(r"\s*,?\s*[\"“«‘']\s*(?P<title>[^\"”»’\n]{3,80}?)[.,]?\s*[\"”»’']")
_NAME_MAX_WORDS = 6  # a named rule ("701.52 Roll to Visit Your Attractions") has a short text


def _norm(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(ch if ch.isalnum() else " " for ch in folded if not unicodedata.combining(ch)).split())


def quoted_titles(text: str) -> dict[str, str]:
    """Cited number -> the title quoted right after it ("regola 730, “Gestione…”")."""
    out: dict[str, str] = {}
    for c in find_citations(text):
        m = _QUOTED.match(text, c.end)
        if m and len(c.numbers) == 1:
            out.setdefault(c.numbers[0], m["title"].strip())
    return out


def title_index(corpus) -> dict[str, set[str]]:
    """Normalised title -> numbers in force that bear it: sections and chapters (English, the
    wiki's Italian, the project's translation) and named rules (keyword abilities and actions)."""
    cached = getattr(corpus, "_title_index", None)
    if cached is not None:
        return cached
    index: dict[str, set[str]] = {}
    for rule in corpus.rules.values():
        texts = [rule.en, rule.it, rule.tr] if rule.is_heading else [rule.en, rule.tr]
        for t in texts:
            if t is None or not t.text:
                continue
            if not rule.is_heading and (len(t.text.split()) > _NAME_MAX_WORDS or t.text.rstrip().endswith(".")):
                continue
            index.setdefault(_norm(t.text), set()).add(rule.number)
    corpus._title_index = index
    return index


def verdict(corpus, number: str, title: str | None, english_cites: list[str]) -> tuple[str, str | None]:
    """(MOVED, its number today) / (VALID, number) / (UNKNOWN, None) for one Italian citation
    that the English counterpart does not make."""
    if title:
        bearers = title_index(corpus).get(_norm(title), set())
        if number in bearers:
            return VALID, number
        if bearers:
            # Prefer the number the English cites, then one of the same kind (section vs rule).
            ranked = sorted(bearers, key=lambda n: (n not in english_cites, ("." in n) != ("." in number), n))
            return MOVED, ranked[0]
    for edition in corpus.editions[:-1]:
        where = corpus.lineage.follow(number, edition)
        if where.exists and where.now and where.now != number and where.now in english_cites:
            return MOVED, where.now
    return UNKNOWN, None
