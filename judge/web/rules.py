"""The rules: chapter, section and rule pages, forgiving addresses, history, changes
between editions, glossary, turn reference and the OpenSearch description."""

from __future__ import annotations

import re
import string
from functools import lru_cache

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.routing import BaseConverter

from judge.corpus.checks import corpus_findings, warnings_by_rule
from judge.corpus import Corpus, Rule, load_corpus
from judge.corpus.diff import RuleChange, diff_editions, word_diff
from judge.web import render
from judge.web.cache import cached
from judge.web.errors import error_response

bp = Blueprint("rules", __name__)


class RuleNumberConverter(BaseConverter):
    """A path segment that starts with a digit: only such top-level addresses are rule shortcuts."""

    regex = r"[1-9][0-9A-Za-z.]{0,15}"


def _setup(state) -> None:
    state.app.url_map.converters.setdefault("numero", RuleNumberConverter)
    render.init_app(state.app)


bp.record_once(_setup)

MAX_NUMBER_INPUT = 60


# -- data shared by pages and the API ---------------------------------------------------


def rule_warnings(corpus: Corpus, number: str, external: bool = False) -> list[dict]:
    """The corpus checks' warnings about one rule, ready for a page or the API."""
    by_rule = getattr(corpus, "_web_warnings", None)
    if by_rule is None:
        by_rule = corpus._web_warnings = warnings_by_rule(corpus_findings(corpus))
    out = []
    for f in by_rule.get(number, []):
        message = f.message[:1].upper() + f.message[1:]
        if not message.endswith((".", "!", "?", ")")):
            message += "."
        item = {"code": f.code, "level": f.level, "message": message, "related": list(f.related)}
        if f.code == "citazione-obsoleta":
            item["english_citations"] = [n for n in f.related if n in corpus]
        if f.code == "inglese-modificato" and len(f.related) == 2:
            old, new = f.related
            rule = corpus.get(number)
            item["diff_url"] = url_for(
                "rules.modifiche", intervallo=f"{old}..{new}", sezione=rule.section if rule else None,
                _external=external,
            ) + f"#r-{number}"
            item["history_url"] = url_for("rules.storia", numero=number, _external=external)
        out.append(item)
    return out


def stale_citations(corpus: Corpus, number: str) -> dict[str, str]:
    """Numbers the Italian text cites and the English counterpart does not → the English citations."""
    rule = corpus.get(number)
    if rule is None or rule.it is None or rule.en is None or rule.is_heading:
        return {}
    it_cites = corpus.citations(number, "it")
    en_cites = corpus.citations(number, "en")
    only_it = [n for n in it_cites if n not in en_cites]
    only_en = [n for n in en_cites if n not in it_cites]
    if not only_it:
        return {}
    replacement = ", ".join(only_en) or "altri numeri"
    return {n: replacement for n in only_it}


def translation_payload(text) -> dict | None:
    """The project's translation of a rule, for the API (``edition``: the English edition it
    translates; ``current``: whether that English text is still the one in force)."""
    if text is None:
        return None
    return {"lang": "it", "text": text.text, "examples": list(text.examples), "edition": text.edition,
            "current": text.current, "version": text.version}


def text_payload(text) -> dict | None:
    if text is None:
        return None
    return {
        "lang": text.lang,
        "text": text.text,
        "examples": list(text.examples),
        "version": text.version,
        "date": text.date.isoformat() if text.date else None,
        "source": text.source,
    }


def translation_banner(corpus: Corpus) -> str:
    return (
        "Traduzione italiana non disponibile: testo ufficiale inglese, edizione del "
        f"{render.date_it(corpus.in_force.date)}"
    )


# -- rule pages -----------------------------------------------------------------------


def nearest_rules(corpus: Corpus, text: str, limit: int = 7) -> list[Rule]:
    """corpus.nearest on the ASCII part of what was typed: other Unicode "digits" (², ٣) are no rule number."""
    try:
        return corpus.nearest("".join(ch for ch in text if ch.isascii()), limit)
    except ValueError:
        return []


def _not_found(corpus: Corpus, numero: str):
    shown = (numero or "").strip()[:MAX_NUMBER_INPUT]
    nearest = nearest_rules(corpus, shown)
    removed_in = None
    from judge.corpus.numbers import RuleNumber, RuleNumberError

    try:
        canonical = str(RuleNumber.parse_loose(shown))
        valid = True
    except RuleNumberError:
        canonical, valid = None, False
    if canonical:
        for e in reversed(corpus.editions[:-1]):
            if e.rule(canonical):
                removed_in = e
                break
    if valid:
        message = f"La regola «{shown}» non esiste nell'edizione in vigore del Regolamento."
    else:
        message = f"«{shown}» non è un numero di regola valido (esempi: 7, 703, 703.4, 703.4d)."
    if request.path.startswith("/api/"):
        return error_response(404, message, nearest=[r.number for r in nearest])
    return (
        render_template(
            "regola_non_trovata.html",
            status=404,
            message=message,
            nearest=nearest,
            removed_in=removed_in,
            canonical=canonical,
            corpus=corpus,
        ),
        404,
    )


