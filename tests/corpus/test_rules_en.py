import shutil

import pytest

from judge.corpus import load_corpus
from judge.corpus.edition_register import REGISTER_FILE, VERIFIED, read_register, verify
from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.rules_en import parse_edition

from .conftest import EN_RULE, RULES_EN_DIR, RULES_IT_DIR, SHARED, editions


@pytest.mark.parametrize("path", editions(), ids=lambda p: p.name)
def test_every_numbered_rule_is_parsed_verbatim(path):
    raw = path.read_bytes()
    # Committed as published: the BOM is missing only where the published file has none
    # (20260116 and 20260227), which its published sha256 proves.
    if not raw.startswith(b"\xef\xbb\xbf"):
        known = read_register(RULES_EN_DIR / REGISTER_FILE).get(path.name[len("MagicCompRules-"):-len(".txt")])
        assert verify(path, known).status == VERIFIED, "without a BOM, yet not proven to be the published file"
    lines = raw.decode("utf-8-sig").splitlines()
    body = lines[lines.index("Credits") + 1 : lines.index("Glossary", lines.index("Credits"))]
    expected = [EN_RULE.match(line).groups() for line in body if EN_RULE.match(line)]
    edition = parse_edition(path)
    assert [(r.number, r.text.split("\n")[0]) for r in edition.rules] == [(n, t) for n, t in expected]
    examples = [line.rstrip() for line in body if line.startswith("Example:")]
    assert [e for r in edition.rules for e in r.examples] == examples


@pytest.mark.parametrize("path", editions(), ids=lambda p: p.name)
def test_contents_and_glossary(path):
    edition = parse_edition(path)
    text = path.read_text(encoding="utf-8-sig")
    assert edition.effective == edition.date
    assert len(edition.chapters) == 9
    # Every section heading of the body is in the contents, and the reverse.
    lines = text.splitlines()
    body = lines[lines.index("Credits") + 1 :]
    body_sections = {int(line[:3]) for line in body if len(line) > 5 and line[:3].isdigit() and line[3:5] == ". "}
    assert body_sections == set(edition.sections)
    glossary_part = text.split("\nGlossary\n")[2].split("\nCredits\n")[0]
    blocks = [b for b in glossary_part.strip().split("\n\n") if b.strip()]
    assert len(edition.glossary) == len(blocks)
    assert edition.glossary["Active Player"].startswith("The player whose turn it is.")
    assert "Credits" not in edition.glossary


def test_indented_paragraphs_continue_their_rule():
    edition = parse_edition(editions()[-1])
    rule = edition.rule("205.3i") or edition.rule("305.6")
    multi = [r for r in edition.rules if "\n" in r.text]
    assert multi, "the official text has indented continuation paragraphs"
    assert all(not line.startswith(" ") for r in multi for line in r.text.split("\n"))
    assert rule is not None


@pytest.mark.skipif(not (SHARED / "data").exists(), reason="shared/ not beside the repository")
def test_editions_are_committed_unmodified():
    for path in editions():
        assert path.read_bytes() == (SHARED / "data" / path.name).read_bytes()


def test_dropping_in_a_newer_edition_puts_it_in_force(tmp_path):
    en = tmp_path / "rules_en"
    shutil.copytree(RULES_EN_DIR, en)
    newest = editions()[-1]
    shutil.copy(newest, en / "MagicCompRules-20991231.txt")
    corpus = load_corpus(RULES_IT_DIR, en)
    assert corpus.in_force.id == "20991231"
    assert [e.id for e in corpus.editions][-2:] == [newest.stem.split("-")[1], "20991231"]
    assert corpus.get("704.5a").en.source == "MagicCompRules-20991231.txt"


def test_a_broken_edition_names_file_and_line(tmp_path):
    path = tmp_path / "MagicCompRules-20300101.txt"
    lines = editions()[-1].read_text(encoding="utf-8-sig").splitlines()
    start = lines.index("Credits") + 5
    lines.insert(start, "questa riga non è una regola")
    path.write_text("\ufeff" + "\n".join(lines), encoding="utf-8")
    with pytest.raises(SourceFormatError) as exc:
        parse_edition(path)
    assert exc.value.line == start + 1
    assert "MagicCompRules-20300101.txt" in str(exc.value)
