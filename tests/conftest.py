"""Fixtures shared by every test package."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium_browser():
    """One Debian chromium for the whole run: Playwright's sync API allows a single running
    instance per process, so every browser-test package shares this one."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium non trovato in {CHROMIUM}: scripts/test.sh lo installa con apt-get")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def postgres():
    """One throwaway PostgreSQL cluster for the whole run (bench/_postgres.py: initdb and
    pg_ctl in a temporary folder, as an unprivileged user when the tests run as root)."""
    from bench import _postgres

    if not _postgres.available():
        pytest.fail("PostgreSQL non trovato (initdb): scripts/test.sh installa il pacchetto postgresql")
    with _postgres.cluster() as cluster:
        yield cluster


_databases = iter(range(1, 1_000_000))


@pytest.fixture()
def pg_url(postgres) -> str:
    """A new, empty database on the shared cluster."""
    return postgres.create_database(f"t{os.getpid()}_{next(_databases)}")
