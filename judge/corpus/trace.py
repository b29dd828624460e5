"""Where every rule went between two English editions: the rule trace.

Rules are matched across editions by text first and by number second, because
numbers move: in 20260417 the new section 722 (Preparation Cards) pushed the old
722–732 down to 723–733, so 726.1 in 20260227 (Restarting the Game) is 727.1 in 20260417,
and 726.1 in 20260417 is another rule (The Initiative, 725.1 in 20260227).

Matching, in order of how sure it is:

1. identical text (rule text and examples) — a pure move when the number differs;
2. identical text once citations are masked, where every citation that differs
   follows the renumbering found so far ("See rule 726" -> "See rule 727"):
   a change that only follows renumbering, repeated until nothing new matches;
3. similar text (word sequence ratio, or containment when a rule was extended),
   greedily from the best pair, preferring pairs whose parent rule (or section)
   went to the new parent — a subrule that follows its rule is expected, one that
   jumps elsewhere needs near-identical text — and the rule's own number (a rule
   rewritten in place, or split in two, keeps its number);
4. what is left at the same number on both sides is a modification (the rule was
   rewritten in place); the rest is added or removed.

Sections follow their rules (the new section most of an old section's rules went
to), then their title; chapters keep their number. Everything here is pure data.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import cached_property

from judge.corpus.numbers import RuleNumber, sort_key
from judge.corpus.rules_en import Edition

UNCHANGED = "invariata"
ADDED = "aggiunta"
REMOVED = "rimossa"
MODIFIED = "modificata"
MOVED = "spostata"
MOVED_MODIFIED = "spostata e modificata"
KINDS = (ADDED, REMOVED, MODIFIED, MOVED, MOVED_MODIFIED)  # the kinds a change can have, in display order

# A rule-like number in a rule text: a section ("726") or a rule ("726.1", "701.50a").
_NUMBER = re.compile(r"(?<![\w.])[1-9]\d{2}(?:\.\d+[a-z]{0,2})?(?!\w)")
_WORD = re.compile(r"§|\w+|[^\w\s]")

# Similarity a pair of rules needs to count as one rule: when the parent went to the new
# parent, and when it did not (a subrule that changes family needs near-identical text).
MIN_SIMILARITY = 0.5
MIN_SIMILARITY_ELSEWHERE = 0.85
_FOLLOWS_PARENT_BONUS = 0.1
# A rule rewritten in place stays at its number unless another place is clearly better.
_SAME_NUMBER_BONUS = 0.15
_MIN_CONTAINED_WORDS = 8  # shorter texts ("Blight") are contained in too much to count
_CONTAINMENT_WEIGHT = 0.9
_PREFILTER = 0.25  # word-set overlap below which two texts are not compared further


def full_text(rule) -> str:
    """A rule's text with its examples, as the trace compares them."""
    return "\n".join([rule.text, *rule.examples])


def mask_numbers(text: str) -> str:
    return _NUMBER.sub("§", text)


def numbers_in(text: str) -> list[str]:
    return _NUMBER.findall(text)


def _words(text: str) -> list[str]:
    return _WORD.findall(mask_numbers(text).lower())


def _parent(number: str) -> str:
    """The parent of a rule: its rule ("701.50" for "701.50a") or its section ("701")."""
    parsed = RuleNumber.parse(number)
    return str(parsed.parent)


def _depth(number: str) -> int:
    return RuleNumber.parse(number).depth


@dataclass(frozen=True, slots=True)
class Step:
    """One rule, section or chapter from one edition to the next.

    ``old``/``new`` are its numbers (None when added/removed); ``renumbering_only`` says that the
    text differs only in citations that follow the renumbering; ``level`` is "regola",
    "sezione" or "capitolo"; ``similarity`` is 1.0 for identical texts."""

    old: str | None
    new: str | None
    kind: str
    level: str = "regola"
    renumbering_only: bool = False
    similarity: float = 1.0

    @property
    def number(self) -> str:
        """The number to list it under: the new one, or the old one for a removal."""
        return self.new if self.new is not None else self.old  # type: ignore[return-value]

    @property
    def moved(self) -> bool:
        return self.kind in (MOVED, MOVED_MODIFIED)

    @property
    def text_changed(self) -> bool:
        return self.kind in (MODIFIED, MOVED_MODIFIED)


