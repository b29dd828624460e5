"""Dates written in a text, and the edition in force on a date (judge/corpus/text_dates.py)."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, strategies as st

from judge.corpus import load_corpus
from judge.corpus.text_dates import dates_in, edition_at


def test_the_ways_a_date_is_written():
    text = ("Decisione del 3 dicembre 2025; appello del 4 December 2025, letto December 5, 2025, "
            "pubblicato il 06/12/2025 e archiviato il 2025-12-07. Non date: 31 febbraio 2025, 13/13/2025, v2.3.2025.")
    assert dates_in(text) == [(dt.date(2025, 12, 3), "3 dicembre 2025"), (dt.date(2025, 12, 4), "4 December 2025"),
                              (dt.date(2025, 12, 5), "December 5, 2025"), (dt.date(2025, 12, 6), "06/12/2025"),
                              (dt.date(2025, 12, 7), "2025-12-07")]


def test_the_edition_in_force_on_a_date():
    editions = load_corpus().editions
    assert edition_at(editions, dt.date(2025, 12, 3)).id == "20251114"
    assert edition_at(editions, dt.date(2026, 6, 19)).id == "20260619"   # the day it comes into force
    assert edition_at(editions, dt.date(2030, 1, 1)).id == editions[-1].id
    assert edition_at(editions, dt.date(2020, 1, 1)) is None            # before every edition held


@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_any_date_written_in_italian_is_read_back(day):
    months = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
              "ottobre", "novembre", "dicembre")
    written = f"{day.day} {months[day.month - 1]} {day.year}"
    assert dates_in(f"la decisione del {written}.") == [(day, written)]
