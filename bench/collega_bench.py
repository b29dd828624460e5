"""/collega under bodies full of card names: the server time of a 20,000-character text made of
unknown ``[[…]]`` names (the worst case: every name sent to the typo search), of known names and of
the same unknown name repeated, beside a text of the same length with rule citations only.

Run: .venv/bin/python bench/collega_bench.py

Each body is posted to /api/collega and to the page /collega through the app (no network, the card table loaded first),
several times; the median is printed in milliseconds and as a ratio to the citations-only text.
Issue 37 asks for < 200 ms of server time for 20 KB of unknown names.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import string
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from judge.cards.table import load_table  # noqa: E402
from judge.web import create_app  # noqa: E402
from judge.web.linker import MAX_LINKER_CHARS  # noqa: E402

ROUNDS = 7


def _fill(piece) -> str:
    """Pieces joined by spaces up to the linker's limit."""
    out, n = [], 0
    while True:
        p = piece(len(out))
        if n + len(p) + 1 > MAX_LINKER_CHARS:
            return " ".join(out)
        out.append(p)
        n += len(p) + 1


def bodies(table) -> dict[str, str]:
    rng = random.Random(37)

    def unknown(_):
        words = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(4, 9))) for _ in range(2)]
        return f"[[{' '.join(words).title()}]]"

    names = [table.face(rng.randrange(len(table))).display_name for _ in range(400)]
    return {
        "solo citazioni (704.5a, 702.19b…)": _fill(lambda i: f"vedi regola 70{i % 5}.{1 + i % 9}"),
        "nomi sconosciuti tutti diversi": _fill(unknown),
        "lo stesso nome sconosciuto": _fill(lambda i: "[[Carta Che Non Esiste]]"),
        "nomi di carte esistenti": _fill(lambda i: f"[[{names[i % len(names)]}]]"),
    }


def main() -> None:
    table = load_table()
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "RATE_LIMITS": False,
                      "INSTANCE_PATH": os.path.join(os.path.dirname(__file__), "..", "instance", "bench-collega")})
    client = app.test_client()
    client.post("/api/collega", json={"testo": "[[Tarmogoyf]] 704.5a"})  # everything loaded
    token = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/collega").get_data(as_text=True))[1]

    def api(text):
        return client.post("/api/collega", json={"testo": text})

    def page(text):
        return client.post("/collega", data={"testo": text, "csrf_token": token})

    timings = {}
    for label, text in bodies(table).items():
        for kind, post in (("API", api), ("pagina", page)):
            got = []
            for _ in range(ROUNDS):
                started = time.perf_counter()
                r = post(text)
                got.append(time.perf_counter() - started)
                assert r.status_code == 200, r.status_code
            timings[f"{kind}: {label}"] = (statistics.median(got), len(text), text.count("[["))
    # The same unknown names without the typo search's bound (card_links.MAX_FUZZY, FUZZY_SECONDS).
    from judge.web import card_links

    saved = card_links.MAX_FUZZY, card_links.FUZZY_SECONDS
    card_links.MAX_FUZZY, card_links.FUZZY_SECONDS = 10**6, 10.0**6
    try:
        text = bodies(table)["nomi sconosciuti tutti diversi"]
        got = []
        for _ in range(3):
            started = time.perf_counter()
            page(text)
            got.append(time.perf_counter() - started)
        timings["(pagina, senza limite ai refusi)"] = (statistics.median(got), len(text), text.count("[["))
    finally:
        card_links.MAX_FUZZY, card_links.FUZZY_SECONDS = saved
    base = timings["pagina: solo citazioni (704.5a, 702.19b…)"][0]
    print(f"/collega e /api/collega, mediana di {ROUNDS} richieste per corpo (tempo del server, nessuna rete):")
    for label, (t, chars, mentions) in timings.items():
        print(f"  {label:46} {chars:6} caratteri, {mentions:4} nomi: {t * 1000:7.1f} ms  "
              f"({t / base:4.1f}× la pagina con le sole citazioni)")
    worst = max(t for label, (t, _, mentions) in timings.items() if mentions and not label.startswith("("))
    print(f"Il corpo di nomi di carte più lento: {worst * 1000:.0f} ms (obiettivo < 200 ms).")


if __name__ == "__main__":
    main()
