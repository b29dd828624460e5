"""judge: the Italian Comprehensive Rules of Magic: The Gathering and a judge assistant."""

from pathlib import Path

__version__ = "0.1.0"

# Data folders live beside the package (the project is installed editable, see README).
ROOT = Path(__file__).resolve().parent.parent
RULES_IT_DIR = ROOT / "rules_it"
RULES_EN_DIR = ROOT / "rules_en"
SCENARIOS_DIR = ROOT / "scenarios"
CARDS_DIR = ROOT / "carte"
