"""The attack run of issue 38, in its short form: each attack of bench/attack_bench.py for a few
seconds against a real server (JUDGE_ATTACCO_SECONDI, default 3; the script runs them for as long
as asked). Every check here failed before the fixes: searches broke for everyone after about 16,000
never-seen words from 8 clients, a PostgreSQL stop stalled the whole site, a 60 KB body cost
/api/citazioni seconds of CPU, and /sw.js rendered on every request slowed every page."""

from __future__ import annotations

import os

import pytest

from bench import attack_bench
from bench._server import running_server

SECONDS = float(os.environ.get("JUDGE_ATTACCO_SECONDI", "3"))


@pytest.fixture(scope="module")
def server():
    with running_server(threads=8) as s:
        # What a fresh server does once (the spelling corrector, the card table's thread, the
        # first rendering of each template) is not what the attacks measure.
        client = attack_bench.Client(s.port, timeout=120)
        for path in ("/api/cerca?q=pila+qzxvazione", "/cerca?q=grimorio", "/regole/704.5a", "/sw.js"):
            client.get(path)
        client.close()
        yield s


def test_eight_clients_of_never_seen_searches_get_no_error_and_one_clients_results(server):
    report = attack_bench.never_seen_searches(server.port, server.instance, SECONDS, compare=150)
    assert report["errori"] == 0, report["primi_errori"]
    assert report["richieste"] >= 2 * attack_bench.CLIENTS, report        # every client, more than once
    assert report["diverse"] == 0, report["prime_diverse"]


def test_the_service_worker_under_eight_clients_leaves_rule_pages_their_pace(server):
    report = attack_bench.service_worker_flood(server.port, SECONDS)
    assert report["sw_errori"] == 0 and report["sw_se_non_cambiato"] == 304
    # One /sw.js under the flood costs about what a rule page does alone (rendered on every
    # request it cost 190 of them, 514 ms, and the rule pages' p95 went from 3 to 576 ms).
    assert report["sw_rapporto"] < 20, report


def test_the_costliest_citation_bodies_are_linear_and_capped():
    report = attack_bench.costly_citations(repeat=2)
    for name, figures in report.items():
        # ×10 when linear; the quadratic parser grew ×100 from 6 KB to 60 KB
        assert figures["crescita_6_60KB"] < 30, (name, figures)
        assert figures["citazioni"] <= 1_000 and figures["completo"] is False, (name, figures)


def test_a_postgresql_stop_under_writes_stays_in_the_store():
    report = attack_bench.store_outage(max(SECONDS, 2.0))
    before, during, after = report["letture_prima"], report["letture_durante"], report["letture_dopo"]
    assert before["errori"] == during["errori"] == after["errori"] == 0
    # Rule pages and searches keep their pace while the database is down (they took 8 s).
    assert during["p95_ms"] < max(500.0, 5 * before["p95_ms"]), report
    saves = report["salvataggi_durante"]
    assert saves["503"] > 0 and saves["altri"] == [], report
    assert "non risponde" in saves["messaggio_503"] and saves["max_503_ms"] < 2500, report
    # /salute within its deadline, «degradato» soon after the stop (a second in the long form)
    assert report["salute_max_ms"] < 1500 and report["degradato_dopo_s"] is not None
    assert report["degradato_dopo_s"] < 2.0, report
    # after the restart: saves work again and none is refused, and nothing acknowledged was lost
    assert report["salvataggi_dopo"]["201"] > 0 and report["salvataggi_dopo"]["503"] == 0, report
    assert report["salvataggi_persi"] == 0
    # It started while the database was down (it used to refuse to: a restart during an outage
    # took the whole site down): rules and search served, saves a quick Italian 503.
    down = report["avvio_senza_database"]
    assert down["regola"] == 200 and down["ricerca"] == 200, down
    assert down["salvataggio"] == 503 and down["salvataggio_ms"] < 2500 and down["retry_after"], down
    assert "non risponde" in down["messaggio"], down
    assert down["salute"] == 200 and down["stato"] == "degradato" and down["salute_ms"] < 1500, down

