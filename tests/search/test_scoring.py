"""The numpy scorer against Whoosh itself: the same BM25F numbers for terms, the same documents for
phrases, and the same answers whether the index was read term by term or all at start-up."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from whoosh import query as wq
from whoosh.scoring import BM25F

from judge.search.arrays import from_reader
from judge.search.arrays import load as load_arrays
from judge.search.query import Engine
from judge.search.scoring import K1, B, Scorer

FIELDS = ("body_it", "body_en", "title_it", "examples_en")


@pytest.fixture(scope="module")
def scorer(engine):
    return engine.scorer


@pytest.fixture(scope="module")
def terms(scorer):
    """A seeded sample of real terms per field, rare and common alike."""
    rng = random.Random(7)
    out = {}
    for f in FIELDS:
        words = [w.decode() if isinstance(w, bytes) else w for w in scorer.reader.field_terms(f)]
        out[f] = rng.sample(words, 40)
    return out


def test_term_scores_are_whooshs_bm25f(scorer, terms):
    with scorer.ix.searcher(weighting=BM25F(B=B, K1=K1)) as s:
        for f in FIELDS:
            for t in terms[f]:
                ours = scorer._term(f, t)
                hits = s.search(wq.Term(f, t), limit=None, scored=True)
                theirs = {h.docnum: h.score for h in hits}
                assert dict(zip(ours[0].tolist(), ours[1].tolist())).keys() == theirs.keys(), (f, t)
                for d, v in zip(*ours):
                    assert v == pytest.approx(theirs[int(d)], rel=1e-5), (f, t)


def _phrases(scorer, n=80):
    """Real phrases: 2 or 3 consecutive words of some rules' shown text, through the field's analyzer
    (so stop words are gone and positions are the index's own)."""
    rng = random.Random(11)
    out = []
    for f, lang in (("body_it", "it"), ("body_en", "en")):
        analyzer = scorer.schema[f].analyzer
        docs = [d for d in range(scorer.n) if scorer.stored[d].get("lang") == lang]
        for d in rng.sample(docs, n // 2):
            at = {t.pos: t.text for t in analyzer(scorer.stored[d].get("text") or "", positions=True)}
            if len(at) < 3:
                continue
            start = rng.choice(sorted(at))
            words = tuple(at[p] for p in range(start, start + rng.choice((2, 3))) if p in at)
            if len(words) >= 2:
                out.append((f, words))
    return out


def test_phrases_match_the_documents_whoosh_finds(scorer):
    phrases = _phrases(scorer)
    assert len(phrases) >= 40
    found = 0
    with scorer.ix.searcher() as s:
        for f, words in phrases:
            ours = set(scorer._phrase(f, words)[0].tolist())
            theirs = {h.docnum for h in s.search(wq.Phrase(f, list(words)), limit=None)}
            assert ours == theirs, (f, words)
            found += bool(ours)
    assert found >= len(phrases) // 2  # most phrases drawn from the rules are found in them


def test_phrase_of_words_never_adjacent_matches_nothing(scorer, terms):
    # The first and the last of a sorted sample of common words are almost never adjacent in that
    # order; whatever Whoosh says, we must say the same.
    with scorer.ix.searcher() as s:
        for f in ("body_it", "body_en"):
            ws = terms[f]
            for a, b in zip(ws, reversed(ws)):
                ours = set(scorer._phrase(f, (a, b))[0].tolist())
                assert ours == {h.docnum for h in s.search(wq.Phrase(f, [a, b]), limit=None)}


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["body_it", "title_it", "body_en", "number", "lang"]), min_size=1, max_size=3),
       st.text(alphabet="abcdeilmnorstuz", min_size=1, max_size=8))
def test_unknown_terms_score_nothing(scorer, fields, word):
    for f in fields:
        docs, vals = scorer._term(f, word + "qq")  # "qq" ends no Italian or English stem in the rules
        assert len(docs) == 0 and len(vals) == 0


