"""`judge serve`: the web app behind a production WSGI server (waitress)."""

from __future__ import annotations

import os
import signal
import time

import click


# waitress settings against slow and greedy clients (judge/web/server_guard.py does the rest).
SERVER_SETTINGS = {
    "channel_timeout": 20,            # an idle keep-alive connection is closed after this
    "cleanup_interval": 2,            # how often timeouts are checked (waitress: 30 s)
    "connection_limit": 1000,
    "outbuf_high_watermark": 1 << 20, # unread output per connection before pipelining stops
}


def make_server(wsgi, host: str, port: int, threads: int, trusted_proxy: str | None = None,
                guard=None, **settings):
    """A waitress server for ``wsgi`` whose own error answers (a request it cannot parse, headers
    over its limit, a body over the app's limit) are Italian pages with the site's security
    headers, like the app's.

    ``trusted_proxy`` (the proxy's address, or "*"): that proxy's X-Forwarded-For/-Proto/-Host
    are believed, so behind a TLS proxy permalinks and the API's urls say https and the rate
    limits see each client's own address; anyone else's are dropped, so a client cannot make
    the site print its own scheme or host, nor pass for another client.  ``guard``: the limits
    of judge.web.server_guard (defaults); ``settings``: waitress settings over SERVER_SETTINGS."""
    from waitress import create_server
    from waitress.channel import HTTPChannel
    from waitress.task import ErrorTask

    from judge.web.errors import plain_page
    from judge.web.security import HEADERS

    class ItalianErrorTask(ErrorTask):
        def execute(self):
            code = self.request.error.code
            body = plain_page(code).encode("utf-8")
            self.status = f"{code} {self.request.error.reason}"
            self.response_headers.extend([("Content-Type", "text/html; charset=utf-8"), *HEADERS.items()])
            self.set_close_on_finish()
            self.content_length = len(body)
            self.write(body)

    class Channel(HTTPChannel):
        error_task_class = ItalianErrorTask

    from judge.web import MAX_CONTENT_LENGTH
    from judge.web.server_guard import Guard, install

    proxy = ({"trusted_proxy": trusted_proxy,
              "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto", "x-forwarded-host"},
              "trusted_proxy_count": 1, "clear_untrusted_proxy_headers": True} if trusted_proxy else {})
    # A body over the app's limit is refused (413) as soon as its Content-Length is read, or as
    # soon as a chunked body passes it: never received whole, never spooled to disk.
    options = {**SERVER_SETTINGS, "max_request_body_size": MAX_CONTENT_LENGTH + 1, **settings}
    server = create_server(wsgi, host=host, port=port, threads=threads, ident="judge",
                           **options, **proxy)
    # One listening server, or several (a host name with more than one address) in a map.
    for listener in [server, *getattr(server, "map", {}).values()]:
        if hasattr(listener, "channel_class"):
            listener.channel_class = Channel
    install(server, guard or Guard(trusted=trusted_proxy))
    return server


def _few_malloc_arenas() -> None:
    """glibc gives each of waitress's threads a malloc arena of its own, and each keeps what it freed:
    two arenas for the whole process keep the server's memory close to what it holds (no-op off glibc)."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):
        pass


def _what_was_built() -> str:
    """What the start read from the build cache and what it had to build."""
    from judge import build_cache

    read = [e.label for e in build_cache.events() if e.action == "letto"]
    built = [e.label for e in build_cache.events() if e.action != "letto"]
    if build_cache.folder() is None:
        return "cache dei dati disattivata: tutto calcolato"
    if not built:
        return "tutto dalla cache dei dati"
    return f"costruiti: {len(built)}, letti dalla cache: {len(read)}; cache in {build_cache.folder()}"


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


@click.command("serve")
@click.option("--host", default=lambda: os.environ.get("JUDGE_HOST", "127.0.0.1"), show_default="127.0.0.1",
              help="Indirizzo su cui ascoltare (env JUDGE_HOST).")
@click.option("--port", type=click.IntRange(0, 65535), default=lambda: _env_int("JUDGE_PORT", 8000),
              show_default="8000", help="Porta (env JUDGE_PORT; 0 = una porta libera).")
@click.option("--threads", type=click.IntRange(1, 256), default=lambda: _env_int("JUDGE_THREADS", 8),
              show_default="8", help="Thread che servono le richieste (env JUDGE_THREADS).")
@click.option("--instance", type=click.Path(file_okay=False), default=lambda: os.environ.get("JUDGE_INSTANCE"),
              help="Cartella dell'istanza: indice di ricerca, scenari salvati (env JUDGE_INSTANCE; predefinita: instance/).")
@click.option("--log/--no-log", "log_requests", default=lambda: os.environ.get("JUDGE_LOG", "1") != "0",
              help="Registro delle richieste in JSON su stderr (env JUDGE_LOG=0 per disattivarlo).")
@click.option("--trusted-proxy", default=lambda: os.environ.get("JUDGE_TRUSTED_PROXY") or None,
              help="Indirizzo del reverse proxy di cui credere X-Forwarded-Proto e X-Forwarded-Host "
                   "(env JUDGE_TRUSTED_PROXY; es. 127.0.0.1): dietro un proxy TLS i permalink diventano https.")
def serve(host: str, port: int, threads: int, instance: str | None, log_requests: bool,
          trusted_proxy: str | None) -> None:
    """Avvia il sito con waitress (server WSGI di produzione)."""
    from judge import build_cache
    from judge.store import StoreUnavailable
    from judge.web import InstanceError, create_app, warm_up
    from judge.web.requestlog import RequestLog
    from judge.web.server_guard import Guard

    started = time.monotonic()
    _few_malloc_arenas()
    build_cache.set_reporter(lambda message: click.echo(message, err=True))
    try:
        app = create_app({"INSTANCE_PATH": instance} if instance else None)
        # Corpus, checks, search index and store are ready before the first request is accepted:
        # read from the build cache, or built (with progress) and kept there for the next start.
        for warning in warm_up(app):
            click.echo(f"judge: attenzione: {warning}", err=True)
    except (InstanceError, StoreUnavailable) as e:
        click.echo(f"judge: impossibile avviare il sito. {e}", err=True)
        raise SystemExit(1) from None
    click.echo(f"judge: pronto in {time.monotonic() - started:.1f} s ({_what_was_built()})".replace(".", ",", 1), err=True)
    wsgi = RequestLog(app) if log_requests else app
    guard = Guard(per_client=_env_int("JUDGE_CONNESSIONI_PER_CLIENT", 100), trusted=trusted_proxy)
    try:
        server = make_server(wsgi, host=host, port=port, threads=threads, trusted_proxy=trusted_proxy,
                             guard=guard)
    except OSError as e:
        click.echo(f"judge: impossibile ascoltare su {host}:{port} ({e.strerror or e}).", err=True)
        raise SystemExit(1) from None

    def _stop(signum, frame):
        # Graceful shutdown: stop accepting, let the worker threads finish what they hold.
        click.echo("judge: arresto in corso…", err=True)
        server.close()
        server.task_dispatcher.shutdown(cancel_pending=False, timeout=10)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    click.echo(f"judge in ascolto su http://{host}:{server.effective_port}/ ({threads} thread)", err=True)
    try:
        server.run()
    except SystemExit:
        pass
