"""The offline copy's server side: manifest, service worker, the edition's data and the compact
search index (their behaviour in a browser with the network cut: tests/e2e/test_offline.py)."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path

import brotli
import pytest

from judge import build_cache
from judge.corpus import italian_date
from judge.search import question
from judge.search.analysis import terms
from judge.search.frames import load_frames
from judge.search.learned import read_questions
from judge.web import create_app
from judge.web.offline import build_all, version


@pytest.fixture(scope="module")
def files(app, corpus):
    build_all(app.instance_path, corpus)  # what the builder process does
    sw = app.test_client().get("/sw.js").get_data(as_text=True)
    config = json.loads(sw.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    return config


def test_manifest_makes_an_installable_app(client):
    r = client.get("/manifest.webmanifest")
    assert r.status_code == 200 and r.mimetype == "application/manifest+json"
    m = r.get_json()
    assert m["lang"] == "it" and m["display"] == "standalone" and m["start_url"] == "/"
    sizes = {i["sizes"] for i in m["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.mimetype == icon["type"]
    assert 'rel="manifest"' in client.get("/").get_data(as_text=True)


def test_service_worker_names_the_edition_and_keeps_what_the_issue_lists(client, corpus, files):
    r = client.get("/sw.js")
    assert r.mimetype == "text/javascript" and r.headers["Cache-Control"] == "no-cache"
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert files["versione"] == version(corpus) and files["edizione"]["data"] == italian_date(corpus.in_force.date)
    kept = set(files["file"])
    assert {"/", "/glossario", "/indice-analitico", "/indice-analitico?lingua=en", "/turno", "/offline/regola",
            "/offline/cerca"} <= kept
    assert files["dati"] in kept and any(f.startswith("/offline/ricerca-") for f in kept)
    for url in files["file"]:
        assert client.get(url).status_code == 200, url


def test_edition_data_holds_every_rule_in_both_languages_with_labels(client, corpus, files):
    r = client.get(files["dati"], headers={"Accept-Encoding": "br"})
    assert r.headers["Content-Encoding"] == "br" and "immutable" in r.headers["Cache-Control"]
    data = json.loads(brotli.decompress(r.get_data()))
    assert data["versione"] == version(corpus) and data["edizione"]["id"] == corpus.in_force.id
    by_number = {x["n"]: x for x in data["regole"]}
    assert list(by_number) == list(corpus.numbers)
    for n in ("702.19b", "121.8", "704.5z", "7", "508"):
        rule, got = corpus.get(n), by_number[n]
        assert got["en"][0] == rule.en.text and data["etichette"][got["en"][2]] == rule.en.label
        if rule.italian:
            assert got["it"][0] == rule.italian.text and data["etichette"][got["it"][2]] == rule.italian.label
            assert got["it"][3] == rule.italian.layer
    assert by_number["702.19b"]["t"] == "702.19b Travolgere" and by_number["702.19b"]["p"] == "702.19"


def test_search_index_uses_the_servers_stems_and_weights_the_right_rules(client, corpus, files):
    url = next(f for f in files["file"] if f.startswith("/offline/ricerca-"))
    r = client.get(url, headers={"Accept-Encoding": "gzip"})
    ix = json.loads(gzip.decompress(r.get_data()))
    assert ix["regole"] == list(corpus.numbers)

    def postings(lang, stem):
        pos, out = 0, {}
        for pair in ix["termini"][lang][stem].split():
            d, w = pair.split(":")
            pos += int(d, 36)
            out[ix["regole"][pos]] = int(w, 36)
        return out

    # Every Italian stem of 702.19b's text points at it; "travolg" weighs most on the trample rules.
    for stem in set(terms(corpus.get("702.19b").italian.text, "it")):
        assert "702.19b" in postings("it", stem), stem
    top = sorted(postings("it", "travolg").items(), key=lambda kv: -kv[1])[:5]
    assert all(n.startswith("702.19") for n, _ in top)
    assert ix["inglese"]["trample"] == "trampl" and ix["inglese"]["attacking"] == "attack"
    # "ETB" is a glossary concept with the Italian words of what it means.
    wanted = ["it", terms("entrare nel campo di battaglia", "it")]
    assert any(wanted in ix["concetti"][cid] for cid in ix["sinonimi"]["etb"])


def test_search_index_reads_questions_as_the_server_does(client, files):
    """The frames, the questions learned from (the tuning half only) and the server's weights."""
    url = next(f for f in files["file"] if f.startswith("/offline/ricerca-"))
    ix = json.loads(gzip.decompress(client.get(url, headers={"Accept-Encoding": "gzip"}).get_data()))
    frames = load_frames()
    assert len(ix["cornici"]) == len(frames)
    phrases, subject, rules = ix["cornici"][frames.index(next(f for f in frames if "506.4" in f.rules))]
    tokens = [t for p in phrases for t in p]
    assert rules[0] == "506.4" and ["stesso", terms("stesso", "it")[0]] in tokens
    assert ["lo", None] in tokens  # a stop word matches as written
    assert len(ix["domande"]) == len(read_questions()) and all(rs for _, rs in ix["domande"])
    assert ix["pesi"]["cornice"] == question.W_FRAME and ix["pesi"]["domande"] == question.W_LEARNED
    assert ix["pesi"]["parola_cornice"] == question.W_FRAME_WORD


