"""HTTP benchmark through the production server (waitress) over loopback, driven by wrk.

Each route is measured in the same run, one after the other, with the same
connections and duration, and reported as a ratio to the trivial route /salute.
Run: .venv/bin/python bench/http_bench.py [--seconds 8] [--connections 16]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._server import running_server, wrk  # noqa: E402

ROUTES = [
    ("banale /salute", ["/salute"], None),
    ("pagina regola", ["/regole/704.5a", "/regole/703.4d", "/regole/121.4", "/regole/510.1c"], 0.60),
    ("pagina sezione", ["/regole/704", "/regole/119", "/regole/510"], None),
    ("/api/regole", ["/api/regole/704.5a", "/api/regole/703.4d", "/api/regole/121.4"], 0.60),
    ("/cerca", ["/cerca?q=grimorio+vuoto", "/cerca?q=untap", "/cerca?q=danno+letale", "/cerca?q=priorita"], 0.50),
    ("/api/cerca", ["/api/cerca?q=grimorio+vuoto", "/api/cerca?q=untap", "/api/cerca?q=danno+letale", "/api/cerca?q=priorita"], 0.50),
]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=8, help="server threads")
    args = ap.parse_args()
    cache = os.environ.get("JUDGE_PAGE_CACHE", "1") != "0" and os.environ.get("JUDGE_SEARCH_CACHE", "1") != "0"
    print(f"HTTP: waitress ({args.threads} thread), wrk -c{args.connections} -d{args.seconds}s, {os.cpu_count()} core, "
          f"cache delle pagine e dei risultati {'attiva' if cache else 'DISATTIVATA'}")
    with running_server(threads=args.threads) as server:
        rss_start = server.rss_mb()
        results = []
        for name, paths, goal in ROUTES:
            wrk(server.base, paths, seconds=1, connections=args.connections)  # warm caches
            results.append((name, wrk(server.base, paths, seconds=args.seconds, connections=args.connections), goal))
        peak = server.rss_peak_mb()
    base = results[0][1].rps
    print(f"{'percorso':<16} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'rapporto':>9} {'obiettivo':>10} {'errori':>7}")
    failed = False
    for name, r, goal in results:
        ratio = r.rps / base
        verdict = "" if goal is None else (f"≥{goal:.2f} ok" if ratio >= goal else f"≥{goal:.2f} NO")
        failed |= goal is not None and ratio < goal
        print(f"{name:<16} {r.rps:9.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {ratio:9.2f} {verdict:>10} {r.non_2xx + r.socket_errors:7d}")
    print(f"RSS del server: {rss_start:.0f} MB all'avvio, picco {peak:.0f} MB (obiettivo < 200 MB: {'ok' if peak < 200 else 'NO'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