class _Matcher:
    """Pairs old rules with new ones (see the module docstring); ``pairs`` maps old -> new."""

    def __init__(self, old: dict[str, str], new: dict[str, str], old_sections, new_sections):
        self.old, self.new = old, new
        self.old_sections, self.new_sections = old_sections, new_sections
        self.pairs: dict[str, str] = {}
        self.taken: set[str] = set()
        self.similarity: dict[str, float] = {}
        self.section_map: dict[str, str] = {}

    def pair(self, o: str, n: str, similarity: float = 1.0) -> None:
        self.pairs[o] = n
        self.taken.add(n)
        self.similarity[o] = similarity

    def free_old(self) -> list[str]:
        return [o for o in self.old if o not in self.pairs]

    def free_new(self) -> list[str]:
        return [n for n in self.new if n not in self.taken]

    def forward(self, number: str) -> str | None:
        if "." in number:
            return self.pairs.get(number)
        return self.section_map.get(number)

    def follows_parent(self, o: str, n: str) -> bool:
        return self.forward(_parent(o)) == _parent(n)

    def run(self) -> None:
        self.exact()
        self.section_map = map_sections(self.pairs, self.old_sections, self.new_sections)
        self.renumbered()
        for depth in (1, 2):
            self.similar(depth)
            self.section_map = map_sections(self.pairs, self.old_sections, self.new_sections)
            self.renumbered()
        for o in self.free_old():
            if o in self.new and o not in self.taken:
                self.pair(o, o, similarity(self.old[o], self.new[o]))

    def exact(self) -> None:
        by_text: dict[str, list[str]] = defaultdict(list)
        for n, text in self.new.items():
            by_text[text].append(n)
        olds: dict[str, list[str]] = defaultdict(list)
        for o, text in self.old.items():
            olds[text].append(o)
        for text, old_numbers in olds.items():
            new_numbers = by_text.get(text)
            if not new_numbers:
                continue
            same = [o for o in old_numbers if o in new_numbers]
            for o in same:
                self.pair(o, o)
            rest_new = [n for n in new_numbers if n not in same]
            # Repeated texts ("Second, the active player gets priority.") pair in order.
            for o, n in zip([o for o in old_numbers if o not in same], rest_new):
                self.pair(o, n)

    def renumbered(self) -> None:
        """Pairs whose texts differ only in citations that follow the renumbering, until none is left."""
        while True:
            by_mask: dict[str, list[str]] = defaultdict(list)
            for n in self.free_new():
                by_mask[mask_numbers(self.new[n])].append(n)
            found = False
            for o in self.free_old():
                candidates = [
                    n for n in by_mask.get(mask_numbers(self.old[o]), [])
                    if n not in self.taken and only_renumbering(self.old[o], self.new[n], self.forward)
                ]
                if not candidates:
                    continue
                best = min(candidates, key=lambda n: (n != o, not self.follows_parent(o, n), sort_key(n)))
                self.pair(o, best)
                found = True
            if not found:
                return

    def similar(self, depth: int) -> None:
        olds = [o for o in self.free_old() if _depth(o) == depth]
        news = [n for n in self.free_new() if _depth(n) == depth]
        if not olds or not news:
            return
        new_words = {n: _words(self.new[n]) for n in news}
        new_sets = {n: set(w) for n, w in new_words.items()}
        scored: list[tuple[float, float, str, str]] = []
        for o in olds:
            words = _words(self.old[o])
            wset = set(words)
            for n in news:
                same = o == n
                if not same and len(wset & new_sets[n]) / max(1, len(wset | new_sets[n])) < _PREFILTER:
                    continue
                follows = self.follows_parent(o, n)
                sim = _likeness(words, new_words[n])
                if not same and sim < (MIN_SIMILARITY if follows else MIN_SIMILARITY_ELSEWHERE):
                    continue
                bonus = (_FOLLOWS_PARENT_BONUS if follows else 0) + (_SAME_NUMBER_BONUS if same else 0)
                scored.append((sim + bonus, sim, o, n))
        # Most similar first; ties by number so the result does not depend on dict order.
        scored.sort(key=lambda t: (-t[0], sort_key(t[2]), sort_key(t[3])))
        for _, sim, o, n in scored:
            if o in self.pairs or n in self.taken:
                continue
            self.pair(o, n, sim)


def similarity(a: str, b: str) -> float:
    """How alike two rule texts are (0..1), on words with citation numbers masked."""
    return _likeness(_words(a), _words(b))


