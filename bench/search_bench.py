"""Search benchmark: relevance (both halves) vs a Ctrl-F baseline, index build time, in-process latency on
distinct searches, and the profile of a request (where the time goes).

Run: .venv/bin/python bench/search_bench.py

- Relevance over tests/search/questions.json, both halves of the split (tuning and held-out), the blind
  sets and the questions the search learns from, by category, origin and kind of query: recall@1,
  recall@5 and MRR of our search beside a plain case-insensitive substring search over the same texts
  (what Ctrl-F in the wiki or a PDF gives).
- Index build time for the whole corpus.
- Latency in process over distinct searches (bench/distinct.py): on a fresh engine (terms read from
  the index on first use), on an engine that has met the terms but never the queries, repeated
  (the result cache), and on an engine that read every term at start-up, as the server does.
- Profile: the share of a request's time in each stage, for distinct /api/cerca, /cerca and rule pages.

HTTP throughput through `judge serve` and wrk, on distinct requests, is bench/http_bench.py.

With ``--contro DIR`` (another copy of the project, e.g. the previous commit: ``git archive HEAD~1 |
tar -x -C DIR``) it only compares the server's time per search of this copy and of that one, in the
same run: each copy's engine open in its own process, the same queries (distinct searches, and the
full questions of the question sets) sent to both in small alternating batches, so that the machine's
other work weighs on both alike; the time of a search is the fastest of three runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.distinct import rule_paths, search_paths, search_queries  # noqa: E402
from judge.corpus import load_corpus  # noqa: E402
from judge.search.evaluate import (  # noqa: E402
    HALVES, SubstringBaseline, engine_ranker, kinds, load_blind, load_fresh, load_learning, load_questions, measure,
    report, split_info,
)
from judge.search.index import build_time  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def relevance(engine, questions, corpus) -> None:
    info = split_info()
    print(f"Rilevanza su {len(questions)} domande (tests/search/questions.json), divise una volta a caso "
          f"(seme {info.get('seed')}): metà di messa a punto e metà di verifica, sempre tutte e due")
    fresh, blind, learning = load_fresh(), load_blind(), load_learning()
    print(f"più {len(fresh)} domande scritte alla cieca (tests/search/questions_fresh.json) e {len(blind)} domande "
          f"intere alla cieca (tests/search/questions_blind.json), mai usate per decidere, e le {len(learning)} domande "
          f"da cui la ricerca impara (judge/search/domande.json: «impara» la metà che ricorda, «impara-verifica» l'altra)")
    print(report(questions + fresh + blind + learning, engine_ranker(engine), show_misses=None))
    base = SubstringBaseline(corpus)
    print("sottostringa (Ctrl-F), per confronto:")
    for half in HALVES:
        m = measure([q for q in questions if q.half == half], base)
        print(f"  {half:24} {m.n:4} {m.recall1:9.3f} {m.recall5:9.3f} {m.mrr:7.3f}")


def latency(instance, corpus) -> None:
    from judge.search.index import ensure_index
    from judge.search.query import Engine

    path = ensure_index(instance, corpus)
    t0 = time.perf_counter()
    engine = Engine(path, corpus)
    opened = time.perf_counter() - t0
    queries = search_queries(corpus, 6000)
    print(f"\nLatenza in processo su ricerche tutte diverse (bench/distinct.py; apertura dell'indice {opened * 1000:.0f} ms)")

    def run(fn, qs) -> list[float]:
        out = []
        for q in qs:
            t = time.perf_counter()
            fn(q)
            out.append((time.perf_counter() - t) * 1000)
        return out

    uncached = lambda q: engine._search(q, [], "tutte", None, None, 1, 10)  # noqa: E731
    cold = run(uncached, queries[:2000])  # a fresh engine: every term read from the index on first use
    warm = run(uncached, queries[2000:4000])  # terms met before, queries never seen
    repeated = queries[4000:5000]  # a thousand results: well within the result cache's bytes
    run(engine.search, repeated)
    cached = run(engine.search, repeated)
    server = Engine(path, corpus)  # as `judge serve` opens it: every term read at start-up
    t0 = time.perf_counter()
    server.scorer.preload()
    preload = time.perf_counter() - t0
    preloaded = run(lambda q: server._search(q, [], "tutte", None, None, 1, 10), queries[:2000])
    print(f"{'':44} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in (("prime 2000 (indice letto al primo uso)", cold), ("altre 2000, mai viste", warm),
                         (f"{len(repeated)} ripetute (cache dei risultati)", cached),
                         (f"prime 2000, indice letto all'avvio ({preload:.1f} s)", preloaded)):
        print(f"{name:44} {statistics.median(values):8.2f} {pct(values, 95):8.2f} {max(values):8.2f}")


STAGES = {
    # label: (file the function is in, function)
    "motore: parole, glossario, correzioni": ("judge/search/query.py", "_units"),
    "motore: punteggi (numpy)": ("judge/search/query.py", "_evaluate"),
    "motore: ordinamento per regola": ("judge/search/layout.py", "rank"),
    "motore: estratti con <mark>": ("judge/search/query.py", "_hit"),
    "motore (tutto, comprese le voci sopra)": ("judge/search/query.py", "_search"),
    "pagina regola (dati e modello)": ("judge/web/rules.py", "_render_rule"),
    "modello Jinja": ("flask/templating.py", "render_template"),
    "risposta JSON": ("flask/json/provider.py", "response"),
}


def profile(instance, corpus) -> None:
    """Where a request's time goes, for distinct searches and distinct rule pages (no cache answers)."""
    import cProfile
    import pstats

    from judge.web import create_app

    os.environ["JUDGE_SEARCH_CACHE"] = "0"
    try:
        app = create_app({"INSTANCE_PATH": instance, "SECRET_KEY": "bench", "PAGE_CACHE": False})
        client = app.test_client()
        print("\nProfilo (cProfile nel client WSGI di Flask, 1500 richieste diverse per percorso): quota del tempo")
        for label, paths in (("/salute", ["/salute"] * 3000), ("/api/cerca", search_paths(corpus, "/api/cerca", 3000)),
                             ("/cerca", search_paths(corpus, "/cerca", 3000)), ("/regole/<n>", rule_paths(corpus))):
            for p in paths[1500:3000]:
                client.get(p)  # warm-up on other requests
            prof = cProfile.Profile()
            t = time.process_time()
            prof.enable()
            for p in paths[:1500]:
                client.get(p)
            prof.disable()
            cpu = (time.process_time() - t) / 1500 * 1000
            stats = pstats.Stats(prof).stats
            total = sum(v[2] for v in stats.values())  # all own time
            parts = []
            for name, (where, func) in STAGES.items():
                ct = sum(v[3] for (f, _, fn), v in stats.items() if fn == func and f.replace(os.sep, "/").endswith(where))
                if ct:
                    parts.append(f"{name} {ct / total:.0%}")
            print(f"  {label:12} {cpu:.2f} ms CPU per richiesta sotto profilo; " + "; ".join(parts or ["solo Flask e WSGI"]))
    finally:
        os.environ.pop("JUDGE_SEARCH_CACHE", None)


