"""The rules offline: an installable web app whose service worker keeps the edition in force on the
device after one visit.

- ``/manifest.webmanifest``: the app's name, icons and colours (installable);
- ``/sw.js``: the service worker (static/js/sw.js with this edition's version and file list filled in);
  when the corpus changes (a new edition in force) its bytes change, the browser installs it, it
  fetches the new copy, drops the old one and tells the open pages;
- ``/offline/regole-<version>.json``: every rule of the edition in force, Italian and English, with
  labels and names: the offline copy renders any rule page from it (static/js/offline.js);
- ``/offline/ricerca-<version>.json``: the search index, the server's scores computed ahead
  (judge/search/offline_index.py);
- ``/offline/glossario-<version>.json``: the glossary and what its search compares
  (judge/web/offline_data.py);
- ``/offline/regola``, ``/offline/cerca``, ``/offline/glossario``: the pages the service worker
  answers with, offline, for a rule page, a search or a glossary search it has not kept (they
  render from the files);
- ``/offline/senza-rete/<pagina>``: what a page that needs the network (cards, simulator, linker)
  answers offline: what it is, and what works without network.

The data files are built once per corpus version (in the build cache, shared by every server on
the machine), compressed (brotli and gzip), linked into the instance folder and served from there as
static files, immutable: their name holds the version.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_file, url_for

from judge import build_cache
from judge.corpus import Corpus, italian_date, load_corpus
from judge.cards.table import CARDS_FILE, default_directory
from judge.web import compress, offline_data
from judge.web.cache import cached, prepared
from judge.web.errors import error_response

try:
    import brotli
except ImportError:  # pragma: no cover - a dependency
    brotli = None

bp = Blueprint("offline", __name__)

IMMUTABLE = "public, max-age=31536000, immutable"
_lock = threading.Lock()


# The code that writes the copy's files: a change to it is a new copy, as a new corpus is (else an
# instance folder would keep files in the old format under the same name, for the new scripts).
CODE = ("web/offline", "web/offline_data", "web/previews", "web/rules", "web/parts", "web/render", "search", "corpus",
        "cards")
# The search's data tables that its index for the copy carries (the glossary, the question frames, the
# questions it learned from, the card table and the rules a card's text invokes): a change to one is a new copy too.
SEARCH_DATA = Path(__file__).resolve().parent.parent / "search"
CARDS_DATA = SEARCH_DATA.parent / "cards"  # the rules a card's text invokes (testo_regole.tsv)


def version(corpus: Corpus) -> str:
    """What names the offline copy: the edition in force, the corpus's content and the code and
    data that write the copy."""
    tables = sorted([*SEARCH_DATA.glob("*.tsv"), *SEARCH_DATA.glob("*.json"), *CARDS_DATA.glob("*.tsv")])
    tables += [p for p in (default_directory() / CARDS_FILE,) if p.exists()]  # the cards a question names
    made_by = build_cache.digest(build_cache.code_digest(*CODE), *(build_cache.file_digest(t) for t in tables))
    return f"{corpus.in_force.id}-{corpus.content_hash}-{made_by[:8]}"


# -- the data -------------------------------------------------------------------------------------------

def _build(kind: str, corpus: Corpus, instance: str | os.PathLike) -> dict:
    if kind == "regole":
        return offline_data.edition_data(corpus, version(corpus))
    if kind == "glossario":
        return offline_data.glossary_data(corpus, version(corpus))
    from judge.search.engines import get_engine
    from judge.search.offline_index import build

    return build(corpus, get_engine(instance, corpus))  # the server's own scores, computed ahead


KINDS = ("regole", "ricerca", "glossario")
_started: dict[str, float] = {}  # instance and version -> when this process started building them


def offline_folder(instance: str | os.PathLike) -> Path:
    return Path(instance) / "offline"


def _names(corpus: Corpus) -> list[str]:
    """This version's files, each kind's .json last: its presence says the kind's set is complete."""
    return [f"{kind}-{version(corpus)}.json{suffix}" for kind in KINDS for suffix in (".gz", ".br", "")]


