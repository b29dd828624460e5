"""The server's time per search, for bench/search_bench.py --contro: a process per copy of the project
compared, so it imports only what every copy has. ``serve`` opens the copy's engine and answers batches
of queries read from stdin (one JSON list a line) with the time of each (one JSON list a line)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time

REPEAT = 3  # each search is timed this many times; its fastest run counts


def serve(warm_up: list[str]) -> None:
    os.environ["JUDGE_SEARCH_CACHE"] = "0"  # read as the search module is imported: set first
    from judge.search.engines import keep_in_memory

    with tempfile.TemporaryDirectory(prefix="judge-search-contro-") as instance:
        engine = keep_in_memory(instance)
        for q in warm_up:  # terms, stems, the card table, the leaves' cache
            engine.search(q)
        print("pronto", flush=True)
        for line in sys.stdin:
            out = []
            for q in json.loads(line):
                best = float("inf")
                for _ in range(REPEAT):
                    t = time.perf_counter()
                    engine.search(q)
                    best = min(best, time.perf_counter() - t)
                out.append(best)
            print(json.dumps(out), flush=True)
