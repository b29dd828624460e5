"""Sustained load over a mix of routes through the production server: zero errors, zero 5xx.

Duration and connections come from JUDGE_LOAD_SECONDS (default 60) and JUDGE_LOAD_CONNECTIONS (64).
Loopback only; bounded in time; stops by itself.

Server and wrk run at a lower CPU priority (nice 5): the load is the same 64 connections for the
same time, but on a 2-core machine it no longer starves the test run's other worker for a minute.
The priority is mild (nice 5 weighs a third of a normal process: a quarter of a core it shares
is left to the load at worst), so no request nears wrk's 10 s timeout, which counts as an error.
"""

import os
import shutil

import pytest

from bench._server import running_server, wrk

pytestmark = pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk not installed (scripts/test.sh installs it)")

MIX = [
    "/", "/salute", "/regole/704.5a", "/regole/703", "/regole/7", "/api/regole/121.4",
    "/cerca?q=grimorio+vuoto", "/api/cerca?q=untap", "/cerca?q=SBA", "/api/cerca?q=priorita",
]


def test_sustained_load_has_no_errors():
    seconds = int(os.environ.get("JUDGE_LOAD_SECONDS", "60"))
    connections = int(os.environ.get("JUDGE_LOAD_CONNECTIONS", "64"))
    gentle = ["nice", "-n", "5"]
    with running_server(threads=8, prefix=gentle) as server:
        result = wrk(server.base, MIX, seconds=seconds, connections=connections, prefix=gentle)
        assert server.proc.poll() is None, "the server died under load"
    assert result.requests > 0
    assert result.non_2xx == 0, result.raw
    assert result.socket_errors == 0, result.raw
