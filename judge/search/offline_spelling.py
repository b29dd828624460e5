"""The offline search's typo correction: what the browser needs to correct and complete a word as the
server does (judge/search/spelling.py ``Speller``, judge/search/query.py ``Engine.fix`` and
``Engine.known``), computed from the server's own speller; static/js/ortografia.js reads it.

- ``parole``: the speller's words of three letters or more (shorter ones are never a correction nor
  a completion: ``fix`` leaves a word under four letters alone, and the deletes index skips them), in
  the speller's own ranking order (``Speller._rank``: glossary words first, then the more frequent,
  then alphabetical), space-separated. A word's position is its rank: no frequency is written;
- ``lunghezza``: the longest word the speller knows (a longer typed word is not a typo of any);
- ``distanze``: ``max_distance`` of a word of each length (0, 1, 2 …), up to the longest + 2;
- ``finali``, ``affini``: the Italian endings judges put on English words (``english_forms``);
- ``radici_ignote``: the offline index's stems (``termini``) that the server's «known word» test does
  not count (stems only of the rules' examples: card names), ``radici_note``: the reverse (none today).

About 30 KB with brotli (docs/telefono-e-offline.md).
"""

from __future__ import annotations

from judge.search.spelling import _COGNATES, _VERB_ENDINGS, max_distance

SHORTEST = 3  # the deletes index skips shorter words (spelling.py Speller.__init__)


def build_spelling(engine, index: dict[str, dict[str, str]]) -> dict:
    """The spelling section of the offline index, from ``engine``'s speller; ``index``: the offline
    index's ``termini`` (the stems the browser already has)."""
    sp = engine.speller
    listed = sorted((w for w in sp.freq if len(w) >= SHORTEST), key=sp._rank)
    unknown, extra = {}, {}
    for lang, known in engine.known_stems.items():
        stems = {k for k in index[lang] if " " not in k}
        unknown[lang] = sorted(stems - known)
        extra[lang] = sorted(known - stems)
    return {
        "parole": " ".join(listed),
        "lunghezza": sp.longest,
        "distanze": [max_distance("x" * n) for n in range(sp.longest + 3)],
        "finali": list(_VERB_ENDINGS),
        "affini": [list(p) for p in _COGNATES],
        "radici_ignote": unknown,
        "radici_note": extra,
    }
