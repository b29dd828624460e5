"""How well the citation parser finds citations: the snippet set (tests/data/citazioni.json),
precision and recall (shared by tests and bench).

The unit is a (snippet, cited number) pair with multiplicity: "704.5a e b" expects 704.5a and
704.5b; a range expands to every rule it names. A number found that the snippet does not cite
(a version number, an IP address, "MTR section 4") lowers precision; a cited number not found
lowers recall.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from judge import ROOT

SNIPPETS_FILE = ROOT / "tests" / "data" / "citazioni.json"
TUNING, HELD_OUT = "taratura", "verifica"


@dataclass(frozen=True)
class Snippet:
    id: str
    lang: str
    genre: str
    text: str
    cites: tuple[str, ...]
    half: str


@dataclass(frozen=True)
class SnippetSet:
    seed: int
    snippets: tuple[Snippet, ...]

    def half(self, name: str) -> list[Snippet]:
        return [s for s in self.snippets if s.half == name]


def load_snippets(path: Path | None = None) -> SnippetSet:
    data = json.loads(Path(path or SNIPPETS_FILE).read_text(encoding="utf-8"))
    return SnippetSet(data["seed"], tuple(
        Snippet(s["id"], s["lang"], s["genre"], s["text"], tuple(s["cites"]), s["half"]) for s in data["snippets"]
    ))


@dataclass
class Score:
    expected: int = 0
    found: int = 0
    correct: int = 0
    errors: list[tuple[Snippet, list[str], list[str]]] = field(default_factory=list)  # (snippet, missed, extra)

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.correct / self.expected if self.expected else 1.0

    def line(self) -> str:
        return (f"precisione {self.precision:.3f} ({self.correct}/{self.found})  "
                f"richiamo {self.recall:.3f} ({self.correct}/{self.expected})")


def score(snippets: list[Snippet], finder: Callable[[str], list[str]]) -> Score:
    """Precision and recall of ``finder`` (text -> cited numbers, one per occurrence)."""
    out = Score()
    for s in snippets:
        want, got = Counter(s.cites), Counter(finder(s.text))
        hit = sum((want & got).values())
        out.expected += sum(want.values())
        out.found += sum(got.values())
        out.correct += hit
        if hit != sum(want.values()) or hit != sum(got.values()):
            out.errors.append((s, sorted((want - got).elements()), sorted((got - want).elements())))
    return out


def linker_finder(corpus) -> Callable[[str], list[str]]:
    """The numbers the linker (/collega, /api/collega, judge collega) links in a text."""
    from judge.corpus.citations import find_citations
    from judge.corpus.pinned import known

    test = known(corpus)
    return lambda text: [n for c in find_citations(text, known=test) for n in c.numbers]
