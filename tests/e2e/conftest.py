"""Browser tests: the app served by a real waitress server, driven by Debian's chromium."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture(scope="session")
def base_url(tmp_path_factory):
    waitress = pytest.importorskip("waitress")
    from judge.web import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("e2e-instance")), "SECRET_KEY": "e2e"})
    server = waitress.create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()


@pytest.fixture(scope="module")
def browser():
    # Module scope: Playwright's sync API allows one running instance per process, and other
    # browser-test packages (the simulator's) start their own after ours has stopped.
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium non trovato in {CHROMIUM}: scripts/test.sh lo installa con apt-get")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser, base_url):
    context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900}, locale="it-IT")
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.console_errors = errors
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshots():
    OUTPUT.mkdir(parents=True, exist_ok=True)
    return OUTPUT
