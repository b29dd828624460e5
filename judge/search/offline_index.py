"""The offline search index: a compact, prebuilt index of the edition in force that a phone keeps
with the offline copy (judge/web/offline.py serves it as a file; static/js/ricerca-offline.js reads it).

It holds the same documents as the server's index (``index.documents``) analysed by the same
analyzers (Italian stems, accents folded, the Italian stemmer ported to the browser in
static/js/radici.js and checked against this one by a browser test), with one precomputed BM25
weight per (term, document): the browser adds them up, nothing more. Its answers are simpler
than the server's (no typo correction, no phrases, no coverage of synonyms by field): the offline
page says so.

Format (JSON):

- ``regole``: rule numbers in corpus order; documents point into it by position;
- ``termini``: {"it": {stem: postings}, "en": {...}}; postings are "pos:weight" pairs separated by
  spaces, positions delta-coded, both in base 36 (the file is a third smaller than plain lists);
- ``inglese``: folded English word -> its stem (the browser has no English stemmer);
- ``concetti``: the search glossary's concepts, each a list of [language, stems] terms, and
  ``sinonimi``: folded term (one to four words) -> concept ids;
- ``parole_vuote``: the stop words both analyzers drop;
- ``cornici``: the question frames (judge/search/frames.py), each [phrases, subject groups, rules],
  a phrase a list of [folded word, Italian stem or null]; ``domande``: the questions the search
  learned from (judge/search/learned.py), each [its Italian stems, its rules]; ``pesi``: how much
  each weighs, the server's (judge/search/question.py). The browser reads a question as the server
  does and adds the same rules.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict

from judge.corpus import Corpus
from judge.search import query, question
from judge.search.analysis import ALL_STOPS, terms, words
from judge.search.frames import NEXT_RULE, load_frames
from judge.search.glossary import get_glossary
from judge.search.index import documents
from judge.search.learned import MIN_SIMILARITY, NEIGHBOURS, get_memory, stems

FORMAT = 1
# Where a term counts, and how much: the server's weights (judge/search/query.py).
FIELDS = {"body": query.W_BODY, "title": query.W_TITLE, "index": query.W_INDEX, "examples": query.W_EXAMPLES,
          "alt": query.W_ALT, "terms": query.W_TERMS}
K1, B = 1.2, 0.75
SCALE = 10  # weights are stored as integers: tenths
MAX_CONCEPT_WORDS = 4


def _b36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if not n:
            return out


def _field_terms(doc: dict, lang: str) -> Counter:
    tf: Counter = Counter()
    for name, weight in FIELDS.items():
        key = f"{name}_{lang}" if name != "alt" else "alt_it"
        if name == "alt" and lang != "it":
            continue
        text = doc.get(key)
        if text:
            for t in terms(text, lang):
                tf[t] += weight
    return tf


def build(corpus: Corpus) -> dict:
    numbers = list(corpus.numbers)
    position = {n: i for i, n in enumerate(numbers)}
    per_lang: dict[str, list[tuple[int, Counter, int]]] = {"it": [], "en": []}
    english: dict[str, str] = {}
    for doc in documents(corpus):
        lang = doc["lang"]
        tf = _field_terms(doc, lang)
        length = len(terms(doc.get(f"body_{lang}", ""), lang)) or 1
        per_lang[lang].append((position[doc["number"]], tf, length))
        if lang == "en":
            for w in words(doc.get("body_en", "")):
                if w not in english and not w.isdigit():
                    s = terms(w, "en")
                    if s and s[0] != w:
                        english[w] = s[0]
    index: dict[str, dict[str, str]] = {}
    for lang, docs in per_lang.items():
        n = len(docs)
        avg = sum(length for _, _, length in docs) / max(n, 1)
        df: Counter = Counter()
        for _, tf, _ in docs:
            df.update(tf.keys())
        postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for pos, tf, length in docs:
            norm = K1 * (1 - B + B * length / avg)
            for t, f in tf.items():
                idf = math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5))
                w = round(SCALE * idf * f * (K1 + 1) / (f + norm))
                if w > 0:
                    postings[t].append((pos, w))
        encoded = {}
        for t, plist in postings.items():
            plist.sort()
            prev, parts = 0, []
            for pos, w in plist:
                parts.append(f"{_b36(pos - prev)}:{_b36(w)}")
                prev = pos
            encoded[t] = " ".join(parts)
        index[lang] = encoded
    concepts, synonyms = _concepts(corpus)
    return {
        "formato": FORMAT,
        "edizione": corpus.in_force.id,
        "versione": corpus.content_hash,
        "regole": numbers,
        "termini": index,
        "inglese": english,
        "concetti": concepts,
        "sinonimi": synonyms,
        "parole_vuote": sorted(ALL_STOPS),
        **_questions(corpus),
    }


def _questions(corpus: Corpus) -> dict:
    """What the server knows of questions (frames, the questions it learned from) and its weights."""
    def phrase(p):  # [word, its Italian stem or None]
        return [[w, k[1:] if k else None] for w, k in p]

    frames = [[[phrase(p) for p in f.phrases], [[phrase(p) for p in g] for g in f.subject], list(f.rules)]
              for f in load_frames()]
    asked = [[sorted(stems(a.text)), list(a.rules)] for a in get_memory(corpus).asked]
    weights = {"cornice": question.W_FRAME, "parola_cornice": question.W_FRAME_WORD, "regola_seguente": NEXT_RULE,
               "domande": question.W_LEARNED, "vicine": NEIGHBOURS, "somiglianza_minima": MIN_SIMILARITY}
    return {"cornici": frames, "domande": asked, "pesi": weights}


def _concepts(corpus: Corpus) -> tuple[list, dict[str, list[int]]]:
    """The glossary's concepts as the server searches them (every term in both analyzers), and which
    typed terms name each (folded, up to four words: a phone matches them exactly)."""
    glossary = get_glossary(corpus=corpus)
    concepts = [[[lang, list(seq)] for lang, seq in glossary.analysed(c.id)] for c in glossary.concepts]
    synonyms = {" ".join(key): sorted(ids) for key, ids in glossary.surface_terms().items()
                if len(key) <= MAX_CONCEPT_WORDS}
    return concepts, synonyms
