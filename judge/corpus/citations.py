"""One citation parser for Italian and English rule references.

Finds "regola 502.1", "Vedi regola 701.49", "regole 601.2a–d", "sezione 8", "capitolo 5.",
"rule 704.5a", "rules 510.1c–d", "rules 608.3a and b", "704.5a e b", "704.5a/b",
"704.5a–704.5c", "CR 704.5a", "CR704.5a", "704.5A", Markdown ("_704.5a_", "__regola 704.5a__")
and bare dotted numbers such as "704.5a", with exact character spans. The index, the linker,
the corpus checks and the engine's tests all use it, so a reference is recognised the same way
everywhere.

And nothing else: version numbers ("Firefox 115.3", "Chrome 120.0"), IP addresses, thousands
("100.000 punti"), prices ("104.99 €", riferimenti: nessuno), numbers inside URLs and other documents' sections
("MTR section 4", "sezione 4 delle MTR", "capitolo 8, 4 giocatori") are not citations.
Precision and recall are measured on tests/data/citazioni.json (citations_eval.py).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass

from judge.corpus.numbers import SUBRULE_LETTERS, RuleNumber, letters_at, letters_index

# Boundaries that treat "_" as punctuation, so Markdown emphasis (_704.5a_) does not hide a citation.
_START = r"(?<![^\W_])"
_END = r"(?![^\W_])"

_KEYWORD = re.compile(
    rf"{_START}(?P<kw>regol[ae]|reg\.|rules?|CR(?=\s*\d)|C\.R\.|sezion[ei]|sez\.|sections?|capitol[oi]|cap\."
    rf"|chapters?|vedi|see|cfr\.|cf\.|la|alla|dalla|nella|della|sulla)(?:[.:])?(?:\s+|(?<=CR)(?=\d))",
    re.IGNORECASE,
)
# Keywords after which a single digit is a chapter ("capitolo 5", "section 9").
_CHAPTER_WORDS = ("sezion", "sez.", "section", "capitol", "cap.", "chapter")
# Weak keywords: they introduce a number but are no part of the citation's name. An Italian
# article stands for "la regola" ("nella 613", "la 704.5a"). After them a section must exist.
_WEAK = ("vedi", "see", "cfr.", "cf.", "la", "alla", "dalla", "nella", "della", "sulla")

_RULE = r"[1-9]\d{2}(?:\.[1-9]\d{0,2}[a-zA-Z]{0,2})?"
_RANGE_END = r"(?:[1-9]\d{2}\.[1-9]\d{0,2}[a-zA-Z]{0,2}|[1-9]\d{0,2}[a-zA-Z]{0,2}|[a-zA-Z]{1,2})"
# One number, optionally a range ("601.2a–d", "119.7–8", "903.6–903.7"); never part of a longer
# dotted sequence (an IP address, "3.14.159").
_ITEM = re.compile(rf"(?P<num>{_RULE})(?:\s?(?P<dash>[–—-])\s?(?P<end>{_RANGE_END}))?{_END}(?!\.\d)")
_CHAPTER_ITEM = re.compile(rf"(?P<num>[1-9]){_END}(?!\.\d)")
_SEPARATOR = re.compile(
    r"(?:\s*[,/]\s*(?:(?:e|ed|and|or|o)\s+)?|\s+(?:e|ed|and|or|o|oppure|&)\s+)", re.IGNORECASE
)
_LETTER = re.compile(rf"(?P<num>[a-z]){_END}")
# Single letters that are also words ("e", "a", "i"): a letter only where nothing follows.
_WORD_LETTERS = set("aei")
_NOTHING_FOLLOWS = re.compile(r"\s*(?:[.,;:!?)\]*_]|$)")
_AFTER_LIST_ITEM = re.compile(r"\s*(?:[.,;:!?)\]*_/]|$|(?:e|ed|and|or|o)\s)", re.IGNORECASE)

_BARE = re.compile(rf"{_START}(?<!\.)(?P<num>[1-9]\d{{2}}\.[1-9]\d{{0,2}}[a-zA-Z]{{0,2}})"
                   rf"(?:\s?(?P<dash>[–—-])\s?(?P<end>{_RANGE_END}))?{_END}(?!\.\d)")
# A section alone in parentheses ("(712)"): a citation when the section exists.
_BARE_SECTION = re.compile(r"(?<=\()(?P<num>[1-9]\d{2})(?=\))")
_URL = re.compile(r"(?:https?://|www\.)\S+", re.IGNORECASE)
# What a bare number after these is: a version, a price, not a rule.
_NOT_A_RULE_BEFORE = re.compile(
    r"(?:\b(?:firefox|chrome|chromium|safari|edge|opera|brave|android|ios|ipados|windows|macos|linux|ubuntu|"
    r"python|versione|version|ver\.?|v|build|release|esr|patch)\s*|[€$£]\s*)$",
    re.IGNORECASE,
)
_NOT_A_RULE_AFTER = re.compile(r"\s*(?:€|\$|£|\b(?:euro|eur|usd|dollari|dollars|esr)\b)", re.IGNORECASE)
# Other documents' sections: "MTR section 4", "sezione 4 delle MTR", "nell'IPG, sezione 1".
_OTHER_DOCUMENT = r"(?:MTR|IPG|JAR|Tournament Rules|Infraction Procedure Guide|Judging at Regular)"
_OTHER_BEFORE = re.compile(rf"\b{_OTHER_DOCUMENT}\)?[\s,:]*(?:\(\s*)?$", re.IGNORECASE)
_OTHER_AFTER = re.compile(rf"\s*(?:delle|della|dell['’]|del|of the|of|in the|nelle|nella|nel)\s*{_OTHER_DOCUMENT}",
                          re.IGNORECASE)

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


def _canonical(num: str) -> RuleNumber:
    return RuleNumber.parse(num.lower())


def _expand(num: str, end: str | None) -> tuple[str, ...]:
    try:
        start = _canonical(num)
    except ValueError:
        return ()
    if not end:
        return (str(start),)
    end = end.lower()
    if re.fullmatch(r"[a-z]{1,2}", end) and start.letters:
        # "601.2a–d": letters of one rule.
        return _letters(start, end)
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
    if stop.section == start.section and start.rule is not None and stop.rule == start.rule and start.letters and stop.letters:
        # "704.5a–704.5c": letters of one rule, written in full.
        return _letters(start, stop.letters)
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


def _letters(start: RuleNumber, end: str) -> tuple[str, ...]:
    try:
        lo, hi = letters_index(start.letters), letters_index(end)
    except ValueError:
        return (str(start),)
    if lo <= hi <= lo + _MAX_EXPANSION:
        return tuple(f"{start.section}.{start.rule}{letters_at(i)}" for i in range(lo, hi + 1))
    return (str(start),)


def _item_at(text: str, pos: int, chapter_ok: bool, previous: Citation | None) -> Citation | None:
    m = _ITEM.match(text, pos)
    if m:
        numbers = _expand(m["num"], m["end"])
        return Citation(m.start(), m.end(), m.group(0), numbers) if numbers else None
    if chapter_ok:
        m = _CHAPTER_ITEM.match(text, pos)
        # In a list, a digit followed by a word is a count ("capitolo 8, 4 giocatori"), not a chapter.
        if m and (previous is None or _AFTER_LIST_ITEM.match(text, m.end())):
            return Citation(m.start(), m.end(), m.group(0), (m["num"],))
    if previous is not None and "." in previous.numbers[-1]:
        # "rules 608.3a and b", "704.5a/b": a bare letter continues the previous rule.
        prev = RuleNumber.parse(previous.numbers[-1])
        m = _LETTER.match(text, pos)
        # A rule's letters skip «l» and «o»: after one («704.5l e m», riferimenti: nessuno) no letter continues it.
        if m and prev.letters and m["num"] in SUBRULE_LETTERS and not prev.has_forbidden_letters:
            later = letters_index(m["num"]) > letters_index(prev.letters[-1])
            word = m["num"] in _WORD_LETTERS and not _NOTHING_FOLLOWS.match(text, m.end())
            if later and len(prev.letters) == 1 and not word:
                return Citation(m.start(), m.end(), m.group(0), (f"{prev.section}.{prev.rule}{m['num']}",))
    return None


def _other_document(text: str, start: int, end: int) -> bool:
    return bool(_OTHER_BEFORE.search(text, max(0, start - 40), start) or _OTHER_AFTER.match(text, end))


def _not_a_rule(text: str, start: int, end: int) -> bool:
    return bool(_NOT_A_RULE_BEFORE.search(text, max(0, start - 20), start) or _NOT_A_RULE_AFTER.match(text, end))


def find_citations(text: str, bare: bool = True, known: Callable[[str], bool] | None = None,
                   stop: Callable[[int], bool] | None = None) -> list[Citation]:
    """Every citation in ``text``, in order, without overlaps.

    A dotted number after "see", "vedi" or an Italian article ("la 704.5a") is a citation; with
    ``bare`` (the default) one with no keyword is too, unless it reads as a version, a price or
    an address. Sections and chapters need a keyword ("regola 704", "sezione 9", "nella 613") or
    parentheses ("(712)"). ``known`` (a number exists in some edition) is asked about citations
    without a proper keyword: a bare number or section that names no rule is then no citation.
    ``stop(count)``, asked before each candidate with the count of citations found so far: True
    ends the search there (a public endpoint's budget); what was found is returned.
    """
    stop = stop or _never
    urls = _Spans((m.start(), m.end()) for m in _URL.finditer(text)) if "://" in text or "ww." in text.lower() \
        else _Spans(())

    def in_url(pos: int) -> bool:
        return urls.overlaps(pos, pos + 1)

    found: list[Citation] = []
    taken_until = -1
    for kw in _KEYWORD.finditer(text):
        if stop(len(found)):
            return found
        if kw.start() < taken_until or in_url(kw.start()):
            continue
        word = kw["kw"]
        lower = word.lower()
        weak = lower in _WEAK
        chapter_ok = lower.startswith(_CHAPTER_WORDS)
        item = _item_at(text, kw.end(), chapter_ok, None)
        if item is None or (chapter_ok and _other_document(text, kw.start(), item.end)):
            continue
        if weak and known is not None and "." not in item.numbers[0] and not known(item.numbers[0]):
            continue
        items = [Citation(item.start, item.end, item.text, item.numbers, None if weak else word)]
        pos = item.end
        while not stop(len(found) + len(items)):
            sep = _SEPARATOR.match(text, pos)
            nxt = _item_at(text, sep.end(), chapter_ok, items[-1]) if sep else None
            if nxt is None:
                break
            items.append(nxt)
            pos = nxt.end
        found += items
        taken_until = pos
    if bare:
        found = _add_bare(text, found, in_url, known, stop)
    return found


def _never(count: int) -> bool:
    return False


class _Spans:
    """Disjoint spans ``(start, end)``, added in order: whether one overlaps ``[start, end)`` costs
    a binary search. (The linker checked every candidate against every citation found before
    it: a 60 KB text of citations cost seconds of CPU; now its time is linear in the text.)"""

    def __init__(self, spans=()):
        self.spans: list[tuple[int, int]] = []
        self.starts: list[int] = []
        for start, end in spans:
            self.add(start, end)

    def add(self, start: int, end: int) -> None:
        self.spans.append((start, end))
        self.starts.append(start)

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect_left(self.starts, end) - 1      # the last span starting before ``end``:
        return i >= 0 and self.spans[i][1] > start  # disjoint and in order, it ends last


def _add_bare(text: str, found: list[Citation], in_url, known, stop) -> list[Citation]:
    keyworded = _Spans((c.start, c.end) for c in found)
    bare = _Spans()              # each bare citation with the letters that continue it

    def free(start: int, end: int) -> bool:
        return not (in_url(start) or keyworded.overlaps(start, end) or bare.overlaps(start, end))

    extra: list[Citation] = []
    for m in _BARE.finditer(text):
        if stop(len(found) + len(extra)):
            return sorted(found + extra, key=lambda c: c.start)
        if not free(m.start(), m.end()) or _not_a_rule(text, m.start(), m.end()):
            continue
        numbers = _expand(m["num"], m["end"])
        if numbers and (known is None or any(known(n) for n in numbers)):
            item = Citation(m.start(), m.end(), m.group(0), numbers)
            extra.append(item)
            pos = item.end
            while (sep := _SEPARATOR.match(text, pos)) and (nxt := _letter_after(text, sep.end(), extra[-1])):
                extra.append(nxt)
                pos = nxt.end
            bare.add(m.start(), pos)
    for m in _BARE_SECTION.finditer(text):
        if stop(len(found) + len(extra)):
            break
        if free(m.start(), m.end()) and (known is None or known(m["num"])):
            extra.append(Citation(m.start(), m.end(), m["num"], (m["num"],)))
    return sorted(found + extra, key=lambda c: c.start)


def _letter_after(text: str, pos: int, previous: Citation) -> Citation | None:
    """A bare letter continuing a bare rule ("704.5a/b", "704.5a e b"), never another number."""
    if _ITEM.match(text, pos):
        return None
    return _item_at(text, pos, False, previous)


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
