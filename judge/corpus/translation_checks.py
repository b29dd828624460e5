"""Checks of the project's translation against the English it translates.

Fidelity (errors: the translation says something else than the English):
same numbering and structure, the same rule citations and no others, the same
examples, mana symbols, power/toughness and numbers, the terminology table's terms,
no English sentence left, "may"/"must"/"can't"/negations kept, no summarising.

Currency (warnings: the normal life of a translation when an edition is dropped in):
a rule whose English text changed since it was translated ("traduzione da
aggiornare", with the word diff of the English), a rule without translation, a
translation of a rule that no longer exists.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from judge.corpus.findings import ERROR, WARNING, Finding
from judge.corpus.citations import cited_numbers, find_citations
from judge.corpus.diff import word_diff
from judge.corpus.lineage import Lineage
from judge.corpus.numbers import sort_key
from judge.corpus.rules_en import Edition
from judge.corpus.terminology import Terminology
from judge.corpus.translation import Stamp, TranslationFile, english_hash, number_with_fingerprint

# -- the English units a translation covers -----------------------------------------------


def section_rules(edition: Edition, section: str) -> list[str]:
    """The numbers of a section's rules, from the edition's rules grouped once by section."""
    groups = edition.__dict__.get("_by_section")
    if groups is None:
        groups = {}
        for r in edition.rules:
            groups.setdefault(r.number.split(".")[0], []).append(r.number)
        edition._by_section = groups
    return list(groups.get(section, ()))


# -- fidelity heuristics ----------------------------------------------------------------------

_MANA = re.compile(r"\{[^{}\s]{1,12}\}")
_PT = re.compile(r"(?<![\w./])[+\-−]?(?:\d+|X|\*)/[+\-−]?(?:\d+|X|\*)(?![\w/])")
_DIGITS = re.compile(r"(?<![\w.])\d+(?![\w])")
# Card and other proper names: runs of capitalised words with their connectors.
_NAME = re.compile(
    r"[A-Z][\w’'\-]*(?:,?\s+(?:(?:of|the|and|to|a|an|in|on|from|with|for|at|de|du|la|le|into|upon|your|than)\s+)*[A-Z][\w’'\-]*)+"
)
_EN_FUNCTION = frozenset("""
the of and is are that this these those with which whose from into onto their they them would could
should can't cannot doesn't don't isn't aren't won't wasn't weren't hasn't haven't player players each
its it's been being has have had if when whenever then than may must any an by at as other another you
your yours creature creatures spell spells ability abilities card cards permanent permanents damage life
game games target targets controls controller owner opponent opponents instead only also there where
who what while until unless such same some both either neither nor not no none
""".split())
_IDIOMS = re.compile(r"\bon the other hand\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-zÀ-ÿ’']+")

_CANT_EN = re.compile(r"\bcan(?:'|’)t\b|\bcannot\b|\bcan not\b", re.IGNORECASE)
_MAY_EN = re.compile(r"\bmay\b", re.IGNORECASE)
_MUST_EN = re.compile(r"\bmust\b", re.IGNORECASE)
_NEG_EN = re.compile(
    r"n(?:'|’)t\b|\bnot\b|\bnever\b|\bno\b|\bnone\b|\bneither\b|\bnor\b|\bwithout\b|\bcannot\b|\bnothing\b|\bnobody\b",
    re.IGNORECASE,
)
_POTERE = r"(?:pu[òo]|puoi|posso|possono|possa|possano|possiamo|potete|potr\w*|poter\w*|potend\w*|potut\w*|potess\w*|impossibil\w*|possibil\w*)"
_CANT_IT = re.compile(rf"(?:\bnon\b|\bné\b|\bnessun\w*|\bmai\b)[^.;:]*?\b{_POTERE}|\bimpossibil\w*", re.IGNORECASE)
_MAY_IT = re.compile(rf"\b{_POTERE}|\bfacolt\w*|\bscegli\w*|\bconsentit\w*|\bpermess\w*|\beventual\w*", re.IGNORECASE)
_MUST_IT = re.compile(r"\bdev\w*|\bdovr\w*|\bdover\w*|\bdebb\w*|\bobblig\w*|\bnecessari\w*|\btenut\w*|\boccorr\w*|\bbisogn\w*", re.IGNORECASE)
_NEG_IT = re.compile(r"\bnon\b|\bné\b|\bnessun\w*|\bniente\b|\bnulla\b|\bmai\b|\bsenza\b|\balcun\w*|\bneanche\b|\bnemmeno\b|\bneppure\b", re.IGNORECASE)


def _without_citations(text: str) -> str:
    out, pos = [], 0
    for c in find_citations(text):
        out.append(text[pos:c.start])
        pos = c.end
    out.append(text[pos:])
    return " ".join(out)


def untranslated_sentences(italian: str) -> list[str]:
    """Sentences of ``italian`` that are still English (names, symbols and citations aside)."""
    found = []
    text = _NAME.sub(" ", _without_citations(italian))
    for sentence in re.split(r"(?<=[.;:!?])\s+|\n", text):
        words = [w.lower() for w in _WORD.findall(sentence)]
        if not words:
            continue
        english_words = sum(1 for w in words if w in _EN_FUNCTION)
        if english_words >= 3 and english_words / len(words) >= 0.15:
            found.append(sentence.strip()[:120])
    return found


def fidelity_problems(english: str, italian: str, terms: Terminology, en_examples: int | None = None,
                      it_examples: int | None = None, is_title: bool = False) -> list[tuple[str, str]]:
    """(code, Italian message) for each way ``italian`` departs from ``english``."""
    out: list[tuple[str, str]] = []
    if en_examples is not None and it_examples is not None and en_examples != it_examples:
        out.append(("traduzione-esempi", f"l'inglese ha {en_examples} esempi, la traduzione {it_examples}"))
    en_cites, it_cites = cited_numbers(english), cited_numbers(italian)
    if set(en_cites) != set(it_cites):
        missing = [c for c in en_cites if c not in it_cites]
        extra = [c for c in it_cites if c not in en_cites]
        parts = []
        if missing:
            parts.append(f"mancano le citazioni {', '.join(missing)}")
        if extra:
            parts.append(f"cita in più {', '.join(extra)}")
        out.append(("traduzione-citazioni", "; ".join(parts) + " rispetto all'inglese"))
    for name, pattern in (("simboli di mana", _MANA), ("forza/costituzione", _PT)):
        en_s = Counter(m.replace("−", "-") for m in pattern.findall(english))
        it_s = Counter(m.replace("−", "-") for m in pattern.findall(italian))
        if en_s != it_s:
            out.append(("traduzione-simboli", f"{name} diversi: inglese {sorted(en_s.elements())}, traduzione {sorted(it_s.elements())}"))
    en_digits = set(_DIGITS.findall(_without_citations(english)))
    it_digits = set(_DIGITS.findall(_without_citations(italian)))
    if en_digits - it_digits:
        out.append(("traduzione-simboli", f"numeri dell'inglese assenti nella traduzione: {', '.join(sorted(en_digits - it_digits, key=int))}"))
    # Proper names ("Power Play", "Library of Leng") and idioms ("on the other hand") are not terms;
    # a title is checked whole.
    for term in terms.required_by(english if is_title else _IDIOMS.sub(" ", _NAME.sub(" ", english))):
        if not term.in_italian(italian):
            out.append(("traduzione-terminologia",
                        f"l'inglese dice «{term.term}»: la traduzione deve usare «{term.italian}» (forme accettate: {', '.join(term.forms)})"))
    for term, used in terms.avoided_by(italian):
        out.append(("traduzione-terminologia", f"«{used}» non è il termine ufficiale: si dice «{term.italian}» ({term.term})"))
    if italian.strip() == english.strip() and re.search(r"[A-Za-z]", english) and \
            (terms.italian(english.strip()) or "").lower() != english.strip().lower():
        out.append(("traduzione-inglese", f"testo identico all'inglese: «{english.strip()[:120]}»"))
    for sentence in untranslated_sentences(italian):
        out.append(("traduzione-inglese", f"frase non tradotta: «{sentence}»"))
    if _CANT_EN.search(english) and not _CANT_IT.search(italian):
        out.append(("traduzione-modale", "l'inglese dice «can't»: manca un «non può» (o equivalente)"))
    if _MAY_EN.search(english) and not _MAY_IT.search(italian):
        out.append(("traduzione-modale", "l'inglese dice «may»: manca un «può» (o equivalente)"))
    if _MUST_EN.search(english) and not _MUST_IT.search(italian):
        out.append(("traduzione-modale", "l'inglese dice «must»: manca un «deve» (o equivalente)"))
    if _NEG_EN.search(english) and not _NEG_IT.search(italian):
        out.append(("traduzione-modale", "l'inglese contiene una negazione che la traduzione non ha"))
    if len(english) >= 60 and len(italian) < 0.65 * len(english):
        out.append(("traduzione-breve", f"la traduzione è lunga {len(italian)} caratteri contro {len(english)} dell'inglese: tradurre, non riassumere"))
    return out


# -- currency and the walk over files ------------------------------------------------------


@dataclass
class Unit:
    """One translated thing (a rule, a title, a glossary entry) and how to find its English."""

    what: str  # Italian label for messages ("regola 704.5a")
    number: str | None
    line: int
    stamp: Stamp | None
    italian: str  # what fidelity compares (rule text and examples, a title, a definition)
    parts_in: Callable[[Edition], list[str] | None]  # the English parts the hash covers, in an edition
    compared: Callable[[list[str]], str] = lambda parts: "\n".join(parts)  # English that fidelity compares
    it_examples: int | None = None  # rules only: how many examples each side has
    en_examples: Callable[[list[str]], int] | None = None
    is_title: bool = False


@dataclass
class Report:
    """What `judge verifica` says of the translation, with counts for the summary line."""

    findings: list[Finding] = field(default_factory=list)
    rules: tuple[int, int] = (0, 0)  # (translated and current, units in force)
    sections: tuple[int, int] = (0, 0)
    chapters: tuple[int, int] = (0, 0)
    glossary: tuple[int, int] = (0, 0)

    def count(self, code: str) -> int:
        return sum(1 for f in self.findings if f.code == code)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == ERROR]

    def summary(self) -> str:
        r, s, c, g = self.rules, self.sections, self.chapters, self.glossary
        return (
            f"Traduzione del progetto: {r[0]}/{r[1]} regole, {s[0]}/{s[1]} titoli di sezione, "
            f"{c[0]}/{c[1]} capitoli, {g[0]}/{g[1]} voci del glossario tradotte e aggiornate; "
            f"{self.count('traduzione-da-aggiornare')} da aggiornare, {self.count('traduzione-mancante')} mancanti, "
            f"{self.count('traduzione-citazioni')} citazioni discordanti, {self.count('traduzione-inglese')} frasi non tradotte, "
            f"{self.count('traduzione-terminologia')} violazioni della terminologia"
        )


def _diff_text(old: str, new: str) -> str:
    return "".join(
        f"[-{t}-]" if op == "-" else f"{{+{t}+}}" if op == "+" else t for op, t in word_diff(old, new)
    )


def _moved(unit: Unit, file: str, editions: list[Edition], lineage: Lineage) -> Finding | None:
    """A translation of English that moved to another number since (the rule trace): 726.1
    translated from 20251114 is Restarting the Game, today 727.1 — not today's 726.1."""
    in_force = editions[-1]
    if unit.stamp is None or unit.number is None or ("." not in unit.number and not unit.is_title):
        return None
    for e in sorted(editions[:-1], key=lambda e: e.id != unit.stamp.edition):
        parts = unit.parts_in(e)
        if parts is None or english_hash(*parts) != unit.stamp.hash:
            continue
        where = lineage.follow(unit.number, e)
        if where.now is None or where.now == unit.number:
            return None
        changed = " (e il testo inglese è cambiato)" if where.text_changed else ""
        return Finding(WARNING, "traduzione-spostata", file, unit.line, unit.number,
                       f"{unit.what}: traduce l'inglese che nell'edizione {e.id} era {unit.number} e che "
                       f"nell'edizione in vigore ({in_force.id}) è {where.now}{changed}: va spostata a {where.now}",
                       (where.now,))
    return None


