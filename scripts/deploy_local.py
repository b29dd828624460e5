"""The reference deployment of docs/deployment.md on one machine, in one command:

    .venv/bin/python scripts/deploy_local.py [--server 3] [--senza-proxy] [--carico 10] [--senza-limiti] [--resta]

It starts PostgreSQL (Debian's ``postgresql`` package, a throwaway cluster in /tmp), N
``judge serve`` processes on one database and one instance folder, and nginx in front
(``nginx-light`` or ``nginx``) with the reference configuration (scripts/nginx-judge.conf: the
app's own limits per client, its own Italian 429s); then it runs a short load through the proxy
(wrk: rule pages, a saved game; searches too with ``--senza-limiti``), checks that a permalink
made through one server opens on every other and that a client past each limit gets an Italian
429 with Retry-After and the security headers, prints the figures and stops everything
(``--resta``: keeps it running until Ctrl-C).  Loopback only.  The app's limits stay on unless
``--senza-limiti``, as in production.
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

TEMPLATE = ROOT / "scripts" / "nginx-judge.conf"
# Generated files (/sw.js, the manifest, …) per client: a page visit's worth, a few times over.
FILE_RATE = "120/min"
CONNECTIONS = 64            # open connections per client at the proxy


def _per_minute(rate) -> int:
    return max(1, round(rate.count * 60 / rate.period))


def proxy_limits(limits: bool = True) -> dict:
    """The proxy's budgets per client: the app's own (JUDGE_LIMITE_SCRITTURE, JUDGE_LIMITE_RICERCHE,
    judge/web/limits.py), so that N processes do not give a client N times them; ``limits=False``
    (a load test from one address): none worth the name."""
    from judge.web.limits import DEFAULTS, ENV, Rate, parse_rate

    out = {}
    for name in ("scritture", "ricerche"):
        rate = parse_rate(os.environ.get(ENV[name], DEFAULTS[name])) if limits else None
        out[name] = rate or Rate(1_000_000, 60.0)
    out["file"] = parse_rate(FILE_RATE) if limits else Rate(1_000_000, 60.0)
    return out


def _quoted(text: str) -> str:
    """For a single-quoted nginx string: no quote to close it, no ``$`` to read as a variable."""
    return text.replace("'", "’").replace("$", "＄").replace("\n", " ")


def nginx_conf(top: Path, port: int, backends: list[int], limits: dict) -> str:
    """The reference configuration (scripts/nginx-judge.conf) filled in: folders, ports, budgets
    and the Italian answers nginx gives itself, with the app's security headers."""
    from judge.web.errors import plain_page
    from judge.web.limits import wait_words
    from judge.web.security import HEADERS

    def refusal(budget: str) -> tuple[str, str, str]:
        rate = limits[budget]
        wait = max(1, int(-(-rate.period // rate.count)))
        what = (f"il limite è di {rate.describe(budget)}. " if budget != "file" else "")
        message = f"Troppe richieste da questo indirizzo: {what}Riprova tra {wait_words(wait)}."
        body = json.dumps({"error": {"status": 429, "message": message}}, ensure_ascii=False)
        return _quoted(plain_page(429, message)), _quoted(body), str(wait)

    values = {"CARTELLA": str(top), "PORTA": str(port), "CONNESSIONI": str(CONNECTIONS),
              "SERVER": "\n".join(f"        server 127.0.0.1:{p} max_fails=3 fail_timeout=5s;" for p in backends),
              "INTESTAZIONI": " ".join(f'add_header {k} "{v}" always;' for k, v in HEADERS.items()),
              "PAGINA_NON_DISPONIBILE": _quoted(plain_page(503, "Il sito non risponde in questo momento: "
                                                                "riprova tra qualche secondo."))}
    for budget in ("scritture", "ricerche", "file"):
        values[budget.upper()] = str(_per_minute(limits[budget]))
        page, body, wait = refusal(budget)
        values[f"ATTESA_{budget.upper()}"] = wait
        values[f"PAGINA_{budget.upper()}"], values[f"JSON_{budget.upper()}"] = page, body
    values["PAGINA_TROPPE"] = values.pop("PAGINA_FILE")
    text = TEMPLATE.read_text(encoding="utf-8")
    for key, value in values.items():
        text = text.replace(f"__{key}__", value)
    return text


def nginx_binary() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)


@contextlib.contextmanager
def nginx(backends: list[int], limits: dict):
    binary = nginx_binary()
    if binary is None:
        raise SystemExit("nginx non installato: apt-get install nginx-light (oppure --senza-proxy)")
    top = Path(tempfile.mkdtemp(prefix="judge-nginx-"))
    top.chmod(0o755)           # nginx's workers run as an unprivileged user
    port = _postgres.free_port()
    conf = top / "nginx.conf"
    conf.write_text(nginx_conf(top, port, backends, limits), encoding="utf-8")
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


def _refusal(url: str, method: str, n: int) -> dict:
    """Send up to ``n`` requests until one is refused: who refused (nginx or judge), after how
    many, with which message, Retry-After and security headers."""
    from judge.engine.scenario.templates import new_scenario
    from judge.web.security import HEADERS

    for i in range(1, n + 1):
        if method == "POST":
            body = json.dumps(new_scenario("two-player", title=f"Limite {i}")).encode()
            req = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"})
        else:
            req = urllib.request.Request(f"{url}{i}")
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read()
                continue
        except urllib.error.HTTPError as e:
            if e.code != 429:
                raise
            text = e.read().decode("utf-8", "replace")
            server = e.headers.get("Server", "")
            return {"rifiutata_la": i, "da": "nginx" if server.startswith("nginx") else server,
                    "retry_after": e.headers.get("Retry-After"),
                    "intestazioni_di_sicurezza": all(e.headers.get(k) == v for k, v in HEADERS.items()),
                    "tipo": e.headers.get_content_type(),
                    "messaggio": json.loads(text)["error"]["message"] if text.startswith("{") else text}
    return {"rifiutata_la": None}


def check_limits(entry: str, limits: dict) -> dict:
    """A client past each budget of the proxy gets its Italian 429."""
    writes, searches = (_per_minute(limits[k]) for k in ("scritture", "ricerche"))
    # the bucket refills while the requests go: a quarter more than the burst is plenty
    return {"scritture": _refusal(f"{entry}/api/scenari", "POST", writes + writes // 4 + 5),
            "ricerche": _refusal(f"{entry}/cerca?q=limite+", "GET", searches + searches // 4 + 5)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--server", type=int, default=3, help="processi judge serve (predefinito 3)")
    ap.add_argument("--thread", type=int, default=4, help="thread per processo")
    ap.add_argument("--senza-proxy", action="store_true", help="senza nginx: il carico va al primo server")
    ap.add_argument("--carico", type=int, default=10, help="secondi di carico con wrk (0: nessuno)")
    ap.add_argument("--connessioni", type=int, default=16)
    ap.add_argument("--resta", action="store_true", help="lascia tutto avviato fino a Ctrl-C")
    ap.add_argument("--senza-limiti", action="store_true",
                    help="spegni i limiti per client di judge e del proxy (il carico arriva da un solo "
                         "indirizzo: con i limiti, predefiniti, non manda ricerche e controlla invece "
                         "che chi li supera riceva il 429 in italiano)")
    ap.add_argument("--limiti", action="store_true", help=argparse.SUPPRESS)   # the default now
    args = ap.parse_args(argv)
    limited = not args.senza_limiti
    limits = proxy_limits(limited)

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
                threads=args.thread, instance=instance, env=env, args=proxy_args, limits=limited)))
            print(f"judge serve {i + 1}: {servers[-1].base}", file=sys.stderr)
        bases = [s.base for s in servers]
        report["permalink_condiviso"] = check_shared_permalinks(bases)
        entry = bases[0]
        if not args.senza_proxy:
            port = stack.enter_context(nginx([s.port for s in servers], limits))
            entry = f"http://127.0.0.1:{port}"
            print(f"nginx: {entry}", file=sys.stderr)
            report["permalink_dal_proxy"] = check_shared_permalinks([entry, *bases])
        if args.carico:
            # with the limits on, the load (one address) reads what no limit counts
            paths = ["/regole/704.5a", "/regole/121.4", "/salute", "/regole/703",
                     f"/s/{report['permalink_condiviso']}"]
            if not limited:
                paths += ["/cerca?q=grimorio+vuoto", "/api/cerca?q=untap"]
            result = wrk(entry, paths, seconds=args.carico, connections=args.connessioni)
            report["carico"] = {"richieste": result.requests, "req_s": result.rps, "p50_ms": result.p50_ms,
                                "p99_ms": result.p99_ms, "non_2xx": result.non_2xx,
                                "errori_socket": result.socket_errors}
        if limited and not args.senza_proxy:
            report["limiti"] = check_limits(entry, limits)
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