def resolve_or_none(corpus: Corpus, numero: str) -> Rule | None:
    numero = (numero or "").strip()
    if len(numero) > MAX_NUMBER_INPUT:
        return None
    return corpus.get(numero) or corpus.resolve(numero)


def canonical_rule(corpus: Corpus, numero: str, endpoint: str):
    """(rule, None) for a canonical number; otherwise (None, the redirect to the canonical
    address of ``endpoint`` or the Italian 404 with the nearest rules)."""
    found = corpus.get(numero)
    if found is not None:
        return found, None
    found = resolve_or_none(corpus, numero)
    if found is None:
        return None, _not_found(corpus, numero)
    return None, redirect(url_for(endpoint, numero=found.number), code=301)


@bp.get("/regole")
@bp.get("/regole/")
def index():
    return redirect(url_for("pages.home"), code=302)


@bp.get("/regole/<numero>")
@cached
def rule(numero: str):
    corpus = load_corpus()
    found, answer = canonical_rule(corpus, numero, "rules.rule")
    return answer or _render_rule(corpus, found)


@bp.get("/regole/<path:numero>")
def rule_with_slash(numero: str):
    """Anything else under /regole/ (a pasted text with slashes): the Italian 404 with the nearest rules."""
    return _not_found(load_corpus(), numero)


@bp.get("/r/<numero>")
@bp.get("/cr/<numero>")
@bp.get("/<numero:numero>")
def shortcut(numero: str):
    corpus = load_corpus()
    found = resolve_or_none(corpus, numero)
    if found is None:
        return _not_found(corpus, numero)
    return redirect(url_for("rules.rule", numero=found.number), code=301)


def _breadcrumbs(corpus: Corpus, rule: Rule) -> list[Rule]:
    chain = []
    parent = corpus.parent(rule.number)
    while parent is not None:
        chain.append(parent)
        parent = corpus.parent(parent.number)
    return list(reversed(chain))


def _render_rule(corpus: Corpus, rule: Rule):
    section = corpus.section_of(rule.number)
    italian_section = corpus.italian_sections.get(rule.section) if rule.section else None
    if rule.kind == "capitolo":
        sections = corpus.sections(rule.number)
        return render_template(
            "capitolo.html",
            corpus=corpus,
            rule=rule,
            sections=sections,
            previous=corpus.previous(rule.number),
            next=corpus.next(rule.number),
        )
    descendants = corpus.descendants(rule.number)
    cited_by = [corpus.get(n) for n in corpus.cited_by.get(rule.number, []) if n != rule.number and n in corpus]
    return render_template(
        "regola.html",
        corpus=corpus,
        rule=rule,
        crumbs=_breadcrumbs(corpus, rule),
        section=section,
        italian_section=italian_section,
        descendants=descendants,
        children=corpus.children(rule.number),
        previous=corpus.previous(rule.number),
        next=corpus.next(rule.number),
        cited_by=cited_by,
        warnings=rule_warnings(corpus, rule.number),
        child_warnings={d.number: rule_warnings(corpus, d.number) for d in descendants},
        stale={d.number: stale_citations(corpus, d.number) for d in [rule, *descendants]},
        banner=translation_banner(corpus),
        permalink=render.rule_url(rule.number, external=True),
    )


# -- history and changes between editions ---------------------------------------------


@bp.get("/regole/<numero>/storia")
@cached
def storia(numero: str):
    corpus = load_corpus()
    found, answer = canonical_rule(corpus, numero, "rules.storia")
    if answer:
        return answer
    versions = []
    previous_text = None
    for e in corpus.editions:
        r = e.rule(found.number)
        text = "\n".join([r.text, *r.examples]) if r else None
        if found.is_heading:
            n = int(found.number)
            text = (e.sections if found.kind == "sezione" else e.chapters).get(n)
        words = word_diff(previous_text, text) if previous_text is not None and text is not None and text != previous_text else None
        versions.append({
            "edition": e,
            "text": text,
            "changed": previous_text is not None and text != previous_text,
            "words": words,
        })
        previous_text = text
    return render_template("storia.html", corpus=corpus, rule=found, versions=versions)


def parse_interval(corpus: Corpus, intervallo: str):
    """("20251114", "20260619") editions from "20251114..20260619", or an error response."""
    m = re.fullmatch(r"(\d{8})\.\.(\d{8})", intervallo or "")
    available = [e.id for e in corpus.editions]
    if not m:
        return None, error_response(
            400,
            "Intervallo non valido: usa <vecchia>..<nuova> con le date delle edizioni (AAAAMMGG), "
            f"per esempio {available[0]}..{available[-1]}.",
            editions=available,
        )
    old, new = corpus.edition(m[1]), corpus.edition(m[2])
    missing = [x for x, e in ((m[1], old), (m[2], new)) if e is None]
    if missing:
        return None, error_response(
            404, f"Edizione sconosciuta: {', '.join(missing)}. Edizioni disponibili: {', '.join(available)}.",
            editions=available,
        )
    if old.id == new.id:
        return None, error_response(400, "Le due edizioni sono la stessa: scegline due diverse.", editions=available)
    return (old, new), None


