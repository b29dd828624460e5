"""The rule trace between editions: on the real editions (the 722–732 → 723–733 shift as
moves, the real modifications as modifications; every change between consecutive editions as
read on both texts, tests/data/modifiche_consecutive.tsv; a direct trace between distant
editions agrees with the chain of consecutive ones) and on synthetic editions with planted
renumberings, moves, edits and removals."""

from __future__ import annotations

import difflib
import hashlib
import itertools
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge import RULES_EN_DIR
from judge.corpus.diff import diff_editions, heading_changes
from judge.corpus.rules_en import Edition
from judge.corpus.rules_it import SourceRule
from judge.corpus.trace import (
    ADDED,
    MODIFIED,
    MOVED,
    MOVED_MODIFIED,
    REMOVED,
    UNCHANGED,
    Trace,
    full_text,
    mask_numbers,
    numbers_in,
)

from .conftest import editions

EDITION_IDS = [p.name[len("MagicCompRules-"):-len(".txt")] for p in editions()]
CONSECUTIVE = list(zip(EDITION_IDS, EDITION_IDS[1:]))
DISTANT = [(a, b) for a, b in itertools.combinations(EDITION_IDS, 2) if (a, b) not in CONSECUTIVE]
READ_CHANGES = Path(__file__).resolve().parents[1] / "data" / "modifiche_consecutive.tsv"


@pytest.fixture(scope="module")
def real(corpus):
    """The first edition and 19 June 2026: the shift of 722–732 seen from seven months away."""
    old, new = corpus.edition("20251114"), corpus.edition("20260619")
    return old, new, Trace(old, new)


@pytest.fixture(scope="module")
def traces(corpus):
    """Trace between two editions by id, computed once."""
    cache: dict[tuple[str, str], Trace] = {}

    def get(a: str, b: str) -> Trace:
        if (a, b) not in cache:
            cache[(a, b)] = Trace(corpus.edition(a), corpus.edition(b))
        return cache[(a, b)]

    return get


def _shifted(number: str) -> str:
    section, _, rest = number.partition(".")
    return f"{int(section) + 1}.{rest}" if rest else str(int(section) + 1)


# -- the real editions -----------------------------------------------------------------------


def test_the_722_to_732_block_moved_down_by_one(real):
    old, new, trace = real
    block = [r.number for r in old.rules if 722 <= int(r.number.split(".")[0]) <= 732]
    assert len(block) == 103
    for number in block:
        step = trace.step_from(number)
        assert step.new == _shifted(number), number
        assert step.kind in (MOVED, MOVED_MODIFIED)
    # Of the 103, all but seven are the same text; six of those follow the renumbering of their
    # own citations ("see rule 723.1f" -> "see rule 724.1f"); only 729.2j -> 730.2j really changed.
    changed = {n: trace.step_from(n) for n in block if trace.step_from(n).kind == MOVED_MODIFIED}
    assert set(changed) == {"723.1a", "723.2a", "725.5", "726.6", "728.2", "728.5", "729.2j"}
    assert [n for n, s in changed.items() if not s.renumbering_only] == ["729.2j"]
    # The new section 722 is added, the old sections follow their rules.
    headings = {(s.old, s.new): s.kind for s in trace.headings if s.level == "sezione"}
    assert headings[(None, "722")] == ADDED
    for s in range(722, 733):
        assert headings[(str(s), str(s + 1))] == MOVED
    assert all(trace.step_to(r.number).kind == ADDED for r in new.rules if r.number.startswith("722."))


def test_real_modifications_stay_modifications(real):
    old, new, trace = real
    # 104.6 is changed only by the renumbering ("See rule 726" -> "See rule 727"): still a
    # modification of its text, flagged as following the renumbering.
    step = trace.step_from("104.6")
    assert (step.kind, step.new, step.renumbering_only) == (MODIFIED, "104.6", True)
    # 107.3e and 506.3d's old text really changed.
    assert trace.step_from("107.3e").kind == MODIFIED and not trace.step_from("107.3e").renumbering_only
    counts = Counter(s.kind for s in trace.changes)
    assert counts[MODIFIED] <= 66
    assert counts[MOVED] >= 96


