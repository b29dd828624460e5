"""The build cache (judge/build_cache.py): what a start computes from the corpus files is built once,
kept under a hash of its inputs and read back while they are unchanged; a changed file rebuilds
what depends on it and nothing else; processes starting together build once; a start says what
it builds."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from multiprocessing import get_context
from pathlib import Path

import pytest

from judge import RULES_EN_DIR, RULES_IT_DIR, ROOT, build_cache


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(folder))
    return folder


# -- the store ---------------------------------------------------------------------------------------

def test_a_value_is_built_once_then_read(cache):
    calls = []
    build = lambda: calls.append(1) or {"n": len(calls)}  # noqa: E731
    assert build_cache.value("prova", "k1", build, "prova") == {"n": 1}
    assert build_cache.value("prova", "k1", build, "prova") == {"n": 1}
    assert calls == [1]
    assert [e.action for e in build_cache.events()[-2:]] == ["costruito", "letto"]
    assert build_cache.value("prova", "k2", build, "prova") == {"n": 2}  # another key: built


def test_a_damaged_entry_is_built_again(cache):
    build_cache.value("prova", "k", lambda: list(range(1000)), "prova")
    entry = cache / "prova" / "k.pickle"
    entry.write_bytes(entry.read_bytes()[:50])  # truncated
    assert build_cache.value("prova", "k", lambda: "di nuovo", "prova") == "di nuovo"


def test_each_kind_keeps_its_most_recent_entries(cache):
    for i in range(6):
        build_cache.value("prova", f"k{i}", lambda i=i: i, "prova", keep=3)
        time.sleep(0.01)  # distinct modification times
    assert sorted(p.name for p in (cache / "prova").glob("*.pickle")) == ["k3.pickle", "k4.pickle", "k5.pickle"]


def test_keys_hash_contents_not_names(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("uno")
    b.write_text("uno")
    assert build_cache.file_digest(a) == build_cache.file_digest(b)
    b.write_text("due")
    assert build_cache.file_digest(a) != build_cache.file_digest(b)
    assert build_cache.digest("ab", "c") != build_cache.digest("a", "bc")


def test_the_cache_can_be_turned_off(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_CACHE_DIR", "0")
    calls = []
    for _ in range(2):
        build_cache.value("prova", "k", lambda: calls.append(1), "prova")
    assert len(calls) == 2 and build_cache.folder() is None


def _slow_build(args) -> str:
    folder, log = args
    os.environ["JUDGE_CACHE_DIR"] = folder

    def build():
        with open(log, "a") as fh:
            fh.write("costruito\n")
        time.sleep(0.5)
        return "valore"

    return build_cache.value("prova", "condiviso", build, "prova")


def test_processes_asking_at_once_build_once(cache, tmp_path):
    log = tmp_path / "log"
    with get_context("spawn").Pool(4) as pool:
        got = pool.map(_slow_build, [(str(cache), str(log))] * 4)
    assert got == ["valore"] * 4
    assert log.read_text().splitlines() == ["costruito"]


# -- the corpus: a changed file rebuilds what depends on it -------------------------------------------

LOAD = """
import json, sys
from pathlib import Path
from judge import build_cache
from judge.corpus import load_corpus
from judge.corpus.checks import corpus_findings, translation_report
corpus = load_corpus(Path(sys.argv[1]), Path(sys.argv[2]))
corpus_findings(corpus)
rule = corpus.get(sys.argv[3])
print(json.dumps({"events": [[e.kind, e.action] for e in build_cache.events()],
                  "text": rule.tr.text, "summary": translation_report(corpus).summary()}))
"""


def _start(it: Path, en: Path, number: str) -> dict:
    """A new process loading the corpus and its checks, as a server's start does."""
    out = subprocess.run([sys.executable, "-c", LOAD, str(it), str(en), number], capture_output=True, text=True,
                         check=True, cwd=ROOT)
    got = json.loads(out.stdout)
    got["built"] = sorted(k for k, a in got["events"] if a == "costruito")
    got["read"] = sorted(k for k, a in got["events"] if a == "letto")
    return got