def check_unit(unit: Unit, file: str, editions: list[Edition], terms: Terminology,
               lineage: Lineage | None = None) -> tuple[list[Finding], bool]:
    """Findings of one unit, and whether it is translated, current and faithful."""
    in_force = editions[-1]
    moved = _moved(unit, file, editions, lineage) if lineage is not None and len(editions) > 1 else None
    if moved is not None:
        return [moved], False
    now = unit.parts_in(in_force)
    if now is None:
        return [Finding(WARNING, "traduzione-orfana", file, unit.line, unit.number,
                        f"{unit.what}: non esiste nell'edizione inglese in vigore ({in_force.id})")], False
    if unit.stamp is None:
        return [Finding(ERROR, "marcatore-mancante", file, unit.line, unit.number,
                        f"{unit.what}: manca il marcatore «<!-- en AAAAMMGG hash -->» (usa `judge traduzione timbra`)")], False
    out: list[Finding] = []
    current = unit.stamp.hash == english_hash(*now)
    source = now if current else None
    if not current:
        # The English it was made from: the edition the stamp names first, then any other on disk.
        for e in sorted(editions, key=lambda e: e.id != unit.stamp.edition):
            parts = unit.parts_in(e)
            if (parts is None or english_hash(*parts) != unit.stamp.hash) and e.id == unit.stamp.edition \
                    and unit.number and not unit.is_title:
                # Moved since, and changed: the English it translates is under its old number there.
                source = number_with_fingerprint(e, unit.stamp.hash)
                parts = _rule_parts(source)(e) if source and "." in source else None
            if parts is not None and english_hash(*parts) == unit.stamp.hash:
                source = parts
                out.append(Finding(
                    WARNING, "traduzione-da-aggiornare", file, unit.line, unit.number,
                    f"{unit.what}: traduzione da aggiornare, l'inglese è cambiato dopo l'edizione {e.id}: "
                    + _diff_text("\n".join(parts), "\n".join(now)),
                    (e.id, in_force.id),
                ))
                break
        else:
            out.append(Finding(
                WARNING, "traduzione-da-aggiornare", file, unit.line, unit.number,
                f"{unit.what}: traduzione da aggiornare, il testo inglese tradotto (edizione {unit.stamp.edition}) "
                f"non è in nessuna edizione presente; inglese in vigore: {' '.join(now)[:300]}",
                (in_force.id,),
            ))
    if source is not None:
        en_examples = unit.en_examples(source) if unit.en_examples else None
        for code, message in fidelity_problems(unit.compared(source), unit.italian, terms, en_examples,
                                               unit.it_examples, unit.is_title):
            out.append(Finding(ERROR, code, file, unit.line, unit.number, f"{unit.what}: {message}"))
    return out, current and not any(f.level == ERROR for f in out)


