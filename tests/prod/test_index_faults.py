"""The search index deleted or corrupted, before start or while the production server runs:
the server rebuilds it and keeps answering, and never serves a half-written index."""

import json
import os
import shutil
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from bench._server import running_server
from judge.corpus import load_corpus
from judge.search.index import ensure_index, index_name, index_root

QUERIES = ["grimorio vuoto", "untap", "danno letale", "priorita", "legend rule", "mulligan", "cancellazione", "segnalini veleno"]


def get_json(url: str):
    with urllib.request.urlopen(url, timeout=60) as r:
        assert r.status == 200
        return json.loads(r.read())


def search_all(server, suffix=""):
    for q in QUERIES:
        data = get_json(f"{server.base}/api/cerca?q={urllib.parse.quote(q + suffix)}")
        assert data["total"] > 0, q
        assert data["results"][0]["url"].startswith("/regole/")


def corrupt(folder: Path, how: str) -> None:
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert files
    for p in files:
        if how == "truncate":
            p.write_bytes(b"")
        elif how == "garbage":
            p.write_bytes(os.urandom(max(16, p.stat().st_size)))


def current_index(instance: Path) -> Path:
    return index_root(instance) / index_name(load_corpus())


@pytest.mark.parametrize("how", ["delete", "truncate", "garbage"])
def test_index_broken_before_start_is_rebuilt(tmp_path, how):
    instance = tmp_path / "instance"
    folder = ensure_index(instance)
    if how == "delete":
        shutil.rmtree(folder)
    else:
        corrupt(folder, how)
    # A half-written build left by a crashed process must be ignored.
    (index_root(instance) / ".build-crashed").mkdir()
    (index_root(instance) / ".build-crashed" / "_MAIN_1.toc").write_bytes(b"half")
    with running_server(threads=4, instance=instance) as server:
        health = get_json(f"{server.base}/salute")
        assert health["indice_pronto"] is True
        search_all(server)


@pytest.mark.parametrize("how", ["delete", "truncate", "garbage"])
def test_index_broken_while_running_is_rebuilt(tmp_path, how):
    instance = tmp_path / "instance"
    with running_server(threads=4, instance=instance) as server:
        search_all(server)
        folder = current_index(instance)
        if how == "delete":
            shutil.rmtree(folder)
        else:
            corrupt(folder, how)
        # New queries (not cached) keep working, and the index comes back on disk.
        search_all(server, suffix=" regola")
        deadline = time.time() + 60
        while time.time() < deadline and not (folder / "vocabulary.json").is_file():
            get_json(f"{server.base}/api/cerca?q=pila+{int(time.time() * 1000)}")
            time.sleep(0.5)
        assert (folder / "vocabulary.json").is_file()
        assert get_json(f"{server.base}/salute")["indice_pronto"] is True
        assert server.proc.poll() is None
