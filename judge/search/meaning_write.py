"""Write the learned questions' vectors (judge/search/domande_vettori.npz) for meaning.py:
``python -m judge.search.meaning_write`` (about five minutes on two cores).

Run it whenever domande.json, domande_regole.tsv or domande_carte.tsv change: a test compares the file's
texts with the memory's, so a question without its vector fails it.
"""

from __future__ import annotations

import sys
import time

from judge.search import learned, meaning


def memory_texts() -> list[str]:
    """Every question the memory can hold, in file order, once each (whatever the corpus keeps)."""
    asked = learned.read_questions() + learned.read_rule_questions() + learned.read_card_questions()
    return list(dict.fromkeys(a.text for a in asked))


def main() -> int:
    encoder, status = meaning.new_encoder()
    if encoder is None:
        print(f"Il modello non si carica qui: {status.reason}.", file=sys.stderr)
        return 1
    texts = memory_texts()
    start = time.monotonic()
    vectors = encoder.vectors(texts)
    meaning.write_vectors(texts, vectors)
    print(f"{len(texts)} domande in {meaning.VECTORS_FILE.name} ({time.monotonic() - start:.0f} s).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
