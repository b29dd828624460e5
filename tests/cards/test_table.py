"""The card table: the real one loads whole, a newer one dropped in replaces it without code
changes, and judge verifica checks it."""

from __future__ import annotations

import json

from judge.cards import lookup
from judge.cards.checks import check_table
from judge.cards.table import CardTable, face_from_json
from judge.corpus.findings import ERROR, WARNING

from .conftest import card, write_table


def test_the_real_table_loads_every_face(table):
    assert len(table) == 32789 and table.skipped == []
    bears = table.by_name("Grizzly Bears")
    assert (bears.name_it, bears.power, bears.toughness, bears.types) == ("Orso Grizzly", "2", "2", ("Creature",))
    assert table.by_name("Nessuna carta") is None


def test_rulings_are_dated_and_stop_in_2018(table):
    rulings = table.rulings("Tarmogoyf")
    assert rulings and all(r.date <= "2018-12-31" and len(r.date) == 10 for r in rulings)
    assert table.rulings("Grizzly Bears") == []


def test_a_newer_table_dropped_in_replaces_it(tmp_path):
    folder = write_table(tmp_path / "carte", [
        card("Grizzly Bears", name_it="Orso Grizzly"),
        card("Future Bear", name_it="Orso del Futuro", power="3", toughness="3", new_field="ignored"),
        {"name": "Partial", "types": ["Instant"]},          # fields left out take defaults
    ], rulings=[{"name": "Future Bear", "rulings": [{"date": "2030-01-01", "text": "A ruling."}]}])
    t = CardTable(folder)
    assert len(t) == 3
    assert [m.face.name for m in lookup.find("orso futuro", 3, t)][0] == "Future Bear"
    assert t.rulings("Future Bear")[0].text == "A ruling."
    assert t.by_name("Partial").keywords == ()


def test_lines_that_are_no_card_are_skipped_by_the_loader_and_errors_for_verifica(tmp_path, corpus):
    folder = write_table(tmp_path / "carte", [
        card("Grizzly Bears"), "{not json", {"types": []}, card("Grizzly Bears"),
        card("Odd", colors=["Z"]), card("Future", keywords=["flying", "frobnicate 2"]),
        card("Fire", names=["Fire", "Ice"]),
    ], rulings=[{"name": "Nobody", "rulings": []}, {"name": "Fire", "rulings": [{"date": "2018", "text": "x"}]}])
    t = CardTable(folder)
    assert t.skipped == [2, 3]
    findings = check_table(folder, corpus)
    codes = {(f.level, f.code, f.line) for f in findings}
    assert (ERROR, "carta-non-valida", 2) in codes and (ERROR, "carta-non-valida", 3) in codes
    assert (ERROR, "nome-duplicato", 4) in codes and (ERROR, "carta-non-valida", 5) in codes
    unknown = [f for f in findings if f.code == "parola-chiave-sconosciuta"]
    assert [f.level for f in unknown] == [WARNING] and "frobnicate 2" in unknown[0].message
    assert any(f.code == "parte-assente" and "Ice" in f.message for f in findings)
    assert {(f.level, f.code) for f in findings if "rulings" in f.file} == {
        (WARNING, "sentenza-senza-carta"), (ERROR, "sentenza-non-valida")}


def test_verifica_finds_every_keyword_of_the_real_table_in_the_rules(corpus):
    from judge.cards.table import default_directory

    findings = check_table(default_directory(), corpus)
    assert not [f for f in findings if f.level == ERROR]
    unknown = [f.message for f in findings if f.code == "parola-chiave-sconosciuta"]
    # Storied is rule 702.195 from the edition of 25 September 2026 on.
    expected = [] if corpus.get("702.195") is not None else ["storied"]
    assert [m.split("«")[1].split("»")[0] for m in unknown] == expected


def test_face_from_json_refuses_a_line_without_a_name():
    for bad in ({}, {"name": ""}, [], "x", {"name": 3}):
        try:
            face_from_json(bad)
        except ValueError:
            continue
        raise AssertionError(json.dumps(bad))


def test_a_truncated_table_is_an_os_error_not_a_crash(tmp_path):
    import pytest

    folder = write_table(tmp_path / "carte", [card(f"Bear {i}") for i in range(300)])
    data = (folder / "carte.jsonl.gz").read_bytes()
    (folder / "carte.jsonl.gz").write_bytes(data[: len(data) // 2])
    with pytest.raises(OSError):
        CardTable(folder)


def test_the_index_is_kept_in_the_build_cache_and_read_back(tmp_path, monkeypatch):
    """A start reads the index the previous one built (the same answers, nothing built); a changed
    table is a new entry (issue 37: the card index was built at every start)."""
    from judge import build_cache
    from judge.cards import table as cards

    monkeypatch.setenv(build_cache.ENV, str(tmp_path / "cache"))
    folder = write_table(tmp_path / "carte", [card("Grizzly Bears", name_it="Orso Grizzly"),
                                               card("Fire", names=["Fire", "Ice"], name_it="Fuoco"),
                                               card("Ice", names=["Fire", "Ice"], name_it="Ghiaccio"),
                                               card("Yawgmoth's Will", types=["Sorcery"])])
    assert not cards.in_cache(folder)
    first = CardTable(folder)
    assert cards.in_cache(folder)
    built = [e for e in build_cache.events() if e.kind == "carte"]
    second = CardTable(folder)
    read = [e for e in build_cache.events() if e.kind == "carte"][len(built):]
    assert [e.action for e in read] == ["letto"]
    for typed in ("orso grizly", "Fire // Ice", "Fuoco // Ghiaccio", "Yawgmoths Will"):
        assert [m.name for m in lookup.find(typed, 3, second)] == [m.name for m in lookup.find(typed, 3, first)]
        assert lookup.find(typed, 1, second)[0].tier <= 2
    assert (second.version, len(second), second.face(1).name_it) == (first.version, len(first), "Fuoco")
    write_table(folder, [card("Grizzly Bears", name_it="Orso Grizzly"), card("Future Bear")])
    assert not cards.in_cache(folder) and len(CardTable(folder)) == 2
