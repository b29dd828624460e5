"""Loading the corpus: the files it is made of, the corpus kept in memory while they are unchanged,
and on disk (judge/build_cache.py) between runs.

A corpus is the same for the same files, so once assembled it is kept in the build cache under a
hash of their contents, with what every start needs from it computed (the rule trace between
consecutive editions, the rules citing each rule). When a file changes, only what reads it is
parsed again: each English edition is kept on its own (by the hash of its file), as is each
trace (by the texts of its two editions), so an edited translation file re-reads that file and
assembles the corpus again, without parsing six editions or tracing them again.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from judge import RULES_EN_DIR, RULES_IT_DIR, build_cache
from judge.corpus.analytic_index import ANALYTIC_INDEX_FILES, parse_analytic_index
from judge.corpus.edition_register import REGISTER_FILE, read_register
from judge.corpus.model import Corpus
from judge.corpus.rules_en import Edition, edition_paths, parse_edition
from judge.corpus.rules_it import INDEX_FILE, load_sections, parse_index_file
from judge.corpus.terminology import TERMINOLOGY_FILE, parse_terminology
from judge.corpus.translation import TRANSLATION_DIR, parse_translation_file, translation_paths

_cache: dict[tuple, Corpus] = {}
_lock = threading.Lock()
# Folders -> (monotonic time of the last look at the files, corpus then current).
_recent: dict[tuple, tuple[float, Corpus]] = {}  # (rules_it, rules_en) as given -> (when, corpus)
# How often the files are looked at again: edits show up within this delay, and a
# busy server does not pay a directory scan on every request.
RECHECK_SECONDS = 1.0
# Corpora kept in memory: the current one and the one before (engines opened on it finish their work).
KEEP_IN_MEMORY = 3


def _fingerprint(paths: list[Path]) -> tuple:
    out = []
    for p in paths:
        st = p.stat()
        out.append((str(p), st.st_mtime_ns, st.st_size))
    return tuple(out)


def corpus_files(rules_it: Path, rules_en: Path) -> list[Path]:
    """Every file the corpus is made of: a change to any of them makes a new corpus."""
    it_files = sorted(p for p in rules_it.glob("*.md") if not p.name.startswith(("_", "README")))
    names = [TERMINOLOGY_FILE, *ANALYTIC_INDEX_FILES.values()]
    tables = [rules_it / name for name in names if (rules_it / name).exists()]
    register = [rules_en / REGISTER_FILE] if (rules_en / REGISTER_FILE).exists() else []
    return it_files + translation_paths(rules_it / TRANSLATION_DIR) + tables + edition_paths(rules_en) + register


def _edition(path: Path) -> Edition:
    key = build_cache.digest(build_cache.code_digest("corpus"), str(path), build_cache.file_digest(path))
    return build_cache.value("edizione", key, lambda: parse_edition(path), f"edizione inglese {path.name}", keep=16)


def share_texts(editions: list[Edition]) -> None:
    """One string for a text that several editions hold: six editions are 18,800 rule texts but
    3,200 distinct ones (8 MB of a server's memory kept once instead of six times)."""
    seen: dict[str, str] = {}
    for e in editions:
        for r in e.rules:
            r.text = seen.setdefault(r.text, r.text)
            r.examples = [seen.setdefault(x, x) for x in r.examples]
        e.glossary = {seen.setdefault(k, k): seen.setdefault(v, v) for k, v in e.glossary.items()}
        e.sections = {k: seen.setdefault(v, v) for k, v in e.sections.items()}
        e.chapters = {k: seen.setdefault(v, v) for k, v in e.chapters.items()}


def assemble(rules_it: Path, rules_en: Path, files: list[Path]) -> Corpus:
    """The corpus from its files, with what a start needs computed: the traces between editions
    and the rules citing each rule."""
    editions = [_edition(p) for p in edition_paths(rules_en)]
    share_texts(editions)
    index_path = rules_it / INDEX_FILE
    nav = parse_index_file(index_path) if index_path.exists() else None
    translation = [parse_translation_file(p) for p in translation_paths(rules_it / TRANSLATION_DIR)]
    terms_path = rules_it / TERMINOLOGY_FILE
    terminology = parse_terminology(terms_path) if terms_path.exists() else None
    analytic = {lang: parse_analytic_index(rules_it / name, lang)
                for lang, name in ANALYTIC_INDEX_FILES.items() if (rules_it / name).exists()}
    register = read_register(rules_en / REGISTER_FILE)
    corpus = Corpus(editions, load_sections(rules_it), nav, files, translation, terminology, analytic, register)
    for old, new in zip(editions, editions[1:]):
        corpus.lineage.trace(old, new)
    corpus.cited_by  # noqa: B018 - computed now, kept with the corpus
    corpus.content_hash  # noqa: B018
    return corpus


def _build(rules_it: Path, rules_en: Path, files: list[Path]) -> Corpus:
    key = build_cache.digest(build_cache.code_digest("corpus"), str(rules_it.resolve()), str(rules_en.resolve()),
                             *(f"{p.name}:{build_cache.file_digest(p)}" for p in files))
    editions = len(edition_paths(rules_en))
    return build_cache.value("corpus", key, lambda: assemble(rules_it, rules_en, files),
                             f"corpus ({editions} edizioni inglesi, {len(files)} file)", keep=4)


def load_corpus(
    rules_it: Path | None = None, rules_en: Path | None = None, max_age: float = RECHECK_SECONDS
) -> Corpus:
    """The corpus from the given folders (default: the repository's); cached until a file changes.

    Files are looked at again at most every ``max_age`` seconds (0: now)."""
    # As given, defaults filled in (the module's Path objects, their hash cached): no Path built per request.
    asked = (rules_it if rules_it is not None else RULES_IT_DIR, rules_en if rules_en is not None else RULES_EN_DIR)
    now = time.monotonic()
    recent = _recent.get(asked)
    if recent is not None and now - recent[0] < max_age:
        return recent[1]
    rules_it = Path(rules_it or RULES_IT_DIR)
    rules_en = Path(rules_en or RULES_EN_DIR)
    files = corpus_files(rules_it, rules_en)
    key = _fingerprint(files)
    with _lock:
        cached = _cache.get(key)
        if cached is not None:
            _recent[asked] = (now, cached)
            return cached
        corpus = _build(rules_it, rules_en, files)
        while len(_cache) >= KEEP_IN_MEMORY:
            _cache.pop(next(iter(_cache)))
        _cache[key] = corpus
        kept = {id(c) for c in _cache.values()}
        for folders in [k for k, (_, c) in _recent.items() if id(c) not in kept]:
            del _recent[folders]
        _recent[asked] = (now, corpus)
        return corpus
