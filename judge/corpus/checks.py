"""`judge verifica`: structural checks of the sources and findings about their texts.

Errors (the check fails): duplicate or out-of-order numbers, sub-letters "l"/"o",
rules whose parent is missing. Warnings (shown to users on rule pages): citations
that resolve nowhere, stale Italian citations (the English counterpart cites other
numbers), Italian rules absent from the English edition and vice versa, English
text changed after the Italian translation date, unknown Italian titles.
"""

from __future__ import annotations

from judge import build_cache
from judge.corpus.analytic_index import ANALYTIC_INDEX_FILES
from judge.corpus.findings import ERROR, WARNING, Finding
from judge.corpus.model import Corpus, Outdated, italian_date
from judge.corpus.numbers import RuleNumber, RuleNumberError
from judge.corpus.rules_it import SourceRule

def _structure(rules: list[SourceRule], file: str, known: set[str]) -> list[Finding]:
    out: list[Finding] = []
    seen: dict[str, int] = {}
    previous: RuleNumber | None = None
    for r in rules:
        try:
            num = RuleNumber.parse(r.number)
        except RuleNumberError as exc:
            out.append(Finding(ERROR, "numero-non-valido", file, r.line, r.number, str(exc)))
            continue
        n = str(num)
        if n in seen:
            out.append(Finding(ERROR, "numero-duplicato", file, r.line, n, f"la regola {n} compare di nuovo (prima alla riga {seen[n]})"))
        seen.setdefault(n, r.line)
        if num.has_forbidden_letters:
            out.append(Finding(ERROR, "lettera-vietata", file, r.line, n, f"la sottoregola {n} usa la lettera «l» o «o», che il Regolamento salta"))
        if previous is not None and not (previous < num):
            out.append(Finding(ERROR, "fuori-ordine", file, r.line, n, f"la regola {n} viene dopo {previous}: ordine numerico non rispettato"))
        previous = num
        parent = num.parent
        if parent is not None and str(parent) not in known and str(parent) not in seen:
            out.append(Finding(ERROR, "genitore-mancante", file, r.line, n, f"la regola {n} non ha la regola madre {parent}"))
    return out


def check(corpus: Corpus) -> list[Finding]:
    findings: list[Finding] = []
    sections = {str(s) for s in corpus.in_force.sections}
    for edition in corpus.editions:
        known = {str(s) for s in edition.sections}
        findings += _structure(edition.rules, edition.path.name, known)
    for sec in corpus.italian_sections.values():
        findings += _structure(sec.rules, sec.path.name, {sec.section} | sections)

    en = corpus.in_force
    en_numbers = {r.number for r in en.rules} | sections
    # Citations that resolve nowhere.
    for n in corpus.numbers:
        rule = corpus.rules[n]
        for lang in ("it", "en"):
            text = getattr(rule, lang)
            if text is None or rule.is_heading:
                continue
            for cited in corpus.citations(n, lang):
                if cited not in corpus:
                    findings.append(Finding(
                        WARNING, "citazione-irrisolta", text.source, text.line, n,
                        f"il testo {'italiano' if lang == 'it' else 'inglese'} cita la regola {cited}, che non esiste",
                        (cited,),
                    ))
    for sec in corpus.italian_sections.values():
        it_numbers = {r.number for r in sec.rules}
        for r in sec.rules:
            for why in corpus.rules[r.number].community_outdated:
                findings.append(_outdated_finding(why, sec, r, corpus))
        for n in sorted(en_numbers):
            if n.split(".")[0] == sec.section and "." in n and n not in it_numbers:
                findings.append(Finding(
                    WARNING, "assente-in-italiano", sec.path.name, 0, n,
                    f"la regola {n} dell'edizione inglese in vigore manca nel testo italiano della sezione {sec.section}",
                ))
    for section in corpus.sections():
        if section.it is None and section.tr is None:
            findings.append(Finding(
                WARNING, "titolo-sconosciuto", "indice.md", 0, section.number,
                f"titolo italiano della sezione {section.number} sconosciuto, né nel wiki né nella traduzione (inglese: «{section.en.text if section.en else '?'}»)",
            ))
    for lang, index in corpus.analytic_indexes.items():
        for entry in index.entries:
            for n in entry.rules:
                if n not in corpus:
                    findings.append(Finding(
                        ERROR, "indice-analitico-irrisolto", ANALYTIC_INDEX_FILES[lang],
                        entry.line, n, f"la voce «{entry.text}» rimanda alla regola {n}, che non esiste",
                    ))
    if corpus.translation:
        findings += translation_report(corpus).findings
    return findings


