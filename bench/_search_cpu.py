"""The server's time per search, for bench/search_bench.py --contro: run inside the process of each copy
of the project compared, so it imports only what every copy has."""

from __future__ import annotations

import os
import tempfile
import time


def cpu_per_search(queries: dict[str, list[str]], repeat: int = 5) -> dict[str, float]:
    """Milliseconds per search (mean over each list of queries) of this copy's engine, opened as the
    server opens it (every term read at start), with the result cache off. Each search is timed
    ``repeat`` times and its fastest run counts: the others were slowed by the machine's other work
    (a shared machine slows some runs, never speeds one up)."""
    os.environ["JUDGE_SEARCH_CACHE"] = "0"  # read as the search module is imported: set first
    from judge.search.engines import keep_in_memory

    with tempfile.TemporaryDirectory(prefix="judge-search-contro-") as instance:
        engine = keep_in_memory(instance)
        every = [q for qs in queries.values() for q in qs]
        for q in every:  # warm-up: terms, stems, the card table, the leaves' cache
            engine.search(q)
        out = {}
        for name, qs in queries.items():
            total = 0.0
            for q in qs:
                best = float("inf")
                for _ in range(repeat):
                    t = time.perf_counter()
                    engine.search(q)
                    best = min(best, time.perf_counter() - t)
                total += best
            out[name] = total / len(qs) * 1000
        return out
