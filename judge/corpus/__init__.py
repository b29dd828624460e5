"""The corpus: rule numbers, the English editions, the Italian texts, their checks and diffs.

The first stage of the product (corpus -> search -> engine -> web). It knows nothing
of Flask or of the search index; everything downstream reads rules through
``load_corpus()``.
"""

from judge.corpus.loading import corpus_files, load_corpus
from judge.corpus.model import Corpus, Rule, Text, edition_label, italian_date

__all__ = ["Corpus", "Rule", "Text", "corpus_files", "edition_label", "italian_date", "load_corpus"]
