"""All benchmarks in one command: .venv/bin/python -m bench"""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

for script in ["corpus_bench.py", "search_bench.py", "engine_bench.py", "http_bench.py"]:
    path = HERE / script
    if not path.exists():
        print(f"(manca {script})")
        continue
    print(f"\n=== {script} ===", flush=True)
    subprocess.run([sys.executable, str(path)], check=False, cwd=HERE.parent)
