"""A rule across every edition: where a number cited under an old edition is now, and what a
rule in force was called before. Built on the trace between consecutive editions.

A citation is read in the edition it was written under: "726.1" in a ruling of December
2025 (edition 20251114) is Restarting the Game, today 727.1 — not today's 726.1.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from judge import build_cache
from judge.corpus.numbers import RuleNumber, RuleNumberError, is_chapter
from judge.corpus.rules_en import Edition
from judge.corpus.trace import MODIFIED, MOVED, MOVED_MODIFIED, UNCHANGED, Step, Trace, full_text

ABSENT = "inesistente"  # the number does not exist in the edition it was read in
GONE = "rimossa"


@dataclass(frozen=True)
class Whereabouts:
    """Where ``cited``, read in ``edition``, is in the edition in force.

    ``now`` is its number there (None when it was removed or never existed); ``steps`` holds
    one trace step per later edition; ``removed_in`` the edition that no longer has it."""

    cited: str
    edition: Edition
    exists: bool
    now: str | None
    steps: tuple[Step, ...] = ()
    removed_in: Edition | None = None

    @property
    def text_changed(self) -> bool:
        """Whether its text (or title) changed beyond following the renumbering."""
        return any(s.text_changed and not s.renumbering_only for s in self.steps)

    @property
    def status(self) -> str:
        """"invariata", "modificata", "spostata", "spostata e modificata" (by meaning: a text that
        only follows the renumbering counts as unchanged), "rimossa" or "inesistente"."""
        if not self.exists:
            return ABSENT
        if self.now is None:
            return GONE
        moved = self.now != self.cited
        if moved:
            return MOVED_MODIFIED if self.text_changed else MOVED
        return MODIFIED if self.text_changed else UNCHANGED


@dataclass(frozen=True)
class Version:
    """A rule in one edition: its number there (None: absent), how it came from the edition
    before (``step``), and, when its current number meant another rule in this edition, where
    that other rule is now (``homonym_now``; None when it was removed)."""

    edition: Edition
    number: str | None
    text: str | None
    step: Step | None = None
    homonym: bool = False
    homonym_now: str | None = None


def _text(edition: Edition, number: str) -> str | None:
    """The text of a rule (with examples), or the title of a section or chapter; None when
    ``number`` is not a canonical number of ``edition``."""
    if is_chapter(number):
        return edition.chapters.get(int(number))
    try:
        parsed = RuleNumber.parse(number)
    except RuleNumberError:
        return None
    if str(parsed) != number:
        return None
    if parsed.rule is None:
        return edition.sections.get(parsed.section)
    rule = edition.rule(number)
    return full_text(rule) if rule else None


def cached_trace(old: Edition, new: Edition) -> Trace:
    """The trace between two editions, from the build cache when these two texts were traced before."""
    key = build_cache.digest(build_cache.code_digest("corpus"), old.fingerprint, new.fingerprint)
    trace = build_cache.value("traccia", key, lambda: Trace(old, new), f"traccia delle regole {old.id} → {new.id}",
                              keep=12)
    trace.attach(old, new)
    return trace


class Lineage:
    """The editions, oldest first (the last is in force), with the traces between them, computed
    on first use and kept."""

    def __init__(self, editions: list[Edition]):
        self.editions = editions
        self._traces: dict[tuple[str, str], Trace] = {}
        self._lock = threading.Lock()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        del state["_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()
        by_id = {e.id: e for e in self.editions}
        for (old, new), trace in self._traces.items():
            trace.attach(by_id[old], by_id[new])

    @property
    def in_force(self) -> Edition:
        return self.editions[-1]

    def edition(self, ident: str) -> Edition | None:
        return next((e for e in self.editions if e.id == ident), None)

    def trace(self, old: Edition, new: Edition) -> Trace:
        key = (old.id, new.id)
        found = self._traces.get(key)
        if found is None:
            with self._lock:
                found = self._traces.get(key)
                if found is None:
                    found = self._traces[key] = cached_trace(old, new)
        return found

    def exists(self, edition: Edition, number: str) -> bool:
        return _text(edition, number) is not None

    def follow(self, number: str, edition: Edition) -> Whereabouts:
        """Where ``number`` of ``edition`` is in the edition in force."""
        if not self.exists(edition, number):
            return Whereabouts(number, edition, False, None)
        start = self.editions.index(edition)
        steps: list[Step] = []
        current: str | None = number
        for older, newer in zip(self.editions[start:], self.editions[start + 1:]):
            step = self.trace(older, newer).step_from(current)
            if step is None:
                return Whereabouts(number, edition, True, None, tuple(steps), newer)
            steps.append(step)
            current = step.new
            if current is None:
                return Whereabouts(number, edition, True, None, tuple(steps), newer)
        return Whereabouts(number, edition, True, current, tuple(steps))

    def history(self, number: str) -> list[Version]:
        """The rule numbered ``number`` in the edition in force, through every edition (oldest first)."""
        versions: list[Version] = []
        current: str | None = number
        for index in range(len(self.editions) - 1, -1, -1):
            edition = self.editions[index]
            came = None
            if current is not None and index > 0:
                came = self.trace(self.editions[index - 1], edition).step_to(current)
            homonym = current != number and self.exists(edition, number)
            homonym_now = self.follow(number, edition).now if homonym else None
            versions.append(Version(edition, current, _text(edition, current) if current else None, came,
                                    homonym, homonym_now))
            current = came.old if came is not None else None
        versions.reverse()
        return versions
