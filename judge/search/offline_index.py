"""The offline search index: a compact, prebuilt index of the edition in force that a phone keeps
with the offline copy (judge/web/offline.py serves it as a file; static/js/ricerca-offline.js
searches it).

It is the server's ranking, computed ahead: for every term the server can look up in a language's
fields, its score in every document, taken from the server's own scorer (``query.FIELDS``, BM25F
over body, context, examples, other Italian text, analytic index entries and titles); for every
glossary term of several words, the score of the server's phrase query. The browser adds these up
unit by unit and applies what the server applies after (judge/search/query.py): coverage of the
query's units, the Italian boost, rules that are only a name ranked lower unless named, and the
lead that analytic index headwords and jargon give their rules (judge/search/headwords.py), and
what a question brings beyond its words (judge/search/question.py): its frame's own words weigh
less, and the rules answering its frame and those of the questions like it are added; and the cards
it names (judge/search/offline_cards.py): their names are taken out of its words and their rules added
with the server's weights. So «layer», «livelli», «ETB», «SBA» give offline the first answers they give
online, and so do the questions naming a card (all 43 of questions_blind.json and 134 of domande.json,
29 November 2026). A word the rules don't know is corrected or completed as the server's speller does
(judge/search/offline_spelling.py, static/js/ortografia.js), with the same «Forse cercavi». The query's
syntax is read as the server reads it (static/js/sintassi.js); a phrase in quotes is scored in the rules'
texts, which the offline copy keeps anyway (static/js/frasi.js: this index only adds BM25's constants and
Whoosh's kept lengths); the rules a longer query cites by number are found as the server finds them
(static/js/citazioni.js) and scored with the server's weight of a number. The quick answer is the server's
(judge/search/answers.py ``answer_for``, static/js/risposta-offline.js): to a full question's frame (the rule and
its answering sentence, from the rules' texts the copy keeps), or from the first result's analytic index entry
(the entries travel here). The cards are about 35% of the file, the entries 9%, the speller's words 30 KB
with brotli (sizes, and how they grew: docs/telefono-e-offline.md).

Format (JSON):

- ``regole``: rule numbers in corpus order. A *document* is a rule in one language, numbered
  ``2 × position + (0 Italian, 1 English)``, as the server has one document per rule and language;
- ``termini``: {"it": {key: postings}, "en": {...}}; a key is a stem, or the stems of a glossary
  term joined by spaces; postings are "document:score" pairs separated by spaces, documents
  delta-coded, both in base 36, scores on a log scale (``pesi``: score = exp(n / passi − scarto));
- ``inglese``: folded English word -> its stem (the browser has no English stemmer; a word not
  listed is its own stem);
- ``glossario``: the server's glossary matcher (judge/search/glossary.py): ``radici`` {"it"|"en":
  {stems: concept ids}}, ``forme`` {folded words: concept ids}, ``parole``: the longest term in
  stems; ``concetti``: each concept's terms as [language, key];
- ``rubriche``: the headwords (judge/search/headwords.py): {"it"|"en": {stems: {headword as
  written, folded: {rule position: entries}}}};
- ``solo_nome``: documents whose text is only a name, ``nomi``: such a name (folded words) -> its
  documents;
- ``forza_costituzione``: what power/toughness notation («2/2», «X/X») also means, as words (the
  server's weaker second reading), postings as above;
- ``cornici``: the question frames (judge/search/frames.py), each [phrases, subject groups, rules],
  a phrase a list of [folded word, Italian stem or null]; ``domande``: the questions the search
  learned from (judge/search/learned.py), each [its Italian stems, its rules] for a situation, [its
  Italian stems, its rules, its likeness factor] for the other kinds;
- ``risposta``: what the quick answer to a frame needs: ``cornici``, each frame's name (in the order
  of ``cornici`` above), ``chiede``, what each name asks (frames.py ASKS), ``fine_frase``, the pattern
  that splits a rule's text into sentences, ``caratteri``, the answering sentence's length, ``entro``,
  among how many first results the frame's rule must be (answers.py), ``forza_costituzione``, the
  [language, stem] pairs a unit of power/toughness notation also asks for (query.py PT_WORDS); and for the answer
  from an entry, ``caratteri_testo``, the rule's text's length (answers.py ANSWER_CHARS), ``caratteri_voce``, the
  entry's (snippets.py SNIPPET_CHARS), ``rubriche_massime``, how many top rules a one-word query's headword may
  have (answers.py MAX_TOP_RULES);
- ``voci``: the analytic indexes' entries, {"it"|"en": a line per entry in the file's order, «headword TAB topic
  TAB rule positions» (base 36), the headword left empty where it is the line before's};
- ``carte``: the cards a question may name, their names and their rules (judge/search/offline_cards.py);
- ``ortografia``: the speller's words, ranked, and what the «known word» test needs
  (judge/search/offline_spelling.py);
- ``pesi``: the server's weights (query.py, layout.py, question.py, frames.py, learned.py; ``corretta``: a
  corrected word's, ``numero``: a cited rule number's), how many words are searched (syntax.py MAX_WORDS),
  the scores' scale and the number of documents (the coverage's rarity of a unit), what a phrase's score needs
  (``k1``, ``b``: BM25's constants, ``lunghezze``: the 256 lengths Whoosh keeps a field's length as),
  ``parole_vuote``: the stop words.
"""

