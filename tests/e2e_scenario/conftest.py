"""Browser tests of the simulator: the real app behind waitress, Debian's chromium via Playwright."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from judge import ROOT
from judge.engine.scenario.templates import new_scenario
from judge.web import create_app
from tests.in_thread import serving

SHOTS = ROOT / "test-output" / "simulatore"


def library_server(base, lib):
    """The site on a free port, with ``lib`` as its scenario library; yields its address."""
    import waitress

    # no per-client limits: one browser plays every judge action in a minute (tests/web/test_limits.py)
    app = create_app({"INSTANCE_PATH": str(base / "instance"), "SECRET_KEY": "e2e",
                      "SCENARIO_LIBRARY": str(lib), "RATE_LIMITS": False})
    with serving(waitress.create_server(app, host="127.0.0.1", port=0, threads=4)) as srv:
        yield f"http://127.0.0.1:{srv.effective_port}"


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("sim-e2e")
    lib = base / "libreria"
    lib.mkdir()
    d = new_scenario("two-player", title="Due leggende")
    d["rules"] = ["704.5j"]
    d["question"] = "Quale Isamaru resta sul campo di battaglia?"
    d["answer"] = "Alice ne sceglie uno; l'altro va nel cimitero (704.5j)."
    d["expected"] = {"actions": [{"step": 1}, {"decide": {"keep": "l1"}}],
                     "state": {"battlefield": ["l1"]}}
    d["turn"]["step"] = "precombat_main"
    d["battlefield"] = [{"id": f"l{i}", "name": "Isamaru", "types": ["creature"],
                         "supertypes": ["legendary"], "power": 2, "toughness": 2,
                         "controller": "p1"} for i in (1, 2)]
    (lib / "leggende.json").write_text(json.dumps(d), encoding="utf-8")
    yield from library_server(base, lib)


@pytest.fixture(scope="session")
def browser(chromium_browser):
    return chromium_browser


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture()
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="it-IT")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # A 422 answer to a form is expected (validation); anything else logged as an error is not.
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and "status of 422" not in m.text else None)
    yield pg
    ctx.close()
    assert not errors, errors                   # no JS errors, no CSP violations
