"""The rules: chapter, section and rule pages, forgiving addresses, history, changes
between editions, glossary, turn reference and the OpenSearch description."""

from __future__ import annotations

import re
import string

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.routing import BaseConverter

from judge.corpus.checks import corpus_findings, warnings_by_rule
from judge.corpus import Corpus, Rule, load_corpus
from judge.corpus import pinned
from judge.corpus.diff import word_diff
from judge.corpus.edition_list import edition_rows
from judge.web import changes as edition_changes
from judge.web import glossary_search, parts, render
from judge.web.changes import MAX_NUMBER_INPUT
from judge.web.changes import changes_request, parse_interval, parse_section_filter  # noqa: F401 (API)
from judge.web.cache import cached, prepared
from judge.web.errors import error_response

bp = Blueprint("rules", __name__)


class RuleNumberConverter(BaseConverter):
    """A path segment that starts with a digit: only such top-level addresses are rule shortcuts."""

    regex = r"[1-9][0-9A-Za-z.]{0,15}"


def _setup(state) -> None:
    state.app.url_map.converters.setdefault("numero", RuleNumberConverter)
    render.init_app(state.app)


bp.record_once(_setup)


# -- data shared by pages and the API ---------------------------------------------------


def plain_warnings(corpus: Corpus, number: str) -> list[dict]:
    """The corpus checks' warnings about one rule: code, level, the sentence a page shows, related
    numbers and, for a citation the English makes otherwise, its numbers in force (no addresses:
    the offline copy's data holds these too, built with no request)."""
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
        out.append(item)
    return out


def rule_warnings(corpus: Corpus, number: str, external: bool = False) -> list[dict]:
    """The corpus checks' warnings about one rule, ready for a page or the API."""
    out = plain_warnings(corpus, number)
    for item in out:
        f_code, related = item["code"], item["related"]
        if f_code == "inglese-modificato" and len(related) == 2:
            old, new = related
            rule = corpus.get(number)
            item["diff_url"] = url_for(
                "rules.modifiche", intervallo=f"{old}..{new}", sezione=rule.section if rule else None,
                _external=external,
            ) + f"#r-{number}"
            item["history_url"] = url_for("rules.storia", numero=number, _external=external)
    return out


def stale_citations(corpus: Corpus, number: str) -> dict[str, render.Stale]:
    """Numbers the community Italian text cites for rules that moved since → what to say and where
    the rule is today (when known). A citation that is right for an outdated Italian text
    ("italiano-superato") is not marked: the warning on the rule says the text is outdated."""
    rule = corpus.get(number)
    if rule is None or rule.is_heading:
        return {}
    out: dict[str, render.Stale] = {}
    for why in rule.community_outdated:
        if why.code != "citazione-obsoleta":
            continue
        for cited, now in zip(why.only_it, why.now):
            if now:
                out[cited] = render.Stale(f"Numerazione superata: la regola citata è oggi {now}", now)
            else:
                english = ", ".join(why.only_en) or "altri numeri"
                out[cited] = render.Stale(
                    f"Numerazione probabilmente superata: il testo inglese in vigore cita {english}", None)
    return out


def translation_payload(text) -> dict | None:
    """The project's translation of a rule, for the API (``edition``: the English edition it
    translates; ``current``: whether that English text is still the one in force)."""
    if text is None:
        return None
    return {"lang": "it", "text": text.text, "examples": list(text.examples), "edition": text.edition,
            "current": text.current, "version": text.version, "layer": text.layer, "label": text.label}


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
        "layer": text.layer,  # "ufficiale", "traduzione" or "comunità"
        "label": text.label,  # «Inglese ufficiale · 25 settembre 2026», as every page writes it
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
            former=pinned.resolve(canonical, corpus, removed_in) if removed_in else None,
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
    edition, err = edition_changes.parse_edition(corpus, request.args.get("edizione"))
    if err:
        return err
    if edition is not None and edition is not corpus.in_force:
        return _render_in_edition(corpus, numero, edition)
    found, answer = canonical_rule(corpus, numero, "rules.rule")
    return answer or _render_rule(corpus, found)


def in_edition(corpus: Corpus, numero: str, edition, endpoint: str):
    """(canonical number, None) when ``numero`` exists in ``edition``; otherwise (None, the redirect
    to its canonical address or the Italian 404)."""
    numero = (numero or "").strip()[:MAX_NUMBER_INPUT]
    if corpus.lineage.exists(edition, numero):
        return numero, None
    from judge.corpus.numbers import RuleNumber, RuleNumberError, is_chapter

    try:
        canonical = numero if is_chapter(numero) else str(RuleNumber.parse_loose(numero))
    except RuleNumberError:
        canonical = None
    if canonical and canonical != numero and corpus.lineage.exists(edition, canonical):
        return None, redirect(url_for(endpoint, numero=canonical, edizione=edition.id), code=301)
    message = (f"La regola «{numero}» non esiste nell'edizione del {render.date_it(edition.date)}."
               if canonical else f"«{numero}» non è un numero di regola valido (esempi: 7, 703, 703.4, 703.4d).")
    return None, error_response(404, message, edition=edition.id)


