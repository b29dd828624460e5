"""The analyzers under the server's threads: never-seen words from many threads at once.

Whoosh's own stemming cache (an LFU dict pair) is not thread-safe: once it is full, evictions racing
between threads leave it inconsistent and every later unseen word raises (search broken until a
restart, issue 38). The analyzers must give the same terms from eight threads as from one, with no
error, well past the cache's size.
"""

from __future__ import annotations

import random
import string
import threading

from judge.search import analysis


def _never_seen_words(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    # Italian-looking words with stemmable endings, so the stemmer does real work on each.
    endings = ("azione", "mente", "ando", "ere", "are", "ità", "ivo", "ose", "ano", "issimo")
    return ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 11))) + rng.choice(endings)
            for _ in range(n)]


def _analyse(words: list[str]) -> list[tuple[str, ...]]:
    return [tuple(t.text for t in analysis.ANALYZERS[lang](w)) for w in words for lang in ("it", "en")]


def test_eight_threads_of_unseen_words_match_one_thread_with_no_error():
    threads_n = 8
    per_thread = analysis.STEMS_KEPT // 2  # together four times what the cache keeps: many evictions
    batches = [_never_seen_words(per_thread, seed) for seed in range(threads_n)]
    errors: list[BaseException] = []
    results: dict[int, list[tuple[str, ...]]] = {}
    start = threading.Barrier(threads_n)

    def work(i: int) -> None:
        start.wait()
        try:
            results[i] = _analyse(batches[i])
        except BaseException as exc:  # noqa: BLE001 - the test counts every failure
            errors.append(exc)

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads_n)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    assert errors == []
    # The same words afterwards, from one thread: the cache must still answer, and the same.
    for i, batch in enumerate(batches):
        assert results[i] == _analyse(batch)
    # And words never seen before still go through (the broken cache failed exactly here).
    fresh = _never_seen_words(2000, seed=99)
    assert all(len(terms) == 1 for terms in _analyse(fresh))


def test_the_stem_cache_stays_bounded():
    for lang in ("it", "en"):
        stemmer = next(f for f in analysis.ANALYZERS[lang].items if isinstance(f, analysis.ThreadSafeStemFilter))
        info = stemmer.cache_info()
        assert info.maxsize == analysis.STEMS_KEPT
        assert info.currsize <= analysis.STEMS_KEPT
