"""``judge verifica`` for the card table: the files are well formed, every face has a name of
its own, and every keyword it lists is one the rules in force name (702.x, or a keyword action
of 701.x).

Errors (the check fails): a line that is not a card (not JSON, no name, a field of the wrong
kind), two faces with one English name, a missing table. Warnings: a keyword no rule in force
names (one finding per keyword, with how many faces print it: «storied» until the rules of 25
September 2026 are in force), an Italian name shared by several cards (the look-up then asks
for the English), a part of a multi-part card or a ruling for a card the table lacks.
"""

from __future__ import annotations

import gzip
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from judge.cards.rules import card_rules
from judge.cards.table import CARDS_FILE, RULINGS_FILE
from judge.corpus.findings import ERROR, WARNING, Finding

_LISTS = ("colors", "supertypes", "types", "subtypes", "keywords")
_OPTIONAL_LISTS = ("name_it_alt", "names")
_STRINGS = ("name_it", "mana_cost", "power", "toughness", "loyalty", "defense", "text")
_COLORS = {"W", "U", "B", "R", "G"}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
SOURCES = {"mtgjson3", "xmage", "both"}


def _shape(d) -> str | None:
    """What is wrong with one decoded line, in Italian, or None."""
    if not isinstance(d, dict):
        return "la riga non è un oggetto JSON"
    if not isinstance(d.get("name"), str) or not d["name"].strip():
        return "manca il nome inglese (\"name\")"
    for k in _LISTS:
        if not isinstance(d.get(k), list) or not all(isinstance(x, str) for x in d[k]):
            return f"\"{k}\" deve essere una lista di testi"
    for k in _OPTIONAL_LISTS:
        v = d.get(k)
        if v is not None and (not isinstance(v, list) or not all(isinstance(x, str) for x in v)):
            return f"\"{k}\" deve essere null o una lista di testi"
    for k in _STRINGS:
        if d.get(k) is not None and not isinstance(d[k], str):
            return f"\"{k}\" deve essere null o un testo"
    if not set(d["colors"]) <= _COLORS:
        return f"colori sconosciuti: {', '.join(sorted(set(d['colors']) - _COLORS))}"
    if not isinstance(d.get("layout"), str):
        return "manca il tipo di impaginazione (\"layout\")"
    if d.get("source") not in SOURCES:
        return f"fonte sconosciuta {d.get('source')!r} (ammesse: {', '.join(sorted(SOURCES))})"
    return None


def _lines(path: Path):
    with gzip.open(path, "rb") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                yield lineno, line


def check_table(directory: Path, corpus) -> list[Finding]:
    cards, rulings = directory / CARDS_FILE, directory / RULINGS_FILE
    where = f"carte/{CARDS_FILE}"
    if not cards.exists():
        return [Finding(ERROR, "carte-assenti", where, 0, None, f"tabella delle carte non trovata in {directory}")]
    findings: list[Finding] = []
    first_line: dict[str, int] = {}
    italian: dict[str, set[str]] = defaultdict(set)
    parts: list[tuple[int, str, str]] = []
    keywords: Counter[str] = Counter()
    example: dict[str, str] = {}
    try:
        for lineno, line in _lines(cards):
            try:
                d = json.loads(line)
            except ValueError as e:
                findings.append(Finding(ERROR, "carta-non-valida", where, lineno, None, f"JSON non valido: {e}"))
                continue
            problem = _shape(d)
            if problem:
                findings.append(Finding(ERROR, "carta-non-valida", where, lineno, None, problem))
                continue
            name = d["name"]
            if name in first_line:
                findings.append(Finding(ERROR, "nome-duplicato", where, lineno, None,
                                        f"«{name}» è già il nome della faccia alla riga {first_line[name]}"))
            first_line.setdefault(name, lineno)
            if d.get("name_it"):
                italian[d["name_it"]].add(name)
            for other in d.get("names") or []:
                parts.append((lineno, name, other))
            for kw in d["keywords"]:
                keywords[kw] += 1
                example.setdefault(kw, name)
    except (OSError, EOFError) as e:
        return findings + [Finding(ERROR, "carte-illeggibili", where, 0, None, f"file illeggibile: {e}")]
    for lineno, name, other in parts:
        if other not in first_line:
            findings.append(Finding(WARNING, "parte-assente", where, lineno, None,
                                    f"«{name}» elenca la parte «{other}», che la tabella non ha"))
    for it, names in sorted(italian.items()):
        if len(names) > 1:
            findings.append(Finding(WARNING, "nome-italiano-condiviso", where, first_line[min(names)], None,
                                    f"«{it}» è il nome italiano di {len(names)} carte ({', '.join(sorted(names))}): "
                                    "con quel nome si chiede il nome inglese"))
    rules = card_rules(corpus)
    unknown = sorted((kw for kw in keywords if rules.keyword_rule(kw) is None), key=lambda k: (-keywords[k], k))
    for kw in unknown:
        findings.append(Finding(WARNING, "parola-chiave-sconosciuta", where, first_line[example[kw]], None,
                                f"la parola chiave «{kw}» ({keywords[kw]} facce, per esempio «{example[kw]}») "
                                f"non è il nome di una regola 702 o 701 dell'edizione in vigore ({corpus.in_force.id})"))
    findings += _check_rulings(rulings, set(first_line))
    return findings


def _check_rulings(path: Path, names: set[str]) -> list[Finding]:
    where = f"carte/{RULINGS_FILE}"
    if not path.exists():
        return [Finding(WARNING, "sentenze-assenti", where, 0, None, "file delle sentenze non trovato")]
    out = []
    try:
        for lineno, line in _lines(path):
            try:
                d = json.loads(line)
            except ValueError as e:
                out.append(Finding(ERROR, "sentenza-non-valida", where, lineno, None, f"JSON non valido: {e}"))
                continue
            items = d.get("rulings") if isinstance(d, dict) else None
            if not isinstance(d, dict) or not isinstance(d.get("name"), str) or not isinstance(items, list) \
                    or not all(isinstance(r, dict) and isinstance(r.get("text"), str)
                               and isinstance(r.get("date"), str) and _DATE.fullmatch(r["date"]) for r in items):
                out.append(Finding(ERROR, "sentenza-non-valida", where, lineno, None,
                                   "attesi {\"name\": …, \"rulings\": [{\"date\": \"AAAA-MM-GG\", \"text\": …}]}"))
                continue
            if d["name"] not in names:
                out.append(Finding(WARNING, "sentenza-senza-carta", where, lineno, None,
                                   f"sentenze per «{d['name']}», che la tabella delle carte non ha"))
    except (OSError, EOFError) as e:
        out.append(Finding(ERROR, "sentenze-illeggibili", where, 0, None, f"file illeggibile: {e}"))
    return out


def summary(directory: Path, findings: list[Finding]) -> str:
    errors = sum(1 for f in findings if f.level == ERROR)
    return (f"Tabella delle carte ({directory}): {errors} errori, {len(findings) - errors} avvisi.")
