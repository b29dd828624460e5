"""A throwaway PostgreSQL cluster in a temporary folder (initdb + pg_ctl from Debian's
``postgresql`` package): for the tests, the benchmarks and scripts/deploy_local.py.

PostgreSQL refuses to run as root.  When this runs as root (CI, a fresh Debian machine), the
cluster runs as an unprivileged user: ``postgres`` (created by the Debian package) or else
``nobody``, in a folder that user owns under /tmp; commands are run through ``runuser``
(or ``setpriv``/``su`` when that is missing).  Connections go over TCP on 127.0.0.1 with
``trust`` authentication, for the cluster's own user ``judge``: nothing leaves the machine.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "judge"


def pg_bindir() -> Path | None:
    """The folder of initdb/pg_ctl: $JUDGE_PG_BIN, pg_config's, or the newest Debian one."""
    env = os.environ.get("JUDGE_PG_BIN")
    if env:
        return Path(env)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


def available() -> bool:
    return pg_bindir() is not None


def _run_as() -> tuple[list[str], pwd.struct_passwd | None]:
    """The command prefix that runs a program as the cluster's user, and that user."""
    if os.geteuid() != 0:
        return [], None
    for name in ("postgres", "nobody"):
        try:
            user = pwd.getpwnam(name)
        except KeyError:
            continue
        if shutil.which("runuser"):
            return ["runuser", "-u", name, "--"], user
        if shutil.which("setpriv"):
            return ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                    "--clear-groups", "--"], user
        return ["su", "-s", "/bin/sh", name, "-c"], user  # pragma: no cover - last resort
    raise RuntimeError("nessun utente non privilegiato (postgres o nobody) per avviare PostgreSQL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    datadir: Path
    port: int
    prefix: list[str]
    bindir: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def sql(self, statement: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(statement)

    def create_database(self, name: str) -> str:
        self.sql(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def pg_ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return _call(self.prefix, [str(self.bindir / "pg_ctl"), "-D", str(self.datadir), *args],
                     check=check)

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "fast", "-w", check=False)

    def start(self) -> None:
        """Start it again after a stop (an outage's end, in the attack tests)."""
        self.pg_ctl("start", "-w", "-t", "60", "-l", str(self.datadir.parent / "log"))


def _call(prefix: list[str], cmd: list[str], check: bool = True) -> subprocess.CompletedProcess:
    if prefix and prefix[0] == "su":
        import shlex

        cmd = [*prefix, " ".join(shlex.quote(c) for c in cmd)]
    else:
        cmd = [*prefix, *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if check and out.returncode:
        raise RuntimeError(f"{' '.join(cmd)} → {out.returncode}\n{out.stdout}\n{out.stderr}")
    return out


@contextlib.contextmanager
def cluster(port: int | None = None, settings: dict[str, str] | None = None):
    """Start a fresh cluster; stop it and remove its folder at the end."""
    bindir = pg_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL non installato (initdb non trovato): apt-get install postgresql")
    prefix, user = _run_as()
    top = Path(tempfile.mkdtemp(prefix="judge-pg-"))
    datadir = top / "data"
    if user is not None:
        os.chown(top, user.pw_uid, user.pw_gid)
    os.chmod(top, 0o700)
    port = port or free_port()
    c = Cluster(datadir, port, prefix, bindir)
    try:
        _call(prefix, [str(bindir / "initdb"), "-D", str(datadir), "-U", SUPERUSER, "-A", "trust",
                       "-E", "UTF8", "--locale=C", "--no-sync"])
        opts = {"listen_addresses": "127.0.0.1", "port": str(port), "unix_socket_directories": str(top),
                "max_connections": "200", "fsync": "on", "synchronous_commit": "on",
                "shared_buffers": "64MB", **(settings or {})}
        conf = "".join(f"{k} = '{v}'\n" for k, v in opts.items())
        conf_path = datadir / "postgresql.auto.conf"
        with open(conf_path, "a") as fh:   # root can write into the user's folder
            fh.write(conf)
        c.start()
        deadline = time.time() + 30
        while True:
            try:
                c.sql("SELECT 1")
                break
            except Exception:
                if time.time() > deadline:
                    raise
                time.sleep(0.2)
        yield c
    finally:
        c.stop()
        shutil.rmtree(top, ignore_errors=True)