def _rule_parts(number: str) -> Callable[[Edition], list[str] | None]:
    def parts(e: Edition) -> list[str] | None:
        r = e.rule(number)
        return [r.text, *r.examples] if r else None
    return parts


def rule_units(tf: TranslationFile) -> list[Unit]:
    return [
        Unit(f"regola {r.number}", r.number, r.line, r.stamp, "\n".join([r.text, *r.examples]),
             _rule_parts(r.number), it_examples=len(r.examples), en_examples=lambda parts: len(parts) - 1)
        for r in tf.rules
    ]


def section_title_unit(tf: TranslationFile) -> Unit | None:
    t = tf.title
    if t is None:
        return None
    n = int(tf.section)
    return Unit(f"titolo della sezione {n}", str(n), t.line, t.stamp, t.title,
                lambda e: [e.sections[n]] if n in e.sections else None, is_title=True)


def chapter_units(tf: TranslationFile) -> list[Unit]:
    return [
        Unit(f"titolo del capitolo {c.number}", c.number, c.line, c.stamp, c.title,
             lambda e, n=int(c.number): [e.chapters[n]] if n in e.chapters else None, is_title=True)
        for c in tf.chapters
    ]


def glossary_units(tf: TranslationFile) -> list[Unit]:
    return [
        Unit(f"voce del glossario «{g.term}»", None, g.line, g.stamp, g.text,
             lambda e, t=g.term: [t, e.glossary[t]] if t in e.glossary else None,
             compared=lambda parts: parts[1])
        for g in tf.entries
    ]


