"""The six official editions, their register of published hashes, and verification."""

from __future__ import annotations

import dataclasses
import shutil

from judge import RULES_EN_DIR
from judge.corpus.edition_register import (
    REGISTER_FILE,
    UNKNOWN,
    UNVERIFIED,
    VERIFIED,
    read_register,
    verify,
    verify_bytes,
)
from judge.corpus.loading import load_corpus
from judge.corpus.rules_en import edition_paths, parse_edition

SIX = ["20251114", "20260116", "20260227", "20260417", "20260619", "20260925"]


def test_six_editions_the_newest_in_force():
    corpus = load_corpus()
    assert [e.id for e in corpus.editions] == SIX and corpus.in_force.id == "20260925"


def test_the_bom_less_edition_loads():
    path = RULES_EN_DIR / "MagicCompRules-20260116.txt"
    assert not path.read_bytes().startswith(b"\xef\xbb\xbf")
    edition = parse_edition(path)
    assert edition.rules[0].number == "100.1" and edition.effective.isoformat() == "2026-01-16"
    assert len(edition.rules) > 3000 and edition.glossary


def test_two_letter_state_based_action_of_20260925():
    edition = parse_edition(RULES_EN_DIR / "MagicCompRules-20260925.txt")
    numbers = [r.number for r in edition.rules]
    assert numbers.index("704.5z") + 1 == numbers.index("704.5aa")
    assert "Role" in edition.rule("704.5z").text and "speed" in edition.rule("704.5aa").text
    assert "non-Siege battle" in edition.rule("704.5w").text


def test_verification_of_the_copies():
    corpus = load_corpus()
    status = {k: v.status for k, v in corpus.verification.items()}
    assert status == {**{k: VERIFIED for k in SIX[:-1]}, "20260925": UNVERIFIED}
    note = corpus.verification["20260925"].note
    assert note.startswith("Testo non verificato") and "977.752" in note


def test_dropping_the_official_file_in_makes_it_verified(tmp_path):
    """The same name with the official bytes: verified, with no other change. The official file
    isn't available here, so the register is pointed at a stand-in's hash (CRLF as published)."""
    folder = tmp_path / "rules_en"
    folder.mkdir()
    register = read_register(RULES_EN_DIR / REGISTER_FILE)
    ours = (RULES_EN_DIR / "MagicCompRules-20260619.txt").read_bytes()
    published = ours.replace(b"\n", b"\r\n")
    (folder / "MagicCompRules-20260619.txt").write_bytes(published)
    assert verify(folder / "MagicCompRules-20260619.txt", register["20260619"]).status == VERIFIED
    (folder / "MagicCompRules-20260619.txt").write_bytes(ours)             # the LF copy verifies too
    assert verify(folder / "MagicCompRules-20260619.txt", register["20260619"]).status == VERIFIED
    (folder / "MagicCompRules-20260619.txt").write_bytes(ours + b"\n")       # one byte off: not
    assert verify(folder / "MagicCompRules-20260619.txt", register["20260619"]).status == UNVERIFIED


def test_an_edition_the_register_does_not_know(tmp_path):
    v = verify_bytes("20270101", b"x", None)
    assert v.status == UNKNOWN and not v.verified and "non è nel registro" in v.note


def test_the_register_knows_the_missing_august_edition():
    register = read_register(RULES_EN_DIR / REGISTER_FILE)
    assert "20260807" in register and not register["20260807"].sha256
    assert [p.name for p in edition_paths(RULES_EN_DIR)] == [f"MagicCompRules-{e}.txt" for e in SIX]


def test_a_copy_replaced_in_a_project_folder_changes_only_its_status(tmp_path):
    rules_en = tmp_path / "rules_en"
    shutil.copytree(RULES_EN_DIR, rules_en, ignore=shutil.ignore_patterns("in-arrivo"))
    path = rules_en / "MagicCompRules-20260925.txt"
    register = read_register(rules_en / REGISTER_FILE)
    assert verify(path, register["20260925"]).status == UNVERIFIED
    # a register that knows this copy's bytes (as the official file one day will be) verifies it
    knows_it = dataclasses.replace(register["20260925"], sha256=verify(path, None).sha256)
    assert verify(path, knows_it).status == VERIFIED
