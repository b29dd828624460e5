"""The card table: Italian and English names, characteristics, rules text and rulings of
Magic cards (data in ``carte/``, with its provenance and limits in carte/README.md).

``table`` reads it compactly, ``index`` finds names as typed, ``lookup`` is what the rest of
the product asks, ``rules`` gives the rules a card relies on, ``checks`` is its part of
``judge verifica``. Nothing here imports the engine or the web: they import this.
"""
