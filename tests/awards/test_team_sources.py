"""Where teams come from when the prize file names none: a crosstable's ``Team`` column (any
of its layouts) or a TRF-16 file's team records (``013``)."""

from __future__ import annotations

import pytest

from core.formats import read_teams, read_text
from core.formats.crosstable import read_team_column
from core.formats.trf import team_records
from core.problems import HarknessError

ALIGNED = """#   Name   Team      Rd 1
1   Ann    Lincoln   W2
2   Bob              L1
3   Cy     Adams     H
"""


@pytest.mark.parametrize(
    "text",
    [
        ALIGNED,
        ALIGNED.replace("   ", "\t").replace("\t\t\t\t\t", "\t\t"),
        "#,Name,Team,Rd 1\n1,Ann,Lincoln,W2\n2,Bob,,L1\n3,Cy,Adams,H\n",
    ],
)
def test_the_team_column_in_every_layout(text: str) -> None:
    assert read_team_column(text) == {"Lincoln": (1,), "Adams": (3,)}
    tournament = read_text(text)
    assert read_teams(text, tournament) == {"Lincoln": (1,), "Adams": (3,)}


def test_a_crosstable_without_a_team_column_has_no_teams() -> None:
    assert read_team_column("#  Name  Rd 1\n1  Ann  H\n") == {}


def test_a_team_name_that_is_no_name_is_located_at_its_cell() -> None:
    with pytest.raises(HarknessError) as raised:
        read_team_column("#,Name,Team,Rd 1\n1,Ann,Lin\x07coln,H\n", "t.csv")
    (problem,) = raised.value.problems
    assert (problem.code, problem.field, problem.path, problem.line, problem.column) == (
        "bad-name",
        "Team",
        "t.csv",
        2,
        7,
    )


def test_trf_team_records_by_column_and_with_a_long_name() -> None:
    records = [
        ("013", "ΓΑΖΙ 1                            13   14   15"),
        ("013", "A club with a name far longer than thirty-two 7 8"),
        ("013", "No players"),
        ("012", "Open"),
    ]
    assert team_records(records) == {
        "ΓΑΖΙ 1": (13, 14, 15),
        "A club with a name far longer than thirty-two": (7, 8),
    }
