"""The failures an attack run found (issue 28), each reproduced as the attacker did it: every
test here failed before its fix.  Servers are real (`judge serve` in a subprocess, or the same
waitress setup in a thread) and all traffic stays on the loopback."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bench._server import running_server
from judge import ROOT
from judge.search import spelling
from judge.search.engines import get_engine
from judge.web import create_app
from judge.web.serve_cli import make_server
from tests.in_thread import serving


def fetch(url: str, timeout: float = 10, data: bytes | None = None, headers: dict | None = None):
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app behind make_server (the same waitress setup as `judge serve`) with 2 workers."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path_factory.mktemp("instance")),
                      "SECRET_KEY": "t"})
    with serving(make_server(app, host="127.0.0.1", port=0, threads=2)) as server:
        fetch(f"http://127.0.0.1:{server.effective_port}/glossario", timeout=60)   # warm the cache
        yield app, int(server.effective_port)


def _salute_answers(port: int, within: float) -> bool:
    try:
        status, _, _ = fetch(f"http://127.0.0.1:{port}/salute", timeout=within)
        return status == 200
    except OSError:
        return False


def test_clients_that_pipeline_and_never_read_do_not_block_the_workers(served):
    """8 clients each send hundreds of pipelined requests for a big page and read nothing:
    waitress used to block a worker per client until the client read, for ever."""
    _, port = served
    request = b"GET /glossario HTTP/1.1\r\nHost: x\r\n\r\n"
    attackers = []
    try:
        for _ in range(8):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.connect(("127.0.0.1", port))
            s.setblocking(False)
            try:
                s.send(request * 400)
            except BlockingIOError:
                pass
            attackers.append(s)
        time.sleep(3)          # the workers render and queue the answers
        assert _salute_answers(port, within=10), "/salute did not answer: the workers are blocked"
        assert _salute_answers(port, within=10)
    finally:
        for s in attackers:
            s.close()


def _trickle(sockets: list[socket.socket], stop: threading.Event) -> None:
    while not stop.wait(1.0):
        for s in sockets:
            try:
                s.send(b"X")
            except OSError:
                pass


def _open_trickles(n: int, source: str, port: int) -> list[socket.socket]:
    out = []
    for _ in range(n):
        s = socket.socket()
        s.bind((source, 0))
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.send(b"GET / HTTP/1.1\r\nHost: x\r\nX-A: ")
        except OSError:
            pass
        out.append(s)
    return out


def test_header_trickles_cannot_exhaust_the_connection_limit():
    """1,100 connections sending one header byte at a time used to take all 1,000 connection
    slots for as long as they went on: nobody else was answered."""
    with running_server(threads=4) as server:
        stop = threading.Event()
        sockets = _open_trickles(1100, "127.0.0.2", server.port)
        feeder = threading.Thread(target=_trickle, args=(sockets, stop), daemon=True)
        feeder.start()
        try:
            time.sleep(2)
            assert _salute_answers(server.port, within=20), "no connection slot left for others"
        finally:
            stop.set()
            feeder.join()
            for s in sockets:
                s.close()


def test_a_request_whose_headers_trickle_in_is_closed():
    """Even under the per-client connection cap, a request must have its headers in 10 s."""
    with running_server(threads=2) as server:
        stop = threading.Event()
        sockets = _open_trickles(1, "127.0.0.3", server.port)
        feeder = threading.Thread(target=_trickle, args=(sockets, stop), daemon=True)
        feeder.start()
        try:
            sockets[0].settimeout(30)
            started = time.monotonic()
            try:
                data = sockets[0].recv(100)       # b"" when the server closes it
            except ConnectionResetError:
                data = b""
            assert data == b"" and time.monotonic() - started < 25
        finally:
            stop.set()
            feeder.join()
            sockets[0].close()


def test_a_body_over_the_limit_is_refused_before_it_is_sent(served):
    """A 900 MB Content-Length used to be received (and spooled to disk) before the 413."""
    _, port = served
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(b"POST /api/scenari HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 900000000\r\n\r\n")
        head = s.recv(4096)            # nothing of the body sent: the answer comes anyway
    assert head.startswith(b"HTTP/1.1 413"), head[:200]
    assert "Richiesta troppo grande".encode() in head or b"413" in head


def test_a_word_that_cannot_match_is_not_corrected(monkeypatch, tmp_path):
    """One 300-letter word cost 2 s of search: every two-letter deletion was generated."""
    engine = get_engine(tmp_path / "instance")
    made = []
    real = spelling._deletes

    def counting(word, distance):
        out = real(word, distance)
        made.append(len(out))
        return out

    monkeypatch.setattr(spelling, "_deletes", counting)
    for query in ("a" * 300, "ab" * 75, " ".join(["q" * 99, "zx" * 49, "k" * 99])):   # ≤ 300 characters
        assert engine.search(query).total == 0
    assert max(made, default=0) < 1_000, made      # a 99-letter word alone made 4,851 strings
    # still corrected: a plausible typo
    assert engine.search("travolgre").corrections


def test_a_slow_search_does_not_hold_up_the_others(monkeypatch, tmp_path):
    """Searches ran under one lock: three slow ones put every user's search at 11 s."""
    engine = get_engine(tmp_path / "instance")
    inside, release = threading.Event(), threading.Event()
    real = engine._search

    def slow(q, *args):
        if q == "lentissima":
            inside.set()
            release.wait(30)
        return real(q, *args)

    monkeypatch.setattr(engine, "_search", slow)
    blocker = threading.Thread(target=engine.search, args=("lentissima",), daemon=True)
    blocker.start()
    assert inside.wait(10)
    done = threading.Event()
    threading.Thread(target=lambda: (engine.search("grimorio vuoto"), done.set()), daemon=True).start()
    try:
        assert done.wait(5), "another user's search waited for the slow one"
    finally:
        release.set()
        blocker.join(30)