def _render_in_edition(corpus: Corpus, numero: str, edition):
    number, answer = in_edition(corpus, numero, edition, "rules.rule")
    if answer:
        return answer
    where = corpus.lineage.follow(number, edition)
    text, examples = edition_changes.old_text(edition, number)
    now = corpus.get(where.now) if where.now else None
    words = None
    if now is not None and where.steps:
        current = edition_changes.old_text(corpus.in_force, now.number)
        before, after = "\n".join([text, *examples]), "\n".join([current[0], *current[1]])
        words = word_diff(before, after) if before != after else None
    return render_template(
        "regola_edizione.html", corpus=corpus, number=number, edition=edition, text=text, examples=examples,
        where=where, now=now, words=words, notice=pinned.whereabouts_notice(where),
        permalink=render.rule_url(number, external=True, edizione=edition.id),
    )


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
    part, section_parts = None, []
    if rule.kind == "sezione":
        # A long section (702 is 600 KB whole) is shown a part at a time, its rules listed above.
        section_parts = _section_parts(corpus, rule.number)
        if len(section_parts) > 1:
            part, err = parts.chosen(section_parts, f"la sezione {rule.number}")
            if err:
                return err
            children = corpus.children(rule.number)[part.start:part.end]
            descendants = [d for c in children for d in (c, *corpus.descendants(c.number))]
        else:
            section_parts = []
    cited_by = [corpus.get(n) for n in corpus.cited_by.get(rule.number, []) if n != rule.number and n in corpus]
    return render_template(
        "regola.html",
        corpus=corpus,
        rule=rule,
        part=part,
        section_parts=section_parts,
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
        numbering=edition_changes.numbering_summary(edition_changes.earlier_numbers(corpus, rule.number)),
        last_change=edition_changes.last_change(corpus, rule.number),
    )


def _section_parts(corpus: Corpus, section: str) -> list[parts.Part]:
    """A section's rules (with their subrules) in parts of bounded size."""
    children = corpus.children(section)
    weights = [sum(parts.MARKUP_PER_RULE + sum(len(t.text) + sum(map(len, t.examples))
                                               for t in (r.it, r.en, r.tr) if t is not None)
                   for r in (c, *corpus.descendants(c.number))) for c in children]
    return parts.cut(weights, [c.number for c in children], parts.SECTION_PART_BYTES)


# -- history and changes between editions ---------------------------------------------


@bp.get("/regole/<numero>/storia")
@cached
def storia(numero: str):
    corpus = load_corpus()
    found, answer = canonical_rule(corpus, numero, "rules.storia")
    if answer:
        return answer
    missing = [r for r in edition_rows(corpus) if not r.present]
    return render_template("storia.html", corpus=corpus, rule=found, missing=missing,
                           versions=edition_changes.history(corpus, found.number))


@bp.get("/modifiche/")
@bp.get("/modifiche")
def modifiche_index():
    corpus = load_corpus()
    if len(corpus.editions) >= 2:
        a, b = corpus.editions[-2], corpus.editions[-1]
        return redirect(url_for("rules.modifiche", intervallo=f"{a.id}..{b.id}"), code=302)
    return render_template("modifiche.html", corpus=corpus, found=None)


@bp.get("/modifiche/<intervallo>")
@cached
def modifiche(intervallo: str):
    corpus = load_corpus()
    err, found = changes_request(corpus, intervallo)
    if err:
        return err
    everything = edition_changes.changes(corpus, found.old, found.new, None)
    sections = sorted({n.split(".")[0] for c in everything.rules for n in (c.number, c.old_number) if n}, key=int)
    # Many changes (six editions apart) are shown a part at a time (judge/web/parts.py).
    change_parts = parts.cut([parts.MARKUP_PER_CHANGE + len(c.old or "") + len(c.new or "") for c in found.rules],
                             [c.number for c in found.rules], parts.CHANGES_PART_BYTES)
    part = None
    shown = found.rules
    if len(change_parts) > 1:
        part, err = parts.chosen(change_parts, "questo elenco di modifiche")
        if err:
            return err
        shown = found.rules[part.start:part.end]
    else:
        change_parts = []
    return render_template("modifiche.html", corpus=corpus, found=found, sections=sections, shown=shown,
                           change_parts=change_parts, part=part,
                           labels=edition_changes.KIND_LABELS)


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


def glossary_letters(entries: list[dict]) -> list[str]:
    """The letters the glossary's pages go by (one page each)."""
    return list(dict.fromkeys(e["letter"] for e in entries))


@bp.get("/glossario")
@cached
def glossario():
    corpus = load_corpus()
    entries = glossary_entries(corpus)
    translated = sum(1 for e in entries if e["it_text"])
    total = len(entries)
    q = " ".join(request.args.get("q", "").split())[:glossary_search.MAX_QUERY_CHARS]
    from judge.search.glossary import get_glossary

    search_glossary = get_glossary(corpus=corpus)
    letters = glossary_letters(entries)
    letter = None
    if q:
        entries = glossary_search.search_entries(entries, q, search_glossary)
    else:
        # One letter at a time (judge/web/parts.py): the whole glossary is 480 KB.
        letter, err = parts.chosen_letter(letters, "il glossario")
        if err:
            return err
        entries = [e for e in entries if e["letter"] == letter]
    # Players' and judges' jargon is not in the Comprehensive Rules: listed apart, said for what it is.
    jargon = search_glossary.jargon([q]) if q else search_glossary.all_jargon()
    return render_template("glossario.html", corpus=corpus, entries=entries, translated=translated,
                           total=total, q=q, jargon=jargon, letters=letters, letter=letter,
                           letter_url=lambda x: url_for("rules.glossario", lettera=parts.letter_slug(x)))


@bp.get("/turno")
@cached
def turno():
    from judge.web import turn

    corpus = load_corpus()
    return render_template(
        "turno.html", corpus=corpus, phases=turn.PHASES, always=turn.ALWAYS, mana_burn=turn.MANA_BURN
    )


@bp.get("/opensearch.xml")
@prepared(cache_control="public, max-age=86400", per_host=True)
def opensearch():
    base = request.url_root.rstrip("/")
    search_path = url_for("search.cerca") if "search.cerca" in current_app.view_functions else "/cerca"
    xml = render_template("opensearch.xml", base=base, search_path=search_path)
    return Response(xml, mimetype="application/opensearchdescription+xml")
