"""The attack run of issue 38, as a script: what broke the site, sent again against a real server.

* ``ricerche``: 8 clients send searches with words never seen before to `judge serve` (waitress,
  8 threads) for N seconds; every answer must be a 200, and a sample is searched again by one
  client (in this process, the same index): the results must be the same. Whoosh's stemming
  cache, shared by the threads, broke every later unseen word after about 20 s of this.
* ``archivio``: PostgreSQL stopped under writes: rule pages and searches keep their latency,
  saves answer a quick Italian 503, /salute says «degradato» within a second, and after the
  restart no save fails (stale pooled connections gave 503s for 25 minutes).
* ``citazioni``: the costliest bodies for /api/citazioni (60 KB of citations), CPU time of the
  request, and its growth from a 6 KB body to a 60 KB one (quadratic: ×100).
* ``sw``: 8 clients on /sw.js while one reads rule pages (the service worker was rendered on
  every request, and the rule pages went from milliseconds to 2.8 s).

tests/prod/test_attack_suite.py runs each for a few seconds (JUDGE_ATTACCO_SECONDI, default 3);
this script for as long as asked:

    .venv/bin/python bench/attack_bench.py [--secondi 60] [ricerche archivio citazioni sw]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import statistics
import string
import sys
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CLIENTS = 8
ENDINGS = ("azione", "mente", "ando", "ere", "are", "ità", "ivo", "ose", "ano", "issimo", "ing", "ness")
REAL = ("pila", "grimorio", "mana", "creatura", "danno", "turno", "giocatore", "magia", "abilità",
        "bersaglio", "attacco", "token", "library", "untap", "sacrifica")


class Client:
    """One keep-alive HTTP connection; ``get`` gives (status, body, seconds), never raises."""

    def __init__(self, port: int, timeout: float = 30):
        self.port, self.timeout = port, timeout
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        started = time.monotonic()
        for attempt in (0, 1):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.conn.request(method, path, body=body, headers=headers or {})
                resp = self.conn.getresponse()
                data = resp.read()
                if resp.getheader("Connection", "").lower() == "close":
                    self.close()
                headers = {k.lower(): v for k, v in resp.getheaders()}
                return resp.status, data, time.monotonic() - started, headers
            except (OSError, http.client.HTTPException) as e:
                self.close()
                if attempt:
                    return f"{type(e).__name__}: {e}", b"", time.monotonic() - started, {}
        raise AssertionError("unreachable")

    def get(self, path: str, headers: dict | None = None):
        return self.request("GET", path, headers=headers)

    def post_json(self, path: str, doc) -> tuple:
        return self.request("POST", path, json.dumps(doc).encode(), {"Content-Type": "application/json"})

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def never_seen(rng: random.Random, serial: int) -> str:
    """A word no one typed before (the serial makes it unique in the run)."""
    return "".join(rng.choices(string.ascii_lowercase, k=rng.randint(4, 9))) + \
        "".join("qxz"[int(d) % 3] for d in str(serial)) + rng.choice(ENDINGS)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))]


def _run_clients(n: int, work) -> None:
    start = threading.Barrier(n)

    def run(i: int) -> None:
        start.wait()
        work(i)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


# -- 1. never-seen searches from 8 clients ------------------------------------------------------------

def _summary(answer: dict) -> tuple:
    return answer["total"], tuple((r["number"], r["lang"]) for r in answer["results"])


def never_seen_searches(port: int, instance: Path, seconds: float, compare: int = 300, seed: int = 38) -> dict:
    """8 clients × ``seconds`` of distinct searches, each with three words never seen; then up to
    ``compare`` of them searched again by one client in this process (same index, same code)."""
    from judge.search.engines import run_search

    deadline = time.monotonic() + seconds
    answers: list[tuple[str, tuple]] = []
    errors: list[str] = []
    lock = threading.Lock()

    def work(i: int) -> None:
        rng, client, serial = random.Random(seed * 100 + i), Client(port), 0
        while time.monotonic() < deadline:
            serial += 1
            q = " ".join([rng.choice(REAL)] + [never_seen(rng, serial * CLIENTS + i) for _ in range(3)])
            status, body, _, _ = client.get("/api/cerca?" + urllib.parse.urlencode({"q": q}))
            with lock:
                if status != 200:
                    errors.append(f"{status} {q}")
                else:
                    answers.append((q, _summary(json.loads(body))))
        client.close()

    _run_clients(CLIENTS, work)
    sample = random.Random(seed).sample(answers, min(compare, len(answers)))
    mismatches = [q for q, got in sample if _summary(run_search(instance, q, page=1, per_page=10).as_json()) != got]
    return {"richieste": len(answers) + len(errors), "errori": len(errors), "primi_errori": errors[:5],
            "parole_mai_viste": 3 * (len(answers) + len(errors)), "confrontate": len(sample),
            "diverse": len(mismatches), "prime_diverse": mismatches[:5],
            "richieste_al_secondo": round((len(answers) + len(errors)) / seconds, 1)}


# -- 2. PostgreSQL stopped under writes --------------------------------------------------------------

def _scenario(rng: random.Random) -> dict:
    from judge.engine.scenario.templates import new_scenario

    return new_scenario("two-player", title="Guasto " + "".join(rng.choices(string.ascii_lowercase, k=12)))


def _without_database(port: int) -> dict:
    """What a server started while its database is down answers."""
    client = Client(port)
    rule, search = client.get("/regole/704.5a")[0], client.get("/api/cerca?q=pila")[0]
    status, body, took, headers = client.post_json("/api/scenari", _scenario(random.Random(0)))
    health_status, health, health_took, _ = client.get("/salute")
    with contextlib.suppress(ValueError, KeyError):
        body = json.loads(body)["error"]["message"]
    return {"regola": rule, "ricerca": search, "salvataggio": status, "salvataggio_ms": round(took * 1000, 1),
            "messaggio": body if isinstance(body, str) else "", "retry_after": headers.get("retry-after"),
            "salute": health_status, "stato": json.loads(health)["stato"] if health else None,
            "salute_ms": round(health_took * 1000, 1)}


def _until_ok(port: int, within: float = 60) -> None:
    client, deadline = Client(port), time.monotonic() + within
    while time.monotonic() < deadline:
        status, body, _, _ = client.get("/salute")
        if status == 200 and json.loads(body)["archivio"].get("raggiungibile"):
            return
        time.sleep(0.1)
    raise RuntimeError("the store did not come back")


def store_outage(seconds: float, threads: int = 8, root: Path | None = None, start_down: bool = True) -> dict:
    """A server on PostgreSQL; writers and readers for ``seconds`` before, during and after a stop.
    ``start_down``: the server starts while the database is down (it used not to start), then the
    database starts. ``root``: the checkout to serve (another commit, for a before and after)."""
    from bench import _postgres
    from bench._server import running_server
    from judge.corpus import load_corpus

    corpus = load_corpus()
    rules = [f"/regole/{n}" for n in corpus.numbers[::7]]
    out: dict = {}
    with _postgres.cluster() as cluster:
        url = cluster.create_database("attacco")
        if start_down:
            cluster.stop()
        with running_server(threads=threads, env={"JUDGE_DATABASE_URL": url},
                            **({"root": root} if root else {})) as server:
            if start_down:
                out["avvio_senza_database"] = _without_database(server.port)
                cluster.start()
                _until_ok(server.port)
            phase = {"name": "prima"}
            lat: dict[str, list[float]] = {}
            writes: dict[str, list] = {}
            saved: list[str] = []
            stop = threading.Event()
            salute: list[tuple[float, str, float]] = []

            def reader(i: int) -> None:
                rng, client = random.Random(i), Client(server.port)
                while not stop.is_set():
                    path = rng.choice(rules) if i % 2 else "/api/cerca?" + urllib.parse.urlencode(
                        {"q": f"{rng.choice(REAL)} {never_seen(rng, rng.randrange(10**9))}"})
                    began = phase["name"]           # a read counts in the phase it was asked in
                    status, _, took, _ = client.get(path)
                    lat.setdefault(began, []).append(took if status == 200 else float("inf"))
                    time.sleep(0.02)

            def writer(i: int) -> None:
                rng, client = random.Random(1000 + i), Client(server.port)
                while not stop.is_set():
                    began = phase["name"]
                    status, body, took, _ = client.post_json("/api/scenari", _scenario(rng))
                    message = ""
                    if status == 201:
                        saved.append(json.loads(body)["id"])
                    elif body:
                        with contextlib.suppress(ValueError, KeyError):
                            message = json.loads(body)["error"]["message"]
                    writes.setdefault(began, []).append((status, took, message))
                    time.sleep(0.02)

            def health() -> None:
                client = Client(server.port)
                while not stop.is_set():
                    status, body, took, _ = client.get("/salute")
                    state = json.loads(body)["stato"] if status in (200, 503) else str(status)
                    salute.append((time.monotonic(), state, took))
                    time.sleep(0.05)

            workers = [threading.Thread(target=reader, args=(i,), daemon=True) for i in range(2)]
            # as many writers as the server has threads: waiting for the database, they held them all
            workers += [threading.Thread(target=writer, args=(i,), daemon=True) for i in range(threads)]
            workers.append(threading.Thread(target=health, daemon=True))
            for w in workers:
                w.start()
            time.sleep(min(seconds, 2.0) if seconds < 5 else seconds)    # the pace before: a sample
            phase["name"] = "durante"
            stop_began = time.monotonic()
            cluster.stop()
            stopped = time.monotonic()
            time.sleep(seconds)
            phase["name"] = "ripresa"
            cluster.start()
            restarted = time.monotonic()
            time.sleep(min(3.0, seconds))
            phase["name"] = "dopo"
            time.sleep(seconds)
            stop.set()
            for w in workers:
                w.join(60)
            # every acknowledged save is there
            client = Client(server.port)
            lost = [i for i in saved if client.get(f"/api/scenari/{i}")[0] != 200]

    degraded = next((t for t, state, _ in salute if t >= stop_began and state == "degradato"), None)
    back = next((t for t, state, _ in salute if t >= restarted and state == "ok"), None)
    for name in ("prima", "durante", "dopo"):
        values = lat.get(name, [])
        done = [v for v in values if v != float("inf")]
        out[f"letture_{name}"] = {"n": len(values), "p50_ms": round(percentile(done, 0.5) * 1000, 1),
                                  "p95_ms": round(percentile(done, 0.95) * 1000, 1),
                                  "max_ms": round(max(done, default=0) * 1000, 1),
                                  "errori": len(values) - len(done)}
        ws = writes.get(name, [])
        out[f"salvataggi_{name}"] = {
            "n": len(ws), "201": sum(1 for s, _, _ in ws if s == 201), "503": sum(1 for s, _, _ in ws if s == 503),
            "altri": sorted({str(s) for s, _, _ in ws if s not in (201, 503)}),
            "p95_ms": round(percentile([t for _, t, _ in ws], 0.95) * 1000, 1),
            "max_503_ms": round(max([t for s, t, _ in ws if s == 503], default=0) * 1000, 1),
            "messaggio_503": next((m for s, _, m in ws if s == 503), ""),
        }
    out["arresto_s"] = round(stopped - stop_began, 2)
    out["degradato_dopo_s"] = round(degraded - stopped, 2) if degraded is not None else None
    out["salute_max_ms"] = round(max((took for _, _, took in salute), default=0) * 1000, 1)
    out["riavvio_s"] = round(restarted - stopped, 2)
    out["ok_dopo_il_riavvio_s"] = round(back - restarted, 2) if back is not None else None
    out["salvataggi_confermati"] = len(saved)
    out["salvataggi_persi"] = len(lost)
    return out


# -- 3. the costliest /api/citazioni bodies -----------------------------------------------------------

def costly_bodies(corpus) -> dict[str, list[str]]:
    everything = " ".join(corpus.numbers)
    return {
        "704.5a ripetuta": ["704.5a " * 9000],
        "lettere 704.5a/b": ["704.5a/b " * 7000],
        "parola chiave e numeri": ["regola 704.5a 704.5b " * 3000],
        "indirizzi e citazioni": ["http://x.it regola 704.5a " * 2500],
        "sezioni tra parentesi": ["(712) " * 10000],
        "tutte le regole": [everything],
        "numeri che non esistono": [" ".join(f"{100 + i % 900}.{1 + i // 900}zz" for i in range(8000))],
        "400 testi": ["704.5a " * 21] * 400,
        "documenti dei tornei": ["IPG 2.1 " * 7500],
        "JAR ripetuta": ["JAR " * 15000],
    }


def costly_citations(repeat: int = 3) -> dict:
    """For each costly body cut to 60 KB: the CPU time of /api/citazioni (this thread, in process;
    the endpoint stops at its budget), and how the parsers' own time grows from 6 KB to 60 KB of
    the same text, without a budget (linear: about ×10; they were quadratic: ×100)."""
    import tempfile

    from judge.corpus import load_corpus
    from judge.corpus.citations import find_citations
    from judge.corpus.pinned import known
    from judge.tournament.citations import find_document_citations
    from judge.tournament.loading import load_documents
    from judge.web import create_app

    corpus = load_corpus()
    documents = load_documents()

    def parse(text: str):
        """Both parsers, the rules' and the tournament documents', with no budget."""
        return find_citations(text, known=known(corpus)), find_document_citations(text, exists=documents.has)

    def best(fn) -> tuple[float, object]:
        least, out = float("inf"), None
        for _ in range(repeat):
            started = time.thread_time()
            out = fn()
            least = min(least, time.thread_time() - started)
        return least, out

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "INSTANCE_PATH": tmp, "SECRET_KEY": "attacco"})
        client = app.test_client()
        client.post("/api/citazioni", json={"testi": ["Vedi 704.5a."]})
        out = {}
        for name, texts in costly_bodies(corpus).items():
            full = [t[:60_000 // len(texts)] for t in texts]
            took, answer = best(lambda: client.post("/api/citazioni", json={"testi": full}).get_json())
            whole = "\n".join(full)
            big, _ = best(lambda: parse(whole))
            small, _ = best(lambda: parse(whole[:len(whole) // 10]))
            out[name] = {"ms": round(took * 1000, 1), "citazioni": sum(len(t) for t in answer["testi"]),
                         "completo": answer["completo"], "analisi_60KB_ms": round(big * 1000, 1),
                         "crescita_6_60KB": round(big / max(small, 1e-4), 1)}
        return out


def citations_over_http(port: int) -> dict:
    """The same bodies sent to a server, one at a time: the wall time of each answer (the server
    is otherwise idle, so it is its time), for a checkout whose code this process cannot run."""
    from judge.corpus import load_corpus

    client, out = Client(port, timeout=120), {}
    for name, texts in costly_bodies(load_corpus()).items():
        full = [t[:60_000 // len(texts)] for t in texts]
        status, _, took, _ = client.post_json("/api/citazioni", {"testi": full})
        out[name] = {"status": status, "ms": round(took * 1000, 1)}
    return out


# -- 4. /sw.js from 8 clients -------------------------------------------------------------------------

def service_worker_flood(port: int, seconds: float) -> dict:
    """Rule pages read by one client, alone and then with 8 clients fetching /sw.js, alternately."""
    from judge.corpus import load_corpus

    rules = [f"/regole/{n}" for n in load_corpus().numbers]
    reader = Client(port)
    rng = random.Random(7)
    alone: list[float] = []
    flooded: list[float] = []
    sw: list[tuple] = []
    rounds = max(1, int(seconds))

    def read(until: float, into: list[float]) -> None:
        while time.monotonic() < until:
            status, _, took, _ = reader.get(rng.choice(rules))
            into.append(took if status == 200 else float("inf"))

    for _ in range(rounds):
        read(time.monotonic() + 0.5, alone)
        until = time.monotonic() + 0.5
        done = threading.Event()

        def flood(i: int) -> None:
            client = Client(port)
            while time.monotonic() < until:
                status, body, took, _ = client.get("/sw.js")
                sw.append((status, took, len(body)))
            client.close()

        flooders = threading.Thread(target=lambda: (_run_clients(CLIENTS, flood), done.set()), daemon=True)
        flooders.start()
        read(until, flooded)
        done.wait(30)
    etag = reader.get("/sw.js")[3].get("etag")
    conditional = reader.get("/sw.js", headers={"If-None-Match": etag})[0] if etag else None
    return {"regole_da_sole_p50_ms": round(statistics.median(alone) * 1000, 2),
            "regole_con_sw_p50_ms": round(statistics.median(flooded) * 1000, 2),
            "rapporto_p50": round(statistics.median(flooded) / statistics.median(alone), 2),
            "regole_con_sw_p95_ms": round(percentile(flooded, 0.95) * 1000, 2),
            "sw_richieste": len(sw), "sw_errori": sum(1 for s, _, _ in sw if s != 200),
            "sw_p50_ms": round(percentile([t for _, t, _ in sw], 0.5) * 1000, 2),
            # what one /sw.js costs under the flood, in rule pages read alone (rendered: ×190)
            "sw_rapporto": round(percentile([t for _, t, _ in sw], 0.5) / statistics.median(alone), 2),
            "sw_etag": etag, "sw_se_non_cambiato": conditional}


def main(argv: list[str] | None = None) -> int:
    from bench._server import running_server

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("attacchi", nargs="*", default=["ricerche", "archivio", "citazioni", "sw"])
    ap.add_argument("--secondi", type=float, default=float(os.environ.get("JUDGE_ATTACCO_SECONDI", 60)))
    ap.add_argument("--confronti", type=int, default=1000, help="ricerche rifatte da un client solo")
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio il commit precedente, estratto con "
                         "git archive): gli stessi attacchi contro il suo server")
    args = ap.parse_args(argv)
    root = {"root": args.contro.resolve()} if args.contro else {}
    report: dict = {"secondi": args.secondi, "copia": str(args.contro or "questa")}
    if {"ricerche", "sw"} & set(args.attacchi) or ("citazioni" in args.attacchi and args.contro):
        with running_server(threads=8, **root) as server:
            if "ricerche" in args.attacchi:
                report["ricerche"] = never_seen_searches(server.port, server.instance, args.secondi, args.confronti)
            if "sw" in args.attacchi:
                report["sw"] = service_worker_flood(server.port, min(args.secondi, 20))
            if "citazioni" in args.attacchi and args.contro:
                report["citazioni_http"] = citations_over_http(server.port)
    if "archivio" in args.attacchi:
        # an older checkout may not start without its database
        report["archivio"] = store_outage(min(args.secondi, 20), root=root.get("root"), start_down=not args.contro)
    if "citazioni" in args.attacchi and not args.contro:
        report["citazioni"] = costly_citations()
    print(json.dumps(report, ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
