"""A full question read by meaning too (judge/search/meaning.py, learned.py: ``Meant``): the model's vectors
of the learned questions, a question's own vector, and how they join the likeness in words."""

from __future__ import annotations

import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.search import meaning
from judge.search.learned import (CARD, NEIGHBOURS, RULE, SITUATION, W_MEANING, Asked, Memory,
                                  get_memory)
from judge.search.meaning_write import memory_texts


@pytest.fixture(scope="module")
def encoder():
    """The real model (a dependency on Linux x86-64, where the tests run; elsewhere the search reads words
    and these tests are skipped)."""
    if not meaning._cpu_runs_it():
        pytest.skip("the model cannot run on this processor")
    found, status = meaning.new_encoder()
    assert found is not None, status.reason
    return found


def test_the_vectors_file_holds_every_question_of_the_memory_and_no_other():
    """Written by meaning_write.py from the memory's files: a question added without its vector (or a
    vector left of a question removed) fails here until the file is written again."""
    assert set(meaning.read_vectors()) == set(memory_texts())


def test_the_stored_vectors_are_the_models(encoder):
    """A sample of the file, computed again: the same vectors (int8 on disk: cosine above 0.99)."""
    stored = meaning.read_vectors()
    sample = random.Random(36).sample(sorted(stored), 12)
    fresh = encoder.vectors(sample)
    cosines = [float(stored[t] @ v) for t, v in zip(sample, fresh)]
    assert min(cosines) > 0.99, cosines


def test_a_question_in_other_words_finds_the_learned_question_by_meaning(encoder):
    """No stem in common, the same situation: the words find nothing, the meaning finds it, and its rule.
    A question about something else stays below the floor."""
    learned = [Asked("chi controlla la creatura dopo che l'avversario me l'ha rubata?", ("613.1b",), "a"),
               Asked("quante carte si pescano all'inizio della partita?", ("103.5",), "b")]
    vectors = dict(zip((a.text for a in learned), encoder.vectors([a.text for a in learned])))
    words_only = Memory(learned)
    by_meaning = Memory(learned, vectors=vectors, encoder=lambda: encoder)
    for asked, rule in (("il mio mostro me l'hanno preso: di chi è adesso?", "613.1b"),
                        ("con quanti cartoni in mano si comincia?", "103.5")):
        assert words_only.rules_for(asked) == {}
        got = by_meaning.rules_for(asked)
        assert set(got) == {rule} and 0 < got[rule] <= W_MEANING, (asked, got)


def test_without_a_model_the_memory_reads_words_only(engine):
    """No encoder in the process (package missing, JUDGE_SIGNIFICATO=0): the neighbours are those of words."""
    memory = Memory(engine.memory.asked, vectors=meaning.read_vectors(), encoder=lambda: None)
    words = get_memory(engine.corpus, by_meaning=False)
    for text in ("Se la creatura che attacca viene rimossa dal combattimento prima del danno, infligge danno "
                 "lo stesso?",
                 "Chi controlla l'abilità innescata di una creatura che ho rubato?"):
        assert memory.rules_for(text) == words.rules_for(text)


def test_the_switch_and_the_status_say_why_the_search_reads_words_only(monkeypatch):
    monkeypatch.setenv(meaning.SWITCH, "0")
    found, status = meaning._load()
    assert found is None and not status.active and not status.broken and meaning.SWITCH in status.reason
    assert status.as_json()["attivo"] is False and "per parole" in status.as_json()["stato"]
    monkeypatch.setenv(meaning.SWITCH, "1")
    if meaning._cpu_runs_it():  # here: x86-64 with AVX2 and FMA, the package, the file
        assert meaning._why_not() is None


class Watched:
    """The real model, watched: how many inferences run at once, on which threads, how many in all."""

    def __init__(self, model):
        self.model, self.lock = model, threading.Lock()
        self.running = self.most = self.calls = 0
        self.threads: set[int] = set()

    def query(self, texts):
        with self.lock:
            self.running += 1
            self.calls += 1
            self.most = max(self.most, self.running)
            self.threads.add(threading.get_ident())
        try:
            return self.model.query(texts)
        finally:
            with self.lock:
                self.running -= 1