def _structure(tf: TranslationFile, file: str) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[str, int] = {}
    previous = None
    for r in tf.rules:
        if r.number in seen:
            out.append(Finding(ERROR, "numero-duplicato", file, r.line, r.number,
                               f"la regola {r.number} compare di nuovo (prima alla riga {seen[r.number]})"))
            continue
        seen[r.number] = r.line
        key = sort_key(r.number)
        if previous is not None and key <= previous:
            out.append(Finding(ERROR, "fuori-ordine", file, r.line, r.number, f"la regola {r.number} è fuori ordine"))
        previous = key
    terms_seen: dict[str, int] = {}
    for g in tf.entries:
        if g.term in terms_seen:
            out.append(Finding(ERROR, "voce-duplicata", file, g.line, None, f"la voce «{g.term}» compare di nuovo"))
        terms_seen.setdefault(g.term, g.line)
    return out


def _glossary_terms(tf: TranslationFile, editions: list[Edition], terms: Terminology, file: str) -> list[Finding]:
    out = []
    for g in tf.entries:
        expected = terms.italian(g.term)
        if expected and expected.lower() not in g.it_term.lower():
            out.append(Finding(ERROR, "traduzione-terminologia", file, g.line, None,
                               f"voce «{g.term}»: il termine italiano è «{expected}» (tabella della terminologia), non «{g.it_term}»"))
        english = editions[-1].glossary.get(g.term)
        if english is not None and english.count("\n") != g.text.count("\n"):
            out.append(Finding(ERROR, "traduzione-struttura", file, g.line, None,
                               f"voce «{g.term}»: l'inglese ha {english.count(chr(10)) + 1} righe, la traduzione {g.text.count(chr(10)) + 1}"))
    return out