def _likeness(a: list[str], b: list[str]) -> float:
    """The word sequence ratio, or, when the shorter text survives almost whole in the longer
    (a rule extended by a sentence), most of that containment."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ratio = matcher.ratio()
    shorter = min(len(a), len(b))
    if shorter < _MIN_CONTAINED_WORDS:
        return ratio
    kept = sum(block.size for block in matcher.get_matching_blocks())
    return max(ratio, _CONTAINMENT_WEIGHT * kept / shorter)


def only_renumbering(old: str, new: str, forward) -> bool:
    """True when ``new`` is ``old`` with some citations renumbered, each as ``forward`` maps it."""
    if old == new or mask_numbers(old) != mask_numbers(new):
        return False
    a, b = numbers_in(old), numbers_in(new)
    return len(a) == len(b) and all(x == y or forward(x) == y for x, y in zip(a, b))


def map_sections(pairs: dict[str, str], old_sections: dict[int, str], new_sections: dict[int, str]) -> dict[str, str]:
    """Old section -> new section: where most of its rules went, then the same title, then the same number."""
    votes: dict[str, Counter] = defaultdict(Counter)
    for o, n in pairs.items():
        votes[o.split(".")[0]][n.split(".")[0]] += 1
    ranked = sorted(
        ((count, o, n) for o, c in votes.items() for n, count in c.items()),
        key=lambda t: (-t[0], t[1] != t[2], int(t[1]), int(t[2])),
    )
    out: dict[str, str] = {}
    taken: set[str] = set()
    for _, o, n in ranked:
        if o in out or n in taken or int(o) not in old_sections or int(n) not in new_sections:
            continue
        out[o] = n
        taken.add(n)
    by_title = {title: str(s) for s, title in new_sections.items()}
    for s, title in old_sections.items():
        o = str(s)
        if o in out:
            continue
        n = by_title.get(title)
        if n is None or n in taken:
            n = o if s in new_sections and o not in taken else None
        if n is not None:
            out[o] = n
            taken.add(n)
    return out


def _kind(old: str | None, new: str | None, same_text: bool) -> str:
    if old is None:
        return ADDED
    if new is None:
        return REMOVED
    if old == new:
        return UNCHANGED if same_text else MODIFIED
    return MOVED if same_text else MOVED_MODIFIED


class Trace:
    """Every rule, section and chapter of ``old`` and ``new``, with where each went."""

    def __init__(self, old: Edition, new: Edition):
        self.old, self.new = old, new
        old_texts = {r.number: full_text(r) for r in old.rules}
        new_texts = {r.number: full_text(r) for r in new.rules}
        matcher = _Matcher(old_texts, new_texts, old.sections, new.sections)
        matcher.run()
        self.section_map = matcher.section_map
        self._forward: dict[str, str | None] = {}
        self._backward: dict[str, str | None] = {}
        steps: list[Step] = []
        for o in old_texts:
            n = matcher.pairs.get(o)
            if n is None:
                steps.append(Step(o, None, REMOVED, similarity=0.0))
                continue
            same = old_texts[o] == new_texts[n]
            renumbered = not same and only_renumbering(old_texts[o], new_texts[n], matcher.forward)
            steps.append(Step(o, n, _kind(o, n, same), "regola", renumbered, 1.0 if same else matcher.similarity[o]))
        steps += [Step(None, n, ADDED, similarity=0.0) for n in new_texts if n not in matcher.taken]
        self.rules = sorted(steps, key=_order)
        self.headings = sorted(self._headings(), key=_order)
        for s in [*self.rules, *self.headings]:
            if s.old is not None:
                self._forward[s.old] = s.new
            if s.new is not None:
                self._backward[s.new] = s.old
        self._by_old = {s.old: s for s in [*self.rules, *self.headings] if s.old is not None}
        self._by_new = {s.new: s for s in [*self.rules, *self.headings] if s.new is not None}

    def _headings(self) -> list[Step]:
        out: list[Step] = []
        old, new = self.old, self.new
        for level, a, b, mapping in (
            ("capitolo", old.chapters, new.chapters, {str(c): str(c) for c in old.chapters if c in new.chapters}),
            ("sezione", old.sections, new.sections, self.section_map),
        ):
            for number, title in a.items():
                n = mapping.get(str(number))
                out.append(Step(str(number), n, _kind(str(number), n, n is not None and b[int(n)] == title), level,
                                similarity=0.0 if n is None else float(b[int(n)] == title)))
            targets = set(mapping.values())
            out += [Step(None, str(n), ADDED, level, similarity=0.0) for n in b if str(n) not in targets]
        return out

    # -- kept in the build cache without the editions (they are kept once, with the corpus) ------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["old"] = state["new"] = None
        return state

    def attach(self, old: Edition, new: Edition) -> None:
        """Put back the editions a trace read from the cache was made from."""
        self.old, self.new = old, new

    # -- lookups -----------------------------------------------------------------------
    def where(self, old_number: str) -> str | None:
        """The new number of an old rule, section or chapter (None when removed or unknown)."""
        return self._forward.get(old_number)

    def came_from(self, new_number: str) -> str | None:
        """The old number of a new rule, section or chapter (None when added or unknown)."""
        return self._backward.get(new_number)

    def step_from(self, old_number: str) -> Step | None:
        return self._by_old.get(old_number)

    def step_to(self, new_number: str) -> Step | None:
        return self._by_new.get(new_number)

    @cached_property
    def changes(self) -> list[Step]:
        """Every rule that is not the same text under the same number, in the new edition's order."""
        return [s for s in self.rules if s.kind != UNCHANGED]

    @cached_property
    def heading_changes(self) -> list[Step]:
        return [s for s in self.headings if s.kind != UNCHANGED]


def _order(step: Step) -> tuple:
    # New order; a removed rule sits where it was (its old number), after a new rule of that number.
    if step.new is not None:
        return (*sort_key(step.new), 0)
    return (*sort_key(step.old), 1)  # type: ignore[arg-type]
