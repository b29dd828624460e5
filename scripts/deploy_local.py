"""The reference deployment of docs/deployment.md on one machine, in one command:

    .venv/bin/python scripts/deploy_local.py [--server 3] [--senza-proxy] [--carico 10] [--resta]

It starts PostgreSQL (Debian's ``postgresql`` package, a throwaway cluster in /tmp), N
``judge serve`` processes on one database and one instance folder, and nginx in front
(``nginx-light`` or ``nginx``) with its own rate and connection limits; then it runs a short
load through the proxy (wrk: rule pages, searches, a saved game), checks that
a permalink made through one server opens on every other, prints the figures and stops
everything (``--resta``: keeps it running until Ctrl-C).  Loopback only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import _postgres  # noqa: E402
from bench._server import running_server, wrk  # noqa: E402

NGINX_CONF = """
worker_processes 1;
pid {top}/nginx.pid;
error_log {top}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {top}/body; proxy_temp_path {top}/proxy;
    fastcgi_temp_path {top}/fcgi; uwsgi_temp_path {top}/uwsgi; scgi_temp_path {top}/scgi;
    # Second layer of limits, for the whole site (judge's own limits are per process).
    map $request_method $write_key {{ POST $binary_remote_addr; default ""; }}
    limit_req_zone $write_key zone=scritture:10m rate={writes}r/m;
    limit_req_zone $binary_remote_addr zone=ricerche:10m rate={searches}r/m;
    limit_conn_zone $binary_remote_addr zone=conn:10m;
    limit_req_status 429;
    limit_conn_status 429;
    limit_conn conn 64;
    client_max_body_size 2m;
    client_header_timeout 10s;
    client_body_timeout 10s;
    send_timeout 20s;
    keepalive_timeout 20s;
    upstream judge {{
{servers}
        keepalive 32;
    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $http_host;
        proxy_set_header X-Forwarded-For $remote_addr;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_next_upstream error timeout http_502 http_503;
        location ~ ^/(api/scenari|s/|simulatore) {{
            limit_req zone=scritture burst={writes} nodelay;
            proxy_pass http://judge;
        }}
        location ~ ^/(cerca|api/cerca|collega|api/collega) {{
            limit_req zone=ricerche burst={searches} nodelay;
            proxy_pass http://judge;
        }}
        location / {{ proxy_pass http://judge; }}
    }}
}}
"""


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


@contextlib.contextmanager
def nginx(backends: list[int], writes: int, searches: int):
    binary = nginx_binary()
    if binary is None:
        raise SystemExit("nginx non installato: apt-get install nginx-light (oppure --senza-proxy)")
    top = Path(tempfile.mkdtemp(prefix="judge-nginx-"))
    top.chmod(0o755)           # nginx's workers run as an unprivileged user
    port = _postgres.free_port()
    conf = top / "nginx.conf"
    conf.write_text(NGINX_CONF.format(
        top=top, port=port, writes=writes, searches=searches,
        servers="\n".join(f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;" for p in backends)))
    subprocess.run([binary, "-c", str(conf), "-t"], check=True, capture_output=True)
    subprocess.run([binary, "-c", str(conf)], check=True)
    try:
        yield port
    finally:
        subprocess.run([binary, "-c", str(conf), "-s", "stop"], capture_output=True)
        for _ in range(50):
            if not (top / "nginx.pid").exists():
                break
            time.sleep(0.1)
        shutil.rmtree(top, ignore_errors=True)


def call(url: str, body: dict | None = None, timeout: float = 60) -> tuple[int, dict | bytes]:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
            return r.status, json.loads(raw) if r.headers.get_content_type() == "application/json" else raw
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def check_shared_permalinks(bases: list[str]) -> str:
    """A game made through the first server opens on every server; returns its id."""
    from judge.engine.scenario.templates import new_scenario

    status, made = call(f"{bases[0]}/api/scenari", {"format": "judge-partita", "version": 1,
                                                    "scenario": new_scenario("two-player", title="Deploy"),
                                                    "actions": []})
    assert status == 201, (status, made)
    for base in bases:
        status, _ = call(f"{base}/s/{made['id']}")
        assert status == 200, f"{base}/s/{made['id']} → {status}"
    return made["id"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", type=int, default=3, help="processi judge serve (predefinito 3)")
    ap.add_argument("--thread", type=int, default=4, help="thread per processo")
    ap.add_argument("--senza-proxy", action="store_true", help="senza nginx: il carico va al primo server")
    ap.add_argument("--carico", type=int, default=10, help="secondi di carico con wrk (0: nessuno)")
    ap.add_argument("--connessioni", type=int, default=16)
    ap.add_argument("--resta", action="store_true", help="lascia tutto avviato fino a Ctrl-C")
    ap.add_argument("--limiti", action="store_true",
                    help="tieni i limiti per client di judge anche durante il carico (che arriva da un "
                         "solo indirizzo: oltre 300 ricerche al minuto risponde 429)")
    args = ap.parse_args(argv)

    instance = Path(tempfile.mkdtemp(prefix="judge-deploy-"))
    report: dict = {"server": args.server}
    with contextlib.ExitStack() as stack:
        cluster = stack.enter_context(_postgres.cluster())
        url = cluster.create_database("judge")
        print(f"PostgreSQL: {cluster.url('judge')}", file=sys.stderr)
        env = {"JUDGE_DATABASE_URL": url, "JUDGE_SECRET_KEY": "deploy-locale"}
        servers = []
        for i in range(args.server):
            proxy_args = [] if args.senza_proxy else ["--trusted-proxy", "127.0.0.1"]
            servers.append(stack.enter_context(running_server(
                threads=args.thread, instance=instance, env=env, args=proxy_args, limits=args.limiti)))
            print(f"judge serve {i + 1}: {servers[-1].base}", file=sys.stderr)
        bases = [s.base for s in servers]
        report["permalink_condiviso"] = check_shared_permalinks(bases)
        entry = bases[0]
        if not args.senza_proxy:
            port = stack.enter_context(nginx([s.port for s in servers], writes=600, searches=3000))
            entry = f"http://127.0.0.1:{port}"
            print(f"nginx: {entry}", file=sys.stderr)
            report["permalink_dal_proxy"] = check_shared_permalinks([entry, *bases])
        if args.carico:
            paths = ["/regole/704.5a", "/regole/121.4", "/salute", "/cerca?q=grimorio+vuoto",
                     "/api/cerca?q=untap", "/regole/703", f"/s/{report['permalink_condiviso']}"]
            result = wrk(entry, paths, seconds=args.carico, connections=args.connessioni)
            report["carico"] = {"richieste": result.requests, "req_s": result.rps, "p50_ms": result.p50_ms,
                                "p99_ms": result.p99_ms, "non_2xx": result.non_2xx,
                                "errori_socket": result.socket_errors}
        report["archivio"] = call(f"{bases[0]}/salute")[1]["archivio"]
        print(json.dumps(report, ensure_ascii=False, indent=2))
        if args.resta:
            print("Tutto avviato: Ctrl-C per fermare.", file=sys.stderr)
            with contextlib.suppress(KeyboardInterrupt):
                signal.pause()
    shutil.rmtree(instance, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
