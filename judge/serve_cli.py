"""`judge serve`: the web app behind a production WSGI server (waitress)."""

from __future__ import annotations

import os

import click


@click.command("serve")
@click.option("--host", default=lambda: os.environ.get("JUDGE_HOST", "127.0.0.1"), show_default="127.0.0.1",
              help="Indirizzo su cui ascoltare (env JUDGE_HOST).")
@click.option("--port", type=click.IntRange(1, 65535), default=lambda: int(os.environ.get("JUDGE_PORT", "8000")),
              show_default="8000", help="Porta (env JUDGE_PORT).")
@click.option("--threads", type=click.IntRange(1, 256), default=lambda: int(os.environ.get("JUDGE_THREADS", "8")),
              show_default="8", help="Thread del server (env JUDGE_THREADS).")
@click.option("--instance", type=click.Path(file_okay=False), default=lambda: os.environ.get("JUDGE_INSTANCE"),
              help="Cartella dell'istanza: indice di ricerca, scenari salvati (env JUDGE_INSTANCE).")
def serve(host: str, port: int, threads: int, instance: str | None) -> None:
    """Avvia il sito con waitress (server WSGI di produzione)."""
    from waitress import serve as waitress_serve

    from judge.web import create_app

    app = create_app({"INSTANCE_PATH": instance} if instance else None)
    click.echo(f"judge in ascolto su http://{host}:{port}/ ({threads} thread)")
    waitress_serve(app, host=host, port=port, threads=threads, ident="judge")
