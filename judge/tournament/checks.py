"""`judge verifica` on the tournament documents: the English as parsed, the register of the
files, the IPG's penalties, and the project's translation.

Errors: a heading of the contents not found in the text, numbering with a gap, page furniture
left in a paragraph (a page number, dot leaders, the contents' title), words lost between the
source and the sections, a file whose SHA-256 is not the one registered, an IPG infraction
without penalty or with a penalty other than its quick reference's.
"""

from __future__ import annotations

import re

from judge.corpus.findings import ERROR, WARNING, Finding
from judge.tournament.extract import DOT_LEADERS, PAGE_NUMBER
from judge.tournament.loading import REGISTER_FILE, TournamentDocs
from judge.tournament.model import DocEdition
from judge.tournament.structure import words

# Words may differ by this share between the source and the sections (joins such as "8" "th").
WORD_TOLERANCE = 0.002
# The IPG's quick reference says "None" where the infraction's heading says "No Penalty".
_SAME_PENALTY = {"none": "no penalty"}


def _numbering(edition: DocEdition) -> list[Finding]:
    out = []
    file = edition.path.name
    chapters = [int(s.number) for s in edition.sections if s.kind == "capitolo"]
    if chapters != list(range(1, len(chapters) + 1)):
        out.append(Finding(ERROR, "torneo-numerazione", file, 0, None, f"capitoli non consecutivi: {chapters}"))
    for c in chapters:
        subs = [int(s.number.split(".")[1]) for s in edition.sections if s.parent == str(c)]
        if subs != list(range(1, len(subs) + 1)):
            out.append(Finding(ERROR, "torneo-numerazione", file, 0, str(c), f"sezioni del capitolo {c} non consecutive: {subs}"))
    letters = [s.number for s in edition.sections if s.kind == "appendice"]
    if letters != [chr(ord("A") + i) for i in range(len(letters))]:
        out.append(Finding(ERROR, "torneo-numerazione", file, 0, None, f"appendici non consecutive: {letters}"))
    return out


def furniture_in(text: str) -> str | None:
    """What page furniture a paragraph still holds, if any."""
    for line in text.split("\n"):
        if PAGE_NUMBER.match(line):
            return f"numero di pagina «{line.strip()}»"
        if DOT_LEADERS.search(line):
            return "puntini dell'indice"
        if line.strip() in ("CONTENTS", "Contents"):
            return "titolo dell'indice"
    return None


def structure_words(edition: DocEdition) -> int:
    count = len(words(edition.title)) + (3 if edition.effective else 0)  # "Effective February 27, 2026"
    for s in edition.sections:
        if s.line:  # a heading printed in the text (JAR's opening section has none)
            count += len(words(s.title)) + len(words(s.penalty or ""))
            if edition.document.numbered and s.kind != "premessa":  # "Appendix A", "2.5"
                count += 2 if s.kind == "appendice" else len(s.number.split("."))
        for p in s.paragraphs:
            count += len(words(p.text)) + len(words(p.mark))
    return count


def check_edition(edition: DocEdition) -> list[Finding]:
    file = edition.path.name
    out = [Finding(ERROR, "torneo-struttura", file, line, None, message) for line, message in edition.problems]
    if edition.document.numbered:
        out += _numbering(edition)
    for s in edition.sections:
        if not s.paragraphs and s.kind != "capitolo":  # a chapter may be only its heading
            out.append(Finding(ERROR, "torneo-sezione-vuota", file, s.line, s.number, f"la sezione {s.number} non ha testo"))
        for p in s.paragraphs:
            if (what := furniture_in(p.text)):
                out.append(Finding(ERROR, "torneo-impaginazione", file, p.line, s.number,
                                   f"{s.number} ¶{p.number}: resta {what}"))
    got, source = structure_words(edition), edition.source_words
    if source and abs(got - source) > WORD_TOLERANCE * source:
        out.append(Finding(ERROR, "torneo-parole", file, 0, None,
                           f"le sezioni hanno {got} parole, il testo di partenza {source}: parte del testo è andata persa"))
    if edition.effective is None:
        out.append(Finding(WARNING, "torneo-data", file, 0, None, "data di entrata in vigore non trovata nel testo"))
    elif edition.effective != edition.date:
        out.append(Finding(WARNING, "torneo-data", file, 0, None,
                           f"il testo dice in vigore dal {edition.effective.isoformat()}, il nome del file {edition.id}"))
    if edition.doc == "ipg":
        out += _penalties(edition)
    return out


def quick_reference(edition: DocEdition) -> dict[str, str]:
    """The IPG's penalty quick reference: infraction section → penalty, matched by the names the
    appendix uses ("Missed Trigger None", "Unsporting Conduct — Minor Warning")."""
    appendix = next((s for s in edition.sections if "quick reference" in s.title.casefold()), None)
    if appendix is None:
        return {}
    names = {}
    for s in edition.infractions():
        short = re.sub(r"^(?:Game Play|Tournament) Errors?\s*—\s*|^Unsporting Conduct\s*—\s*(?=(?:Improperly|Bribery|Aggressive|Theft|Stalling|Cheating))",
                       "", s.title)
        names[short.casefold()] = s.number
    out = {}
    for p in appendix.paragraphs:
        text = p.text.strip()
        for name, number in names.items():
            if text.casefold().startswith(name + " "):
                out[number] = text[len(name):].strip()
    return out


