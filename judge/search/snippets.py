"""Result snippets: a window of the rule text around the matched words, as text and as HTML with <mark>."""

from __future__ import annotations

import html
from array import array

from judge.lru import ByteLRU, text_size
from judge.search.analysis import WORD_RE, stem

SNIPPET_CHARS = 240


def shorten(text: str, limit: int = SNIPPET_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut + " …"


# Rule texts come up again and again across searches: their words' terms and places are kept, in a
# compact form (a tuple of shared term strings, a flat array of spans: about 2 KB a rule), up to 4 MB.
_positions: ByteLRU = ByteLRU(4 * 1024 * 1024, lambda got: text_size(got[0]) + 8 * len(got[1]) + 4 * len(got[2]) + 150)


def _where(text: str, lang: str) -> tuple[str, tuple[str, ...], array]:
    got = _positions.get((text, lang))
    return got if got is not None else _positions.put((text, lang), _find(text, lang))


def _find(text: str, lang: str) -> tuple[str, tuple[str, ...], array]:
    """The text with its spaces normalised, the term of each of its words in order, and where each
    is (start and end, flattened).

    The words are the analyzer's (same pattern) and each is analysed alone through ``stem``'s cache:
    the filters work word by word, so the terms are the index's, at a fraction of running the whole
    analyzer chain over the text (which was half of a search's time on distinct queries). Stop words
    have no term: no query looks for them."""
    text = " ".join(text.split())
    terms: list[str] = []
    spans = array("I")
    for m in WORD_RE.finditer(text):
        term = stem(m.group(), lang)
        if term is not None:
            terms.append(term)
            spans.extend(m.span())
    return text, tuple(terms), spans


def make_snippet(text: str, lang: str, stems: set[str], limit: int = SNIPPET_CHARS) -> tuple[str, str]:
    """A window of ``text`` around the densest cluster of matched words: plain text and HTML with <mark>."""
    text, terms, flat = _where(text, lang)
    spans = [(flat[2 * i], flat[2 * i + 1]) for i, term in enumerate(terms) if term in stems]  # in text order
    if len(text) <= limit:
        start, end = 0, len(text)
    elif not spans:
        start, end = 0, limit
    else:
        # The window of `limit` characters that covers the most matches.
        best_i, best_count = 0, 0
        j = 0
        for i, (s, _) in enumerate(spans):
            while j < len(spans) and spans[j][1] - s <= limit:
                j += 1
            if j - i > best_count:
                best_i, best_count = i, j - i
        start = max(0, spans[best_i][0] - 40)
        end = min(len(text), start + limit)
        start = max(0, min(start, end - limit))
        if start > 0:
            sp = text.find(" ", start)
            start = sp + 1 if 0 <= sp < spans[best_i][0] else start
        if end < len(text):
            sp = text.rfind(" ", start, end)
            end = sp if sp > start else end
    pre = "… " if start > 0 else ""
    post = " …" if end < len(text) else ""
    plain = pre + text[start:end] + post
    # Marks go in as control characters (never in a rule text), the window is escaped once, then
    # the control characters become tags.
    parts: list[str] = []
    pos = start
    for s, e in spans:
        if s < pos or s < start or e > end:
            continue
        parts += (text[pos:s], "\x01", text[s:e], "\x02")
        pos = e
    parts.append(text[pos:end])
    marked = html.escape("".join(parts)).replace("\x01", "<mark>").replace("\x02", "</mark>")
    return plain, pre + marked + post
