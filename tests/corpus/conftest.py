import re
from pathlib import Path

import pytest

from judge import RULES_EN_DIR, RULES_IT_DIR
from judge.corpus import load_corpus

SOURCES_DIR = RULES_IT_DIR / "fonti"
SHARED = Path(__file__).resolve().parents[3] / "shared"

# A numbered rule line in a wiki extract: bullets, indentation or a stray "*" before the number.
WIKI_RULE = re.compile(r"^[\s•*]*([1-9]\d{2}\.\d+[a-z]{0,2})\.?\s+(\S.*?)\s*$")
EN_RULE = re.compile(r"^([1-9]\d{2}\.\d+[a-z]{0,2})\.?\s+(\S.*?)\s*$")


@pytest.fixture(scope="session")
def corpus():
    return load_corpus()


def wiki_sources():
    return sorted(SOURCES_DIR.glob("*.txt"))


def editions():
    return sorted(RULES_EN_DIR.glob("MagicCompRules-*.txt"))
