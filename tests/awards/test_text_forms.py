"""A prize list in its other forms: written back as a prize file (what the bot hands a TD)
and typed cell by cell (a sheet's Prizes tab, a bot command's options); each reads back to
the same list, and text that is no value is refused with what was expected."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from core.awards import PrizeList, read_prize_data, read_prize_fields, read_prizes
from core.awards.cells import COLUMN_OF, amount_text, category_names, prize_fields
from core.awards.prizefile import read_prize_file
from core.awards.writer import prize_keys, write_prizes
from core.examples import example_path
from core.problems import HarknessError
from tests.awards.worked import WORKED

LISTS = [read_prize_file(example_path("club-swiss-prizes.toml"))] + [
    read_prizes(case.prizes) for case in WORKED
]
EVERY_KIND = read_prizes(
    """
method = "fide-equal"
currency = "EUR"
trophy_follows_money = true
playoff = [3, 1]
[[prize]]
name = "Best \\"game\\""
category = "brilliancy"
trophy = true
additive = true
[[prize]]
name = "2nd U1800 from 1500"
under = 1800
from = 1500
rank = 2
amount = 12.05
[[prize]]
name = "Top unrated"
unrated = true
amount = 0.5
[[prize]]
name = "Class B"
class = [1600, 1799]
amount = 1000000000
[[prize]]
name = "Top team"
place = 1
team = true
amount = 40
[categories]
brilliancy = []
"Über 60" = [2]
[limits]
1 = 0
2 = 12.50
[teams]
"Höhere Schule" = [1, 2]
Other = [3]
[team]
count = 3
playoff = ["Other", "Höhere Schule"]
"""
)


@pytest.mark.parametrize("prizes", [*LISTS, EVERY_KIND])
def test_a_list_written_as_a_prize_file_reads_back_the_same(prizes: PrizeList) -> None:
    again = read_prizes(write_prizes(prizes), prizes.path or "<prizes>")
    assert replace(again, lines={}) == replace(prizes, lines={})


@pytest.mark.parametrize("prizes", [*LISTS, EVERY_KIND])
def test_each_prize_typed_in_cells_reads_back_the_same(prizes: PrizeList) -> None:
    for prize in prizes.prizes:
        keys = prize_keys(prize)
        cells = {"name": prize.name, "amount": str(keys.get("amount", ""))}
        cells["trophy"] = "Yes" if prize.trophy else ""
        cells["additive"] = "yes" if prize.additive else "no"
        cells["team"] = "TRUE" if prize.team else ""
        cells["rank"] = str(keys.get("rank", ""))
        kind = next(k for k in ("place", "class", "under", "unrated", "category") if k in keys)
        cells["kind"] = kind.upper()
        cells["value"] = _value_text(kind, keys)
        fields, problems = prize_fields(cells)
        assert problems == []
        again, problems = read_prize_fields(fields, prize.order)
        assert problems == [] and again == prize


def _value_text(kind: str, keys: dict[str, Any]) -> str:
    """A kind's Value as a TD might type it."""
    value = keys[kind]
    if kind == "class":
        return f"{value[0]}–{value[1]}"
    if kind == "under":
        return f"U{value}" + (f" from {keys['from']}" if "from" in keys else "")
    return "" if kind == "unrated" else str(value)


def test_a_whole_list_typed_in_cells_is_checked_by_the_prize_files_rules() -> None:
    rows = [
        {"name": "1st", "amount": "$1,000.00", "kind": "place", "value": "1st"},
        {"name": "1ST", "amount": "5", "kind": "place", "value": "2"},
        {"name": "Top A", "amount": "40", "kind": "class", "value": "1999-1800"},
    ]
    prizes = [prize_fields(row)[0] for row in rows]
    with pytest.raises(HarknessError) as caught:
        read_prize_data({"prize": prizes}, "Prizes", {"prize.2": 3, "prize.3": 4})
    found = {(p.line, COLUMN_OF[p.field or ""], p.code) for p in caught.value.problems}
    assert found == {(3, "Name", "prize-twice"), (4, "Value", "bad-prize-value")}


@pytest.mark.parametrize(
    ("cells", "column", "detail"),
    [
        ({"kind": "prize"}, "Kind", "kind must be one of place, class, under, unrated, category"),
        ({"kind": "place"}, "Value", "a place prize needs its place in Value (1, 2, 3…)"),
        ({"kind": "unrated", "value": "1500"}, "Value", "value must be empty for an unrated"),
        ({"kind": "place", "value": "1", "trophy": "maybe"}, "Trophy", "trophy must be Yes or No"),
    ],
)
def test_text_that_is_no_value_is_refused_at_its_column(
    cells: dict[str, str], column: str, detail: str
) -> None:
    _, problems = prize_fields({"name": "X", "amount": "5", **cells})
    assert [COLUMN_OF[p.field or ""] for p in problems] == [column]
    assert (problems[0].detail or "").startswith(detail)


def test_amounts_as_a_spreadsheet_shows_them() -> None:
    assert amount_text("1,379") == 1379 and amount_text("€ 12.50") == Decimal("12.50")
    assert amount_text("12,50") == "12,50"  # a decimal comma: refused, not misread
    assert amount_text("-5") == "-5" and amount_text("1e3") == "1e3"


def test_category_names_are_split_and_kept_once() -> None:
    assert category_names(" Youth ;senior,,YOUTH") == (["Youth", "senior"], [])
