"""Card names as the look-up compares them: the search's own folding and word splitting.

``name_key("Lim-Dûl's Vault")`` is ``"lim dul s vault"``: lower case, accents stripped, every
run of punctuation a word break (``judge.search.analysis.words``), so «Orso Grizzly», «orso
grizzly» and «ORSO  GRIZZLY» are one key. Ligatures that Unicode does not decompose («Æther»)
are spelled out first, as players type them («aether»). The canonical address of a card is
its English key with hyphens (``slug``), so an address is its own key: ``name_key(slug(n)) ==
name_key(n)``.
"""

from __future__ import annotations

from judge.search.analysis import fold, words

# Letters with no Unicode decomposition, as written on a keyboard without them.
SPELLED_OUT = str.maketrans({"æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O",
                              "ß": "ss", "ł": "l", "Ł": "L", "đ": "d", "Đ": "D"})

MAX_NAME_CHARS = 200   # longer than any card name (the longest is under 150 characters)


def name_words(text: str) -> list[str]:
    """The folded words of a name (or of what someone typed for one)."""
    # Folded first, so that a letter decomposing into one of them ("Ǣ" -> "æ") is spelled out too.
    return words(fold(text[: MAX_NAME_CHARS * 2]).translate(SPELLED_OUT))


def name_key(text: str) -> str:
    """The form two names are compared in: equal keys, same name."""
    return " ".join(name_words(text))


def slug(name: str) -> str:
    """A card's address: ``"Lim-Dûl's Vault"`` → ``"lim-dul-s-vault"``."""
    return "-".join(name_words(name))