def parse_section_filter(corpus: Corpus, value: str | None):
    """A chapter ("7") or section ("704") filter, None for all, or an error response."""
    v = value or ""
    if not v:
        return None, None
    if re.fullmatch(r"[1-9]|[1-9]\d{2}", v):
        known = {str(c) for e in corpus.editions for c in e.chapters} | {str(s) for e in corpus.editions for s in e.sections}
        if v in known:
            return v, None
        return None, error_response(
            404, f"Il capitolo o la sezione «{v}» non esiste in nessuna edizione del Regolamento."
        )
    shown = v[:MAX_NUMBER_INPUT]
    return None, error_response(
        400, f"Filtro «{shown}» non valido: indica un capitolo (es. 7) o una sezione (es. 704) del Regolamento."
    )


@lru_cache(maxsize=64)
def _cached_diff(content_hash: str, old_id: str, new_id: str, section: str | None) -> tuple[RuleChange, ...]:
    corpus = load_corpus()
    return tuple(diff_editions(corpus.edition(old_id), corpus.edition(new_id), section))


def changes(corpus: Corpus, old, new, section: str | None) -> list[RuleChange]:
    return list(_cached_diff(corpus.content_hash, old.id, new.id, section))


def changes_request(corpus: Corpus, intervallo: str):
    """(error response, (old, new, section, changes)) for "/modifiche/<a>..<b>?sezione=…"."""
    pair, err = parse_interval(corpus, intervallo)
    if err:
        return err, (None, None, None, None)
    section, err = parse_section_filter(corpus, request.args.get("sezione"))
    if err:
        return err, (None, None, None, None)
    old, new = pair
    return None, (old, new, section, changes(corpus, old, new, section))


@bp.get("/modifiche/")
@bp.get("/modifiche")
def modifiche_index():
    corpus = load_corpus()
    if len(corpus.editions) >= 2:
        a, b = corpus.editions[-2], corpus.editions[-1]
        return redirect(url_for("rules.modifiche", intervallo=f"{a.id}..{b.id}"), code=302)
    return render_template("modifiche.html", corpus=corpus, changes=None, old=None, new=None, section=None, counts={})


@bp.get("/modifiche/<intervallo>")
@cached
def modifiche(intervallo: str):
    corpus = load_corpus()
    err, (old, new, section, found) = changes_request(corpus, intervallo)
    if err:
        return err
    counts = {k: sum(1 for c in found if c.kind == k) for k in ("aggiunta", "rimossa", "modificata")}
    sections = sorted({c.number.split(".")[0] for c in changes(corpus, old, new, None)}, key=int)
    return render_template(
        "modifiche.html", corpus=corpus, changes=found, old=old, new=new, section=section, counts=counts,
        sections=sections,
    )


# -- glossary, turn reference, OpenSearch ---------------------------------------------------


def _anchor(term: str) -> str:
    return "t-" + re.sub(r"[^a-z0-9]+", "-", term.lower()).strip("-")


def glossary_entries(corpus: Corpus) -> list[dict]:
    """The glossary of the edition in force, alphabetical, each entry with the project's Italian
    term and definition where translated (the term otherwise from the terminology table)."""
    entries = []
    for e in sorted(corpus.glossary.values(), key=lambda e: e.term.lower()):
        first = e.term[:1].upper()
        entries.append({
            "term": e.term, "text": e.text, "it_term": e.it_term or corpus.terminology.italian(e.term),
            "it_text": e.it_text, "current": e.current, "anchor": _anchor(e.term),
            "letter": first if first in string.ascii_uppercase else "#",
        })
    return entries


@bp.get("/glossario")
@cached
def glossario():
    corpus = load_corpus()
    entries = glossary_entries(corpus)
    letters = sorted({e["letter"] for e in entries}, key=lambda x: (x == "#", x))
    translated = sum(1 for e in entries if e["it_text"])
    return render_template("glossario.html", corpus=corpus, entries=entries, letters=letters, translated=translated)


@bp.get("/turno")
@cached
def turno():
    from judge.web import turn

    corpus = load_corpus()
    return render_template(
        "turno.html", corpus=corpus, phases=turn.PHASES, always=turn.ALWAYS, mana_burn=turn.MANA_BURN
    )


@bp.get("/opensearch.xml")
def opensearch():
    base = request.url_root.rstrip("/")
    search_path = url_for("search.cerca") if "search.cerca" in current_app.view_functions else "/cerca"
    xml = render_template("opensearch.xml", base=base, search_path=search_path)
    return Response(xml, mimetype="application/opensearchdescription+xml")
