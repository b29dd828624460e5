"""The citation linker: paste a text (Italian or English), get it back with every
rule citation linked and the list of cited rules with their text. A text written under an
older edition (``edizione=AAAAMMGG``) has its citations read in that edition and linked to
where each rule is today, with a notice for what moved, changed or no longer exists."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, current_app, redirect, render_template, request, url_for
from markupsafe import escape

from judge.corpus import Corpus, Rule, load_corpus
from judge.corpus.citations import find_citations
from judge.corpus.pinned import homonym_notice, known, resolve
from judge.corpus import text_dates
from judge.corpus.rules_en import Edition
from judge.tournament.citations import merge_spans
from judge.web import card_links, render
from judge.web.changes import read_edition
from judge.web.security import CSRF_KEPT, CsrfError
from judge.web.tournament_citations import document_spans, link_with_documents

bp = Blueprint("linker", __name__)

# Longest text the linker accepts (characters): a long ruling or forum thread, not a book.
MAX_LINKER_CHARS = 20_000
# Citations resolved and listed with their rule's text, per text: a ruling cites a handful, a long
# thread a few dozen. 20,000 characters of distinct rule numbers cited 2,700 rules: 0.6 s of CPU and
# a 2 MB page (3 MB of JSON); past this many the text's further citations stay linked in the text,
# not listed, and a notice says so.
MAX_LISTED_CITATIONS = 300


def too_many_message(limit: int = MAX_LISTED_CITATIONS) -> str:
    return (f"Il testo contiene più di {limit} citazioni: sono elencate le regole delle prime {limit}. "
            "Dividilo in più parti per vederle tutte.")


def too_long_message(length: int) -> str:
    return (
        f"Testo troppo lungo: il limite è di {MAX_LINKER_CHARS:,} caratteri".replace(",", ".")
        + f" (ne hai inviati {length:,}).".replace(",", ".")
        + " Dividilo in più parti."
    )


EMPTY_MESSAGE = "Incolla un testo che contenga citazioni di regole (per esempio «regola 704.5a» o «CR 117.3a»)."


@dataclass
class LinkReport:
    text: str
    edition: Edition | None = None  # the edition the text was written under (None: in force)
    spans: list[dict] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)  # cited rules in force, in order of first citation
    unknown: list[str] = field(default_factory=list)  # cited numbers with no rule in force
    notices: list[str] = field(default_factory=list)  # what moved, changed, no longer exists or meant another rule
    documents: list[str] = field(default_factory=list)  # tournament sections cited («IPG 2.1»), in order
    complete: bool = True  # False: stopped at a limit before the end of the text


def link_report(text: str, corpus: Corpus, external: bool = False, edition: Edition | None = None,
                memo: dict | None = None, notices: bool = True, stop=None,
                limit: int | None = MAX_LISTED_CITATIONS) -> LinkReport:
    """The citations of ``text``, each read in ``edition`` (default: the edition in force) and
    resolved to the rule in force. ``memo``: a dict shared by the calls of one request (same
    corpus, edition and host), so that a number cited again costs a look-up, not its resolution,
    its notice and its address again; ``notices=False`` skips the notices (the embed shows none);
    ``stop``: find_citations's budget; ``limit``: the most citations read (None: no limit), past
    which ``complete`` is False and a notice says so."""
    if edition is corpus.in_force:
        edition = None
    memo = {} if memo is None else memo
    report = LinkReport(text, edition)
    seen: dict[str, None] = {}
    unknown: dict[str, None] = {}
    found_notices: dict[str, None] = {}
    halted = []

    def enough(count: int) -> bool:
        if (limit is not None and count >= limit) or (stop is not None and stop(count)):
            halted.append(count)
            return True
        return False

    for c in find_citations(text, known=memo.setdefault(None, known(corpus)), stop=enough):
        numbers = []
        for n in c.numbers:
            entry, notice = memo.get(n) or memo.setdefault(n, _number(n, corpus, edition, external, notices))
            numbers.append(entry)
            if entry["now"]:
                seen.setdefault(entry["now"], None)
            else:
                unknown.setdefault(n, None)
            if notice:
                found_notices.setdefault(notice, None)
        target = next((x for x in numbers if x["now"]), None)
        report.spans.append({
            "start": c.start,
            "end": c.end,
            "text": c.text,
            "keyword": c.keyword,
            "numbers": numbers,
            "url": target["url"] if target else None,
        })
    # The tournament documents' citations («IPG 2.1», «MTR 4.2»), beside the rules'.
    found = len(report.spans)
    report.spans = merge_spans(report.spans, document_spans(text, external, stop=lambda n: enough(found + n)))
    report.documents = list(dict.fromkeys(s["citazione"] for s in report.spans if s.get("documento")))
    report.rules = [corpus.rules[n] for n in seen]
    report.unknown = list(unknown)
    report.complete = not halted
    if halted and limit is not None and halted[0] >= limit:
        found_notices.setdefault(too_many_message(limit), None)
    report.notices = list(found_notices)
    return report


def _number(n: str, corpus: Corpus, edition: Edition | None, external: bool, notices: bool) -> tuple[dict, str | None]:
    """A cited number resolved (with its address) and its notice, if any."""
    found = resolve(n, corpus, edition)
    url = render.rule_url(found.now, external=external) if found.now else None
    notice = None
    if notices:
        notice = found.notice if edition is not None else homonym_notice(n, corpus) if found.now else None
    return {**found.to_dict(), "url": url}, notice


@dataclass(frozen=True)
class EditionHint:
    """A date the text writes, and the edition that was in force then (not the one it is read in)."""

    written: str  # the date as the text writes it
    edition: Edition


def edition_hint(text: str, corpus: Corpus, edition: Edition | None) -> EditionHint | None:
    """«decisione del 3 dicembre 2025»: the text's latest date says when it was written; when the
    edition in force then is not the one its citations are read in, it is worth suggesting."""
    dates = text_dates.dates_in(text)
    if not dates:
        return None
    day, written = max(dates, key=lambda d: d[0])
    then = text_dates.edition_at(corpus.editions, day)
    if then is None or then is (edition or corpus.in_force):
        return None
    return EditionHint(written, then)


def _links(report: LinkReport, cards: list[card_links.Mention]) -> list[tuple[int, int, str, str]]:
    """(start, end, label, url) of every link of the text, in order: each rule citation, and each
    ``[[card]]`` (labelled with its name as written, or as corrected; a citation inside the brackets
    is the card's)."""
    out = [(m.start, m.end, m.written if m.choices or m.match.exact else m.match.face.display_name,
            m.url(external=True)) for m in cards if m.url() is not None]
    taken = [(m.start, m.end) for m in cards]
    for span in report.spans:
        if span["url"] and not any(a < span["end"] and span["start"] < b for a, b in taken):
            out.append((span["start"], span["end"], report.text[span["start"]:span["end"]], span["url"]))
    return sorted(out)


def as_markdown(report: LinkReport, cards: list[card_links.Mention] = ()) -> str:
    """The text with each citation and each ``[[card]]`` a Markdown link (the rest as it was written)."""
    out, pos = [], 0
    for start, end, label, url in _links(report, list(cards)):
        label = label.replace("[", "\\[").replace("]", "\\]")
        out += [report.text[pos:start], f"[{label}]({url})"]
        pos = end
    out.append(report.text[pos:])
    return "".join(out)


def as_html(report: LinkReport, cards: list[card_links.Mention] = ()) -> str:
    """The text as HTML (escaped, line breaks kept) with each citation and each ``[[card]]`` a link."""
    out, pos = [], 0
    for start, end, label, url in _links(report, list(cards)):
        out += [str(escape(report.text[pos:start])), f'<a href="{escape(url)}">{escape(label)}</a>']
        pos = end
    out.append(str(escape(report.text[pos:])))
    return "".join(out).replace("\n", "<br>\n")


def _page(corpus: Corpus, status: int = 200, **values):
    values = {"text": "", "report": None, "error": None, "edition": None, "short": None, "cards": [], "hint": None,
              **values}
    report = values["report"]
    if report is not None:
        values.setdefault("markdown", as_markdown(report, values["cards"]))
        values.setdefault("html_copy", as_html(report, values["cards"]))
    return render_template("collega.html", corpus=corpus, limit=MAX_LINKER_CHARS, **values), status


def _result(corpus: Corpus, text: str, edition: Edition | None, short: str | None = None):
    """The linked text, its citations and the cards it names in double square brackets."""
    report = link_report(text, corpus, external=True, edition=edition)
    cards = card_links.mentions(text)
    linked = link_with_documents(text, lambda part: card_links.link_text(part, corpus, edition=edition))
    return _page(corpus, text=text, report=report, edition=edition, short=short, cards=cards, linked=linked,
                 hint=edition_hint(text, corpus, edition))


@bp.errorhandler(CsrfError)
def _expired_form(e: CsrfError):
    # The pasted text goes back into the box with a new token: nothing to paste again.
    corpus = load_corpus()
    edition, _, _ = read_edition(corpus, request.form.get("edizione"))
    return _page(corpus, 400, text=request.form.get("testo", ""), edition=edition, error=CSRF_KEPT)


@bp.route("/collega", methods=["GET", "POST"])
def collega():
    corpus = load_corpus()
    # GET with ?testo=…&edizione=… gives a link that can be shared; the form posts.
    source = request.form if request.method == "POST" else request.args
    edition, status, message = read_edition(corpus, source.get("edizione"))
    text = source.get("testo", "")
    # A refused text goes back into the box whole (the body is bounded by MAX_CONTENT_LENGTH):
    # the user splits or corrects it rather than pasting it again.
    if message:
        return _page(corpus, status, text=text, error=message)
    if request.method == "GET" and not text:
        return _page(corpus, edition=edition)
    if len(text) > MAX_LINKER_CHARS:
        return _page(corpus, 413, text=text, edition=edition, error=too_long_message(len(text)))
    if not text.strip():
        return _page(corpus, 400, edition=edition, error=EMPTY_MESSAGE)
    return _result(corpus, text, edition)


# A shared result is a document of the simulator's content-addressed store (kind "collega"):
# the same text and edition always give the same short link, and a link never changes meaning.
SHARED_KIND = "collega"


def _store():
    from judge.web.simulator.store import store_for

    return store_for(current_app)


@bp.post("/collega/link")
def collega_link():
    """Save the text and its edition, and go to its short link (/c/<id>)."""
    corpus = load_corpus()
    edition, status, message = read_edition(corpus, request.form.get("edizione"))
    text = request.form.get("testo", "")
    if message:
        return _page(corpus, status, text=text, error=message)
    if len(text) > MAX_LINKER_CHARS:
        return _page(corpus, 413, text=text, edition=edition, error=too_long_message(len(text)))
    if not text.strip():
        return _page(corpus, 400, edition=edition, error=EMPTY_MESSAGE)
    ident = _store().save({"testo": text, "edizione": edition.id if edition else None}, SHARED_KIND)
    return redirect(url_for("linker.shared", ident=ident) + "#risultato", code=303)


@bp.get("/c/<ident>")
def shared(ident: str):
    corpus = load_corpus()
    from judge.web.simulator.store import CorruptDocument, StoreError

    try:
        found = _store().load(ident)
    except (StoreError, CorruptDocument):
        found = None
    if found is None or found[0] != SHARED_KIND or not isinstance(found[1], dict):
        return _page(corpus, 404, error=f"Nessun testo condiviso con l'indirizzo «{ident[:40]}»: "
                                        "controlla il link, o incolla di nuovo il testo.")
    doc = found[1]
    edition, _, message = read_edition(corpus, doc.get("edizione"))
    if message:  # an edition no longer loaded: read it in the edition in force, and say so
        edition = None
    return _result(corpus, str(doc.get("testo", "")), edition,
                   short=url_for("linker.shared", ident=ident, _external=True))
