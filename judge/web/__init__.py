"""The Flask application: thin glue between the corpus, the search index, the engine and templates."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask

from judge import ROOT

# Request bodies larger than this are refused with 413 (a scenario or a pasted text is far smaller).
MAX_CONTENT_LENGTH = 2 * 1024 * 1024


class InstanceError(RuntimeError):
    """The instance folder cannot be used; the message (Italian) says why and what to do."""


def _secret_key(instance: Path) -> str:
    """A stable secret kept in the instance folder, so sessions and CSRF tokens survive restarts
    and are shared by every worker serving the same instance."""
    env = os.environ.get("JUDGE_SECRET_KEY")
    if env:
        return env
    path = instance / "secret_key"
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    # Workers started together on one instance must agree on one key: each writes its own whole
    # file, and the first to link it in place wins (a link never replaces); the others read it.
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        tmp.write_text(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: the last write wins
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)
    except OSError as e:
        raise InstanceError(
            f"La cartella dell'istanza {instance} non è scrivibile ({e.strerror or e}): judge vi "
            "conserva la chiave segreta, l'indice di ricerca e gli scenari salvati. Scegli una "
            "cartella scrivibile con --instance (o JUDGE_INSTANCE), oppure, per servire in sola "
            "lettura un'istanza già pronta, imposta JUDGE_SECRET_KEY.") from None
    return path.read_text().strip()


def warm_up(app: Flask) -> list[str]:
    """Load the corpus, run its checks, build the search index and open the scenario store now
    rather than on the first request.  Returns warnings to print (Italian); InstanceError when
    the instance cannot serve (an index that cannot be built).

    What is loaded then lives as long as the process: it is moved out of the garbage collector's
    sight (``gc.freeze``), so that no collection during a request walks the corpus's objects."""
    import gc

    from judge import build_cache
    from judge.cards import table as cards
    from judge.corpus import load_corpus, loading
    from judge.corpus.checks import corpus_findings, findings_key
    from judge.web.simulator.store import store_for

    # From an empty cache, what does not need the search index is built in other processes, on the
    # other cores, while this one builds the index: the card index and the corpus's checks.
    if not cards.in_cache():
        build_cache.build_beside("judge.cards.table")
    corpus = load_corpus()
    if not build_cache.has("controlli", findings_key(corpus)):
        build_cache.build_beside("judge.corpus.checks", str(loading.RULES_IT_DIR), str(loading.RULES_EN_DIR))
    hook = app.extensions.get("judge.warm_up")
    if hook:
        try:
            hook()
        except OSError as e:
            raise InstanceError(
                f"L'indice di ricerca non si può costruire in {app.instance_path} ({e.strerror or e}, "
                f"{e.filename or ''}): la cartella dell'istanza deve essere scrivibile almeno finché "
                "l'indice non è pronto. Scegli un'altra cartella con --instance.") from None
    corpus_findings(corpus)
    if "offline.data" in app.view_functions:  # the offline copy's files, built beside the server
        from judge.web.offline import build_in_background

        build_in_background(app.instance_path, corpus)
    store = store_for(app)
    gc.collect()
    gc.freeze()
    return [store.problem] if store.problem else []


def create_app(config: dict | None = None) -> Flask:
    instance = Path((config or {}).get("INSTANCE_PATH") or os.environ.get("JUDGE_INSTANCE") or ROOT / "instance")
    try:
        instance.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise InstanceError(f"Impossibile creare la cartella dell'istanza {instance} "
                            f"({e.strerror or e}): scegline un'altra con --instance.") from None
    app = Flask(
        __name__,
        instance_path=str(instance.resolve()),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        static_url_path="/static",
    )
    app.config.update(
        MAX_CONTENT_LENGTH=MAX_CONTENT_LENGTH,
        JSON_AS_ASCII=False,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_HTTPONLY=True,
        # Rendered pages kept per corpus version (judge/web/cache.py); JUDGE_PAGE_CACHE=0 turns it off.
        PAGE_CACHE=os.environ.get("JUDGE_PAGE_CACHE", "1") != "0",
    )
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    if config:
        app.config.update(config)
    app.secret_key = app.config.get("SECRET_KEY") or _secret_key(instance)

    from judge.web import compress, errors, limits, security, slashes

    limits.init_app(app)        # first: a client over its budget costs nothing more
    security.init_app(app)
    slashes.init_app(app)
    errors.init_app(app)
    compress.init_app(app)

    from judge.web.blueprints import register_blueprints

    register_blueprints(app)
    _compiled_templates(app)
    return app


def _compiled_templates(app: Flask) -> None:
    """Templates compiled once per machine, in the build cache (judge/build_cache.py): Jinja keys each
    by its name and the checksum of its source, so an edited template is compiled again. A server's
    first pages no longer wait for their templates to compile (a tenth of a second each)."""
    from jinja2 import FileSystemBytecodeCache

    from judge import build_cache

    base = build_cache.folder()
    if base is None:
        return
    try:
        (base / "modelli").mkdir(parents=True, exist_ok=True)
    except OSError:  # a cache folder that cannot be written: compile in memory, as without the cache
        return
    app.jinja_env.bytecode_cache = FileSystemBytecodeCache(str(base / "modelli"))