def test_many_threads_get_the_vectors_one_thread_gets_one_inference_at_a_time(encoder):
    """The server's 8 threads ask at once: the same vectors as one at a time, every inference on the
    encoder's own thread, never two at once (one OpenMP pool, not one per server thread), and a question
    asked by several at once, or again, is inferred once."""
    watched = Watched(encoder._model)
    shared = meaning.Encoder(watched)
    texts = [f"se la creatura {i} viene distrutta in risposta, la magia si risolve?" for i in range(16)]
    want = encoder.vectors(texts)
    got: dict[int, np.ndarray] = {}

    def ask(i: int) -> None:
        got[i] = shared.vector(texts[i % 16])

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(48)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 48 and all(float(v @ want[i % 16]) > 0.999 for i, v in got.items())
    assert watched.most == 1 and len(watched.threads) == 1 and threading.get_ident() not in watched.threads
    # Asked at once or again: inferred once (with JUDGE_SEARCH_CACHE=0 nothing is kept, only shared in flight).
    assert watched.calls == 16 if meaning.CACHE else 16 <= watched.calls <= 48
    again = shared.vector(texts[0])
    assert np.array_equal(again, got[0])  # the first answer and the kept one are the same vector


def test_a_damaged_vectors_file_leaves_the_words_and_says_so(tmp_path, monkeypatch):
    """Cut short, empty or of another shape: no vectors (the memory reads words, the search answers) and the
    status is a problem for /salute; a file written whole reads back."""
    monkeypatch.setattr(meaning, "_unreadable", None)
    good = tmp_path / "vettori.npz"
    vectors = np.eye(3, meaning.DIM, dtype=np.float32)
    meaning.write_vectors(["a", "b", "c"], vectors, good)
    back = meaning.read_vectors(good)
    assert list(back) == ["a", "b", "c"] and all(float(back[t] @ v) > 0.99 for t, v in zip("abc", vectors))
    assert not list(tmp_path.glob("*.parziale")) and meaning._unreadable is None
    for damaged in (good.read_bytes()[:200], b""):
        bad = tmp_path / "rotto.npz"
        bad.write_bytes(damaged)
        assert meaning.read_vectors(bad) == {}
        status = meaning.status()
        assert status.broken and not status.active and "illeggibile" in status.reason
        monkeypatch.setattr(meaning, "_unreadable", None)
    meaning.write_vectors(["a", "b"], vectors, tmp_path / "storto.npz")  # three vectors for two texts
    assert meaning.read_vectors(tmp_path / "storto.npz") == {} and meaning.status().broken


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(["creatura", "distrutta", "torna", "mano", "pila", "magia", "bersaglio",
                                  "danno", "combattimento", "segnalino", "rubata", "controllo"]),
                min_size=1, max_size=8),
       st.lists(st.tuples(st.lists(st.sampled_from(["creatura", "distrutta", "torna", "mano", "pila", "danno"]),
                                   min_size=1, max_size=5),
                          st.sampled_from(["400.7", "701.8a", "506.4", "608.2b"]),
                          st.sampled_from([SITUATION, RULE, CARD])), min_size=1, max_size=8))
def test_meaning_adds_to_the_likeness_in_words_and_keeps_weights_between_0_and_1(encoder, words, asked):
    learned = [Asked(" ".join(w), (n,), str(i), kind) for i, (w, n, kind) in enumerate(asked)]
    vectors = dict(zip((a.text for a in learned), encoder.vectors([a.text for a in learned])))
    memory = Memory(learned, vectors=vectors, encoder=lambda: encoder)
    text = " ".join(words)
    near = memory.nearest(text)
    assert len(near) <= NEIGHBOURS
    assert [s for s, _ in near] == sorted((s for s, _ in near), reverse=True)
    assert all(0 < s <= a.likeness * (1 + W_MEANING) + 1e-6 for s, a in near)
    # A neighbour in words is at least as near with meaning added (it may only be pushed out of the k).
    in_words = {id(a): s for s, a in Memory(learned).nearest(text)}
    assert all(s >= in_words[id(a)] - 1e-9 for s, a in near if id(a) in in_words)
    weights = memory.rules_for(text)
    assert set(weights) == {n for _, a in near for n in a.rules}
    assert all(0 < w <= 1.0 for w in weights.values())
