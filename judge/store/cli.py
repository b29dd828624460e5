"""``judge archivio``: the scenario store from the command line (where it is, how big, pruning,
moving a SQLite store into PostgreSQL)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import click

from judge.store import DB_NAME, Policy, StoreUnavailable, database_url, open_store
from judge.store.postgres import redact


def _default_store(instance: str | None) -> str:
    return database_url() or str(Path(instance or os.environ.get("JUDGE_INSTANCE") or "instance") / DB_NAME)


def _open(where: str, policy: Policy | None = None):
    try:
        return open_store(where, policy=policy or Policy.from_env(), pool_size=2)
    except StoreUnavailable as e:
        raise click.ClickException(e.message) from None


def _mb(n: int | None) -> str:
    return "?" if n is None else f"{n / 1024 / 1024:.1f} MB"


@click.group("archivio")
def archivio() -> None:
    """L'archivio degli scenari salvati (SQLite nell'istanza, o PostgreSQL con JUDGE_DATABASE_URL)."""


_instance = click.option("--instance", type=click.Path(file_okay=False), default=None,
                         help="Cartella dell'istanza (env JUDGE_INSTANCE; predefinita: instance/).")


@archivio.command("stato")
@_instance
@click.option("--json", "as_json", is_flag=True, help="Uscita in JSON.")
def stato(instance: str | None, as_json: bool) -> None:
    """Dove è l'archivio, quanto occupa, quanti scenari e partite contiene."""
    where = _default_store(instance)
    store = _open(where)
    try:
        stats = store.stats(max_age=0)
    finally:
        store.close()
    stats["dove"] = redact(where)
    if as_json:
        click.echo(json.dumps(stats, ensure_ascii=False, indent=2))
        return
    click.echo(f"archivio: {stats['dove']} ({stats['backend']})")
    click.echo(f"documenti: {stats.get('documenti')} (scenari {stats.get('scenari')}, partite "
               f"{stats.get('partite')}); righe della cache delle storie: {stats.get('storia')}")
    quota = f"quota {_mb(stats['quota'])}" if stats.get("quota") else "nessuna quota"
    click.echo(f"dimensione: {_mb(stats.get('byte'))} ({quota}); su disco {_mb(stats.get('byte_su_disco'))}")
    if not stats.get("scrivibile"):
        click.echo(f"attenzione: {stats.get('errore')}")


@archivio.command("pulisci")
@_instance
@click.option("--giorni", type=float, default=None,
              help="Rimuovi gli scenari mai aperti salvati da più di N giorni (env JUDGE_ARCHIVIO_GIORNI, predefinito 30).")
@click.option("--quota", default=None, help="Quota dell'archivio, es. 2GB (env JUDGE_ARCHIVIO_QUOTA, predefinita 1GB; 0 = nessuna).")
@click.option("--json", "as_json", is_flag=True, help="Uscita in JSON.")
def pulisci(instance: str | None, giorni: float | None, quota: str | None, as_json: bool) -> None:
    """Applica ora la politica di pulizia (docs/simulatore.md): toglie solo scenari e partite mai
    aperti dopo il salvataggio e la cache delle storie che nessuno usa; mai un permalink aperto."""
    from judge.store.pruning import parse_size

    policy = Policy.from_env()
    if giorni is not None:
        policy.keep_days = giorni
    if quota is not None:
        try:
            policy.quota = parse_size(quota)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--quota") from None
    store = _open(_default_store(instance), policy)
    try:
        report = store.prune(by_age=True)
    except StoreUnavailable as e:
        raise click.ClickException(e.message) from None
    finally:
        store.close()
    out = {"documenti_rimossi": report.documents, "partite_rimosse": report.games,
           "righe_storia_rimosse": report.history_rows, "byte_liberati": report.bytes_freed,
           "byte_prima": report.size_before, "byte_dopo": report.size_after}
    if as_json:
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    click.echo(f"rimossi {report.documents} documenti mai aperti ({report.games} partite) e "
               f"{report.history_rows} righe della cache delle storie: {_mb(report.bytes_freed)} liberati "
               f"({_mb(report.size_before)} → {_mb(report.size_after)}).")


@archivio.command("migra")
@_instance
@click.option("--da", "source", default=None,
              help="Archivio di partenza: file SQLite (predefinito: quello dell'istanza).")
@click.option("--a", "target", default=None,
              help="Archivio di arrivo: URL postgresql://… (predefinito: JUDGE_DATABASE_URL).")
def migra(instance: str | None, source: str | None, target: str | None) -> None:
    """Copia un archivio SQLite in PostgreSQL senza perdere un permalink (si può ripetere:
    le righe già copiate restano)."""
    from judge.store.migrate import copy_store

    source = source or str(Path(instance or os.environ.get("JUDGE_INSTANCE") or "instance") / DB_NAME)
    target = target or database_url()
    if not target:
        raise click.UsageError("indica l'archivio di arrivo con --a postgresql://… o JUDGE_DATABASE_URL")
    if not Path(source).is_file():
        raise click.UsageError(f"archivio di partenza non trovato: {source}")
    src, dst = _open(source, Policy(quota=0)), _open(target, Policy(quota=0))
    try:
        report = copy_store(src, dst, progress=lambda t, n: click.echo(f"  {t}: {n} righe", err=True)
                            if n % 5000 == 0 else None)
    finally:
        src.close()
        dst.close()
    click.echo(f"copiati in {redact(target)}: " + ", ".join(
        f"{t} {report.copied[t]} nuovi ({report.present[t]} già presenti)" for t in report.copied))
    click.echo(f"verificati {report.verified} documenti: ogni permalink si apre nel nuovo archivio.")
    if report.missing:
        raise click.ClickException(f"{len(report.missing)} documenti non si leggono nell'archivio di "
                                   f"arrivo, per esempio {report.missing[0]}")
