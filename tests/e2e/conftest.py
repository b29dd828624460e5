"""Browser tests: the app served by a real waitress server, driven by Debian's chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.in_thread import serving

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture(scope="session")
def base_url(tmp_path_factory):
    waitress = pytest.importorskip("waitress")
    from judge.web import create_app

    app = create_app({"INSTANCE_PATH": str(tmp_path_factory.mktemp("e2e-instance")), "SECRET_KEY": "e2e",
                      "RATE_LIMITS": False})
    with serving(waitress.create_server(app, host="127.0.0.1", port=0, threads=4)) as server:
        yield f"http://127.0.0.1:{server.effective_port}"


@pytest.fixture(scope="session")
def browser(chromium_browser):
    return chromium_browser


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


# The two sizes every issue-27 test runs at: a phone held upright and a desktop window.
SIZES = {
    "telefono": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}


@pytest.fixture(params=list(SIZES))
def screen(request, browser, base_url):
    """A page at 390×844 (touch) or 1280×900; ``screen.size`` says which, ``screen.phone`` whether touch."""
    context = browser.new_context(base_url=base_url, locale="it-IT", **SIZES[request.param])
    pg = context.new_page()
    errors: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.console_errors = errors
    pg.size = request.param
    pg.phone = request.param == "telefono"
    pg.height = SIZES[request.param]["viewport"]["height"]
    pg.width = SIZES[request.param]["viewport"]["width"]
    try:
        yield pg
    finally:
        context.close()
