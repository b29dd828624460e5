"""Fixtures for the card table: the real table, and small tables written for a test."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from judge.cards.table import load_table
from judge.corpus import load_corpus


@pytest.fixture(scope="session")
def table():
    return load_table()


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


def card(name: str, **kw) -> dict:
    """A line of the table with every field (as carte/README.md lists them)."""
    base = {"name": name, "name_it": None, "name_it_alt": None, "mana_cost": "{1}{G}", "colors": ["G"],
            "supertypes": [], "types": ["Creature"], "subtypes": ["Bear"], "power": "2", "toughness": "2",
            "loyalty": None, "defense": None, "keywords": [], "text": None, "layout": "normal",
            "names": None, "source": "mtgjson3", "first_set": None, "xmage_diff": None}
    return {**base, **kw}


def write_table(folder: Path, lines: list, rulings: list | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / "carte.jsonl.gz", "wt", encoding="utf-8") as fh:
        for line in lines:
            fh.write((line if isinstance(line, str) else json.dumps(line, ensure_ascii=False)) + "\n")
    with gzip.open(folder / "rulings.jsonl.gz", "wt", encoding="utf-8") as fh:
        for r in rulings or []:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    return folder
