"""Page weight and first contentful paint on a phone.

Sizes: every page of the site that can be heavy (every letter of the glossary and of both analytic
indexes, every chapter and section page and each of their parts, the changes between editions and
their parts, the rules with most subrules), uncompressed HTML, through Flask's test client.
First contentful paint: the heaviest of them served by `judge serve` (waitress) and opened in
Debian's chromium with a phone's viewport (390 x 844, 3x, touch), no cache, as a first visit;
the time is Chromium's own ``first-contentful-paint`` entry. Timings depend on the machine's load
(printed).

Run: .venv/bin/python bench/pages_bench.py [--top 8]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from html import unescape

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

LIMIT = 150 * 1024
CHROMIUM = os.environ.get("JUDGE_CHROMIUM", "/usr/bin/chromium")


def _links(body: str, nav_class: str) -> list[str]:
    nav = re.search(rf'<nav class="{nav_class}"[^>]*>(.*?)</nav>', body, re.S)
    if not nav:
        return []
    found = re.findall(r'href="([^"#]+)"', nav.group(1))
    return [unescape(h) for h in found if "lettera=" in h or "parte=" in h]


def heavy_pages(client, corpus) -> dict[str, int]:
    sizes: dict[str, int] = {}

    def get(url: str) -> str:
        r = client.get(url)
        body = r.get_data(as_text=True)
        sizes[url] = len(r.get_data())
        return body

    for url in ("/", "/turno", "/edizioni", "/collega", "/glossario", "/indice-analitico", "/indice-analitico?lingua=en"):
        body = get(url)
        for link in _links(body, "lettere"):
            get(link)
    for heading in [*corpus.chapters(), *corpus.sections()]:
        for link in _links(get(f"/regole/{heading.number}"), "parti"):
            get(link)
    ids = [e.id for e in corpus.editions]
    for a, b in [*zip(ids, ids[1:]), (ids[0], ids[-1])]:
        for link in _links(get(f"/modifiche/{a}..{b}"), "parti"):
            get(link)
    for rule in sorted((r for r in corpus.rules.values() if r.kind == "regola"), key=lambda r: -len(r.children))[:40]:
        get(f"/regole/{rule.number}")
    return sizes


def first_paint(base: str, paths: list[str]) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            # The browser's own first start (processes, fonts) is not the page's: one visit first.
            warm = browser.new_context(viewport={"width": 390, "height": 844})
            warm.new_page().goto(base + "/", wait_until="load")
            warm.close()
            for path in paths:
                ctx = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                          is_mobile=True, has_touch=True, locale="it-IT")
                page = ctx.new_page()
                page.goto(base + path, wait_until="load")
                page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
                out[path] = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
                ctx.close()
        finally:
            browser.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--top", type=int, default=8, help="how many of the heaviest pages to open in the browser")
    args = ap.parse_args()
    import tempfile

    from bench._server import running_server
    from judge.corpus import load_corpus
    from judge.web import create_app

    corpus = load_corpus()
    with tempfile.TemporaryDirectory() as instance:
        app = create_app({"INSTANCE_PATH": instance, "TESTING": True, "SECRET_KEY": "bench", "PAGE_CACHE": False})
        sizes = heavy_pages(app.test_client(), corpus)
    ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
    over = [u for u, s in ranked if s > LIMIT]
    print(f"Pagine misurate: {len(sizes)}; la più pesante {ranked[0][1] / 1024:.1f} KB ({ranked[0][0]}); "
          f"oltre 150 KB: {len(over)} {'(ok)' if not over else over}")
    for url, size in ranked[:12]:
        print(f"  {size / 1024:7.1f} KB  {url}")
    if not os.path.exists(CHROMIUM):
        print(f"(chromium non trovato in {CHROMIUM}: niente misura del first contentful paint)")
        return 0
    # The heaviest pages, and the ones the issue found slow (glossary and indexes, now by letter).
    paths = list(dict.fromkeys([u for u, _ in ranked[:args.top]] + [
        "/glossario", "/indice-analitico", "/indice-analitico?lingua=en", "/regole/701", "/regole/704.5a"]))
    with running_server(threads=4) as server:
        paint = first_paint(server.base, paths)
    print(f"First contentful paint, telefono 390x844 (carico {', '.join(f'{x:.1f}' for x in os.getloadavg())}):")
    for path, ms in paint.items():
        print(f"  {ms:7.0f} ms  {sizes.get(path, 0) / 1024:6.1f} KB  {path}  {'ok' if ms < 1000 else 'NO (> 1 s)'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
