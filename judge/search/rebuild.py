"""``python -m judge.search.rebuild INSTANCE [FINGERPRINT]``: (re)build an instance's search index
in a process of its own.

A server whose index was deleted or damaged under it runs this beside itself
(judge/search/engines.py) and keeps answering from the index it holds in memory: the
build (about 20 s of pure Python) then takes neither the server's threads nor its GIL.
``FINGERPRINT`` (JSON) is the damaged index's, as in ``ensure_index(broken=…)``: if another
process rebuilt it meanwhile, nothing is done.
"""

from __future__ import annotations

import json
import sys

from judge.search.index import ensure_index


def fingerprint_from_json(text: str) -> tuple:
    fp = json.loads(text)
    return (fp[0], tuple(tuple(f) for f in fp[1])) if fp else ()


def main(argv: list[str]) -> int:
    broken = fingerprint_from_json(argv[1]) if len(argv) > 1 else None
    print(ensure_index(argv[0], broken=broken), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