def test_preloaded_and_lazy_engines_rank_alike(engine, corpus):
    from judge.search.evaluate import load_questions

    queries = [q.q for q in load_questions()][::3] + ['"zona di comando"', "danno -combattimento", "+1/+1"]
    lazy = Engine(engine.path, corpus, saved_arrays=False)
    eager = Engine(engine.path, corpus)  # the arrays saved beside the index
    assert eager.scorer._flat is not None and lazy.scorer._flat is None
    for q in queries:
        a, b = lazy.search(q, per_page=10), eager.search(q, per_page=10)
        assert [(h.number, h.lang) for h in a.hits] == [(h.number, h.lang) for h in b.hits], q
        assert a.total == b.total, q


def test_preload_reads_every_term_of_the_index(engine, corpus):
    s = Scorer(engine.ix)
    s.postings("body_it", "dann")  # one term read before: kept, not read twice
    s.preload()
    terms = list(s.reader.all_terms())
    assert len(s._flat) == len(terms)
    # Every positional term keeps one key per position: as many as its frequencies add up to, and the
    # preloaded arrays hold what a term-by-term read gets.
    for f, t in terms[::97]:
        t = t.decode() if isinstance(t, bytes) else t
        p, fresh = s.postings(f, t), s._read(f, t)
        assert np.array_equal(p.docs, fresh.docs) and np.array_equal(p.tf, fresh.tf)
        assert len(p.docs) == len(p.tf) > 0
        if p.keys is not None:
            assert np.array_equal(p.keys, fresh.keys)
            assert len(p.keys) == int(p.tf.sum())
            assert np.all(np.diff(p.keys) > 0)  # sorted and unique: np.isin(assume_unique) relies on it
    s.close()


def test_the_arrays_saved_with_the_index_are_what_whoosh_holds(engine):
    """The arrays captured while Whoosh wrote the index (arrays.py) are what reading it back term by
    term gives: every term's documents, frequencies and positions, every document's stored fields
    and length norms."""
    saved = load_arrays(engine.path)
    read = from_reader(engine.scorer.reader, engine.ix.schema)
    assert saved is not None and saved.n == read.n == engine.ix.doc_count()
    assert saved.stored == read.stored
    assert saved.norm.keys() == read.norm.keys()
    for f in saved.norm:
        assert np.array_equal(saved.norm[f], read.norm[f]), f
    assert {f: set(t) for f, t in saved.postings.slot.items()} == {f: set(t) for f, t in read.postings.slot.items()}
    for f, terms in read.postings.slot.items():
        for t in terms:
            a, b = saved.postings.get(f, t), read.postings.get(f, t)
            assert np.array_equal(a.docs, b.docs) and np.array_equal(a.tf, b.tf), (f, t)
            assert (a.keys is None) == (b.keys is None) and (a.keys is None or np.array_equal(a.keys, b.keys)), (f, t)


def test_a_server_engine_reopened_after_a_rebuild_keeps_the_index_in_memory(tmp_path, corpus):
    """`judge serve` keeps its instance's index in memory; an index deleted under it is rebuilt
    beside it (meanwhile the engine in memory answers), and the engine reopened on the new index
    must be read into memory too, not read term by term."""
    import shutil
    import time

    from judge.search.engines import get_engine, keep_in_memory, rebuilding

    instance = tmp_path / "inst"
    first = keep_in_memory(instance)
    assert first.scorer._flat is not None
    shutil.rmtree(first.path)
    answering = get_engine(instance, corpus, verify=True)
    # While the rebuild runs the engine in memory answers; on a loaded machine the rebuild may
    # already be over, and then the new engine answers.
    assert answering is first or not rebuilding(instance)
    assert answering.search("travolgere").hits and first.search("travolgere").hits
    deadline = time.time() + 300
    while rebuilding(instance) and time.time() < deadline:
        time.sleep(0.2)
    again = get_engine(instance, corpus)
    assert again is not first and again.scorer._flat is not None
    assert [h.number for h in again.search("travolgere").hits] == [h.number for h in first.search("travolgere").hits]
    # Any other instance's engine reads the arrays saved with its index too.
    assert get_engine(tmp_path / "other", corpus).scorer._flat is not None
