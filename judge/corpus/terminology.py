"""The terminology table (``rules_it/terminologia.tsv``): official Italian Magic terms.

One table serves the project's translation (and its consistency check), the search
glossary, the glossary page and the engine's Italian log, so that the product names
each thing one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from judge import RULES_IT_DIR
from judge.corpus.frontmatter import SourceFormatError

TERMINOLOGY_FILE = "terminologia.tsv"
_COLUMNS = ("inglese", "italiano", "forme", "evitare", "fonte")


def _english_pattern(form: str) -> str:
    # A lowercase form matches in any case (sentence starts, Title Case headings); a form
    # written with a capital ("Aura", "Commander") matches only as written.
    words = [re.escape(w) for w in re.split(r"[\s]+", form.strip())]
    body = r"\s+".join(words).replace(r"\-", r"[-‑]")
    if form[:1].islower():
        body = f"(?i:{body})"
    return rf"(?<![\w\-’']){body}(?:s|es)?(?![\w\-’'])"


def italian_form_pattern(form: str) -> str:
    """A word start ("grimori" matches "grimorio"); a trailing "$" asks for the whole word."""
    whole = form.endswith("$")
    body = re.escape(form.rstrip("$").lower()).replace(r"\ ", r"\s+")
    return rf"(?<![\w]){body}" + (r"(?![\w])" if whole else "")


@dataclass(frozen=True)
class Term:
    english: tuple[str, ...]  # forms, canonical first
    italian: str  # canonical Italian term
    forms: tuple[str, ...]  # accepted Italian word starts; empty: not checked
    avoid: tuple[str, ...]  # Italian alternatives never to use
    source: str
    line: int

    @property
    def term(self) -> str:
        return self.english[0]

    @cached_property
    def english_re(self) -> re.Pattern:
        return re.compile("|".join(_english_pattern(f) for f in self.english))

    @cached_property
    def forms_re(self) -> re.Pattern | None:
        return re.compile("|".join(italian_form_pattern(f) for f in self.forms)) if self.forms else None

    @cached_property
    def avoid_re(self) -> re.Pattern | None:
        return re.compile("|".join(italian_form_pattern(f) for f in self.avoid)) if self.avoid else None

    def in_english(self, text: str) -> bool:
        return bool(self.english_re.search(text))

    def in_italian(self, text: str) -> bool:
        return bool(self.forms_re and self.forms_re.search(text.lower()))

    def avoided_in(self, text: str) -> str | None:
        """The avoided alternative ``text`` uses, if any."""
        m = self.avoid_re.search(text.lower()) if self.avoid_re else None
        return m.group(0) if m else None


class Terminology:
    def __init__(self, terms: list[Term], path: Path | None = None):
        self.terms = terms
        self.path = path
        self._by_english: dict[str, Term] = {}
        for t in terms:
            for f in t.english:
                self._by_english.setdefault(f.lower(), t)
        # Checked terms by the first word of each English form (lowercase, before any hyphen), and
        # terms with avoided forms by the first word of each: a term's regex can match only where
        # one of its words occurs, so a substring test picks the few terms a text can use.
        self._checked = [(re.split(r"[\s\-‑]+", f.strip().lower())[0], t) for t in terms if t.forms for f in t.english]
        self._avoidable = [(f.rstrip("$").lower().split()[0], t) for t in terms for f in t.avoid if f.rstrip("$").strip()]

    def __iter__(self):
        return iter(self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def italian(self, english: str) -> str | None:
        """The canonical Italian term for an English term (any of its forms, any case)."""
        t = self._by_english.get(english.strip().lower())
        return t.italian if t else None

    def get(self, english: str) -> Term | None:
        return self._by_english.get(english.strip().lower())

    def required_by(self, english_text: str) -> list[Term]:
        """Checked terms that ``english_text`` uses: their Italian must appear in its translation.

        A term found only inside a longer term ("battle" in "battle cry", "mana" in "mana value")
        is that longer term's business, not its own."""
        low = english_text.lower()
        candidates = dict.fromkeys(t for anchor, t in self._checked if anchor in low)  # in table order
        spans = {t: s for t in candidates if (s := [m.span() for m in t.english_re.finditer(english_text)])}
        everything = [(a, b, t) for t, found in spans.items() for a, b in found]
        out = []
        for term, own in spans.items():
            if any(not any(o is not term and a <= start and end <= b and (b - a) > (end - start)
                           for a, b, o in everything) for start, end in own):
                out.append(term)
        return out


    def avoided_by(self, italian: str) -> list[tuple[Term, str]]:
        """(term, the avoided alternative used) for every term whose avoided forms ``italian`` uses,
        in table order."""
        low = italian.lower()
        out = []
        for term in dict.fromkeys(t for anchor, t in self._avoidable if anchor in low):
            used = term.avoided_in(italian)
            if used:
                out.append((term, used))
        return out


def parse_terminology(path: Path) -> Terminology:
    terms: list[Term] = []
    header_seen = False
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        cells = raw.split("\t")
        if not header_seen:
            if tuple(c.strip() for c in cells) != _COLUMNS:
                raise SourceFormatError(path, number, f"intestazione attesa: {' TAB '.join(_COLUMNS)}")
            header_seen = True
            continue
        if len(cells) != len(_COLUMNS):
            raise SourceFormatError(path, number, f"attesi {len(_COLUMNS)} campi separati da TAB, trovati {len(cells)}")
        english, italian, forms, avoid, source = (c.strip() for c in cells)
        if not english or not italian or not source:
            raise SourceFormatError(path, number, "inglese, italiano e fonte sono obbligatori")

        def split(cell: str) -> tuple[str, ...]:
            return () if cell in ("", "-") else tuple(x.strip() for x in cell.split("|") if x.strip())

        terms.append(Term(split(english), italian, split(forms), split(avoid), source, number))
    if not header_seen:
        raise SourceFormatError(path, 1, "tabella vuota")
    return Terminology(terms, path)


_cache: dict[tuple[str, int, int], Terminology] = {}


def load_terminology(folder: Path | None = None) -> Terminology:
    """The table in ``folder`` (default: the repository's rules_it/), cached until the file changes."""
    path = Path(folder or RULES_IT_DIR) / TERMINOLOGY_FILE
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    table = _cache.get(key)
    if table is None:
        _cache.clear()
        table = _cache[key] = parse_terminology(path)
    return table
