"""The citation linker: paste a text (Italian or English), get it back with every
rule citation linked and the list of cited rules with their text. A text written under an
older edition (``edizione=AAAAMMGG``) has its citations read in that edition and linked to
where each rule is today, with a notice for what moved, changed or no longer exists."""

from __future__ import annotations

from dataclasses import dataclass, field

from flask import Blueprint, render_template, request

from judge.corpus import Corpus, Rule, load_corpus
from judge.corpus.citations import find_citations
from judge.corpus.pinned import homonym_notice, known, resolve
from judge.corpus.rules_en import Edition
from judge.web import card_links, render
from judge.web.changes import read_edition
from judge.web.security import CSRF_KEPT, CsrfError

bp = Blueprint("linker", __name__)

# Longest text the linker accepts (characters): a long ruling or forum thread, not a book.
MAX_LINKER_CHARS = 20_000


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


def link_report(text: str, corpus: Corpus, external: bool = False, edition: Edition | None = None) -> LinkReport:
    """The citations of ``text``, each read in ``edition`` (default: the edition in force) and
    resolved to the rule in force."""
    if edition is corpus.in_force:
        edition = None
    report = LinkReport(text, edition)
    seen: dict[str, None] = {}
    unknown: dict[str, None] = {}
    notices: dict[str, None] = {}
    for c in find_citations(text, known=known(corpus)):
        numbers = []
        for n in c.numbers:
            found = resolve(n, corpus, edition)
            url = render.rule_url(found.now, external=external) if found.now else None
            numbers.append({**found.to_dict(), "url": url})
            if found.now:
                seen.setdefault(found.now, None)
            else:
                unknown.setdefault(n, None)
            notice = found.notice if edition is not None else homonym_notice(n, corpus) if found.now else None
            if notice:
                notices.setdefault(notice, None)
        target = next((x["now"] for x in numbers if x["now"]), None)
        report.spans.append({
            "start": c.start,
            "end": c.end,
            "text": c.text,
            "keyword": c.keyword,
            "numbers": numbers,
            "url": render.rule_url(target, external=external) if target else None,
        })
    report.rules = [corpus.rules[n] for n in seen]
    report.unknown = list(unknown)
    report.notices = list(notices)
    return report


def _page(corpus: Corpus, status: int = 200, **values):
    values = {"text": "", "report": None, "error": None, "edition": None, "cards": [], **values}
    return render_template("collega.html", corpus=corpus, limit=MAX_LINKER_CHARS, **values), status


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
    report = link_report(text, corpus, edition=edition)
    cards = card_links.mentions(text)
    return _page(corpus, text=text, report=report, edition=edition, cards=cards,
                 linked=card_links.link_text(text, corpus, edition=edition, found=cards))
