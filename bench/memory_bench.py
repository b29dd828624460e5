"""Memory of the server under traffic it has never seen.

1. 10,000 distinct searches (bench/distinct.py: queries made from the corpus's own words, some
   with typos or without accents) and 10,000 distinct rule pages (every rule, then the same rules
   at distinct addresses: a parameter the page ignores), through `judge serve`: the peak resident
   memory after it (goal: under 150 MB).
2. Then anything else, as varied as possible: 15,000 more searches of words picked at random
   (many unknown to the corpus: typo corrections), through the page and the API, with filters and
   pages; every part and letter of the long pages; the changes between every pair of editions,
   section by section; rule histories and rules read in older editions: the peak after it
   (goal: under 250 MB whatever the traffic).

Requests are sent by a few client threads over keep-alive connections (the order is shuffled,
seeded). Run: .venv/bin/python bench/memory_bench.py [--searches 10000] [--rules 10000] [--any 15000]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._server import running_server  # noqa: E402
from bench.distinct import rule_paths, search_paths  # noqa: E402
from judge.corpus import load_corpus  # noqa: E402

CLIENTS = 8


def send(port: int, paths: list[str]) -> tuple[int, int]:
    """Send every path (CLIENTS connections); (answers, answers with a 5xx)."""
    lock = threading.Lock()
    queue = list(reversed(paths))
    counts = [0, 0]

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                if not queue:
                    break
                path = queue.pop()
            conn.request("GET", path, headers={"Accept-Encoding": "gzip"})
            r = conn.getresponse()
            r.read()
            with lock:
                counts[0] += 1
                counts[1] += r.status >= 500
        conn.close()

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counts[0], counts[1]


def distinct_rules(corpus, n: int) -> list[str]:
    rules = rule_paths(corpus)
    out, round_ = list(rules), 1
    while len(out) < n:
        out += [f"{p}?giro={round_}" for p in rules]
        round_ += 1
    return out[:n]


def any_traffic(corpus, n: int, rng: random.Random) -> list[str]:
    vocabulary = sorted({w.strip(".,;:()“”\"'«»").lower() for r in corpus.rules.values()
                         for t in (r.it, r.en, r.tr) if t is not None for w in t.text.split()} - {""})
    letters = "abcdefghilmnopqrstuvz"
    paths = []
    for i in range(n):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(1, 5))]
        if rng.random() < 0.4:  # a word nobody wrote: corrected, completed or not found
            words.append("".join(rng.choice(letters) for _ in range(rng.randint(4, 12))))
        q = " ".join(words)
        route = rng.choice(["/cerca", "/api/cerca"])
        extra = rng.choice([{}, {"lingua": "it"}, {"lingua": "en"}, {"capitolo": str(rng.randint(1, 9))},
                            {"pagina": str(rng.randint(1, 5))}, {"sezione": rng.choice(corpus.sections()).number}])
        paths.append(f"{route}?" + urllib.parse.urlencode({"q": q, **extra}))
    for base in ("/glossario", "/indice-analitico", "/indice-analitico?lingua=en"):
        join = "&" if "?" in base else "?"
        paths += [f"{base}{join}lettera={c}" for c in "ABCDEFGHILMNOPQRSTUVZ"]
        paths += [f"{base}{join}q={urllib.parse.quote(rng.choice(vocabulary))}" for _ in range(200)]
    for s in corpus.sections():
        paths += [f"/regole/{s.number}?parte={k}" for k in range(1, 4)]
    ids = [e.id for e in corpus.editions]
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            paths.append(f"/modifiche/{a}..{b}")
            paths += [f"/modifiche/{a}..{b}?sezione={s.number}" for s in rng.sample(corpus.sections(), 20)]
    numbers = [n for n in corpus.numbers if corpus.rules[n].kind in ("regola", "sottoregola")]
    paths += [f"/regole/{n}/storia" for n in rng.sample(numbers, 1500)]
    paths += [f"/regole/{n}?edizione={rng.choice(ids)}" for n in rng.sample(numbers, 1500)]
    paths += [f"/api/regole/{n}" for n in rng.sample(numbers, 1500)]
    rng.shuffle(paths)
    return paths


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--searches", type=int, default=10000)
    ap.add_argument("--rules", type=int, default=10000)
    ap.add_argument("--any", type=int, default=15000)
    args = ap.parse_args()
    corpus = load_corpus()
    rng = random.Random(26)
    never_seen = search_paths(corpus, "/cerca", args.searches) + distinct_rules(corpus, args.rules)
    rng.shuffle(never_seen)
    varied = any_traffic(corpus, args.any, rng)
    print(f"Memoria del server (waitress, 8 thread), {CLIENTS} client; carico {os.getloadavg()[0]:.1f}", flush=True)
    with running_server(threads=8):
        pass  # a first start fills the build cache: the one measured starts as a restart does
    with running_server(threads=8) as server:
        start = server.rss_mb()
        t0 = time.perf_counter()
        sent, errors = send(server.port, never_seen)
        first = server.rss_peak_mb()
        print(f"  all'avvio {start:.0f} MB; dopo {args.searches} ricerche e {args.rules} pagine di regole mai viste "
              f"({sent} risposte, {errors} 5xx, {time.perf_counter() - t0:.0f} s): picco {first:.0f} MB, ora "
              f"{server.rss_mb():.0f} MB (obiettivo < 150 MB: {'ok' if first < 150 else 'NO'})", flush=True)
        t0 = time.perf_counter()
        sent, errors = send(server.port, varied)
        peak = server.rss_peak_mb()
        print(f"  dopo altre {sent} richieste di ogni genere ({errors} 5xx, {time.perf_counter() - t0:.0f} s): picco "
              f"{peak:.0f} MB, ora {server.rss_mb():.0f} MB (obiettivo < 250 MB: {'ok' if peak < 250 else 'NO'})",
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
