"""Citations on other sites: one script tag turns the rule citations of a page into links to this site,
with the same previews as here.

- ``/incorpora.js``: the script a site includes (static/js/incorpora.js): it sends the page's text to
  ``/api/citazioni``, links what the linker finds and loads the preview script (static/js/anteprime.js);
- ``/api/citazioni``: the linker (judge/corpus/citations.py, the one parser of the project, the same
  as ``/collega``) on many texts at once, each citation with its rule's address and preview;
- ``/incorpora``: how to use it, with a live example.

``/api/citazioni`` is public and read-only: any origin may call it (CORS), without cookies; the
other two are this site's (the script is a plain ``<script>``, which needs no CORS).
"""

from __future__ import annotations

import time

from flask import Blueprint, current_app, jsonify, render_template, request, send_from_directory

from judge.corpus import load_corpus
from judge.web.errors import error_response
from judge.web.json_body import read_json
from judge.web.linker import link_report
from judge.web.previews import cross_origin, preview_payload
from judge.web.tournament_citations import document_preview

bp = Blueprint("embed", __name__)
_cors = cross_origin("POST, OPTIONS")


@bp.after_request
def _citations_cross_origin(response):
    return _cors(response) if request.endpoint == "embed.citazioni" else response


# A page's text, in one request: a long forum thread fits; the script splits larger pages.
MAX_TEXTS = 400
MAX_TOTAL_CHARS = 60_000
MAX_DEPTH = 16                  # {"testi": ["…"]} needs 2: room for fields it ignores, not for a bomb
# What one request may cost (the endpoint is public): the citations linked, and this thread's CPU
# time for finding them. Past either, the texts not yet read get no links and the answer says
# "completo": false; a page of text has a few dozen citations.
MAX_CITATIONS = 1_000
CPU_SECONDS = 0.1


class _Budget:
    def __init__(self):
        self.kept = 0                        # citations found in the texts already read
        self.until = time.thread_time() + CPU_SECONDS
        self.exhausted = False

    def stop(self, count: int) -> bool:
        if not self.exhausted and (self.kept + count >= MAX_CITATIONS or time.thread_time() > self.until):
            self.exhausted = True
        return self.exhausted


def utf16_positions(text: str, positions: list[int]) -> list[int]:
    """Positions (in order) as JavaScript counts them: UTF-16 code units, an emoji counts two.
    One pass over the text, whatever the number of positions."""
    if text.isascii() or max(text) < "\U00010000":
        return positions
    out, at, extra = [], 0, 0
    for p in positions:
        extra += sum(1 for ch in text[at:p] if ch > "\uffff")
        at = p
        out.append(p + extra)
    return out


def _target(span: dict) -> str | None:
    """What a span links to: a tournament section («IPG 2.1»), or the first of its numbers in force."""
    if span.get("documento"):
        return span["citazione"]
    return next((x["now"] for x in span["numbers"] if x["now"]), None)


@bp.get("/incorpora.js")
def script():
    resp = send_from_directory(current_app.static_folder, "js/incorpora.js", mimetype="text/javascript", max_age=3600)
    resp.headers["Cache-Control"] = "public, max-age=3600"
    resp.headers["Cross-Origin-Resource-Policy"] = "cross-origin"     # a <script> of other sites
    return resp


@bp.get("/incorpora")
def incorpora():
    return render_template("incorpora.html")


@bp.post("/api/citazioni")
def citazioni():
    """{"testi": ["…", …]} -> {"testi": [[{"inizio", "fine", "testo", "numero", "url"}, …], …],
    "regole": {numero: anteprima}, "completo": bool}: where each text cites a rule in force
    (positions in UTF-16 code units, as the browser counts them), and the rules' previews."""
    invalid = "Corpo JSON non valido: invia {\"testi\": [\"…\", …]}."
    data, err = read_json(MAX_DEPTH, invalid, nested_status=400)
    if err:
        return err
    if not isinstance(data, dict) or not isinstance(data.get("testi"), list):
        return error_response(400, invalid)
    texts = data["testi"]
    if len(texts) > MAX_TEXTS or not all(isinstance(t, str) for t in texts):
        return error_response(400, f"«testi» deve essere una lista di al massimo {MAX_TEXTS} stringhe.")
    total = sum(len(t) for t in texts)
    if total > MAX_TOTAL_CHARS:
        return error_response(413, f"Testo troppo lungo: {total} caratteri, il limite per richiesta è {MAX_TOTAL_CHARS}.")
    corpus = load_corpus()
    budget, memo = _Budget(), {}
    out, rules = [], {}
    for text in texts:
        if budget.exhausted:
            out.append([])
            continue
        report = link_report(text, corpus, external=True, memo=memo, notices=False, stop=budget.stop, limit=None)
        budget.kept += len(report.spans)
        kept = [(s, _target(s)) for s in report.spans]
        kept = [(s, target) for s, target in kept if target is not None]  # no rule in force: left as text
        where = utf16_positions(text, [p for s, _ in kept for p in (s["start"], s["end"])])
        spans = []
        for i, (s, target) in enumerate(kept):
            spans.append({"inizio": where[2 * i], "fine": where[2 * i + 1], "testo": s["text"],
                          "numero": target, "url": s["url"]})
            if target not in rules:
                # «IPG 2.1»: a tournament document's section (judge/web/tournament.py)
                rules[target] = (document_preview(target) if s.get("documento")
                                 else preview_payload(corpus, corpus.rules[target]))
        out.append(spans)
    return jsonify({"testi": out, "regole": rules, "edizione": corpus.in_force.id,
                    "completo": not budget.exhausted})
