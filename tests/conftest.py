"""Fixtures shared by every test package."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# One build cache per test run (judge/build_cache.py): the corpus, its checks and the search index
# are built once, by whichever test needs them first, and read by every other test, every
# pytest-xdist worker (they inherit this variable) and every server a test starts. It starts
# empty, so a run measures and tests what a fresh clone does; JUDGE_CACHE_DIR set outside wins.
_OWN_CACHE = None
if "JUDGE_CACHE_DIR" not in os.environ:
    _OWN_CACHE = tempfile.mkdtemp(prefix="judge-test-cache-")
    os.environ["JUDGE_CACHE_DIR"] = _OWN_CACHE


# The longest test files (seconds each, measured on 2 cores on 26 November 2026), started first:
# pytest-xdist gives each worker a whole file (--dist loadfile) in collection order
# (--no-loadscope-reorder), so a long file left for the end would keep one worker busy while the
# other idles.
LONGEST_FIRST = [
    "tests/e2e_scenario/test_judge_actions_browser.py",  # 75
    "tests/load/test_load.py",  # 63: 60 s of load by definition
    "tests/prod/test_attack_suite.py",  # 45 (alone, with its index build; 29 November 2026)
    "tests/prod/test_index_faults.py",  # 42
    "tests/prod/test_attack_run.py",  # 32
    "tests/e2e/test_offline.py",  # 32
    "tests/scenario_web/test_judge_actions.py",  # 24
    "tests/test_build_cache.py",  # 23
    "tests/e2e/test_phone_fixes.py",  # 21
    "tests/prod/test_fuzz_routes.py",  # 20
    "tests/e2e/test_previews.py",  # 20
]


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable: the rest as collected


def pytest_unconfigure(config):
    if _OWN_CACHE and not hasattr(config, "workerinput"):  # the run's own cache, removed by its controller
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)

CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


# How long a browser test waits for a condition (a page loaded, an element shown, a text present):
# a ceiling, not a pause. A condition met at once returns at once; on a machine loaded by other
# work a page can take tens of seconds, and a test must not fail for that (Playwright's defaults,
# 30 s for an action and 5 s for an expect(), are not enough there).
WAIT_MS = 180_000


class PatientBrowser:
    """The browser, whose every context waits up to WAIT_MS for what it waits on."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kwargs):
        ctx = self._browser.new_context(**kwargs)
        ctx.set_default_timeout(WAIT_MS)
        ctx.set_default_navigation_timeout(WAIT_MS)
        return ctx

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def chromium_browser():
    """One Debian chromium for the whole run: Playwright's sync API allows a single running
    instance per process, so every browser-test package shares this one."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"chromium non trovato in {CHROMIUM}: scripts/test.sh lo installa con apt-get")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield PatientBrowser(browser)
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
