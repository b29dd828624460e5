import filecmp
import shutil

import pytest

from judge.corpus.frontmatter import SourceFormatError
from judge.corpus.rules_it import INDEX_FILE, load_sections, parse_index_file
from judge.corpus.wiki_import import import_wiki, parse_wiki

from .conftest import RULES_IT_DIR, SHARED, SOURCES_DIR, WIKI_RULE, wiki_sources


def test_reimporting_the_sources_reproduces_the_committed_files(tmp_path):
    sources = wiki_sources()
    assert sources
    for src in sources:
        import_wiki(src, tmp_path)
    produced = sorted(p.name for p in tmp_path.glob("*.md"))
    committed = sorted(p.name for p in RULES_IT_DIR.glob("*.md"))
    assert produced == committed
    for name in produced:
        assert (tmp_path / name).read_text(encoding="utf-8") == (RULES_IT_DIR / name).read_text(encoding="utf-8"), name


def test_import_order_does_not_change_the_index(tmp_path):
    for src in reversed(wiki_sources()):
        import_wiki(src, tmp_path)
    assert (tmp_path / INDEX_FILE).read_text(encoding="utf-8") == (RULES_IT_DIR / INDEX_FILE).read_text(encoding="utf-8")


@pytest.mark.skipif(not (SHARED / "seeds").exists(), reason="shared/ not beside the repository")
def test_sources_are_the_shared_documents_unmodified():
    shared = {p.name: p for p in [*(SHARED / "seeds").glob("*.txt"), *(SHARED / "data" / "it-wiki").glob("*.txt")]}
    for src in wiki_sources():
        assert filecmp.cmp(src, shared[src.name], shallow=False), src.name


@pytest.mark.parametrize("src", wiki_sources(), ids=lambda p: p.name)
def test_every_rule_of_the_source_is_kept_verbatim(src):
    text = src.read_text(encoding="utf-8-sig")
    body = text.split("Tratto dal Regolamento", 1)[1]
    expected = [WIKI_RULE.match(line).groups() for line in body.splitlines() if WIKI_RULE.match(line)]
    section = expected[0][0].split(".")[0]
    parsed = {s.section: s for s in load_sections(RULES_IT_DIR)}[section]
    assert [(r.number, r.text) for r in parsed.rules] == [(n.rstrip("."), t) for n, t in expected]
    examples = [line.strip() for line in body.splitlines() if line.strip().startswith("Esempio")]
    assert [e for r in parsed.rules for e in r.examples] == examples


def test_examples_stay_with_their_rule():
    s101 = {s.section: s for s in load_sections(RULES_IT_DIR)}["101"]
    by_number = {r.number: r for r in s101.rules}
    assert by_number["101.2"].examples and by_number["101.2"].examples[0].startswith("Esempio: se un effetto dice")
    assert by_number["101.4"].examples[0].startswith("Esempio: Una carta dice")
    assert not by_number["101.2a"].examples


def test_provenance_front_matter():
    sections = {s.section: s for s in load_sections(RULES_IT_DIR)}
    assert set(sections) >= {"101", "119", "121", "507", "514", "703"}
    s703 = sections["703"]
    assert s703.meta["aggiornato_a"] == "Avatar: La leggenda di Aang, 21 Novembre 2025"
    assert s703.meta["set"] == "Avatar: La leggenda di Aang"
    assert s703.meta["data"] == "21 Novembre 2025"
    assert s703.meta["data_iso"] == "2025-11-21"
    assert sections["507"].meta["url"].startswith("https://magicthegathering.fandom.com/it/wiki/")
    for s in sections.values():
        src = SOURCES_DIR / s.meta["file_sorgente"]
        assert src.exists()
        assert f"(Aggiornato a {s.meta['aggiornato_a']})" in src.read_text(encoding="utf-8")


def test_headings_and_stray_star():
    sections = {s.section: s for s in load_sections(RULES_IT_DIR)}
    assert sections["101"].title == "Le Regole d’Oro di Magic"
    assert sections["703"].title == "Azioni generate dal turno"
    assert sections["507"].title is None  # no heading on that page: the title comes from the index
    assert sections["507"].rules[0].number == "507.1"


def test_navigation_box_is_imported_from_the_newest_seed():
    nav = parse_index_file(RULES_IT_DIR / INDEX_FILE)
    assert len(nav.chapters) == 9
    assert nav.meta["data_iso"] == max(
        s.meta["data_iso"] for s in load_sections(RULES_IT_DIR) if s.meta.get("data_iso")
    )
    assert (610, "Effetti one-shot") in nav.sections  # written "610 Effetti" without a dot in the box


@pytest.mark.parametrize("content,line,fragment", [
    ("Solo testo senza regole\n", 1, "Tratto dal Regolamento"),
    ("Tratto dal Regolamento (Aggiornato a X, 1 Gennaio 2024)\n101.1 Testo\nriga strana qui\n", 3, "riga non riconosciuta"),
    ("Tratto dal Regolamento (Aggiornato a X, 1 Gennaio 2024)\n\n", 1, "nessuna regola"),
    ("Tratto dal Regolamento (Aggiornato a X, 1 Gennaio 2024)\n101.1 Testo\n102.1 Altro\n", 1, "non appartiene"),
])
def test_malformed_wiki_text_names_file_and_line(tmp_path, content, line, fragment):
    path = tmp_path / "pagina.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SourceFormatError) as exc:
        import_wiki(path, tmp_path / "out")
    assert exc.value.line == line
    assert fragment in exc.value.message
    assert "pagina.txt" in str(exc.value)


def test_malformed_section_file_names_file_and_line(tmp_path):
    folder = tmp_path / "rules_it"
    shutil.copytree(RULES_IT_DIR, folder)
    path = folder / "119.md"
    lines = path.read_text(encoding="utf-8").splitlines()
    bad_at = next(i for i, line in enumerate(lines) if line.startswith("**119.3"))
    lines[bad_at] = "119.3 testo senza grassetto"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SourceFormatError) as exc:
        load_sections(folder)
    assert exc.value.path.endswith("119.md")
    assert exc.value.line == bad_at + 1


def test_parse_wiki_drops_chrome_and_navigation():
    src = next(p for p in wiki_sources() if p.name.startswith("002_"))
    parsed = parse_wiki(src.read_text(encoding="utf-8"), src)
    assert parsed["heading"] == "119. Punti Vita"
    assert all("Advertisement" not in r[1] for r in parsed["rules"])
    assert len(parsed["nav"]) == 9
