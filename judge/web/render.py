"""Text → HTML for rule texts and pasted texts: escaped, with every citation a link.

Citations are found by :func:`judge.corpus.citations.find_citations` (the one parser of the
project); numbers that exist in the corpus become links to their rule page, unknown
numbers are marked (``<span class="cit-ignota">``) and never linked.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from flask import current_app, has_request_context, request, url_for
from markupsafe import Markup, escape

from judge.corpus.citations import Citation, find_citations
from judge.corpus import Corpus, Rule, italian_date, load_corpus
from judge.corpus.model import is_name_only
from judge.corpus.pinned import known, resolve
from judge.corpus.turn_names import section_name
from judge.corpus.rules_en import Edition

KIND_LABELS = {
    "capitolo": "Capitolo",
    "sezione": "Sezione",
    "regola": "Regola",
    "sottoregola": "Regola",
}


MAX_CACHED_URLS = 20_000


def cached_url(endpoint: str, **values) -> str:
    """``url_for`` for addresses that do not change while the app runs (navigation, rule pages):
    built once per endpoint, values and script root. Every page links a few dozen of them."""
    cache = current_app.extensions.setdefault("judge.urls", {})
    key = (endpoint, request.script_root if has_request_context() else "", tuple(sorted(values.items())))
    url = cache.get(key)
    if url is None:
        url = url_for(endpoint, **values)
        if len(cache) < MAX_CACHED_URLS:
            cache[key] = url
    return url


def rule_url(number: str, external: bool = False, **kwargs) -> str:
    if external or kwargs:
        return url_for("rules.rule", numero=number, _external=external, **kwargs)
    return cached_url("rules.rule", numero=number)


def rule_title(rule: Rule) -> str:
    """"Regola 703.4d", "Sezione 703 · Azioni basate sul turno", "Capitolo 7 · Regole aggiuntive"."""
    label = f"{KIND_LABELS[rule.kind]} {rule.number}"
    if rule.is_heading and rule.best:
        return f"{label} · {heading_name(rule)}"
    return label


def heading_name(rule: Rule) -> str:
    """A chapter's or section's Italian name: for a phase or step, the name the whole site uses
    (judge/corpus/turn_names.py); otherwise its title as the corpus shows it."""
    if rule.kind == "sezione":
        name = section_name(rule.number)
        if name:
            return name
    return rule.best.text if rule.best else ""


def rule_name(rule: Rule, corpus: Corpus | None = None) -> str:
    """What a rule is called: its own text when that is a name (702.19 «Travolgere»), else the name
    of the nearest rule above it that has one (702.19b «Travolgere»), else its section's name
    (704.5a «Azioni generate dallo stato»)."""
    corpus = corpus or load_corpus()
    r: Rule | None = rule
    while r is not None and not r.is_heading:
        if r.italian and is_name_only(r.italian.text):
            return r.italian.text.strip()
        r = corpus.get(r.parent) if r.parent else None
    if r is None:
        return ""
    return heading_name(r)


def rule_heading(rule: Rule, corpus: Corpus | None = None) -> str:
    """«702.19 Travolgere», «704.5a Azioni generate dallo stato», «508. Sottofase di dichiarazione
    degli attaccanti», «Capitolo 7 · Regole aggiuntive»: a rule page's title."""
    if rule.kind == "capitolo":
        return f"Capitolo {rule.number} · {heading_name(rule)}"
    if rule.kind == "sezione":
        return f"{rule.number}. {heading_name(rule)}"
    name = rule_name(rule, corpus)
    return f"{rule.number} {name}" if name else f"Regola {rule.number}"


LAYER_CLASSES = {"ufficiale": "strato-ufficiale", "traduzione": "strato-traduzione", "comunità": "strato-comunita"}


def layer_class(layer: str | None) -> str:
    """The CSS class of a text's label: the same colour for the same text on every page."""
    return LAYER_CLASSES.get(layer or "", "strato-ufficiale")


def date_it(value: dt.date | None) -> str:
    return italian_date(value) if value else "data sconosciuta"


class Stale(NamedTuple):
    """A citation an Italian text makes to a rule that moved: what to say, and its number today."""

    message: str
    now: str | None


def cited_target(c: Citation, corpus: Corpus) -> str | None:
    """The number a citation links to: its first number that exists (a range "601.2a–d" links to 601.2a)."""
    for n in c.numbers:
        if n in corpus:
            return n
    return None


def link_text(
    text: str,
    corpus: Corpus | None = None,
    *,
    keep_newlines: bool = True,
    stale: dict[str, Stale] | None = None,
    edition: Edition | None = None,
) -> Markup:
    """``text`` escaped, with every citation linked (or marked, when the number does not exist).

    ``stale`` maps numbers that an Italian text cites for rules renumbered since to what to say
    (the link's title) and, when known, the number to link instead. ``edition`` is the edition
    the text was written under: each citation is read there and linked to the rule's number in
    force, marked when it moved, changed or no longer exists. Only what is inside the link
    elements is added; the text between them is the input, escaped."""
    corpus = corpus or load_corpus()
    text = text or ""
    if edition is corpus.in_force:
        edition = None
    out: list[str] = []
    pos = 0
    for c in find_citations(text, known=known(corpus)):
        out.append(str(escape(text[pos:c.start])))
        label = escape(text[c.start:c.end])
        out.append(_pinned_html(c, label, corpus, edition) if edition is not None else _current_html(c, label, corpus, stale))
        pos = c.end
    out.append(str(escape(text[pos:])))
    html = "".join(out)
    if keep_newlines:
        html = html.replace("\n", "<br>\n")
    return Markup(html)


