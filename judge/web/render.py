"""Text → HTML for rule texts and pasted texts: escaped, with every citation a link.

Citations are found by :func:`judge.corpus.citations.find_citations` (the one parser of the
project); numbers that exist in the corpus become links to their rule page, unknown
numbers are marked (``<span class="cit-ignota">``) and never linked.
"""

from __future__ import annotations

import datetime as dt

from flask import current_app, has_request_context, request, url_for
from markupsafe import Markup, escape

from judge.corpus.citations import Citation, find_citations
from judge.corpus import Corpus, Rule, italian_date, load_corpus

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
        return f"{label} · {rule.best.text}"
    return label


def date_it(value: dt.date | None) -> str:
    return italian_date(value) if value else "data sconosciuta"


def cited_target(c: Citation, corpus: Corpus) -> str | None:
    """The number a citation links to: its first number that exists (a range "601.2a–d" links to 601.2a)."""
    for n in c.numbers:
        if n in corpus:
            return n
    return None


def link_text(
    text: str, corpus: Corpus | None = None, *, keep_newlines: bool = True, stale: dict[str, str] | None = None
) -> Markup:
    """``text`` escaped, with every citation linked (or marked, when the number does not exist).

    ``stale`` maps numbers that an Italian text cites but its English counterpart does not
    (probably renumbered) to the English citation, shown in the link's title."""
    corpus = corpus or load_corpus()
    text = text or ""
    out: list[str] = []
    pos = 0
    for c in find_citations(text):
        out.append(str(escape(text[pos:c.start])))
        target = cited_target(c, corpus)
        label = escape(text[c.start:c.end])
        stale_hit = next((n for n in c.numbers if stale and n in stale), None)
        if target is not None and stale_hit is None:
            title = ", ".join(c.numbers) if len(c.numbers) > 1 else f"Regola {target}"
            out.append(
                f'<a class="cit" href="{escape(rule_url(target))}" title="{escape(title)}">{label}</a>'
            )
        elif target is not None:
            title = f"Numerazione probabilmente superata: il testo inglese in vigore cita {stale[stale_hit]}"
            out.append(
                f'<a class="cit cit-obsoleta" href="{escape(rule_url(target))}" title="{escape(title)}">{label}</a>'
                f'<span class="visually-hidden"> (numerazione superata; in inglese {escape(stale[stale_hit])})</span>'
            )
        else:
            missing = ", ".join(c.numbers)
            out.append(
                f'<span class="cit-ignota" title="{escape("Regola inesistente: " + missing)}">{label}'
                f'<span class="visually-hidden"> (regola inesistente)</span></span>'
            )
        pos = c.end
    out.append(str(escape(text[pos:])))
    html = "".join(out)
    if keep_newlines:
        html = html.replace("\n", "<br>\n")
    return Markup(html)


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


def init_app(app) -> None:
    app.add_template_filter(lambda t, stale=None: link_text(t, stale=stale), "citazioni")
    app.add_template_filter(date_it, "data_it")
    app.add_template_filter(rule_title, "titolo_regola")
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

        return {"has_endpoint": has_endpoint, "endpoint_url": endpoint_url, "cached_url": cached_url}
