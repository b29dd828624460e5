"""Start-up benchmark, from a fresh clone: how long after `judge serve` the first search is answered
(asked as soon as the server listens: a card's name, so the search index and the card index are
both needed) and /salute answers, the first time (nothing built yet: the corpus, its checks, the
search index, the card index and the offline copy are built and kept in the build cache) and the
next (everything read back), what a start costs when the card index is not in the cache (as every
start was before issue 37), and how long `judge verifica` takes on the unchanged corpus. What the
first start prints (what it builds, with progress) is shown. Issue 37: the first search within
2 s of a warm start, within 20 s of a start from an empty cache.

The clone is a copy of the files git knows (tracked and new, not ignored) in a temporary folder,
run with this interpreter: nothing is shared with this checkout's build cache or instance folder.
Each time is wall-clock; beside it, the CPU seconds the process used (on a busy machine the wall
time is mostly waiting for a core) and the load average when it ran.

Run: .venv/bin/python bench/start_bench.py [--starts 2] [--keep]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fresh_clone(target: Path, source: Path = ROOT) -> Path:
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=source, check=True,
                           capture_output=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = source / name
        if src.is_file():
            dst = target / name
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    return target


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load() -> str:
    return ", ".join(f"{x:.1f}" for x in os.getloadavg())


# The first search: a card's name and rules (the page shows the card above the rules: it needs the
# search index and the card index, as most first searches do).
FIRST_SEARCH = "/cerca?q=orso+grizzly"


def _environment(extra: dict | None) -> dict:
    """The server's environment: this one, but Python keeps the modules it compiles (as on any
    installation; the sessions of this machine set PYTHONDONTWRITEBYTECODE, which makes every start
    compile its 150 modules again: the last start below measures that too)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **(extra or {})}


def start(root: Path, instance: Path, echo: bool, env: dict | None = None) -> tuple[float, float, float, list[str]]:
    """Seconds until the first search is answered (asked as soon as the server listens), until
    /salute answers 200, the CPU seconds used by then, and what the server printed."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "judge", "serve", "--port", "0", "--no-log", "--instance",
                             str(instance)], cwd=root, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env=_environment(env))
    lines: list[str] = []
    try:
        port = None
        for line in proc.stderr:
            lines.append(line.rstrip())
            if echo:
                print("    " + line.rstrip(), flush=True)
            m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m[1])
                break
        if port is None:
            raise RuntimeError("judge serve non è partito:\n" + "\n".join(lines))
        threading.Thread(target=lambda: [None for _ in proc.stderr], daemon=True).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{FIRST_SEARCH}", timeout=120) as r:
            body = r.read().decode("utf-8")
            assert r.status == 200 and "Grizzly Bears" in body and 'class="risultato"' in body
        searched = time.perf_counter() - t0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/salute", timeout=60) as r:
            assert r.status == 200
        elapsed = time.perf_counter() - t0
        return searched, elapsed, cpu_seconds(proc.pid), lines
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def verifica(root: Path) -> tuple[float, float, int]:
    t0 = time.perf_counter()
    before = os.times()
    done = subprocess.run([sys.executable, "-m", "judge", "verifica"], cwd=root, capture_output=True, text=True)
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return time.perf_counter() - t0, cpu, done.returncode


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--starts", type=int, default=2, help="starts after the first (all from the cache)")
    ap.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    ap.add_argument("--source", type=Path, default=ROOT,
                    help="the checkout to clone (another worktree, e.g. an older commit, for a before/after)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="judge-clone-"))
    try:
        root = fresh_clone(tmp / "judge", args.source.resolve())
        editions = len(list((root / "rules_en").glob("MagicCompRules-*.txt")))
        print(f"Avvio da un clone nuovo ({root}), {editions} edizioni inglesi, {os.cpu_count()} core, "
              f"carico {load()}", flush=True)
        print("  prima partenza (nulla di costruito), quello che stampa:", flush=True)
        searched, first, first_cpu, _ = start(root, tmp / "istanza", echo=True)
        print(f"  prima partenza: prima ricerca ({FIRST_SEARCH}) risposta dopo {searched:.1f} s, /salute dopo "
              f"{first:.1f} s (CPU {first_cpu:.1f} s; carico {load()}; obiettivo < 20 s: "
              f"{'ok' if searched < 20 else 'NO'})", flush=True)
        warm = []
        for i in range(args.starts):
            instance = tmp / ("istanza" if i == 0 else f"istanza-{i}")  # also: a new worker's empty instance
            searched, again, again_cpu, lines = start(root, instance, echo=False)
            warm.append(searched)
            what = next((line for line in lines if "pronto in" in line), "")
            print(f"  partenza {i + 2} ({'stessa istanza' if i == 0 else 'istanza nuova'}): prima ricerca dopo "
                  f"{searched:.2f} s, /salute dopo {again:.2f} s (CPU {again_cpu:.2f} s; carico {load()}; "
                  f"obiettivo < 2 s: {'ok' if searched < 2 else 'NO'}) — {what.removeprefix('judge: ')}", flush=True)
        # What the card index kept in the build cache saves: the same warm start with that one entry gone.
        cards = root / ".cache" / "carte"
        shutil.rmtree(cards, ignore_errors=True)
        searched, again, _, _ = start(root, tmp / "istanza", echo=False)
        best = min(warm) if warm else float("nan")
        print(f"  partenza con la cache senza l'indice delle carte (ricostruito): prima ricerca dopo {searched:.2f} s "
              f"({searched / best:.1f}× la partenza con la cache intera), /salute dopo {again:.2f} s", flush=True)
        # Python's compiled modules looked for in an empty folder, and not written: every start compiles them.
        searched, again, again_cpu, _ = start(root, tmp / "istanza", echo=False,
                                              env={"PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": str(tmp / "vuota")})
        print(f"  partenza senza i moduli compilati di Python (PYTHONDONTWRITEBYTECODE=1, come nelle sessioni di "
              f"questa macchina): prima ricerca dopo {searched:.2f} s ({searched / best:.1f}×), CPU {again_cpu:.2f} s",
              flush=True)
        for label in ("prima", "seconda"):
            seconds, cpu, code = verifica(root)
            print(f"  judge verifica ({label} volta, corpus invariato): {seconds:.1f} s (CPU {cpu:.1f} s; carico {load()}; "
                  f"uscita {code}; obiettivo < 10 s: {'ok' if seconds < 10 else 'NO'})", flush=True)
    finally:
        if args.keep:
            print(f"clone lasciato in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
