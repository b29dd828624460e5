"""The Whoosh index on disk: one document per rule per language, built on first use, swapped atomically.

A rule's Italian document holds the Italian text shown first (``Rule.italian``: the community text
while current, otherwise the project's translation) in ``body_it``, and the other Italian text, if
any (the translation behind a current community text, or an outdated community text), in ``alt_it``:
three text layers, two documents, each analysed in its own language.

Layout under the instance folder::

    <instance>/index/<content_hash>-v<SCHEMA_VERSION>/   the index in use (Whoosh files, arrays.pickle,
                                                         vocabulary.json)
    <instance>/index/.build-*/                           a build in progress (renamed when complete)
    <instance>/index/.lock                               held while building (fcntl), across processes

A new corpus (different content hash) or a new schema gives a new folder name: the
first process that needs it fills it in a temporary folder and renames it into
place, so readers only ever open complete indexes. It is filled by copying the index
the build cache holds for that corpus (judge/build_cache.py), built there once for
every instance folder. Concurrent builders serialise
on the lock; whoever comes second finds the folder ready and builds nothing.
Older folders are removed, keeping the previous one for readers still using it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from whoosh import index as windex
from whoosh.fields import ID, STORED, TEXT, Schema

from judge import build_cache
from judge.corpus.citations import cited_numbers
from judge.corpus import Corpus, load_corpus
from judge.search.analysis import EN, IT, words
from judge.search.arrays import Capture

SCHEMA_VERSION = 14
INDEX_DIRNAME = "index"
LOCK_TIMEOUT = 300.0

try:  # pragma: no cover - always available on Linux
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]


def make_schema() -> Schema:
    return Schema(
        id=ID(unique=True, stored=True),
        number=ID(stored=True),
        kind=ID(stored=True),
        section=ID(stored=True),
        chapter=ID(stored=True),
        lang=ID(stored=True),
        version=STORED(),
        text=STORED(),  # the rule text as shown (snippets are cut from it)
        order=STORED(),  # position in the rule order, for stable ties
        layer=STORED(),  # "comunità", "traduzione" or "ufficiale"
        # The rule's own text, in its language's analyzer.
        body_it=TEXT(analyzer=IT, phrase=True),
        body_en=TEXT(analyzer=EN, phrase=True),
        # The other Italian text of the rule (see the module docstring).
        alt_it=TEXT(analyzer=IT, phrase=True),
        # Context: section title and parent rule ("Trample" for 702.19b), in both languages.
        ctx_it=TEXT(analyzer=IT, phrase=True),
        ctx_en=TEXT(analyzer=EN, phrase=True),
        # Terms of the Comprehensive Rules glossary whose definition points to this rule.
        terms_en=TEXT(analyzer=EN, phrase=True),
        # What the rule is called: the title of a section or of a rule that is a title ("Crew"), on
        # the heading and on the rule right under it that defines it (702.122a, 613.1), and the
        # Italian glossary terms pointing to it.
        title_it=TEXT(analyzer=IT, phrase=True),
        title_en=TEXT(analyzer=EN, phrase=True),
        # The analytic indexes' entries pointing to the rule (rules_it/indice_analitico*.tsv): the
        # doubts it answers, in players' words, each on the document of its language.
        index_it=TEXT(analyzer=IT, phrase=True),
        index_en=TEXT(analyzer=EN, phrase=True),
        # Examples, weak evidence.
        examples_it=TEXT(analyzer=IT, phrase=False),
        examples_en=TEXT(analyzer=EN, phrase=False),
    )


def _glossary_terms(corpus: Corpus) -> dict[str, list[str]]:
    """Rule number -> CR glossary terms whose definitions cite it ("Trample" -> 702.19)."""
    out: dict[str, list[str]] = {}
    for term, definition in corpus.in_force.glossary.items():
        for n in cited_numbers(definition)[:4]:
            if n in corpus:
                out.setdefault(n, []).append(term)
    return out


def _translated_terms(corpus: Corpus) -> dict[str, list[str]]:
    """Rule number -> the project's Italian terms of CR glossary entries citing it ("Travolgere" -> 702.19)."""
    out: dict[str, list[str]] = {}
    for entry in (getattr(corpus, "glossary", None) or {}).values():
        if not entry.it_term:
            continue
        for n in cited_numbers(entry.text)[:4]:
            if n in corpus:
                out.setdefault(n, []).append(entry.it_term)
    return out


def is_title(rule) -> bool:
    """A section, or a rule whose text is only a name with rules under it ("702.122 Crew")."""
    if rule is None or rule.kind == "capitolo":
        return False
    if rule.kind == "sezione":
        return True
    en = rule.en.text.strip() if rule.en is not None else ""
    return bool(rule.children) and bool(en) and not en.endswith((".", ":")) and len(en.split()) <= 6


