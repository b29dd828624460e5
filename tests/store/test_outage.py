"""A PostgreSQL outage stays in the store (issue 38): requests waited 30 s for a pooled connection,
and after the database came back broken pooled connections gave 503s for up to 25 minutes. On a
cluster of its own, stopped and started again under the store."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from judge.engine.scenario.templates import new_scenario
from judge.store import StoreUnavailable, open_store
from judge.store import postgres

DOC = new_scenario("two-player", title="Guasto")


@pytest.fixture(scope="module")
def cluster():
    from bench import _postgres

    if not _postgres.available():
        pytest.fail("PostgreSQL non trovato (initdb): scripts/test.sh installa il pacchetto postgresql")
    with _postgres.cluster() as c:
        yield c


@pytest.fixture()
def url(cluster, request):
    if cluster.pg_ctl("status", check=False).returncode:      # a test that failed while it was stopped
        cluster.start()
    name = f"g{abs(hash(request.node.name)) % 10**8}"
    cluster.sql(f'DROP DATABASE IF EXISTS "{name}"')
    return cluster.create_database(name)


def timed(fn):
    started = time.monotonic()
    try:
        return fn(), time.monotonic() - started
    except StoreUnavailable as e:
        return e, time.monotonic() - started


def test_an_outage_is_a_quick_503_and_nothing_stale_is_handed_out_after_it(cluster, url):
    store = open_store(url, pool_size=4)
    try:
        ident = store.save(DOC, "scenario")
        with ThreadPoolExecutor(4) as pool:             # every pooled connection used once
            list(pool.map(lambda _: store.load(ident), range(16)))
        cluster.stop()
        first, took = timed(lambda: store.load(ident))
        assert isinstance(first, StoreUnavailable) and took < postgres.POOL_SECONDS + 1.0
        assert "non risponde" in first.message and "regole" in first.message
        quick = [timed(lambda: store.save({**DOC, "title": f"x{i}"}, "scenario")) for i in range(20)]
        assert all(isinstance(r, StoreUnavailable) for r, _ in quick)
        assert sorted(t for _, t in quick)[len(quick) // 2] < 0.1        # refused at once, not waited for
        assert store.stats()["raggiungibile"] is False
        cluster.start()
        deadline = time.monotonic() + 30
        while isinstance(timed(lambda: store.load(ident))[0], StoreUnavailable):
            assert time.monotonic() < deadline, "the store did not come back"
            time.sleep(0.2)
        # Every connection the pool held was broken by the restart: none may reach a request.
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda i: timed(lambda: store.save({**DOC, "title": f"y{i}"}, "scenario")),
                                    range(40)))
        assert not [r for r, _ in results if isinstance(r, StoreUnavailable)]
        assert store.stats(max_age=0)["raggiungibile"] is True
    finally:
        store.close()


def test_a_server_opens_its_store_while_the_database_is_down(cluster, url):
    cluster.stop()
    try:
        store, took = timed(lambda: open_store(url, pool_size=2, wait=False))
        assert not isinstance(store, StoreUnavailable) and took < postgres.POOL_SECONDS + 1.5
        assert "non raggiungibile" in store.problem
        assert isinstance(timed(lambda: store.count())[0], StoreUnavailable)
    finally:
        cluster.start()
    deadline = time.monotonic() + 30
    while isinstance(timed(lambda: store.count())[0], StoreUnavailable):
        assert time.monotonic() < deadline, "the store did not come back"
        time.sleep(0.2)
    ident = store.save(DOC, "scenario")                  # the schema was made on the way
    assert store.load(ident)[0] == "scenario" and store.problem is None
    store.close()


def test_a_command_still_fails_clearly_when_the_database_is_down(cluster, url, monkeypatch):
    monkeypatch.setattr(postgres, "START_SECONDS", 1.0)
    cluster.stop()
    try:
        error, took = timed(lambda: open_store(url, pool_size=2))
        assert isinstance(error, StoreUnavailable) and "non raggiungibile" in error.message
        assert took < 5
    finally:
        cluster.start()