from __future__ import annotations

import math

import numpy as np
from whoosh.util.numeric import byte_to_length

from judge.corpus import Corpus
from judge.search import question
from judge.search.analysis import ALL_STOPS, stem, terms, words
from judge.search.answers import ANSWER_CHARS, FRAME_WITHIN, MAX_TOP_RULES, SENTENCE_CHARS, SENTENCE_END
from judge.search.arrays import B, K1
from judge.search.frames import ASKS, NEXT_RULE, load_frames
from judge.search.layout import ITALIAN_BOOST
from judge.search.learned import MIN_SIMILARITY, NEIGHBOURS, SITUATION, WORD_NEIGHBOURS, stems as question_stems
from judge.search.offline_cards import b36 as _b36, build_cards
from judge.search.offline_spelling import build_spelling
from judge.search.query import (COVERAGE_IDF, FIELDS, PT_WORDS, W_CORRECTED, W_HEADING_ONLY, W_HEADWORD, W_NUMBER,
                                W_PT_MEANING, Engine, _field_query)
from judge.search.scoring import O, T
from judge.search.snippets import SNIPPET_CHARS
from judge.search.syntax import MAX_WORDS

FORMAT = 5
# Scores are stored as integers on a log scale, to a percent (tenths reordered near ties; hundredths
# made the file a fifth larger): round(STEPS × (ln score + OFFSET)), two base-36 digits for most.
STEPS, OFFSET = 100, 7.0


def _encode(docs: np.ndarray, scores: np.ndarray, doc_id: np.ndarray) -> str:
    pairs = sorted((int(doc_id[d]), float(s)) for d, s in zip(docs, scores))
    prev, parts = 0, []
    for d, s in pairs:
        w = int(round(STEPS * (math.log(s) + OFFSET))) if s > 0 else 0
        if w > 0:
            parts.append(f"{_b36(d - prev)}:{_b36(w)}")
            prev = d
    return " ".join(parts)


def build(corpus: Corpus, engine: Engine) -> dict:
    """The offline index of ``corpus``, from ``engine`` (the server's, open on the same corpus)."""
    sc = engine.scorer
    numbers = list(corpus.numbers)
    position = {n: i for i, n in enumerate(numbers)}
    doc_id = np.array([2 * position[f["number"]] + (f["lang"] == "en") for f in sc.stored], dtype=np.int64)
    index: dict[str, dict[str, str]] = {}
    for lang, fields in FIELDS.items():
        vocabulary = sorted({t for name, _ in fields for t in sc.terms(name)})
        out = index[lang] = {}
        for term in vocabulary:
            docs, scores = sc._fields(fields, (term,))
            encoded = _encode(docs, scores, doc_id)
            if encoded:
                out[term] = encoded
    glossary = engine.glossary
    concepts = []
    for c in glossary.concepts:
        keys = []
        for lang, seq in dict.fromkeys(glossary.analysed(c.id)):
            key = " ".join(seq)
            if len(seq) > 1 and key not in index[lang]:
                scores = sc.scores(_field_query(lang, list(seq), 1.0))
                docs = np.flatnonzero(scores > 0)
                index[lang][key] = _encode(docs, scores[docs], doc_id)
            keys.append([lang, key])
        concepts.append(keys)
    stems: dict[str, dict[str, list[int]]] = {"it": {}, "en": {}}
    for (lang, seq), ids in glossary._index.items():
        stems[lang][" ".join(seq)] = sorted(ids)
    headwords: dict[str, dict] = {"it": {}, "en": {}}
    for (lang, seq), by_heading in engine.headwords.counts.items():
        headwords[lang][" ".join(seq)] = {h: {str(position[n]): k for n, k in counts.items()}
                                          for h, counts in by_heading.items()}
    layout = engine.layout
    meaning = [T(f"body_{lang}", t, W_PT_MEANING) for lang, ws in PT_WORDS.items() for w in ws for t in terms(w, lang)]
    pt = sc.scores(O(tuple(meaning)))
    pt_docs = np.flatnonzero(pt > 0)
    return {
        "formato": FORMAT,
        "edizione": corpus.in_force.id,
        "versione": corpus.content_hash,
        "regole": numbers,
        "termini": index,
        "inglese": _english_stems(corpus, glossary, engine.headwords),
        "glossario": {
            "radici": stems,
            "forme": {" ".join(k): sorted(ids) for k, ids in glossary.surface_terms().items()},
            "parole": glossary.max_len,
            "concetti": concepts,
        },
        "rubriche": headwords,
        "solo_nome": sorted(int(doc_id[d]) for d in np.flatnonzero(layout.heading_only)),
        "nomi": {name: sorted(int(doc_id[d]) for d in docs) for name, docs in layout.named.items()},
        "forza_costituzione": _encode(pt_docs, pt[pt_docs], doc_id),
        **_questions(engine),
        "voci": _entries(corpus, position),
        "carte": build_cards(corpus, engine.game_words, engine._card_table()),
        "ortografia": build_spelling(engine, index),
        "pesi": {"italiano": ITALIAN_BOOST, "solo_nome": W_HEADING_ONLY, "rubrica": W_HEADWORD, "corretta": W_CORRECTED,
                 "numero": W_NUMBER, "parole": MAX_WORDS, "passi": STEPS, **_phrase_weights(),
                 "scarto": OFFSET, "rarita": COVERAGE_IDF, "documenti": sc.n, **_question_weights()},
        "parole_vuote": sorted(ALL_STOPS),
    }


