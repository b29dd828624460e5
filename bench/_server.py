"""Start `judge serve` (the production server) in a subprocess on a free loopback port; drive it with wrk."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    instance: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def rss_peak_mb(self) -> float:
        """Peak resident memory (VmHWM) of the server process."""
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"VmHWM:\s+(\d+) kB", status)[1]) / 1024

    def rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) / 1024


@contextlib.contextmanager
def running_server(threads: int = 8, instance: Path | None = None, log: bool = False, timeout: float = 120,
                   root: Path = ROOT, env: dict | None = None, prefix: list[str] = (), args: list[str] = (),
                   limits: bool = False):
    """``root``: the checkout to serve (another one, e.g. an older commit, for a before/after);
    ``env``: variables over the current ones; ``prefix``: a command to run it through (e.g.
    setpriv); ``args``: more options of `judge serve`; ``limits``: keep the per-client rate
    limits (off by default: a benchmark or a load test is one client sending a lot)."""
    tmp = None
    if instance is None:
        tmp = tempfile.mkdtemp(prefix="judge-instance-")
        instance = Path(tmp)
    cmd = [*prefix, sys.executable, "-m", "judge", "serve", "--port", "0", "--threads", str(threads),
           "--instance", str(instance), *args]
    cmd.append("--log" if log else "--no-log")
    environ = {**os.environ, **({} if limits else {"JUDGE_LIMITI": "0"}), **(env or {})}
    proc = subprocess.Popen(cmd, cwd=root, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=environ)
    port = None
    deadline = time.time() + timeout
    try:
        while time.time() < deadline:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                raise RuntimeError(f"judge serve exited with {proc.returncode}")
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m[1])
                break
        if port is None:
            raise RuntimeError("judge serve did not start in time")
        if proc.poll() is not None:
            raise RuntimeError(f"judge serve exited with {proc.returncode}")
        # Drain stderr in the background so the server never blocks on a full pipe.
        import threading

        threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/salute", timeout=30) as r:
            assert r.status == 200
        yield Server(proc, port, instance)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def post_json(url: str, body: dict, timeout: float = 60) -> tuple[int, dict]:
    """POST ``body`` as JSON: (status, the JSON answer), an error status included ({} if not JSON)."""
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        try:
            return e.code, json.loads(e.read())
        except ValueError:
            return e.code, {}


LUA_PATHS = """
local paths = {%s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i %% #paths) + 1])
end
"""


@dataclass
class WrkResult:
    requests: int
    rps: float
    p50_ms: float
    p99_ms: float
    non_2xx: int
    socket_errors: int
    raw: str


def _ms(out: str, label: str) -> float:
    m = re.search(rf"{label}\s+([\d.]+)(us|ms|s|m)\b", out)
    if not m:
        return float("nan")
    return float(m[1]) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[m[2]]


def wrk(base: str, paths: list[str], seconds: int, connections: int, threads: int = 2, timeout_s: int = 10,
        prefix: list[str] = ()) -> WrkResult:
    """``prefix``: a command to run wrk through (e.g. nice), as for running_server."""
    if not shutil.which("wrk"):
        raise RuntimeError("wrk non installato: apt-get install wrk")
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(LUA_PATHS % ", ".join('"%s"' % p.replace('"', '\\"') for p in paths))
        script = f.name
    try:
        out = subprocess.run(
            [*prefix, "wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency",
             "--timeout", f"{timeout_s}s", "-s", script, base],
            capture_output=True, text=True, timeout=seconds + 60,
        ).stdout
    finally:
        os.unlink(script)
    m = re.search(r"(\d+) requests in", out)
    if not m:
        raise RuntimeError(f"uscita di wrk non riconosciuta:\n{out}")
    requests = int(m[1])
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])
    p50, p99 = _ms(out, "50%"), _ms(out, "99%")
    non2xx = int(m[1]) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    sock = sum(int(x) for x in m.groups()) if (m := re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)) else 0
    return WrkResult(requests, rps, p50, p99, non2xx, sock, out)
