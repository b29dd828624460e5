"""One citation parser for Italian and English rule references.

Finds "regola 502.1", "Vedi regola 701.49", "regole 601.2a–d", "sezione 8",
"rule 704.5a", "rules 510.1c–d", "rules 608.3a and b", "CR 704.5a" and bare
dotted numbers such as "704.5a", with exact character spans. The index, the
linker, the corpus checks and the engine's tests all use it, so a reference is
recognised the same way everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.corpus.numbers import RuleNumber, letters_at, letters_index

_KEYWORD = re.compile(
    r"\b(?P<kw>regol[ae]|rules?|CR|sezion[ei]|sections?|capitol[oi]|chapters?)\.?\s+",
    re.IGNORECASE,
)
_NUM = r"[1-9]\d{2}(?:\.\d+[a-z]{0,2})?"
_RANGE_END = r"(?:[1-9]\d{2}\.\d+[a-z]{0,2}|\d+[a-z]{0,2}|[a-z]{1,2})"
# One number, optionally a range ("601.2a–d", "119.7–8", "903.6–903.7").
_ITEM = re.compile(
    rf"(?P<num>{_NUM})(?:\s?(?P<dash>[–—-])\s?(?P<end>{_RANGE_END}))?(?![\w])"
)
# A chapter is a single digit, only after "sezione"/"section"/"capitolo"/"chapter".
_CHAPTER_ITEM = re.compile(r"(?P<num>[1-9])(?![\w.]|\.\d)")
_SEPARATOR = re.compile(
    r"(?:\s*,\s*(?:(?:e|ed|and|or|o)\s+)?|\s+(?:e|ed|and|or|o|oppure)\s+)", re.IGNORECASE
)
_LETTER_ONLY = re.compile(r"(?P<num>[a-z])(?=[.,;:)\s]*$|[.,;:)])")
_BARE = re.compile(rf"(?<![\w.])(?P<num>[1-9]\d{{2}}\.\d+[a-z]{{0,2}})(?:\s?(?P<dash>[–—-])\s?(?P<end>{_RANGE_END}))?(?![\w])")

_MAX_EXPANSION = 60


@dataclass(frozen=True)
class Citation:
    """A reference found in a text: ``text[start:end]`` is the cited number (or range).

    ``numbers`` lists every rule it names, expanded and canonical (a chapter is "8");
    ``keyword`` is the word that introduced it ("regola", "rules", "CR"...) or None.
    """

    start: int
    end: int
    text: str
    numbers: tuple[str, ...]
    keyword: str | None = None

    @property
    def first(self) -> str:
        return self.numbers[0]


def _expand(num: str, end: str | None) -> tuple[str, ...]:
    try:
        start = RuleNumber.parse(num)
    except ValueError:
        return ()
    if not end:
        return (str(start),)
    if re.fullmatch(r"[a-z]{1,2}", end) and start.letters:
        # "601.2a–d": letters of one rule.
        try:
            lo, hi = letters_index(start.letters), letters_index(end)
        except ValueError:
            return (str(start),)
        if lo <= hi <= lo + _MAX_EXPANSION:
            return tuple(f"{start.section}.{start.rule}{letters_at(i)}" for i in range(lo, hi + 1))
        return (str(start),)
    if re.fullmatch(r"\d+", end) and start.rule is not None and not start.letters:
        # "119.7–8": rules of one section.
        hi = int(end)
        if start.rule <= hi <= start.rule + _MAX_EXPANSION:
            return tuple(f"{start.section}.{r}" for r in range(start.rule, hi + 1))
        return (str(start),)
    try:
        stop = RuleNumber.parse(end)
    except ValueError:
        return (str(start),)
    if (
        stop.section == start.section
        and start.rule is not None
        and stop.rule is not None
        and not start.letters
        and not stop.letters
        and start.rule <= stop.rule <= start.rule + _MAX_EXPANSION
    ):
        return tuple(f"{start.section}.{r}" for r in range(start.rule, stop.rule + 1))
    return (str(start), str(stop))


def _item_at(text: str, pos: int, chapter_ok: bool, previous: Citation | None) -> Citation | None:
    m = _ITEM.match(text, pos)
    if m:
        numbers = _expand(m["num"], m["end"])
        if numbers:
            return Citation(m.start(), m.end(), m.group(0), numbers)
        return None
    if chapter_ok:
        m = _CHAPTER_ITEM.match(text, pos)
        if m:
            return Citation(m.start(), m.end(), m.group(0), (m["num"],))
    if previous is not None:
        # "rules 608.3a and b": a bare letter continues the previous rule.
        prev = RuleNumber.parse(previous.numbers[-1]) if "." in previous.numbers[-1] else None
        m = _LETTER_ONLY.match(text, pos)
        if m and prev is not None and prev.letters:
            return Citation(m.start(), m.end(), m.group(0), (f"{prev.section}.{prev.rule}{m['num']}",))
    return None


def find_citations(text: str, bare: bool = True) -> list[Citation]:
    """Every citation in ``text``, in order, without overlaps.

    With ``bare`` (the default) a dotted number with no keyword ("see 704.5a")
    is a citation too; sections and chapters always need a keyword.
    """
    found: list[Citation] = []
    taken_until = -1
    for kw in _KEYWORD.finditer(text):
        if kw.start() < taken_until:
            continue
        word = kw["kw"]
        chapter_ok = word.lower().startswith(("sezion", "section", "capitol", "chapter"))
        item = _item_at(text, kw.end(), chapter_ok, None)
        if item is None:
            continue
        item = Citation(item.start, item.end, item.text, item.numbers, word)
        found.append(item)
        pos = item.end
        while True:
            sep = _SEPARATOR.match(text, pos)
            if not sep:
                break
            nxt = _item_at(text, sep.end(), chapter_ok, found[-1])
            if nxt is None:
                break
            found.append(nxt)
            pos = nxt.end
        taken_until = pos
    if bare:
        spans = [(c.start, c.end) for c in found]
        for m in _BARE.finditer(text):
            if any(s <= m.start() < e for s, e in spans):
                continue
            numbers = _expand(m["num"], m["end"])
            if numbers:
                found.append(Citation(m.start(), m.end(), m.group(0), numbers))
        found.sort(key=lambda c: c.start)
    return found


def cited_numbers(text: str) -> list[str]:
    """Distinct cited numbers in order of first appearance."""
    seen: dict[str, None] = {}
    for c in find_citations(text):
        for n in c.numbers:
            seen.setdefault(n, None)
    return list(seen)


_ONLY_CITATIONS_REST = re.compile(r"^[\s,;.:()\[\]]*$")


def as_rule_query(query: str) -> str | None:
    """If a query is only a rule reference ("704.5a", "cr 704.5a", "regola 121.4", "7045A"),
    the canonical number it names; otherwise None."""
    q = (query or "").strip()
    if not q or len(q) > 40:
        return None
    try:
        return str(RuleNumber.parse_loose(q))
    except ValueError:
        pass
    cites = find_citations(q)
    if len(cites) != 1:
        return None
    c = cites[0]
    rest = q[: c.start] + q[c.end :]
    if c.keyword:
        rest = re.sub(re.escape(c.keyword), "", rest, count=1, flags=re.IGNORECASE)
    rest = re.sub(r"\b(vedi|see|la|the)\b", "", rest, flags=re.IGNORECASE)
    # A bare section number ("703") needs a keyword to count as a rule query.
    if _ONLY_CITATIONS_REST.match(rest) and (c.keyword or "." in c.numbers[0]):
        return c.numbers[0]
    return None