def translation_report(corpus: Corpus):
    """The translation's report (counts and findings), computed once per loaded corpus; each file's
    own part is kept in the build cache while the file, the editions and the terminology table
    are unchanged."""
    from judge.corpus.translation_checks import check_translation

    cached = getattr(corpus, "_translation_report", None)
    if cached is None:
        code = build_cache.code_digest("corpus")
        inputs = [e.fingerprint for e in corpus.editions]
        if corpus.terminology.path is not None:
            inputs.append(build_cache.file_digest(corpus.terminology.path))

        def per_file(tf, compute):
            key = build_cache.digest(code, tf.path.name, build_cache.file_digest(tf.path), *inputs)
            return build_cache.value("controlli-traduzione", key, compute, f"controlli di {tf.path.name}",
                                     keep=4 * len(corpus.translation) + 8, quiet=True)

        step = build_cache.progress("controlli della traduzione (file)", len(corpus.translation))
        cached = corpus._translation_report = check_translation(
            corpus.translation, corpus.editions, corpus.terminology, lineage=corpus.lineage, cache=per_file,
            progress=step.advance)
    return cached


def _outdated_finding(why: Outdated, sec, r: SourceRule, corpus: Corpus) -> Finding:
    if why.code == "assente-in-inglese":
        message = (f"la regola {r.number} non esiste nell'edizione inglese in vigore (del {italian_date(corpus.in_force.date)}): "
                   "numerazione cambiata o regola rimossa")
    elif why.code == "citazione-obsoleta":
        known = [f"{c} è oggi {n}" for c, n in zip(why.only_it, why.now) if n]
        unknown = [c for c, n in zip(why.only_it, why.now) if not n]
        parts = []
        if known:
            parts.append(f"il testo italiano cita una numerazione superata: {', '.join(known)}")
        if unknown:
            parts.append(f"il testo italiano cita {', '.join(unknown)}, quello inglese cita "
                         f"{', '.join(why.only_en) or 'altro'}: probabilmente la numerazione è cambiata dopo la traduzione")
        message = "; ".join(parts)
    elif why.code == "italiano-superato":
        message = (f"il testo italiano descrive una versione superata della regola: cita {', '.join(why.only_it)}, "
                   "che è ancora la regola citata (la citazione è giusta per quel testo), ma il testo inglese in vigore "
                   f"di {r.number} dice altro" + (f" e cita {', '.join(why.only_en)}" if why.only_en else "")
                   + ". Fa fede il testo inglese")
    else:
        changed = corpus.edition(why.editions[1])
        when = italian_date(changed.date) if changed else why.editions[1]
        message = (f"il testo inglese è cambiato nell'edizione del {when}, dopo il testo della comunità "
                   f"(aggiornato al {italian_date(sec.updated_date)})")
    if why.code == "citazione-obsoleta":
        related = tuple(dict.fromkeys(n for n in why.now if n)) or why.only_en
    elif why.code == "italiano-superato":
        related = why.only_it
    else:
        related = why.editions
    return Finding(WARNING, why.code, sec.path.name, r.line, r.number, message, tuple(related))


def findings_key(corpus: Corpus) -> str:
    """The build cache's key of the findings of ``corpus``."""
    return build_cache.digest(build_cache.code_digest("corpus"), corpus.content_hash)


def corpus_findings(corpus: Corpus) -> list[Finding]:
    """The findings of ``corpus``, computed once per corpus (kept in the build cache, with the
    translation's report, while the corpus files are unchanged)."""
    cached = getattr(corpus, "_findings", None)
    if cached is None:
        key = findings_key(corpus)

        def build():
            return check(corpus), translation_report(corpus) if corpus.translation else None

        findings, report = build_cache.value("controlli", key, build, "controlli del corpus e della traduzione")
        if report is not None:
            corpus._translation_report = report
        cached = corpus._findings = findings
    return cached


def warnings_by_rule(findings: list[Finding]) -> dict[str, list[Finding]]:
    out: dict[str, list[Finding]] = {}
    for f in findings:
        if f.rule and f.level == WARNING:
            out.setdefault(f.rule, []).append(f)
    return out


if __name__ == "__main__":  # python -m judge.corpus.checks RULES_IT RULES_EN: build_cache.build_beside's process
    import sys
    from pathlib import Path

    from judge.corpus import load_corpus

    corpus_findings(load_corpus(Path(sys.argv[1]), Path(sys.argv[2])))