_EN_CITED_TITLE = re.compile(r"\b(?:rules?|sections?)\s+(?P<num>[1-9]\d{0,2}(?:\.\d+[a-z]{0,2})?),\s+“(?P<title>[^”]+)”")
_IT_CITED_TITLE = re.compile(
    r"\b(?:regol[ae]|sezion[ei]|capitol[oi])\s+(?P<num>[1-9]\d{0,2}(?:\.\d+[a-z]{0,2})?),?\s+«(?P<title>[^»]+)»"
)


def _norm_title(title: str) -> str:
    return title.strip().rstrip(".,;:").strip().replace("’", "'").casefold()


def italian_titles(files: list[TranslationFile]) -> dict[str, str]:
    """Number → the Italian title the translation gives it: chapters, sections, and rules that are a
    name (702.19 "Travolgere"); what citations with a quoted title must quote."""
    out: dict[str, str] = {}
    for tf in files:
        for c in tf.chapters:
            out[c.number] = c.title
        if tf.title:
            out[tf.section] = tf.title.title
        for r in tf.rules:
            if "\n" not in r.text and len(r.text) <= 60 and not r.text.rstrip().endswith((".", ":")):
                out[r.number] = r.text
    return out


def _english_title(edition: Edition, number: str) -> str | None:
    if "." in number:
        r = edition.rule(number)
        return r.text if r else None
    table = edition.chapters if len(number) == 1 else edition.sections
    return table.get(int(number))


def _english_rule_text(edition: Edition, number: str) -> str | None:
    en = edition.rule(number)
    return "\n".join([en.text, *en.examples]) if en else None


def cited_title_findings(files: list[TranslationFile], edition: Edition) -> list[Finding]:
    """A citation that quotes the cited rule's title ("rule 702.19, “Trample.”") quotes the title the
    translation gives that rule ("regola 702.19, «Travolgere»"), so the same rule has one Italian name:
    in the rules and in the glossary alike."""
    titles = italian_titles(files)
    out: list[Finding] = []
    for tf in files:
        units = [(f"regola {r.number}", r.number, r.line, "\n".join([r.text, *r.examples]),
                  _english_rule_text(edition, r.number)) for r in tf.rules]
        units += [(f"voce «{g.term}»", "glossario", g.line, g.text, edition.glossary.get(g.term)) for g in tf.entries]
        for label, number, line, italian, english in units:
            if english is None:
                continue
            quoted = {m["num"]: _norm_title(m["title"]) for m in _IT_CITED_TITLE.finditer(italian)}
            for m in _EN_CITED_TITLE.finditer(english):
                cited = m["num"]
                en_title = _english_title(edition, cited)
                expected = titles.get(cited)
                if expected is None or en_title is None or _norm_title(m["title"]) != _norm_title(en_title):
                    continue
                if quoted.get(cited) != _norm_title(expected):
                    found = f"«{quoted[cited]}»" if cited in quoted else "nessun titolo"
                    out.append(Finding(ERROR, "traduzione-titolo-citato", tf.path.name, line, number,
                                       f"{label}: cita {cited} con il suo titolo: atteso «{expected}», trovato {found}"))
    return out


def glossary_name_findings(files: list[TranslationFile], edition: Edition) -> list[Finding]:
    """A glossary entry that names a keyword (its English term is the name rule 702.19 "Trample")
    uses the Italian name the translation gives that rule: one name per keyword everywhere."""
    titles = italian_titles(files)
    by_english = {}
    for r in edition.rules:
        if r.number in titles and r.number.split(".")[0] in ("701", "702") and r.number.count(".") == 1:
            by_english.setdefault(_norm_title(r.text), r.number)
    out: list[Finding] = []
    for tf in files:
        for g in tf.entries:
            number = by_english.get(_norm_title(g.term))
            if number and _norm_title(titles[number]) not in _norm_title(g.it_term):
                out.append(Finding(ERROR, "traduzione-nome-incoerente", tf.path.name, g.line, number,
                                   f"voce «{g.term}»: la regola {number} chiama questa parola chiave «{titles[number]}», "
                                   f"il glossario «{g.it_term}»"))
    return out


