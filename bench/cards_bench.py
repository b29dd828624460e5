"""The card table: look-up speed and accuracy, and what it costs the server (start time, memory),
as figures and as ratios to the commit before the cards (one run, both measured here).

1. Look-up in process: queries made from the table itself (seeded), split once into two halves;
   nothing in the look-up was tuned on either (it was built on a handful of names typed by hand),
   the first half is reported as the one to look at while changing it, the second as held out.
   Each card gives four queries: its English name, its Italian name, the Italian (or English)
   name with one random edit, the first 60% of the name as one types. Accuracy: the card first
   (for the typed-halfway query: among the first 8 suggestions). Time: p50/p95/max per query.
2. The server (waitress, `judge serve`) of this checkout and of ``--base`` (default: where this
   branch left main), alternately: seconds from the start to the first answer, resident memory
   after start and after the table is in use; then /api/carte?q= (distinct queries, one at a
   time, the server's time as seen over loopback) p50/p95 and card pages.

Run: .venv/bin/python bench/cards_bench.py [--cards 400] [--starts 3] [--base REV]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from io import BytesIO
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._server import ROOT, running_server  # noqa: E402
from judge.cards import lookup  # noqa: E402
from judge.cards.names import name_key  # noqa: E402
from judge.cards.table import load_table  # noqa: E402

LETTERS = "abcdefghilmnoprstuvz"


def typo(rng: random.Random, name: str) -> str:
    """One random edit inside a word: a letter dropped, doubled, changed, or two swapped."""
    positions = [i for i, c in enumerate(name) if c.isalpha()]
    if len(positions) < 5:
        return name
    i = rng.choice(positions[1:-1])
    kind = rng.choice(["drop", "double", "change", "swap"])
    if kind == "drop":
        return name[:i] + name[i + 1:]
    if kind == "double":
        return name[:i] + name[i] + name[i:]
    if kind == "change":
        return name[:i] + rng.choice([c for c in LETTERS if c != name[i].lower()]) + name[i + 1:]
    return name[:i] + name[i + 1] + name[i] + name[i + 2:] if i + 1 < len(name) else name


def queries(table, n: int, seed: int = 2026) -> list[tuple[str, str, str]]:
    """(kind, typed, English name expected) for ``n`` cards drawn with ``seed``."""
    rng = random.Random(seed)
    out = []
    for row in rng.sample(range(len(table)), n):
        face = table.face(row)
        it = face.name_it
        out.append(("inglese", face.name, face.name))
        if it:
            out.append(("italiano", it, face.name))
        out.append(("refuso", typo(rng, it or face.name), face.name))
        out.append(("a metà", (it or face.name)[: max(3, int(len(it or face.name) * 0.6))], face.name))
    return out


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p * (len(xs) - 1))))]


def in_process(n: int) -> None:
    t0 = time.perf_counter()
    table = load_table()
    print(f"Tabella caricata in {time.perf_counter() - t0:.2f} s ({len(table)} facce)")
    qs = queries(table, n)
    half = len(qs) // 2
    for label, part in (("prima metà", qs[:half]), ("seconda metà (mai guardata)", qs[half:])):
        by_kind: dict[str, list[bool]] = {}
        times: list[float] = []
        for kind, typed, expected in part:
            t = time.perf_counter()
            found = lookup.suggest(typed, 8, table) if kind == "a metà" else lookup.find(typed, 5, table)
            times.append((time.perf_counter() - t) * 1000)
            names = [m.face.name for m in found]
            # an Italian name shared by two cards names either (the look-up lists both)
            ok = expected in names if kind == "a metà" else bool(names) and (
                names[0] == expected or (kind != "refuso" and name_key(typed) in
                                         {name_key(n) for n, _ in found[0].face.names_by_lang()}))
            by_kind.setdefault(kind, []).append(ok)
        acc = ", ".join(f"{k} {sum(v) / len(v):.1%} ({len(v)})" for k, v in by_kind.items())
        print(f"Ricerca per nome, {label}: {acc}; tempo per richiesta p50 {_pct(times, .5):.2f} ms, "
              f"p95 {_pct(times, .95):.2f} ms, max {max(times):.2f} ms")


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _get(url: str) -> float:
    """Milliseconds to the whole answer (a 404 for a misspelt name, or a 300, is an answer too)."""
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            r.read()
    except urllib.error.HTTPError as e:
        e.read()
        if e.code >= 500:
            raise
    return (time.perf_counter() - t) * 1000


def _checkout(rev: str) -> Path:
    """The tree of ``rev`` in a temporary folder (git archive: the repository is not touched)."""
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
    folder = Path(tempfile.mkdtemp(prefix="judge-base-"))
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(folder)
    return folder


def one_start(root: Path, instance: Path, has_cards: bool, typed: list[str]) -> dict:
    t0 = time.perf_counter()
    with running_server(threads=4, instance=instance, root=root) as srv:
        started = time.perf_counter() - t0
        time.sleep(3)                       # the table loads beside the server (cards only)
        out = {"start": started, "rss": _rss_kb(srv.proc.pid) / 1024}
        _get(srv.base + "/cerca?q=Tarmogoyf")
        if has_cards:
            api = [_get(srv.base + "/api/carte?" + urllib.parse.urlencode({"q": q})) for q in typed]
            pages = [_get(srv.base + "/carte/" + urllib.parse.quote(q)) for q in typed[:60]]
            out.update(api=api, pages=pages)
        out["rss_used"] = _rss_kb(srv.proc.pid) / 1024
        out["peak"] = srv.rss_peak_mb()
    return out


def servers(starts: int, base: str) -> None:
    base_root = _checkout(base)
    table = load_table()
    typed = [q for _, q, _ in queries(table, 150, seed=7)][:300]
    inst = {ROOT: Path(tempfile.mkdtemp(prefix="judge-bench-new-")),
            base_root: Path(tempfile.mkdtemp(prefix="judge-bench-old-"))}
    try:
        for root in inst:                                  # build both search indexes first
            with running_server(threads=4, instance=inst[root], root=root):
                pass
        runs: dict[Path, list[dict]] = {ROOT: [], base_root: []}
        for _ in range(starts):
            for root in (base_root, ROOT):
                runs[root].append(one_start(root, inst[root], root == ROOT, typed))
        new, old = runs[ROOT], runs[base_root]

        def med(rs, k):
            return statistics.median(r[k] for r in rs)

        print(f"Avvio del server (mediana di {starts}): {med(new, 'start'):.2f} s contro {med(old, 'start'):.2f} s "
              f"del commit {base[:10]}: rapporto {med(new, 'start') / med(old, 'start'):.2f}")
        print(f"Memoria dopo l'avvio: {med(new, 'rss'):.0f} MB contro {med(old, 'rss'):.0f} MB: "
              f"rapporto {med(new, 'rss') / med(old, 'rss'):.2f}")
        print(f"Memoria dopo ricerche e pagine delle carte: {med(new, 'rss_used'):.0f} MB contro "
              f"{med(old, 'rss_used'):.0f} MB (solo ricerche): rapporto {med(new, 'rss_used') / med(old, 'rss_used'):.2f}; "
              f"picco {med(new, 'peak'):.0f} contro {med(old, 'peak'):.0f} MB")
        api = [t for r in new for t in r["api"]]
        pages = [t for r in new for t in r["pages"]]
        print(f"/api/carte?q= ({len(api)} richieste diverse, una alla volta): p50 {_pct(api, .5):.1f} ms, "
              f"p95 {_pct(api, .95):.1f} ms (obiettivo < 50 ms: {'ok' if _pct(api, .95) < 50 else 'NO'})")
        print(f"/carte/<nome> ({len(pages)} pagine, con i reindirizzamenti): p50 {_pct(pages, .5):.1f} ms, "
              f"p95 {_pct(pages, .95):.1f} ms")
    finally:
        shutil.rmtree(base_root, ignore_errors=True)
        for folder in inst.values():
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=int, default=400)
    ap.add_argument("--starts", type=int, default=3)
    ap.add_argument("--base", default=None, help="commit to compare with (default: merge-base with main)")
    ap.add_argument("--solo-ricerca", action="store_true", help="only the in-process look-up")
    args = ap.parse_args()
    in_process(args.cards)
    if not args.solo_ricerca:
        base = args.base or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, check=True,
                                           capture_output=True, text=True).stdout.strip()
        servers(args.starts, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