def test_unknown_query_parameters_do_not_fill_the_page_cache(tmp_path):
    """``/glossario?z=<random>`` missed the cache every time and evicted the rule pages."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t"})
    client = app.test_client()
    assert client.get("/regole/704.5a").status_code == 200
    for i in range(30):
        assert client.get(f"/glossario?z={i}").status_code == 200
        assert client.get(f"/regole/704.5a?utm_source={i}").status_code == 200
    keys = list(app.extensions["judge.page_cache"].items)
    assert len([k for k in keys if k[0] == "rules.glossario"]) == 1
    assert len([k for k in keys if k[0] == "rules.rule"]) == 1
    # a parameter the page reads still counts
    assert client.get("/glossario?q=travolgere").status_code == 200
    assert len([k for k in app.extensions["judge.page_cache"].items if k[0] == "rules.glossario"]) == 2


def test_collega_with_json_nested_1000_deep_is_422(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t"})
    r = app.test_client().post("/api/collega", data="[" * 1000 + "]" * 1000,
                               content_type="application/json")
    assert r.status_code == 422
    assert "annidato" in r.get_json()["error"]["message"]


def test_a_lone_surrogate_in_a_scenario_is_a_clear_422(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t"})
    body = ('{"format": "judge-scenario", "version": 1, "title": "Prova \\ud800", "players": '
            '[{"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"}]}')
    r = app.test_client().post("/api/scenari", data=body, content_type="application/json")
    assert r.status_code == 422
    message = r.get_json()["error"]["message"]
    assert "codec" not in message and "surrogato" in message and "title" in message


def test_a_host_label_over_63_characters_logs_no_traceback(tmp_path, caplog):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t"})
    client = app.test_client()
    for path in ("/regole/704.5a", "/api/regole/704.5a", "/simulatore"):
        r = client.get(path, headers={"Host": "a" * 70 + ".example.org"})
        assert r.status_code == 400
        assert "Host non valida" in r.get_data(as_text=True)
    assert not [rec for rec in caplog.records if rec.levelname == "ERROR" or rec.exc_info]


def test_the_request_log_truncates_paths():
    from judge.web.requestlog import RequestLog

    lines: list[str] = []

    class Sink:
        def write(self, s):
            lines.append(s)

        def flush(self):
            pass

    def app(environ, start_response):
        start_response("404 Not Found", [])
        return [b""]

    environ = {"REQUEST_METHOD": "GET", "PATH_INFO": "/" + "a" * 100_000, "QUERY_STRING": "q=" + "b" * 100_000}
    list(RequestLog(app, Sink())(environ, lambda *a: None))
    assert len(lines[0]) < 1000
    assert json.loads(lines[0])["path"].startswith("/aaa")


# --- a read-only instance ------------------------------------------------------------------------

def without_root_powers() -> list[str]:
    """Run a command so that file permissions bind it: as root (CI), without the capabilities
    that let root write anywhere; as anybody else, as is."""
    if os.geteuid() != 0:
        return []
    if not shutil.which("setpriv"):
        pytest.fail("setpriv (util-linux) serve per togliere a root il permesso di scrivere ovunque")
    caps = "-dac_override,-dac_read_search,-fowner"
    return ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", "--"]


def _read_only(folder: Path) -> None:
    for p in [folder, *folder.rglob("*")]:
        p.chmod(0o555 if p.is_dir() else 0o444)


def _writable(folder: Path) -> None:
    for p in [folder, *folder.rglob("*")]:
        p.chmod(0o755 if p.is_dir() else 0o644)


def test_a_read_only_instance_serves_reads_and_refuses_writes_in_italian(tmp_path):
    """A read-only instance answered 500 to every scenario request, reads included, while
    /salute said «ok»."""
    instance = tmp_path / "instance"
    scenario = {"format": "judge-scenario", "version": 1, "title": "Sola lettura",
                "players": [{"id": "p1", "name": "Alice"}, {"id": "p2", "name": "Bruno"}]}
    game = {"format": "judge-partita", "version": 1, "scenario": scenario, "actions": [{"type": "step"}]}
    with running_server(threads=2, instance=instance) as server:
        _, _, body = fetch(f"{server.base}/api/scenari", data=json.dumps(game).encode(),
                           headers={"Content-Type": "application/json"})
        ident = json.loads(body)["id"]
    _read_only(instance)
    try:
        with running_server(threads=2, instance=instance, prefix=without_root_powers()) as server:
            for path in (f"/s/{ident}", f"/api/scenari/{ident}", f"/s/{ident}/registro.md",
                         f"/s/{ident}/partita.json"):
                status, _, _ = fetch(server.base + path)
                assert status == 200, path
            status, headers, body = fetch(f"{server.base}/api/scenari/{ident}/azioni",
                                          data=b'{"type": "step"}',
                                          headers={"Content-Type": "application/json"})
            assert status == 503 and headers.get("Retry-After")
            assert "sola lettura" in json.loads(body)["error"]["message"]
            status, _, body = fetch(f"{server.base}/api/scenari", data=json.dumps(scenario).encode(),
                                    headers={"Content-Type": "application/json"})
            assert status == 503 and "sola lettura" in json.loads(body)["error"]["message"]
            health = json.loads(fetch(f"{server.base}/salute")[2])
            assert health["stato"] == "degradato"
            assert health["archivio"]["scrivibile"] is False
            assert health["archivio"]["partite"] == 1
    finally:
        _writable(instance)


def test_an_unwritable_instance_folder_stops_the_start_with_an_italian_message(tmp_path):
    folder = tmp_path / "vuota"
    folder.mkdir()
    _read_only(folder)
    try:
        out = subprocess.run([*without_root_powers(), sys.executable, "-m", "judge", "serve",
                              "--port", "0", "--instance", str(folder)],
                             cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "JUDGE_SECRET_KEY": ""})
    finally:
        _writable(folder)
    assert out.returncode == 1
    assert "Traceback" not in out.stderr
    assert "non è scrivibile" in out.stderr and "--instance" in out.stderr


def test_an_index_rebuild_runs_beside_the_server(tmp_path):
    """Rebuilding a damaged index stalled the whole process for about 20 s (it ran in a request
    thread): now searches keep being answered from the index in memory meanwhile."""
    from judge.corpus import load_corpus
    from judge.search.index import index_name, index_root

    instance = tmp_path / "instance"
    with running_server(threads=4, instance=instance) as server:
        folder = index_root(instance) / index_name(load_corpus())
        shutil.rmtree(folder)
        deadline, seen_rebuilding, slowest = time.time() + 120, False, 0.0
        i = 0
        while time.time() < deadline:
            i += 1
            started = time.monotonic()
            status, _, body = fetch(f"{server.base}/api/cerca?q=pila+{i}", timeout=5)
            health = json.loads(fetch(f"{server.base}/salute", timeout=5)[2])
            slowest = max(slowest, time.monotonic() - started)
            assert status == 200 and json.loads(body)["total"] > 0
            seen_rebuilding |= health["indice_in_ricostruzione"]
            if (folder / "vocabulary.json").is_file() and not health["indice_in_ricostruzione"]:
                break
            time.sleep(0.3)
        assert (folder / "vocabulary.json").is_file(), "the index did not come back"
        assert seen_rebuilding
        assert slowest < 5