def test_an_edited_translation_file_rebuilds_only_what_reads_it(cache, tmp_path):
    it, en = tmp_path / "rules_it", tmp_path / "rules_en"
    shutil.copytree(RULES_IT_DIR, it, ignore=shutil.ignore_patterns("fonti"))
    shutil.copytree(RULES_EN_DIR, en)
    editions = len(list(en.glob("MagicCompRules-*.txt")))
    files = len(list((it / "traduzione").glob("*.md")))

    first = _start(it, en, "704.5a")
    assert first["built"].count("edizione") == editions and first["built"].count("traccia") == editions - 1
    assert first["built"].count("controlli-traduzione") == files
    assert {"corpus", "controlli"} <= set(first["built"])

    again = _start(it, en, "704.5a")  # a restart: everything read, nothing built
    assert again["built"] == [] and set(again["read"]) == {"corpus", "controlli"}
    assert again["text"] == first["text"] and again["summary"] == first["summary"]

    path = it / "traduzione" / "704.md"
    text = path.read_text(encoding="utf-8")
    old = first["text"].splitlines()[0]
    assert old in text
    new = old.rstrip(".") + " (modificata per la prova)."
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    edited = _start(it, en, "704.5a")
    assert edited["text"].splitlines()[0] == new  # the new text, after a restart
    # The edited file is read and checked again, the corpus assembled again; the six editions and
    # their traces are read from the cache, and so are the other files' checks.
    assert edited["built"] == ["controlli", "controlli-traduzione", "corpus"]
    assert edited["read"].count("edizione") == editions and edited["read"].count("traccia") == editions - 1
    assert edited["read"].count("controlli-traduzione") == files - 1


# -- servers: the start message, concurrent starts, the second start ----------------------------------

def _serve(instance: Path, env: dict) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0", "--no-log", "--instance",
                             str(instance)], cwd=ROOT, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True)


def _until_listening(proc: subprocess.Popen, timeout: float = 900) -> tuple[int, list[str]]:
    lines: list[str] = []
    found: list[int] = []

    def read():
        for line in proc.stderr:
            lines.append(line.rstrip())
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                found.append(int(m[1]))
                break

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    assert found, "judge serve non è partito:\n" + "\n".join(lines)
    threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
    return found[0], lines


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _health(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/salute", timeout=30) as r:
        return json.loads(r.read())


def test_servers_started_together_build_once_and_say_what_they_build(tmp_path):
    """Three workers started at once on an empty cache (two on one instance folder, one on its own):
    one builds each thing, printing what and how far it has got; the others wait for it and read
    it; all three answer. A restart builds nothing and says so."""
    env = {**os.environ, "JUDGE_CACHE_DIR": str(tmp_path / "cache")}
    instances = [tmp_path / "a", tmp_path / "a", tmp_path / "b"]
    procs = [_serve(i, env) for i in instances]
    try:
        started = [_until_listening(p) for p in procs]
        for port, _ in started:
            assert _health(port)["indice_pronto"] is True
    finally:
        for p in procs:
            _stop(p)
    outputs = ["\n".join(lines) for _, lines in started]
    everything = "\n".join(outputs)
    # Each thing built once, by one of them, with what it builds named and its progress shown (the
    # corpus's checks and the card index are built beside them, in processes of their own: once too).
    for label in ("corpus (", "indice di ricerca"):
        assert everything.count(f"judge: {label}") >= 1
        done = [line for line in everything.splitlines() if line.startswith(f"judge: {label}") and ": fatto in " in line]
        assert len(done) == 1, (label, done)
    assert re.search(r"indice di ricerca \(documenti\): \d+/\d+ \(\d+%\)", everything) or \
        "indice di ricerca: fatto in" in everything
    assert all("judge: pronto in" in o for o in outputs)
    # The build cache holds one entry of each: nobody built twice.
    assert len(list((tmp_path / "cache" / "corpus").glob("*.pickle"))) == 1
    assert len([p for p in (tmp_path / "cache" / "indice").iterdir() if p.is_dir()]) == 1
    assert len(list((tmp_path / "cache" / "controlli").glob("*.pickle"))) == 1
    assert len([p for p in (tmp_path / "cache" / "carte").iterdir() if p.is_dir()]) == 1
    # The offline copy too (built beside the servers, in their own processes): once, then linked
    # into both instance folders.
    deadline = time.monotonic() + 300
    while not all(len(list((tmp_path / i / "offline").glob("*.json"))) == 3 for i in "ab"):
        assert time.monotonic() < deadline, "copia offline non costruita"
        time.sleep(0.5)
    (entry,) = [p for p in (tmp_path / "cache" / "copia-offline").iterdir() if p.is_dir()]
    for i in "ab":
        for f in (tmp_path / i / "offline").glob("*.json"):
            assert f.stat().st_ino == (entry / f.name).stat().st_ino, f

    proc = _serve(tmp_path / "c", env)  # a restart, even on a new instance folder
    try:
        port, lines = _until_listening(proc)
        assert _health(port)["indice_pronto"] is True
    finally:
        _stop(proc)
    assert any("tutto dalla cache dei dati" in line for line in lines), lines
    assert not any(": fatto in " in line for line in lines), lines
