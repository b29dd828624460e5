"""HTTP benchmark through the production server (waitress) over loopback, driven by wrk.

Each route is measured in the same run, one after the other, with the same connections and
duration, and reported as a ratio to the trivial route /salute (measured first and last; the
ratio uses their mean). Searches and rule pages are *distinct* requests, as real traffic sends
them (bench/distinct.py): no two searches alike and no rule page asked twice, so no result or
page cache can answer, whatever the cache settings; the warm-up uses other requests than the
measurement. Run: .venv/bin/python bench/http_bench.py [--seconds 8] [--connections 16]
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._server import running_server, wrk  # noqa: E402
from bench.distinct import rule_paths, search_paths  # noqa: E402
from judge.corpus import load_corpus  # noqa: E402


def _distinct(paths: list[str], needed: int) -> list[str]:
    """At least ``needed`` distinct URLs: past the end of ``paths``, the same pages with a parameter the
    view ignores (a different URL for every cache, the same work for the server)."""
    out = list(paths)
    rounds = 1
    while len(out) < needed:
        out += [f"{p}{'&' if '?' in p else '?'}giro={rounds}" for p in paths]
        rounds += 1
    return out[:needed]


def routes(corpus, seconds: int):
    needed = 2500 * (seconds + 1)  # more than wrk sends in the run, at well over 2,000 requests/s
    rules = _distinct(rule_paths(corpus), 2 * needed)
    return [
        # name, (warm-up paths, measured paths), goal as a ratio to /salute
        ("banale /salute", (["/salute"], ["/salute"]), None),
        ("pagina regola (regole diverse)", (rules[needed:], rules[:needed]), 0.60),
        ("pagina sezione", (["/regole/704", "/regole/119", "/regole/510"],) * 2, None),
        ("/api/regole (regole diverse)", ([p.replace("/regole/", "/api/regole/") for p in rules[needed:]],
                                          [p.replace("/regole/", "/api/regole/") for p in rules[:needed]]), None),
        ("/cerca (ricerche diverse)", _halves(search_paths(corpus, "/cerca", 2 * needed)), 0.50),
        ("/api/cerca (ricerche diverse)", _halves(search_paths(corpus, "/api/cerca", 2 * needed)), 0.50),
        ("banale /salute (di nuovo)", (["/salute"], ["/salute"]), None),
    ]


def _halves(paths: list[str]) -> tuple[list[str], list[str]]:
    half = len(paths) // 2
    return paths[half:], paths[:half]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=8, help="server threads")
    args = ap.parse_args()
    cache = os.environ.get("JUDGE_PAGE_CACHE", "1") != "0" and os.environ.get("JUDGE_SEARCH_CACHE", "1") != "0"
    print(f"HTTP: waitress ({args.threads} thread), wrk -c{args.connections} -d{args.seconds}s, {os.cpu_count()} core, "
          f"cache delle pagine e dei risultati {'attiva' if cache else 'DISATTIVATA'}; richieste tutte diverse")
    plan = routes(load_corpus(), args.seconds)
    with running_server(threads=args.threads):
        pass  # a first start fills the build cache: the server measured starts as a restart does
    with running_server(threads=args.threads) as server:
        rss_start = server.rss_mb()
        results = []
        for name, (warm, measured), goal in plan:
            wrk(server.base, warm, seconds=1, connections=args.connections)
            r = wrk(server.base, measured, seconds=args.seconds, connections=args.connections)
            if "diverse" in name and r.requests > len(set(measured)):
                print(f"  attenzione: {name}: {r.requests} richieste, solo {len(set(measured))} diverse")
            results.append((name, r, goal))
        peak = server.rss_peak_mb()
    base = (results[0][1].rps + results[-1][1].rps) / 2
    print(f"{'percorso':<32} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'rapporto':>9} {'obiettivo':>10} {'errori':>7}")
    for name, r, goal in results:
        ratio = r.rps / base
        verdict = "" if goal is None else (f"≥{goal:.2f} ok" if ratio >= goal else f"≥{goal:.2f} NO")
        print(f"{name:<32} {r.rps:9.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {ratio:9.2f} {verdict:>10} {r.non_2xx + r.socket_errors:7d}")
    print(f"RSS del server: {rss_start:.0f} MB all'avvio, picco {peak:.0f} MB (obiettivo < 250 MB sotto ogni traffico: "
          f"{'ok' if peak < 250 else 'NO'}; bench/memory_bench.py misura le 10.000 + 10.000 richieste mai viste)")
    print(f"carico della macchina: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