@dataclass
class FileReport:
    """One translation file's own findings and how many of its units, per group, are translated,
    current and faithful: all that depends on the file alone (with the editions and the table)."""

    findings: list[Finding]
    ok: dict[str, int]


def check_file(tf: TranslationFile, editions: list[Edition], terms: Terminology, lineage: Lineage) -> FileReport:
    en = editions[-1]
    file = tf.path.name
    findings = _structure(tf, file)
    ok: Counter = Counter()
    covered: dict[str, set[str]] = {"rules": set(), "sections": set(), "chapters": set(), "glossary": set()}
    groups = {
        "rules": rule_units(tf),
        "sections": [u for u in [section_title_unit(tf)] if u],
        "chapters": chapter_units(tf),
        "glossary": glossary_units(tf),
    }
    for group, units in groups.items():
        for unit in units:
            found, good = check_unit(unit, file, editions, terms, lineage)
            findings += found
            ok[group] += good
            covered[group].add(unit.number if unit.number else unit.what)
    findings += _glossary_terms(tf, editions, terms, file)
    if tf.kind == "sezione":
        for n in section_rules(en, tf.section or ""):
            if n not in covered["rules"]:
                findings.append(Finding(WARNING, "traduzione-mancante", file, 0, n,
                                        f"la regola {n} dell'edizione in vigore non ha traduzione"))
        if tf.title is None:
            findings.append(Finding(WARNING, "traduzione-mancante", file, 0, tf.section,
                                    f"manca il titolo tradotto della sezione {tf.section}"))
    elif tf.kind == "capitoli":
        for n in en.chapters:
            if str(n) not in covered["chapters"]:
                findings.append(Finding(WARNING, "traduzione-mancante", file, 0, str(n),
                                        f"manca il titolo tradotto del capitolo {n}"))
    else:
        for term in en.glossary:
            if f"voce del glossario «{term}»" not in covered["glossary"]:
                findings.append(Finding(WARNING, "traduzione-mancante", file, 0, None,
                                        f"la voce del glossario «{term}» non ha traduzione"))
    return FileReport(findings, dict(ok))


# How a caller keeps file reports between runs: given a file and how to compute its report, the report.
FileCache = Callable[[TranslationFile, Callable[[], FileReport]], FileReport]


def check_translation(files: list[TranslationFile], editions: list[Edition], terms: Terminology,
                      complete: bool = True, lineage: Lineage | None = None, cache: FileCache | None = None,
                      progress: Callable[[int], None] | None = None) -> Report:
    """The report on ``files``; with ``complete``, English units no file covers count as missing.
    ``cache`` keeps each file's own report (the build cache, keyed by the file and the editions);
    ``progress`` is told of every file done."""
    en = editions[-1]
    report = Report()
    counts: Counter = Counter()
    lineage = lineage or Lineage(editions)
    for tf in files:
        compute = lambda tf=tf: check_file(tf, editions, terms, lineage)  # noqa: E731
        got = cache(tf, compute) if cache is not None else compute()
        report.findings += got.findings
        counts.update(got.ok)
        if progress is not None:
            progress(1)
    report.findings += cited_title_findings(files, en) + glossary_name_findings(files, en)
    if complete:
        present = {tf.section for tf in files if tf.kind == "sezione"}
        for sec in en.sections:
            if str(sec) not in present:
                report.findings.append(Finding(WARNING, "traduzione-mancante", f"{sec}.md", 0, str(sec),
                                               f"la sezione {sec} ({len(section_rules(en, str(sec)))} regole) non ha traduzione"))
        kinds = {tf.kind for tf in files}
        for kind in ("capitoli", "glossario"):
            if kind not in kinds:
                report.findings.append(Finding(WARNING, "traduzione-mancante", f"{kind}.md", 0, None,
                                               f"manca il file {kind}.md della traduzione"))
    report.rules = (counts["rules"], len(en.rules))
    report.sections = (counts["sections"], len(en.sections))
    report.chapters = (counts["chapters"], len(en.chapters))
    report.glossary = (counts["glossary"], len(en.glossary))
    return report
