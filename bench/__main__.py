"""All benchmarks in one command: .venv/bin/python -m bench"""

import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

RUNS = [
    ("start_bench.py", {}),
    ("pages_bench.py", {}),
    ("corpus_bench.py", {"JUDGE_CACHE_DIR": "0"}),  # the cold cost: no build cache
    ("linker_bench.py", {}),
    ("collega_bench.py", {}),
    ("search_bench.py", {}),
    ("engine_bench.py", {}),
    ("layers_bench.py", {}),
    ("replacement_bench.py", {}),
    ("history_bench.py", {}),
    ("cards_bench.py", {}),
    ("store_bench.py", {}),
    ("http_bench.py", {}),
    # The same routes with every cache off: what a page costs to render.
    ("http_bench.py", {"JUDGE_PAGE_CACHE": "0", "JUDGE_SEARCH_CACHE": "0"}),
    ("memory_bench.py", {}),
    # The attacks of issue 38 (tests/prod/test_attack_suite.py runs them for 3 s each).
    ("attack_bench.py", {"JUDGE_ATTACCO_SECONDI": "20"}),
]

for script, env in RUNS:
    path = HERE / script
    if not path.exists():
        print(f"(manca {script})")
        continue
    print(f"\n=== {script} {' '.join(f'{k}={v}' for k, v in env.items())} ===", flush=True)
    subprocess.run([sys.executable, str(path)], check=False, cwd=HERE.parent, env={**os.environ, **env})