def test_an_old_versions_file_is_not_served(client):
    r = client.get("/offline/regole-20200101-0000000000000000.json")
    assert r.status_code == 404 and "altra versione" in r.get_data(as_text=True)


def test_offline_pages_render_in_the_browser_from_the_data(client, files):
    for path, script in (("/offline/regola", "offline.js"), ("/offline/cerca", "offline.js")):
        body = client.get(path).get_data(as_text=True)
        assert f'data-dati="{files["dati"]}"' in body and script in body and "radici.js" in body
    assert "risposte più semplici" in client.get("/offline/cerca").get_data(as_text=True)


def _cache_without_the_copy(tmp_path, monkeypatch) -> Path:
    """This run's build cache (corpus, checks, index) linked into a new folder, without the offline
    copy: a machine where nothing built the copy yet, at no cost of rebuilding the rest."""
    fresh = tmp_path / "cache"
    shutil.copytree(build_cache.folder(), fresh, copy_function=os.link,
                    ignore=shutil.ignore_patterns("copia-offline"))
    monkeypatch.setenv(build_cache.ENV, str(fresh))  # read by this process and the builder it starts
    return fresh


def test_a_server_without_warm_up_builds_the_copy_in_another_process(tmp_path, corpus, monkeypatch):
    """No files yet: pages don't install the copy (stato says so), a data file answers 503, and the
    files appear, built by a separate process, without the server building them in a thread."""
    import time

    _cache_without_the_copy(tmp_path, monkeypatch)
    app = create_app({"INSTANCE_PATH": str(tmp_path / "istanza"), "TESTING": True, "SECRET_KEY": "t"})
    client = app.test_client()
    first = client.get("/offline/stato").get_json()
    assert first == {"pronta": False, "versione": version(corpus), "edizione": corpus.in_force.id}
    r = client.get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 503 and r.headers["Retry-After"] == "60"
    deadline = time.monotonic() + 300
    while not client.get("/offline/stato").get_json()["pronta"]:
        assert time.monotonic() < deadline, "copia offline non costruita"
        time.sleep(0.5)
    assert client.get(f"/offline/regole-{version(corpus)}.json").status_code == 200


def test_the_copy_is_built_once_per_machine_and_linked_into_each_instance(tmp_path, corpus, monkeypatch):
    """Built once in the build cache: a second server on another instance folder has the copy at
    once (no build, no process: the same files, linked), and says so on its first /offline/stato."""
    fresh = _cache_without_the_copy(tmp_path, monkeypatch)
    build_all(tmp_path / "uno", corpus)                              # what the first builder does
    entries = [p for p in (fresh / "copia-offline").iterdir() if p.is_dir()]
    assert len(entries) == 1
    second = create_app({"INSTANCE_PATH": str(tmp_path / "due"), "TESTING": True, "SECRET_KEY": "t"})
    assert second.test_client().get("/offline/stato").get_json()["pronta"] is True
    names = sorted(p.name for p in entries[0].iterdir())
    assert len(names) == 6 and names == sorted(p.name for p in (tmp_path / "due" / "offline").iterdir())
    for name in names:
        assert (tmp_path / "due" / "offline" / name).stat().st_ino == (entries[0] / name).stat().st_ino
    r = second.test_client().get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 200 and json.loads(r.get_data())["versione"] == version(corpus)


def test_an_instance_folder_that_cannot_be_written_answers_without_the_copy(tmp_path, corpus, monkeypatch):
    fresh = _cache_without_the_copy(tmp_path, monkeypatch)
    build_all(tmp_path / "uno", corpus)                              # the copy is in the cache
    assert (fresh / "copia-offline").is_dir()
    blocked = tmp_path / "bloccata"
    blocked.mkdir()
    (blocked / "offline").write_text("not a folder")                # nothing can be linked in there
    app = create_app({"INSTANCE_PATH": str(blocked), "TESTING": True, "SECRET_KEY": "t"})
    r = app.test_client().get("/offline/stato")
    assert r.status_code == 200 and r.get_json()["pronta"] is False
    r = app.test_client().get(f"/offline/regole-{version(corpus)}.json")
    assert r.status_code == 503 and "in preparazione" in r.get_data(as_text=True)