def test_moves_inside_a_section(real):
    _, _, trace = real
    # New rules were inserted in the middle of 506.3, 601, 702.122, 702.124 and 714.3.
    for a, b in [("506.3d", "506.3e"), ("506.3f", "506.3g"), ("601.7", "601.8"), ("702.122d", "702.122e"),
                 ("702.124m", "702.124k"), ("714.3b", "714.3c")]:
        assert (trace.step_from(a).new, trace.step_from(a).kind) == (b, MOVED), a
    assert trace.step_to("506.3d").kind == ADDED
    assert trace.step_from("702.124k").kind == REMOVED
    # A rule moved and reworded keeps its word diff against its old place.
    assert (trace.step_from("701.50c").new, trace.step_from("701.50c").kind) == ("701.50b", MOVED_MODIFIED)


@pytest.mark.parametrize("a,b", CONSECUTIVE + DISTANT, ids=[f"{a}..{b}" for a, b in CONSECUTIVE + DISTANT])
def test_kinds_are_what_they_claim(traces, corpus, a, b):
    """Independent of how the trace matched, between any two editions: every rule is accounted
    for once on each side; a move has the same text, a renumbering-only change differs only in
    numbers that the trace itself maps, a modification differs otherwise; no rule added or
    removed has its text (or nearly) on the other side among the rules the trace left unmatched
    or changed, which would be a missed move; a section goes where its title went."""
    old, new, trace = corpus.edition(a), corpus.edition(b), traces(a, b)

    def text(edition, number):
        return full_text(edition.rule(number))

    assert Counter(s.old for s in trace.rules if s.old) == Counter(r.number for r in old.rules)
    assert Counter(s.new for s in trace.rules if s.new) == Counter(r.number for r in new.rules)
    for s in trace.rules:
        if s.kind in (UNCHANGED, MOVED):
            assert text(old, s.old) == text(new, s.new)
            assert (s.kind == UNCHANGED) == (s.old == s.new)
        elif s.kind in (MODIFIED, MOVED_MODIFIED):
            x, y = text(old, s.old), text(new, s.new)
            assert x != y
            follows = mask_numbers(x) == mask_numbers(y) and all(
                p == q or trace.where(p) == q for p, q in zip(numbers_in(x), numbers_in(y)))
            assert s.renumbering_only == follows, s
            assert (s.kind == MODIFIED) == (s.old == s.new)
    # Whatever the new text of a rule that changed, added or gone, it is not the lost twin of another.
    loose_old = {s.old: text(old, s.old) for s in trace.rules if s.old and s.kind not in (UNCHANGED, MOVED)}
    loose_new = {s.new: text(new, s.new) for s in trace.rules if s.new and s.kind not in (UNCHANGED, MOVED)}
    old_texts, new_texts = set(loose_old.values()), set(loose_new.values())
    for s in trace.rules:
        if s.kind == ADDED:
            assert loose_new[s.new] not in old_texts, s
        if s.kind == REMOVED:
            assert loose_old[s.old] not in new_texts, s
            for n in (x.new for x in trace.rules if x.kind == ADDED):
                ratio = difflib.SequenceMatcher(None, loose_old[s.old].split(), loose_new[n].split()).ratio()
                assert ratio < 0.85, (s.old, n)
    # Titles repeat across chapters ("General"): a section is known by its chapter and title.
    titles = {(number // 100, title): number for number, title in new.sections.items()}
    for number, title in old.sections.items():
        step, there = trace.step_from(str(number)), titles.get((number // 100, title))
        if there is not None:
            assert (step.new, step.kind) == (str(there), MOVED if there != number else UNCHANGED), step
        else:
            assert step.kind in (MODIFIED, MOVED_MODIFIED, REMOVED), step


def _read_changes() -> tuple[dict[str, str], dict[tuple[str, str], set[tuple]]]:
    """The record of the changes read between consecutive editions: the sha256 of each file read,
    and per pair the set of (level, old number, new number, kind, renumbering only)."""
    hashes: dict[str, str] = {}
    changes: dict[tuple[str, str], set[tuple]] = {}
    for line in READ_CHANGES.read_text(encoding="utf-8").splitlines():
        if m := re.fullmatch(r"# sha256 (\d{8}) ([0-9a-f]{64})", line):
            hashes[m[1]] = m[2]
        elif line and not line.startswith("#"):
            a, b, level, o, n, kind, only = line.split("\t")
            changes.setdefault((a, b), set()).add(
                (level, None if o == "-" else o, None if n == "-" else n, kind, only == "sì"))
    return hashes, changes


@pytest.mark.parametrize("a,b", CONSECUTIVE, ids=[f"{a}..{b}" for a, b in CONSECUTIVE])
def test_consecutive_editions_change_as_read(traces, a, b):
    """Every change between consecutive editions is the one a person read on the two texts
    (docs/edizioni.md): a trace that pairs, moves or flags one rule differently fails here."""
    hashes, read = _read_changes()
    files = {e: hashlib.sha256((RULES_EN_DIR / f"MagicCompRules-{e}.txt").read_bytes()).hexdigest() for e in (a, b)}
    if (a, b) not in read or any(hashes.get(e) != h for e, h in files.items()):
        pytest.skip(f"le modifiche tra {a} e {b} non sono ancora state lette su questi file: "
                    f"rileggerle e aggiornare {READ_CHANGES.name}")
    trace = traces(a, b)
    found = {(s.level, s.old, s.new, s.kind, s.renumbering_only) for s in [*trace.changes, *trace.heading_changes]}
    assert sorted(found - read[(a, b)], key=str) == [] and sorted(read[(a, b)] - found, key=str) == []


@pytest.mark.parametrize("a,b", DISTANT, ids=[f"{a}..{b}" for a, b in DISTANT])
def test_a_distant_trace_agrees_with_the_chain_of_consecutive_ones(traces, corpus, a, b):
    """Between editions that are not consecutive (what /modifiche shows for any two), each rule
    and section goes where the consecutive traces take it, step by step, with the same kind."""
    chain = EDITION_IDS[EDITION_IDS.index(a):EDITION_IDS.index(b) + 1]
    direct = traces(a, b)
    old, new = corpus.edition(a), corpus.edition(b)
    for number in [r.number for r in old.rules] + [str(s) for s in old.sections]:
        now: str | None = number
        for x, y in zip(chain, chain[1:]):
            now = traces(x, y).where(now)
            if now is None:
                break
        assert direct.where(number) == now, number
        if now is not None and "." in number:
            same = full_text(old.rule(number)) == full_text(new.rule(now))
            assert direct.step_from(number).text_changed == (not same), number


def test_diff_lists_changes_with_old_numbers(real):
    old, new, trace = real
    changes = diff_editions(old, new, trace=trace)
    assert [c.number for c in changes] == [s.number for s in trace.changes]
    by_number = {c.number: c for c in changes if c.kind != REMOVED}
    assert by_number["727.1"].old_number == "726.1" and by_number["727.1"].kind == MOVED
    moved = by_number["730.2j"]
    assert moved.old_number == "729.2j" and any(op == "+" and "If a spell" in t for op, t in moved.words)
    # The section filter keeps a move when either end is in the section.
    in_726 = [c.number for c in diff_editions(old, new, "726", trace)]
    assert "727.1" in in_726 and "726.1" in in_726
    titles = heading_changes(old, new, "7", trace)
    assert {(h.old_number, h.number, h.kind) for h in titles} >= {(None, "722", ADDED), ("732", "733", MOVED)}


# -- synthetic editions -----------------------------------------------------------------------


def _edition(ident: str, sections: dict[int, str], rules: list[tuple[str, str]]) -> Edition:
    chapters = {s // 100: f"Chapter {s // 100}" for s in sections}
    source = [SourceRule(n, t, [], i + 1) for i, (n, t) in enumerate(rules)]
    return Edition(ident, Path(f"MagicCompRules-{ident}.txt"), None, chapters, dict(sections), source)


BASE_SECTIONS = {700: "General", 701: "Keyword Actions", 702: "Keyword Abilities", 703: "Turn-Based Actions",
                 704: "State-Based Actions", 705: "Flipping a Coin"}
BASE_RULES = [
    ("700.1", "The rules in this section apply to the whole game; see rule 704 for state-based actions."),
    ("701.1", "Most actions described in a card's rules text use the standard English definitions."),
    ("701.2", "Activate: to activate an activated ability, put it onto the stack and pay its costs (see rule 705)."),
    ("702.1", "Most abilities describe exactly what they do in the card's rules text."),
    ("702.2", "Deathtouch"),
    ("702.2a", "Deathtouch is a static ability."),
    ("702.2b", "A creature with toughness greater than 0 that's been dealt damage by a source with deathtouch is destroyed (see rule 704.5h)."),
    ("703.1", "Turn-based actions are game actions that happen automatically when certain steps or phases begin."),
    ("704.1", "State-based actions are game actions that happen automatically whenever certain conditions are met."),
    ("704.5", "The state-based actions are as follows:"),
    ("704.5a", "If a player has 0 or less life, that player loses the game."),
    ("704.5b", "If a player attempted to draw a card from a library with no cards in it, that player loses the game."),
    ("704.5h", "If a creature has been dealt damage by a source with deathtouch, it's destroyed."),
    ("705.1", "To flip a coin for an object that cares whether a player wins or loses the flip, see rule 705.2."),
    ("705.2", "A player who wins a flip of a coin wins; a player who loses it loses."),
]


def test_a_new_section_shifts_the_next_ones():
    """A new 702 pushes 702–705 down to 703–706; every citation of them follows."""
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)

    def renumber(text: str) -> str:
        return re.sub(r"\b(70[2-5])(?=[.\s)]|$)", lambda m: str(int(m[1]) + 1), text)

    sections = {700: "General", 701: "Keyword Actions", 702: "Brand New Things",
                **{s + 1: t for s, t in BASE_SECTIONS.items() if s >= 702}}
    rules = [(n if int(n[:3]) < 702 else renumber(n), renumber(t)) for n, t in BASE_RULES]
    rules.insert(3, ("702.1", "Brand new things are new."))
    new = _edition("20260101", sections, rules)
    trace = Trace(old, new)
    for n, _ in BASE_RULES:
        if int(n[:3]) >= 702:
            assert trace.where(n) == renumber(n), n
            assert trace.step_from(n).kind in (MOVED, MOVED_MODIFIED)
    assert trace.step_to("702.1").kind == ADDED
    # Texts that only follow the renumbering: 700.1 (704 -> 705), 701.2 (705 -> 706), 703.2b and 706.1.
    assert trace.step_from("700.1").kind == MODIFIED and trace.step_from("700.1").renumbering_only
    assert trace.step_from("701.2").renumbering_only
    assert trace.step_from("702.2b").renumbering_only and trace.step_from("702.2b").new == "703.2b"
    assert trace.step_from("705.1").renumbering_only
    assert not any(s.kind in (MODIFIED, MOVED_MODIFIED) and not s.renumbering_only for s in trace.rules)
    assert {s.old: s.new for s in trace.headings if s.level == "sezione"} == {
        "700": "700", "701": "701", "702": "703", "703": "704", "704": "705", "705": "706", None: "702"}


def test_an_inserted_subrule_moves_the_later_letters():
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)
    rules = []
    for n, t in BASE_RULES:
        if n == "704.5b":
            rules.append(("704.5b", "If a player has ten or more poison counters, that player loses the game."))
            rules.append(("704.5c", t))
        else:
            rules.append((n, t))
    trace = Trace(old, _edition("20260101", BASE_SECTIONS, rules))
    assert (trace.where("704.5b"), trace.step_from("704.5b").kind) == ("704.5c", MOVED)
    assert trace.step_to("704.5b").kind == ADDED


def test_a_moved_and_reworded_rule_is_moved_and_modified():
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)
    rules = [r for r in BASE_RULES if not r[0].startswith("705.")] + [
        ("705.1", "A coin flip is a random action."),
        ("705.2", "To flip a coin for an object that cares whether a player wins or loses the flip, see rule 705.3."),
        ("705.3", "A player who wins a flip of a coin wins the flip; a player who loses it loses the flip."),
    ]
    trace = Trace(old, _edition("20260101", BASE_SECTIONS, rules))
    # 705.1 moved to 705.2: its own citation of 705.2 (now 705.3) follows the renumbering.
    step = trace.step_from("705.1")
    assert (step.new, step.kind, step.renumbering_only) == ("705.2", MOVED_MODIFIED, True)
    step = trace.step_from("705.2")
    assert (step.new, step.kind, step.renumbering_only) == ("705.3", MOVED_MODIFIED, False)
    assert trace.step_to("705.1").kind == ADDED


def test_a_citation_that_changes_for_another_reason_is_a_real_modification():
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)
    rules = [(n, t.replace("see rule 704.5h", "see rule 704.5a")) for n, t in BASE_RULES]
    trace = Trace(old, _edition("20260101", BASE_SECTIONS, rules))
    step = trace.step_from("702.2b")
    assert (step.kind, step.renumbering_only) == (MODIFIED, False)


def test_removed_rule_and_retitled_section():
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)
    sections = {**BASE_SECTIONS, 705: "Flipping Coins"}
    rules = [r for r in BASE_RULES if r[0] != "703.1"]
    trace = Trace(old, _edition("20260101", sections, rules))
    assert trace.step_from("703.1").kind == REMOVED and trace.where("703.1") is None
    assert trace.step_from("705").kind == MODIFIED and trace.step_from("705").level == "sezione"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, len(BASE_RULES) - 1), st.sampled_from(["insert", "delete", "reword"]), st.data())