def titles(corpus: Corpus, number: str, lang: str) -> list[str]:
    """The name a rule is known by: its own if it is a title, its parent's if it is the parent's
    first rule (the one that defines it: 702.122a for "Crew", 613.1 for the layers)."""
    rule = corpus.get(number)
    out = []
    if is_title(rule) or (rule is not None and rule.kind == "capitolo"):
        out.append(shown_text(rule, lang))
    parent = corpus.parent(number)
    if is_title(parent) and parent.children and parent.children[0] == number:
        out.append(shown_text(parent, lang))
    return [t.text for t in out if t is not None and t.text.strip()]


def shown_text(rule, lang: str):
    """The text of ``rule`` in ``lang`` as the site shows it first (Italian: ``Rule.italian``)."""
    if rule is None:
        return None
    return getattr(rule, "italian", rule.it) if lang == "it" else rule.en


def layer_of(t) -> str:
    """Which text layer ``t`` is: "ufficiale" (English), "comunità" (wiki) or "traduzione" (the project's)."""
    return t.layer or ("ufficiale" if t.lang == "en" else "comunità")


def other_italian(rule):
    """The Italian text not shown first: the translation behind a current community text, or the
    outdated community text behind the translation."""
    shown = shown_text(rule, "it")
    for t in (rule.it, getattr(rule, "tr", None)):
        if t is not None and t is not shown and t.text.strip():
            return t
    return None


def _context(corpus: Corpus, number: str, lang: str) -> str:
    rule = corpus.get(number)
    if rule is None:
        return ""
    parts: list[str] = []
    if rule.is_heading:
        # A heading is the context of itself: its title counts as much as for the rules under it.
        parts.append(shown_text(rule, lang))
    section = corpus.section_of(number)
    if section is not None and section.number != number:
        parts.append(shown_text(section, lang))
    if rule.kind == "sezione":
        parts.append(shown_text(corpus.chapter_of(number), lang))
    parent = corpus.parent(number)
    if parent is not None and parent.kind in ("regola", "sottoregola") and parent.number != number:
        parts.append(shown_text(parent, lang))
    return "\n".join(t.text for t in parts if t)


def documents(corpus: Corpus):
    """Every index document, as field dicts."""
    gloss = _glossary_terms(corpus)
    gloss_it = _translated_terms(corpus)
    for order, number in enumerate(corpus.numbers):
        rule = corpus.rules[number]
        ctx = {"it": _context(corpus, number, "it"), "en": _context(corpus, number, "en")}
        for lang in ("it", "en"):
            t = shown_text(rule, lang)
            if t is None or not t.text.strip():
                continue
            doc = {
                "id": f"{lang}:{number}",
                "number": number,
                "kind": rule.kind,
                "section": rule.section or "",
                "chapter": rule.chapter,
                "lang": lang,
                "layer": layer_of(t),
                "version": t.version,
                "text": t.text,
                "order": order,
                f"body_{lang}": t.text,
                "ctx_it": ctx["it"],
                "ctx_en": ctx["en"],
                f"examples_{lang}": "\n".join(t.examples),
            }
            alt = other_italian(rule) if lang == "it" else None
            if alt is not None:
                doc["alt_it"] = "\n".join([alt.text, *alt.examples])
            if number in gloss:
                doc["terms_en"] = "\n".join(gloss[number])
            entries = corpus.analytic_indexes[lang].for_rule(number)
            if entries:
                doc[f"index_{lang}"] = "\n".join(e.text for e in entries)
            named = {lang2: titles(corpus, number, lang2) for lang2 in ("it", "en")}
            named["it"] += gloss_it.get(number, [])
            for lang2 in ("it", "en"):
                if named[lang2]:
                    doc[f"title_{lang2}"] = "\n".join(named[lang2])
            yield doc


def vocabulary(corpus: Corpus) -> dict[str, int]:
    """Folded surface words of every text, with counts: what typo correction corrects towards."""
    counts: Counter[str] = Counter()
    for number in corpus.numbers:
        rule = corpus.rules[number]
        for t in (rule.it, getattr(rule, "tr", None), rule.en):
            if t is not None:
                counts.update(w for w in words(t.text) if not w.isdigit())
    for term in corpus.in_force.glossary:
        counts.update(words(term))
    for index in corpus.analytic_indexes.values():  # players' words: typed as is, never "corrected" away
        for entry in index.entries:
            counts.update(w for w in words(entry.text) if not w.isdigit())
    return dict(counts)


# -- locations ---------------------------------------------------------------------------------------

def index_root(instance: str | os.PathLike) -> Path:
    return Path(instance) / INDEX_DIRNAME


def index_name(corpus: Corpus) -> str:
    return f"{corpus.content_hash}-v{SCHEMA_VERSION}"


def index_path(instance: str | os.PathLike, corpus: Corpus | None = None) -> Path:
    corpus = corpus or load_corpus()
    return index_root(instance) / index_name(corpus)


