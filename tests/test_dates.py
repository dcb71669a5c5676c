"""Record 042's start date in the forms real TRF-16 exports write, and the C.07 text it picks."""

from __future__ import annotations

from datetime import date

import pytest

from core.dates import read_date
from core.profiles import resolve_for


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026/03/01", date(2026, 3, 1)),  # TRF-16's own form
        ("2024-08-01", date(2024, 8, 1)),
        ("1900.01.01", date(1900, 1, 1)),
        ("24/09/2010", date(2010, 9, 24)),  # day first
        ("25.02.2011", date(2011, 2, 25)),
        ("28. 07. 2005", date(2005, 7, 28)),
        ("05/03/2026", date(2026, 3, 5)),
        ("12/25/2025", date(2025, 12, 25)),  # only month first is a date
        ("10.09.13", date(2010, 9, 13)),  # two-digit years: YY.MM.DD
        ("11.09.26", date(2011, 9, 26)),
        ("13.09.45", date(2045, 9, 13)),  # the last cannot be a day: DD.MM.YY
        ("May 29, 2020", date(2020, 5, 29)),
        ("Jun 26, 2020", date(2020, 6, 26)),
        ("1 March 2026", date(2026, 3, 1)),
        (" 2026-03-01 ", date(2026, 3, 1)),
    ],
)
def test_every_form_seen_in_record_042(text: str, expected: date) -> None:
    assert read_date(text) == expected


@pytest.mark.parametrize("text", ["", "soon", "2026-02-30", "Foo 3, 2020", "1/2/3/4", "12345"])
def test_what_is_not_a_date_is_none(text: str) -> None:
    assert read_date(text) is None


@pytest.mark.parametrize(
    ("text", "profile"),
    [
        ("May 29, 2020", "fide-2024"),  # month names sort after digits: not a 2026 date
        ("28. 07. 2005", "fide-2024"),
        ("11.09.26", "fide-2024"),
        ("01/03/2026", "fide-2026"),
        ("Mar 1, 2026", "fide-2026"),
        ("28/02/2026", "fide-2024"),
        ("not a date", "fide-2024"),
    ],
)
def test_rules_fide_picks_the_text_in_force_at_the_start(text: str, profile: str) -> None:
    assert resolve_for(text, "fide").name == profile
