"""The random sample of the review of the tournament documents' translation (docs/tornei-revisione.md):

    .venv/bin/python scripts/tornei_campione.py [--seme 3503] [--quanti 120]

Every unit of ``tornei_it/`` (a section's title or a paragraph) is listed by document, section and
number, without reading its text; the sample size is split among the three documents in proportion
to their units (largest remainders), and each document's share is drawn with ``random.Random(seed)``
from its units in file order. Same seed, same files → same list: anyone can redraw it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.tournament.model import DOCUMENTS  # noqa: E402
from judge.tournament.translation import load_translation  # noqa: E402


def shares(sizes: dict[str, int], total: int) -> dict[str, int]:
    """``total`` split in proportion to ``sizes`` by largest remainders."""
    whole = sum(sizes.values())
    exact = {d: total * n / whole for d, n in sizes.items()}
    out = {d: int(x) for d, x in exact.items()}
    for d in sorted(exact, key=lambda d: exact[d] - out[d], reverse=True)[: total - sum(out.values())]:
        out[d] += 1
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seme", type=int, default=3503)
    ap.add_argument("--quanti", type=int, default=120)
    args = ap.parse_args()
    units: dict[str, list[str]] = {d: [] for d in DOCUMENTS}
    for st in load_translation(ROOT / "tornei_it"):
        units[st.doc] += [f"{st.doc.upper()} {st.section} {u.label}" for u in st.units]
    quota = shares({d: len(u) for d, u in units.items()}, args.quanti)
    rng = random.Random(args.seme)
    for d in DOCUMENTS:
        picked = sorted(rng.sample(range(len(units[d])), quota[d]))
        print(f"# {d.upper()}: {quota[d]} su {len(units[d])} unità")
        for i in picked:
            print(units[d][i])


if __name__ == "__main__":
    main()