def _unknown_html(label: Markup, message: str) -> str:
    return (f'<span class="cit-ignota" title="{escape(message)}">{label}'
            f'<span class="visually-hidden"> (regola inesistente)</span></span>')


def _current_html(c: Citation, label: Markup, corpus: Corpus, stale: dict[str, Stale] | None) -> str:
    hit = next((stale[n] for n in c.numbers if stale and n in stale), None)
    target = hit.now if hit and hit.now in corpus else cited_target(c, corpus)
    if target is None:
        return _unknown_html(label, hit.message if hit else "Regola inesistente: " + ", ".join(c.numbers))
    if hit is None:
        title = ", ".join(c.numbers) if len(c.numbers) > 1 else f"Regola {target}"
        return f'<a class="cit" href="{escape(rule_url(target))}" title="{escape(title)}">{label}</a>'
    return (f'<a class="cit cit-obsoleta" href="{escape(rule_url(target))}" title="{escape(hit.message)}">{label}</a>'
            f'<span class="visually-hidden"> ({escape(hit.message)})</span>')


def _pinned_html(c: Citation, label: Markup, corpus: Corpus, edition: Edition) -> str:
    found = [resolve(n, corpus, edition) for n in c.numbers]
    notices = "; ".join(dict.fromkeys(r.notice for r in found if r.notice))
    target = next((r for r in found if r.now is not None), None)
    if target is None:
        gone = next((r for r in found if r.exists), None)
        if gone is None:
            return _unknown_html(label, notices)
        # Removed since: link the text it had, in its own edition.
        url = rule_url(gone.number, edizione=edition.id)
        return (f'<a class="cit cit-rimossa" href="{escape(url)}" title="{escape(notices)}">{label}'
                f'<span class="ora"> (non più in vigore)</span></a>')
    moved = [r.now for r in found if r.now is not None and r.now != r.number]
    changed = any(r.status in ("modificata", "spostata e modificata") for r in found)
    classes = "cit" + (" cit-spostata" if moved else "") + (" cit-modificata" if changed else "")
    title = notices or (", ".join(c.numbers) if len(c.numbers) > 1 else f"Regola {target.now}")
    now = ""
    if moved:
        shown = ", ".join(moved[:3]) + ("…" if len(moved) > 3 else "")
        now = f'<span class="ora"> → oggi {escape(shown)}</span>'
    return f'<a class="{classes}" href="{escape(rule_url(target.now))}" title="{escape(title)}">{label}{now}</a>'


def word_diff_html(words: list[tuple[str, str]]) -> Markup:
    """A word diff as ``<ins>``/``<del>`` markup (escaped)."""
    parts = []
    for op, t in words:
        t = str(escape(t))
        if op == "+":
            parts.append(f"<ins>{t}</ins>")
        elif op == "-":
            parts.append(f"<del>{t}</del>")
        else:
            parts.append(t)
    return Markup("".join(parts).replace("\n", "<br>\n"))


class EditionInForce(NamedTuple):
    date: dt.date
    verified: bool


def edition_in_force() -> EditionInForce | None:
    """What every page's footer says of the English edition in force."""
    try:
        corpus = load_corpus()
    except (OSError, ValueError):  # an error page because the corpus can't load: say nothing
        return None
    v = corpus.verification.get(corpus.in_force.id)
    return EditionInForce(corpus.in_force.date, bool(v and v.verified))


def init_app(app) -> None:
    app.add_template_filter(lambda t, stale=None: link_text(t, stale=stale), "citazioni")
    app.add_template_filter(
        lambda t, edition_id: link_text(t, edition=load_corpus().edition(edition_id)), "citazioni_edizione"
    )
    app.add_template_filter(date_it, "data_it")
    app.add_template_filter(rule_title, "titolo_regola")
    app.add_template_filter(heading_name, "nome_titolo")
    app.add_template_filter(layer_class, "classe_strato")
    app.add_template_filter(rule_heading, "intestazione_regola")
    app.add_template_filter(rule_name, "nome_regola")
    app.add_template_filter(word_diff_html, "diff_parole")
    app.add_template_global(rule_url, "rule_url")

    @app.context_processor
    def _endpoints():
        def has_endpoint(name: str) -> bool:
            return name in current_app.view_functions

        def endpoint_url(name: str, fallback: str, **values) -> str:
            if name not in current_app.view_functions:
                return fallback
            return url_for(name, **values) if values else cached_url(name)

        return {"has_endpoint": has_endpoint, "endpoint_url": endpoint_url, "cached_url": cached_url,
                "edition_in_force": edition_in_force}