def _questions(engine: Engine) -> dict:
    """What the server knows of questions: the frames and the questions it learned from (the engine's
    memory: the tuning half, then the rules' and the cards' questions with their likeness factor)."""
    def phrase(p):  # [word, its Italian stem or None]
        return [[w, k[1:] if k else None] for w, k in p]

    frames = load_frames()
    rows = [[[phrase(p) for p in f.phrases], [[phrase(p) for p in g] for g in f.subject], list(f.rules)]
            for f in frames]
    asked = [[sorted(question_stems(a.text)), list(a.rules), *([a.likeness] if a.kind != SITUATION else [])]
             for a in engine.memory.asked]
    return {"cornici": rows, "domande": asked, "risposta": _answer_data(frames)}


def _answer_data(frames) -> dict:
    """What the quick answer to a question's frame needs (judge/search/answers.py ``frame_answer``): each
    frame's name, in the order of ``cornici``, and what each name asks, once; the pattern a rule's text is
    split into sentences with, the answering sentence's length, among how many first results the frame's
    rule must be; and the stems a unit of power/toughness notation also asks for (query.py PT_WORDS)."""
    return {"cornici": [f.name for f in frames], "chiede": ASKS, "fine_frase": SENTENCE_END.pattern,
            "caratteri": SENTENCE_CHARS, "entro": FRAME_WITHIN,
            "forza_costituzione": [[lang, s] for lang, ws in PT_WORDS.items() for w in ws if (s := stem(w, lang))],
            "caratteri_testo": ANSWER_CHARS, "caratteri_voce": SNIPPET_CHARS, "rubriche_massime": MAX_TOP_RULES}


def _entries(corpus: Corpus, position: dict[str, int]) -> dict[str, str]:
    """The analytic indexes' entries, for the quick answer that comes from one (answers.py best_entry,
    quick_answer): per language a line per entry in the file's order (the order best_entry meets a rule's
    entries in, which decides its ties), «headword TAB topic TAB rule positions» (base 36), the headword left
    empty where it is the line before's; the browser stems them as the server does."""
    out: dict[str, str] = {}
    for lang, index in corpus.analytic_indexes.items():
        lines, before = [], None
        for e in index.entries:
            rules = " ".join(_b36(position[n]) for n in e.rules if n in position)
            if rules:
                lines.append(f"{'' if e.heading == before else e.heading}\t{e.topic}\t{rules}")
                before = e.heading
        out[lang] = "\n".join(lines)
    return out


def _phrase_weights() -> dict:
    """What the browser needs to score a phrase in quotes as the server's scorer (scoring.py): BM25's
    constants and the lengths Whoosh keeps a field's length as (one byte: the first not below it)."""
    return {"k1": K1, "b": B, "lunghezze": [byte_to_length(i) for i in range(256)]}


def _question_weights() -> dict:
    """How much a question's frame, its frame's words and the questions like it weigh (the server's)."""
    return {"cornice": question.W_FRAME, "parola_cornice": question.W_FRAME_WORD, "regola_seguente": NEXT_RULE,
            "domande": question.W_LEARNED, "vicine": NEIGHBOURS, "domande_parole": question.W_LEARNED_WORDS,
            "vicine_parole": WORD_NEIGHBOURS, "somiglianza_minima": MIN_SIMILARITY}


def _english_stems(corpus: Corpus, glossary, headwords) -> dict[str, str]:
    """Folded English words whose stem differs from them: the rules' words, the glossary's and the
    headwords' (what a query may be made of)."""
    texts: list[str] = []
    for n in corpus.numbers:
        r = corpus.rules[n]
        if r.en is not None:
            texts += [r.en.text, *r.en.examples]
    texts += [t for c in glossary.concepts for t in c.all_terms]
    texts += [h for by_heading in headwords.counts.values() for h in by_heading]
    out: dict[str, str] = {}
    seen: set[str] = set()
    for text in texts:
        for w in words(text):
            if w in seen or w.isdigit():
                continue
            seen.add(w)
            s = terms(w, "en")
            if s and s[0] != w:
                out[w] = s[0]
    return dict(sorted(out.items()))