def test_any_single_edit_keeps_every_other_rule_where_it_was(position, edit, data):
    """One planted edit in a section's last rules: every untouched rule keeps its number and text,
    each side is accounted for exactly once."""
    old = _edition("20250101", BASE_SECTIONS, BASE_RULES)
    rules = list(BASE_RULES)
    number, text = rules[position]
    if edit == "delete":
        del rules[position]
    elif edit == "reword":
        word = data.draw(st.sampled_from(["Nevertheless,", "Normally,", "Also"]))
        rules[position] = (number, f"{word} {text}")
    else:
        section = number.split(".")[0]
        taken = {n for n, _ in rules}
        free = next(f"{section}.{i}" for i in range(50, 99) if f"{section}.{i}" not in taken)
        rules.append((free, "An entirely different sentence about dice and planes and other matters."))
    trace = Trace(old, _edition("20260101", BASE_SECTIONS, rules))
    assert Counter(s.old for s in trace.rules if s.old) == Counter(n for n, _ in BASE_RULES)
    assert Counter(s.new for s in trace.rules if s.new) == Counter(n for n, _ in rules)
    for n, _ in BASE_RULES:
        if n != number:
            assert trace.step_from(n).kind == UNCHANGED and trace.where(n) == n
    expected = {"delete": REMOVED, "reword": MODIFIED, "insert": UNCHANGED}[edit]
    assert trace.step_from(number).kind == expected