def is_ready(path: Path) -> bool:
    """A complete, readable index is in ``path`` (a damaged one is not ready: it gets rebuilt)."""
    try:
        return (path / "vocabulary.json").is_file() and windex.exists_in(str(path))
    except Exception:  # whoosh raises all sorts on truncated or garbled files
        return False


def fingerprint(path: Path) -> tuple:
    """Identity of an index on disk: the folder's inode and every file's size and mtime.

    A changed fingerprint means the files under an open index were deleted, replaced or
    damaged: the engine reopens (and if needed rebuilds) rather than read them."""
    try:
        folder = path.stat().st_ino
        files = sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in path.iterdir() if p.is_file())
    except OSError:
        return ()
    return (folder, tuple(files))


# -- building ------------------------------------------------------------------------------------------

@contextlib.contextmanager
def _build_lock(root: Path, timeout: float = LOCK_TIMEOUT):
    root.mkdir(parents=True, exist_ok=True)
    lock_path = root / ".lock"
    with open(lock_path, "a+") as fh:
        if fcntl is not None:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise TimeoutError("indice di ricerca: un'altra costruzione non termina")
                    time.sleep(0.05)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def write_index(corpus: Corpus, target: Path) -> None:
    """Write a complete index (Whoosh files, the arrays the search reads and the vocabulary) into the
    empty folder ``target``; the vocabulary, written last, marks it complete."""
    ix = windex.create_in(str(target), make_schema())
    writer = ix.writer(limitmb=256, procs=1)
    capture = Capture(writer)
    step = build_cache.progress("indice di ricerca (documenti)", 2 * len(corpus.numbers))
    for doc in documents(corpus):
        writer.add_document(**doc)
        capture.document(doc)
        step.advance()
    writer.commit(optimize=True)
    ix.close()
    capture.arrays().save(target)
    meta = {
        "content_hash": corpus.content_hash,
        "schema": SCHEMA_VERSION,
        "built": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "words": vocabulary(corpus),
    }
    (target / "vocabulary.json").write_text(json.dumps(meta, ensure_ascii=False), encoding="utf-8")


def _cleanup(root: Path, keep: Path) -> None:
    """Remove stale builds and old indexes, keeping ``keep`` and the most recent other one."""
    now = time.time()
    others = []
    for p in root.iterdir():
        if p == keep or not p.is_dir():
            continue
        if p.name.startswith(".build-"):
            # A build older than the lock timeout was abandoned by a dead process.
            if now - p.stat().st_mtime > LOCK_TIMEOUT:
                shutil.rmtree(p, ignore_errors=True)
            continue
        others.append(p)
    others.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for p in others[1:]:
        shutil.rmtree(p, ignore_errors=True)


def ensure_index(instance: str | os.PathLike, corpus: Corpus | None = None, broken: tuple | None = None) -> Path:
    """The folder of an index for the current corpus, building it first if needed.

    ``broken`` is the fingerprint of an index found damaged while in use: if the folder
    still has that fingerprint it is rebuilt even though it looks complete."""
    corpus = corpus or load_corpus()
    root = index_root(instance)
    final = root / index_name(corpus)
    if broken is None and is_ready(final):
        return final
    with _process_lock, _build_lock(root):
        # Another thread or process may have built (or rebuilt) it while we waited.
        if is_ready(final) and (broken is None or fingerprint(final) != broken):
            return final
        tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=root))
        try:
            _fill(corpus, tmp)
            if final.exists():  # a broken leftover: move it aside, then swap
                shutil.rmtree(final, ignore_errors=True)
            os.rename(tmp, final)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        _cleanup(root, final)
    return final


def _fill(corpus: Corpus, target: Path) -> None:
    """A complete index into the empty folder ``target``: copied from the build cache, where it is
    built once for every instance folder (servers, workers, tests), or written here when the cache
    is off."""
    key = build_cache.digest(build_cache.code_digest("corpus", "search"), index_name(corpus))
    label = "indice di ricerca"
    with build_cache.directory("indice", key, lambda folder: write_index(corpus, folder), label, is_ready) as built:
        if built is None:
            write_index(corpus, target)
            return
        for p in built.iterdir():
            if p.is_file() and not p.name.endswith(".lock"):
                shutil.copy2(p, target / p.name)
    if not is_ready(target):  # the cached copy was damaged: this one is written here
        for p in target.iterdir():
            p.unlink()
        write_index(corpus, target)


_process_lock = threading.Lock()


def build_time(instance: str | os.PathLike, corpus: Corpus | None = None) -> float:
    """Seconds to build a whole index from scratch into a throwaway folder (for the benchmark)."""
    corpus = corpus or load_corpus()
    with tempfile.TemporaryDirectory(dir=instance) as d:
        t0 = time.perf_counter()
        write_index(corpus, Path(d))
        return time.perf_counter() - t0
