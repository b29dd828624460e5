"""The card index is built once and read from the build cache by other processes (servers, test
workers): finding a name inside a question must not depend on the process's string-hash salt."""

import os
import subprocess
import sys

import pytest

PROBE = (
    "from judge.cards.mentions import mentioned\n"
    # every word is a word of the game, no phrase a term: only the name typed as a name is found
    "found = mentioned('con Rest in Peace le creature muoiono?', lambda w: ' ' not in w)\n"
    "print('|'.join(m.match.face.name for m in found))\n"
)


@pytest.mark.parametrize("seed", ["1", "2"])
def test_a_name_inside_a_question_is_found_whatever_the_hash_salt(seed):
    env = {**os.environ, "PYTHONHASHSEED": seed}
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True,
                         timeout=300, check=True)
    assert "Rest in Peace" in out.stdout.strip().split("|")