def _start_copy(root: Path, queries_file: Path) -> subprocess.Popen:
    """A process serving searches with the engine of the copy of the project at ``root``
    (bench/_search_cpu.py), warmed up on every query; it says «pronto» when ready."""
    here = Path(__file__).resolve().parent
    code = (f"import sys, json; sys.path.insert(0, {str(root)!r}); import judge; "
            f"assert judge.__file__.startswith({str(root)!r}), judge.__file__; sys.path.insert(1, {str(here)!r}); "
            f"import _search_cpu as b; qs = json.load(open({str(queries_file)!r})); "
            f"b.serve([q for v in qs.values() for q in v])")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=str(root), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "pronto"
    return proc


def compare(other: Path, batch: int = 25) -> None:
    """The server's time per search of this copy against the copy at ``other``, in one run: both
    engines open in their own process, the same small batches of queries sent to one then the other,
    so that the machine's other work weighs on both alike."""
    corpus = load_corpus()
    queries = {
        "ricerche diverse": search_queries(corpus, 1500),
        "domande intere": [q.q for q in load_questions() + load_fresh() + load_learning()
                           if "domanda" in kinds(q)],
    }
    here = Path(__file__).resolve().parents[1]
    totals = {"questo": {}, "contro": {}}
    with tempfile.TemporaryDirectory(prefix="judge-search-bench-") as tmp:
        queries_file = Path(tmp) / "queries.json"
        queries_file.write_text(json.dumps(queries, ensure_ascii=False), encoding="utf-8")
        procs = {"questo": _start_copy(here, queries_file), "contro": _start_copy(other.resolve(), queries_file)}
        try:
            for name, qs in queries.items():
                for i in range(0, len(qs), batch):
                    chunk = json.dumps(qs[i:i + batch], ensure_ascii=False) + "\n"
                    for label, proc in procs.items():
                        proc.stdin.write(chunk)
                        proc.stdin.flush()
                        totals[label][name] = totals[label].get(name, 0.0) + sum(json.loads(proc.stdout.readline()))
        finally:
            for proc in procs.values():
                proc.stdin.close()
                proc.wait()
    print(f"Tempo del server per ricerca, questo commit contro {other} (ogni ricerca la più veloce di 3 volte; "
          f"le due copie alternate ogni {batch} ricerche)")
    print(f"{'':22} {'n':>5} {'questo ms':>10} {'contro ms':>10} {'rapporto':>9}")
    for k, qs in queries.items():
        a, b = totals["questo"][k] / len(qs) * 1000, totals["contro"][k] / len(qs) * 1000
        print(f"{k:22} {len(qs):5} {a:10.3f} {b:10.3f} {a / b:9.2f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--contro", type=Path, default=None,
                    help="un'altra copia del progetto (per esempio il commit precedente): confronta solo il "
                         "tempo per ricerca, nella stessa esecuzione")
    args = ap.parse_args()
    if args.contro is not None:
        compare(args.contro)
        return 0
    corpus = load_corpus()
    questions = load_questions()
    with tempfile.TemporaryDirectory(prefix="judge-search-bench-") as instance:
        from judge.search.engines import get_engine

        t = time.perf_counter()
        engine = get_engine(instance, corpus)
        first_use = time.perf_counter() - t
        docs = engine.ix.doc_count()
        builds = [build_time(instance, corpus) for _ in range(3)]
        print(f"Indice: {docs} documenti (una regola per lingua); costruzione dell'intero corpus "
              f"{min(builds):.2f} s (migliore di 3, mediana {statistics.median(builds):.2f} s); "
              f"primo uso con costruzione e apertura {first_use:.2f} s\n")
        relevance(engine, questions, corpus)
        latency(instance, corpus)
        profile(instance, corpus)
    print("\n(HTTP con wrk su richieste tutte diverse: bench/http_bench.py)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