def _complete(folder: Path, corpus: Corpus) -> bool:
    return all((folder / f"{kind}-{version(corpus)}.json").exists() for kind in KINDS)


def _make(corpus: Corpus, folder: Path, instance: str | os.PathLike) -> None:
    """Build this version's files into ``folder`` (each with its .br and .gz beside it)."""
    folder.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        path = folder / f"{kind}-{version(corpus)}.json"
        body = json.dumps(_build(kind, corpus, instance), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        for suffix, data in ((".gz", gzip.compress(body, 9)), (".br", brotli.compress(body, quality=9) if brotli else None)):
            if data is not None:
                _write(path.with_name(path.name + suffix), data)
        _write(path, body)


def _cache_key(corpus: Corpus) -> str:
    return build_cache.digest(version(corpus))  # the corpus and the code that writes the files


def _cached(corpus: Corpus, instance: str | os.PathLike):
    return build_cache.directory("copia-offline", _cache_key(corpus), lambda tmp: _make(corpus, tmp, instance),
                                 "copia offline", ready=lambda p: _complete(p, corpus), keep=2)


def _link(src: Path, dest: Path) -> None:
    """``dest`` becomes ``src`` (a hard link: no copy, no space), replaced atomically."""
    tmp = dest.with_name(dest.name + f".{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    try:
        os.link(src, tmp)
    except OSError:  # another file system, or one without links
        shutil.copyfile(src, tmp)
    os.replace(tmp, dest)


def build_all(instance: str | os.PathLike, corpus: Corpus) -> None:
    """This version's files in the instance folder. They are made once per machine, in the build
    cache (judge/build_cache.py: one process builds, the others wait and read), and linked here:
    servers started together, or a new instance, do not build them again. With the cache off
    they are built here."""
    folder = offline_folder(instance)
    if _complete(folder, corpus):
        return
    with _lock:
        if _complete(folder, corpus):
            return
        with _cached(corpus, instance) as cached:
            if cached is None:
                _make(corpus, folder, instance)
            else:
                folder.mkdir(parents=True, exist_ok=True)
                for name in _names(corpus):
                    if (cached / name).exists():
                        _link(cached / name, folder / name)
        for old in folder.glob("*-*.json*"):
            if not old.name.startswith(tuple(f"{kind}-{version(corpus)}.json" for kind in KINDS)):
                old.unlink(missing_ok=True)


def ready(corpus: Corpus) -> bool:
    """Whether this version's files are built (then a page may install the service worker)."""
    return _complete(offline_folder(current_app.instance_path), corpus)


def _in_cache(corpus: Corpus) -> bool:
    base = build_cache.folder()
    return base is not None and _complete(base / "copia-offline" / _cache_key(corpus), corpus)


def build_in_background(instance: str | os.PathLike, corpus: Corpus) -> None:
    """Have this version's files in the instance folder, unless they are there: at ``judge serve``'s
    warm-up, on the first visit to a server started otherwise, or when a new edition comes into force
    while it runs. Linked at once when the build cache holds them (milliseconds); otherwise built in
    another process, never in one of the server's threads: a build holds Python's lock for seconds,
    and every page would wait. Phones install the copy once the files are there (``/offline/stato``)."""
    if _complete(offline_folder(instance), corpus):
        return
    key = f"{instance}:{version(corpus)}"
    with _lock:
        first = key not in _started
        _started.setdefault(key, time.monotonic())
    if _in_cache(corpus):
        try:
            build_all(instance, corpus)
        except OSError:  # an instance folder that cannot be written: no copy, as when a build fails
            pass
        return
    if not first:
        return
    from judge.corpus import loading  # the folders load_corpus() reads now: the child reads the same

    subprocess.Popen([sys.executable, "-m", "judge.web.offline", str(instance),
                      str(loading.RULES_IT_DIR), str(loading.RULES_EN_DIR)],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                     start_new_session=True)


def build_started(instance: str | os.PathLike, corpus: Corpus) -> float | None:
    """When this process started building this version's files (time.monotonic), if it did:
    /salute tells a build that never finished from one that was never asked for."""
    return _started.get(f"{instance}:{version(corpus)}")


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def data_url(kind: str, corpus: Corpus) -> str:
    return url_for("offline.data", kind=kind, ident=version(corpus))


@bp.get("/offline/<any(regole, ricerca, glossario):kind>-<ident>.json")
def data(kind: str, ident: str):
    corpus = load_corpus()
    if ident != version(corpus):
        return error_response(404, "Copia offline di un'altra versione del Regolamento: ricarica la pagina.")
    path = offline_folder(current_app.instance_path) / f"{kind}-{ident}.json"
    if not path.exists():
        build_in_background(current_app.instance_path, corpus)  # linked at once when the cache holds it
    if not path.exists():  # the service worker retries its install later
        body, status = error_response(503, "Copia offline in preparazione: riprova tra un minuto.")
        return body, status, {"Retry-After": "60"}
    encoding = compress.negotiate(request.headers.get("Accept-Encoding"))
    chosen = path.with_name(path.name + {"br": ".br", "gzip": ".gz"}.get(encoding or "", ""))
    if encoding is None or not chosen.exists():
        chosen, encoding = path, None
    resp = send_file(chosen, mimetype="application/json", conditional=True, etag=True, max_age=31536000)
    resp.headers.pop("Content-Disposition", None)
    if encoding:
        resp.headers["Content-Encoding"] = encoding
    resp.vary.add("Accept-Encoding")
    resp.headers["Cache-Control"] = IMMUTABLE
    return resp


# -- what the service worker keeps -------------------------------------------------------------------------

STATIC_FILES = ("style.css", "favicon.svg", "icone/judge-192.png", "icone/judge-512.png", "js/lingue.js",
                "js/site.js", "js/anteprime.js", "js/radici.js", "js/ortografia.js", "js/sintassi.js",
                "js/frasi.js", "js/citazioni.js", "js/risposta-offline.js", "js/ricerca-offline.js", "js/offline.js",
                "js/tornei-offline.js")
# What a page that needs the network answers offline, by the start of its path (the simulator's
# permalinks /s/…, the linker's /c/…): the page kept for it.
NEEDS_NETWORK = {"carte": ("/carte",), "simulatore": ("/simulatore", "/s/"), "collega": ("/collega", "/c/")}


def offline_pages() -> list[str]:
    """The pages kept on install, beside the data: the home page, the glossary, the analytic
    indexes, the turn reference and the two pages that render rules and searches offline. (Pages
    split in parts keep each part here: every page a reader may open with no network.)"""
    from judge.web.analytic_index import index_letters
    from judge.web.parts import letter_slug
    from judge.web.rules import glossary_entries, glossary_letters

    corpus = load_corpus()
    pages = [url_for("pages.home"), url_for("offline.regola"), url_for("offline.cerca"), url_for("offline.glossario"),
             *(url_for("offline.senza_rete", pagina=p) for p in (*NEEDS_NETWORK, "pagina"))]
    wanted: list[tuple[str, dict]] = [("rules.turno", {}), ("editions.edizioni", {}), ("rules.glossario", {})]
    # The glossary and the indexes are a page per letter (judge/web/parts.py): every letter is kept.
    wanted += [("rules.glossario", {"lettera": letter_slug(x)}) for x in glossary_letters(glossary_entries(corpus))]
    for lang, index in corpus.analytic_indexes.items():
        lingua = {"lingua": "en"} if lang == "en" else {}
        wanted += [("indice.indice_analitico", lingua)]
        wanted += [("indice.indice_analitico", {**lingua, "lettera": letter_slug(x)}) for x in index_letters(index)]
    for endpoint, values in wanted:
        if endpoint in current_app.view_functions:
            pages.append(url_for(endpoint, **values))
    if "tornei.documents" in current_app.view_functions:  # the tournament documents, every section
        from judge.web.tournament import offline_pages as tournament_pages

        pages += tournament_pages()
    return list(dict.fromkeys(pages))


def precache_list(corpus: Corpus) -> list[str]:
    from judge.web.tournament import offline_data_url

    return [*offline_pages(), *(url_for("static", filename=f) for f in STATIC_FILES),
            url_for("offline.manifest"), *(data_url(kind, corpus) for kind in KINDS), offline_data_url()]


@bp.get("/offline/stato")
def stato():
    """Whether the offline copy can be installed now (its files are built); if not, they start building."""
    corpus = load_corpus()
    if not ready(corpus):
        build_in_background(current_app.instance_path, corpus)  # linked at once when the cache holds it
    ok = ready(corpus)
    resp = jsonify({"pronta": ok, "versione": version(corpus), "edizione": corpus.in_force.id})
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/sw.js")
@prepared(cache_control="no-cache", headers={"Service-Worker-Allowed": "/"})
def service_worker():
    corpus = load_corpus()
    config = {
        "versione": version(corpus),
        "edizione": {"id": corpus.in_force.id, "data": italian_date(corpus.in_force.date)},
        "file": precache_list(corpus),
        "regola": url_for("offline.regola"),
        "cerca": url_for("offline.cerca"),
        "glossario": url_for("offline.glossario"),
        "senza_rete": {url_for("offline.senza_rete", pagina=p): list(prefixes) for p, prefixes in NEEDS_NETWORK.items()},
        "altrove": url_for("offline.senza_rete", pagina="pagina"),
        "dati": data_url("regole", corpus),
    }
    # Checked by the browser on every visit (no-cache: a 304 while the ETag holds); a new edition
    # changes these bytes.
    return Response(render_template("sw.js", config=config), mimetype="text/javascript")


@bp.get("/manifest.webmanifest")
@prepared(cache_control="public, max-age=3600")
def manifest():
    resp = jsonify({
        "name": "judge — Regolamento di Magic in italiano",
        "short_name": "judge",
        "description": "Il Regolamento completo di Magic: the Gathering in italiano, con il testo ufficiale inglese; "
                       "funziona anche senza rete.",
        "lang": "it",
        "start_url": url_for("pages.home"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fdfdfb",
        "theme_color": "#8a2a0a",
        "icons": [
            {"src": url_for("static", filename="icone/judge-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icone/judge-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": url_for("static", filename="favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    })
    resp.mimetype = "application/manifest+json"
    return resp


# -- the pages that render offline ------------------------------------------------------------------------

@bp.get("/offline/regola")
@cached
def regola():
    corpus = load_corpus()
    return render_template("offline_regola.html", corpus=corpus, dati=data_url("regole", corpus))


@bp.get("/offline/cerca")
@cached
def cerca():
    corpus = load_corpus()
    from judge.web.tournament import offline_data_url

    return render_template("offline_cerca.html", corpus=corpus, dati=data_url("regole", corpus),
                           indice=data_url("ricerca", corpus), tornei=offline_data_url())


@bp.get("/offline/glossario")
def glossario():
    corpus = load_corpus()
    return render_template("offline_glossario.html", corpus=corpus, dati=data_url("glossario", corpus),
                           indice=data_url("ricerca", corpus))


@bp.get("/offline/senza-rete/<any(carte, simulatore, collega, pagina):pagina>")
def senza_rete(pagina: str):
    """What the service worker answers, offline, for a page that needs the network."""
    return render_template("offline_senza_rete.html", corpus=load_corpus(), pagina=pagina)


if __name__ == "__main__":  # python -m judge.web.offline INSTANCE RULES_IT RULES_EN: build_in_background's process
    os.nice(10)  # below the server: pages first, the copy with what is left
    build_all(sys.argv[1], load_corpus(Path(sys.argv[2]), Path(sys.argv[3])))
