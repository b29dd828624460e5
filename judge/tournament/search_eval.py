"""The tournament search's quality on its labelled questions (tests/search/questions_tornei.json):
hit@1, hit@5 and MRR of the first right section, for the tuning half and the held-out half.

    python -m judge.tournament.search_eval [--sbagliate]   (--sbagliate: the tuning half's misses only)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from judge import ROOT

QUESTIONS = ROOT / "tests" / "search" / "questions_tornei.json"
TUNING, HELD_OUT = "messa a punto", "verifica"


def evaluate(questions: list[dict], search) -> dict[str, dict[str, float]]:
    """{half: {"n", "hit@1", "hit@5", "mrr"}}; ``search(q)`` gives citations in rank order («IPG 2.1»)."""
    out: dict[str, dict[str, float]] = {}
    for half in (TUNING, HELD_OUT):
        qs = [q for q in questions if q["insieme"] == half]
        ranks = []
        for q in qs:
            found = [c.lower() for c in search(q["q"])]
            wanted = {a.lower() for a in q["attese"]}
            ranks.append(next((i + 1 for i, c in enumerate(found) if c in wanted), None))
        n = len(qs) or 1
        out[half] = {"n": len(qs), "hit@1": sum(r == 1 for r in ranks) / n,
                     "hit@5": sum(r is not None and r <= 5 for r in ranks) / n,
                     "mrr": sum(1 / r for r in ranks if r) / n}
    return out


def _search(q: str) -> list[str]:
    from judge.tournament.search import search_documents

    return [h.citation for h in search_documents(q, limit=10)]


def main(argv: list[str]) -> None:
    questions = json.loads(Path(QUESTIONS).read_text(encoding="utf-8"))["questions"]
    for half, m in evaluate(questions, _search).items():
        print(f"{half:14} n={m['n']:3}  hit@1 {m['hit@1']:.3f}  hit@5 {m['hit@5']:.3f}  MRR {m['mrr']:.3f}")
    if "--sbagliate" in argv:
        for q in questions:
            if q["insieme"] != TUNING:
                continue
            got = _search(q["q"])[:5]
            if not set(a.lower() for a in q["attese"]) & {g.lower() for g in got[:1]}:
                print(f"  {q['q']!r}: attese {q['attese']}, trovate {got}")


if __name__ == "__main__":
    main(sys.argv[1:])