def _penalties(edition: DocEdition) -> list[Finding]:
    out = []
    file = edition.path.name
    reference = quick_reference(edition)
    for s in edition.sections:
        if s.kind == "sezione" and s.parent in ("2", "3", "4"):
            if not s.penalty:
                out.append(Finding(ERROR, "torneo-sanzione", file, s.line, s.number, f"l'infrazione {s.number} non ha sanzione"))
                continue
            listed = reference.get(s.number)
            if listed is None:
                out.append(Finding(ERROR, "torneo-sanzione", file, s.line, s.number,
                                   f"l'infrazione {s.number} ({s.title}) manca dal riepilogo delle sanzioni"))
            elif _SAME_PENALTY.get(listed.casefold(), listed.casefold()) != s.penalty.casefold():
                out.append(Finding(ERROR, "torneo-sanzione", file, s.line, s.number,
                                   f"l'infrazione {s.number}: «{s.penalty}» nel testo, «{listed}» nel riepilogo"))
    return out


def check_register(docs: TournamentDocs) -> list[Finding]:
    out = []
    for e in docs.all():
        entry = docs.register.get(e.path.name)
        if entry is None:
            out.append(Finding(WARNING, "torneo-non-registrato", e.path.name, 0, None,
                               f"{e.path.name} non è nel registro {REGISTER_FILE}: provenienza e impronta sconosciute"))
        elif entry.sha256 != e.sha256:
            out.append(Finding(ERROR, "torneo-impronta", e.path.name, 0, None,
                               f"lo SHA-256 di {e.path.name} non è quello registrato ({entry.sha256[:12]}…): il file è cambiato"))
    return out


def check_rule_links(docs: TournamentDocs, rule_exists) -> list[Finding]:
    """Every row of judge/tournament/regole.tsv names a section in force and a rule in force."""
    from judge.tournament.rule_links import LINKS_FILE, rule_links

    out = []
    for link in rule_links():
        if not docs.has(link.doc, link.section):
            out.append(Finding(ERROR, "torneo-regole", LINKS_FILE.name, 0, None,
                               f"{link.doc.upper()} {link.section} non esiste nell'edizione in vigore"))
        if not rule_exists(link.rule):
            out.append(Finding(ERROR, "torneo-regole", LINKS_FILE.name, 0, link.rule,
                               f"la regola {link.rule} non esiste nell'edizione in vigore del Regolamento"))
    return out


def check_analytic_index(docs: TournamentDocs) -> list[Finding]:
    """Every entry of the documents' analytic index points to sections in force."""
    from judge.corpus.frontmatter import SourceFormatError
    from judge.tournament.analytic_index import INDEX_FILE, read_index

    try:
        entries = read_index()
    except SourceFormatError as exc:
        return [Finding(ERROR, "indice-analitico-tornei", INDEX_FILE, exc.line, None, exc.message)]
    return [Finding(ERROR, "indice-analitico-tornei", INDEX_FILE, e.line, None,
                    f"la voce «{e.heading}: {e.topic}» rimanda a {doc.upper()} {section}, che non esiste")
            for e in entries for doc, section in e.sections if not docs.has(doc, section)]


def english_findings(docs: TournamentDocs) -> list[Finding]:
    out = check_register(docs)
    for e in docs.all():
        out += check_edition(e)
    return out


def tournament_findings(folder_en=None, folder_it=None, rule_exists=None) -> tuple[list[Finding], str]:
    """Everything `judge verifica` says of the tournament documents: findings and a summary line."""
    from judge.tournament.loading import TORNEI_IT_DIR, load_documents
    from judge.tournament.terminology import combined_terminology
    from judge.tournament.translation import parse_file, translation_paths
    from judge.tournament.translation_checks import check_translations
    from judge.corpus.frontmatter import SourceFormatError

    docs = load_documents(folder_en)
    findings = english_findings(docs) + check_analytic_index(docs)
    if rule_exists is not None:
        findings += check_rule_links(docs, rule_exists)
    files = []
    for path in translation_paths(folder_it or TORNEI_IT_DIR):
        try:
            files.append(parse_file(path))
        except SourceFormatError as exc:
            findings.append(Finding(ERROR, "traduzione-formato", f"{path.parent.name}/{path.name}", exc.line, None, exc.message))
    report = check_translations(files, docs, combined_terminology())
    findings += report.findings
    editions = ", ".join(f"{e.document.short} {e.id}" for e in docs.all())
    return findings, f"Documenti dei tornei: {editions}. {report.summary()}."
