"""Search benchmark: relevance vs a Ctrl-F baseline, in-process latency, index build time, HTTP throughput.

Run: .venv/bin/python bench/search_bench.py [--seconds 6] [--connections 16] [--no-http]

- Relevance over tests/search/questions.json: recall@1, recall@5 and MRR of our search beside a plain
  case-insensitive substring search over the same texts (what Ctrl-F in the wiki or a PDF gives).
- Latency in process over the question set: cold (fresh engine, empty caches), warm (caches of
  postings and leaf scores filled, result cache bypassed) and through the result cache.
- Index build time for the whole corpus.
- HTTP through `judge serve` (waitress) on a loopback port, driven by wrk: /api/cerca as a ratio to the
  trivial route /salute of the same server in the same run. Two loads: the question set repeated
  (the result cache answers after the first round) and every request a distinct URL (no result cache hit).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from judge.corpus import load_corpus  # noqa: E402
from judge.search.evaluate import SubstringBaseline, load_questions, measure  # noqa: E402
from judge.search.index import build_time  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def relevance(engine, questions, corpus) -> None:
    def ours(q):
        r = engine.search(q, per_page=10)
        return [r.rule] if r.rule else [h.number for h in r.hits]

    base = SubstringBaseline(corpus)
    print(f"Rilevanza su {len(questions)} domande (tests/search/questions.json)")
    print(f"{'':22} {'recall@1':>9} {'recall@5':>9} {'MRR':>7}")
    m_ours, m_base = measure(questions, ours), measure(questions, base)
    for name, m in (("ricerca judge", m_ours), ("sottostringa (Ctrl-F)", m_base)):
        print(f"{name:22} {m.recall1:9.3f} {m.recall5:9.3f} {m.mrr:7.3f}")
    by_cat = defaultdict(list)
    for q in questions:
        by_cat[q.cat].append(q)
    print("per categoria (recall@5 judge / Ctrl-F):")
    for cat, qs in sorted(by_cat.items()):
        print(f"  {cat:11} n={len(qs):3}  {measure(qs, ours).recall5:.3f} / {measure(qs, base).recall5:.3f}")
    if m_ours.misses:
        print("fuori dai primi 5:")
        for q, got in m_ours.misses:
            print(f"  {q.q!r} (attese {', '.join(q.rules[:3])}; primi: {', '.join(got)})")


def latency(instance, questions, corpus) -> None:
    from judge.search.query import Engine
    from judge.search.index import ensure_index

    path = ensure_index(instance, corpus)
    t0 = time.perf_counter()
    engine = Engine(path, corpus)
    opened = time.perf_counter() - t0
    print(f"\nLatenza in processo ({len(questions)} domande; apertura dell'indice {opened * 1000:.0f} ms)")

    def run(fn) -> list[float]:
        out = []
        for q in questions:
            t = time.perf_counter()
            fn(q.q)
            out.append((time.perf_counter() - t) * 1000)
        return out

    uncached = lambda q: engine._search(q, [], "tutte", None, None, 1, 10)  # noqa: E731
    cold = run(uncached)
    warm = run(uncached)
    run(engine.search)
    cached = run(engine.search)
    print(f"{'':34} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in (("a freddo (cache vuote)", cold), ("a caldo (senza cache dei risultati)", warm),
                         ("dalla cache dei risultati", cached)):
        print(f"{name:34} {statistics.median(values):8.2f} {pct(values, 95):8.2f} {max(values):8.2f}")


def http(questions, seconds: int, connections: int, threads: int) -> None:
    from bench._server import running_server, wrk

    def url(q: str, **extra) -> str:
        return "/api/cerca?" + urllib.parse.urlencode({"q": q, **extra})

    paths = [url(q.q) for q in questions]
    print(f"\nHTTP: judge serve (waitress, {threads} thread), wrk -c{connections} -d{seconds}s, {os.cpu_count()} core;"
          f" /api/cerca gira sulle {len(paths)} domande")
    runs = (("con le cache (risultati e pagine)", {}),
            ("senza cache (JUDGE_SEARCH_CACHE=0 JUDGE_PAGE_CACHE=0)", {"JUDGE_SEARCH_CACHE": "0", "JUDGE_PAGE_CACHE": "0"}))
    for label, env in runs:
        saved = {k: os.environ.get(k) for k in env}
        os.environ.update(env)
        try:
            with running_server(threads=threads) as server:
                rows = []
                for name, ps in (("/salute", ["/salute"]), ("/api/cerca", paths), ("/salute (di nuovo)", ["/salute"])):
                    wrk(server.base, ps, seconds=1, connections=connections)  # warm-up
                    rows.append((name, wrk(server.base, ps, seconds=seconds, connections=connections)))
                peak = server.rss_peak_mb()
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
        base = (rows[0][1].rps + rows[2][1].rps) / 2
        print(f"-- {label}; RSS di picco {peak:.0f} MB")
        print(f"   {'percorso':20} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'rapporto':>9} {'errori':>7}")
        for name, r in rows:
            print(f"   {name:20} {r.rps:8.0f} {r.p50_ms:8.2f} {r.p99_ms:8.2f} {r.rps / base:9.2f} {r.non_2xx + r.socket_errors:7d}")
        ratio = rows[1][1].rps / base
        print(f"   /api/cerca rispetto a /salute: {ratio:.2f} (obiettivo ≥ 0.50: {'ok' if ratio >= 0.5 else 'NO'})")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=int, default=6)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--no-http", action="store_true")
    args = ap.parse_args()

    corpus = load_corpus()
    questions = load_questions()
    with tempfile.TemporaryDirectory(prefix="judge-search-bench-") as instance:
        from judge.search.query import get_engine

        t = time.perf_counter()
        engine = get_engine(instance, corpus)
        first_use = time.perf_counter() - t
        docs = engine.ix.doc_count()
        builds = [build_time(instance, corpus) for _ in range(3)]
        print(f"Indice: {docs} documenti (una regola per lingua); costruzione dell'intero corpus "
              f"{min(builds):.2f} s (migliore di 3, mediana {statistics.median(builds):.2f} s); "
              f"primo uso con costruzione e apertura {first_use:.2f} s\n")
        relevance(engine, questions, corpus)
        latency(instance, questions, corpus)
    if not args.no_http:
        http(questions, args.seconds, args.connections, args.threads)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
