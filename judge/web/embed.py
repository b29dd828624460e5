"""Citations on other sites: one script tag turns the rule citations of a page into links to this site,
with the same previews as here.

- ``/incorpora.js``: the script a site includes (static/js/incorpora.js): it sends the page's text to
  ``/api/citazioni``, links what the linker finds and loads the preview script (static/js/anteprime.js);
- ``/api/citazioni``: the linker (judge/corpus/citations.py, the one parser of the project, the same
  as ``/collega``) on many texts at once, each citation with its rule's address and preview;
- ``/incorpora``: how to use it, with a live example.

The API is public and read-only: any origin may call it (CORS), without cookies.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, request, send_from_directory

from judge.corpus import load_corpus
from judge.web.errors import error_response
from judge.web.linker import link_report
from judge.web.previews import allow_any_origin, preview_payload
from judge.web.tournament_citations import document_preview

bp = Blueprint("embed", __name__)
bp.after_request(allow_any_origin)

# A page's text, in one request: a long forum thread fits; the script splits larger pages.
MAX_TEXTS = 400
MAX_TOTAL_CHARS = 60_000


def _utf16(text: str, index: int) -> int:
    """A position as JavaScript counts it (UTF-16 code units: an emoji counts two)."""
    return len(text[:index].encode("utf-16-le")) // 2


@bp.get("/incorpora.js")
def script():
    resp = send_from_directory(current_app.static_folder, "js/incorpora.js", mimetype="text/javascript", max_age=3600)
    resp.headers["Cache-Control"] = "public, max-age=3600"
    return resp


@bp.get("/incorpora")
def incorpora():
    return render_template("incorpora.html")


@bp.post("/api/citazioni")
def citazioni():
    """{"testi": ["…", …]} -> {"testi": [[{"inizio", "fine", "testo", "numero", "url"}, …], …],
    "regole": {numero: anteprima}}: where each text cites a rule in force (positions in UTF-16 code
    units, as the browser counts them), and the rules' previews."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict) or not isinstance(data.get("testi"), list):
        return error_response(400, "Corpo JSON non valido: invia {\"testi\": [\"…\", …]}.")
    texts = data["testi"]
    if len(texts) > MAX_TEXTS or not all(isinstance(t, str) for t in texts):
        return error_response(400, f"«testi» deve essere una lista di al massimo {MAX_TEXTS} stringhe.")
    total = sum(len(t) for t in texts)
    if total > MAX_TOTAL_CHARS:
        return error_response(413, f"Testo troppo lungo: {total} caratteri, il limite per richiesta è {MAX_TOTAL_CHARS}.")
    corpus = load_corpus()
    out, rules = [], {}
    for text in texts:
        report = link_report(text, corpus, external=True)
        spans = []
        for s in report.spans:
            if s.get("documento"):  # «IPG 2.1»: a tournament document's section (judge/web/tournament.py)
                spans.append({"inizio": _utf16(text, s["start"]), "fine": _utf16(text, s["end"]), "testo": s["text"],
                              "numero": s["citazione"], "url": s["url"]})
                rules.setdefault(s["citazione"], document_preview(s["citazione"]))
                continue
            target = next((x["now"] for x in s["numbers"] if x["now"]), None)
            if target is None:
                continue  # a number with no rule in force: left as text, never a dead link
            spans.append({"inizio": _utf16(text, s["start"]), "fine": _utf16(text, s["end"]), "testo": s["text"],
                          "numero": target, "url": s["url"]})
            if target not in rules:
                rules[target] = preview_payload(corpus, corpus.rules[target])
        out.append(spans)
    return jsonify({"testi": out, "regole": rules, "edizione": corpus.in_force.id})
