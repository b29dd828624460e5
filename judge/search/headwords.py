"""Words the project already ties to rules, so that a query made of them leads to those rules first.

Two sources, both written by the project and both pointing at rules:

- the analytic indexes' headwords (``rules_it/indice_analitico.tsv`` and ``..._en.tsv``): under
  «ETB», «livelli», «layers», «tocco letale» stand the doubts and the rules that answer them;
- the search glossary's jargon notes (``glossario.tsv``): «fizzle» → «… (regola 608.2b)».

A query unit (a word, a glossary term, a quoted phrase) whose words are a headword (stems compared,
so «layer» is the headword «layers») gives each rule under it a weight: the share of the headword's
entries that name the rule (the rule that answers most of its doubts weighs most). The search
multiplies a rule's score by ``1 + W_HEADWORD × mean weight over the query's units`` (query.py).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from judge import build_cache
from judge.corpus.citations import cited_numbers
from judge.search.analysis import terms, words


Key = tuple[str, tuple[str, ...]]  # (language, the headword's stems)


@dataclass
class Headwords:
    # (language, stems) -> headword as written (folded) -> rule -> how many of its entries name the rule
    counts: dict[Key, dict[str, Counter]] = field(default_factory=dict)

    @classmethod
    def build(cls, corpus, glossary) -> "Headwords":
        """The headwords of ``corpus``'s analytic indexes and ``glossary``'s jargon, kept in the build
        cache (half a second of a server's start: every headword stemmed)."""
        if not glossary.key:
            return cls._build(corpus, glossary)
        key = build_cache.digest(build_cache.code_digest("search"), corpus.content_hash, glossary.key)
        return build_cache.value("rubriche", key, lambda: cls._build(corpus, glossary), "voci degli indici analitici",
                                 keep=4, quiet=True)

    @classmethod
    def _build(cls, corpus, glossary) -> "Headwords":
        out = cls()
        for lang, index in corpus.analytic_indexes.items():
            for e in index.entries:
                out._add(lang, e.heading, Counter(n for n in e.rules if n in corpus))
        for j in glossary.all_jargon():
            cited = [n for n in cited_numbers(j.meaning) if n in corpus]
            for lang in ("it", "en"):
                # A jargon note names the rule that governs the word: as much as its most cited entry.
                found = out.counts.get((lang, tuple(terms(j.term, lang))), {}).get(_folded(j.term), Counter())
                top = max(found.values(), default=1)
                if cited:
                    out._add(lang, j.term, Counter({n: top for n in cited}))
        return out

    def _add(self, lang: str, heading: str, rules: Counter) -> None:
        stems = tuple(terms(heading, lang))
        if stems and rules:
            self.counts.setdefault((lang, stems), {}).setdefault(_folded(heading), Counter()).update(rules)

    def rules_for(self, label: str) -> dict[str, float]:
        """The rules tied to ``label`` as a headword in either language, weighted by the share of the
        headword's entries naming each (the larger of the two languages). A headword written as the
        label was («livelli») is taken alone; otherwise every headword with its stems («livello»
        finds «livelli» and «livellatore»: both meanings, which the page tells apart)."""
        out: dict[str, float] = {}
        folded = _folded(label)
        for lang in ("it", "en"):
            bucket = self.counts.get((lang, tuple(terms(label, lang))))
            if not bucket:
                continue
            merged = bucket[folded] if folded in bucket else sum(bucket.values(), Counter())
            top = max(merged.values())
            for n, k in merged.items():
                out[n] = max(out.get(n, 0.0), k / top)
        return out


def _folded(text: str) -> str:
    return " ".join(words(text))
