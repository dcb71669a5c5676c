"""The rules a TD sets in the ``Harkness`` tab: the ``swisssys`` profile and the profile
options (Cumulative of half-point byes, the all-unplayed pre-check) reach the standings."""

from __future__ import annotations

from collections.abc import Callable

from sheets.sync import SyncResult
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.conftest import settings_rows

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]

#: Pat's 1.5 points are all unplayed (full-point bye, half-point bye, then a loss).
BYES = [
    ["#", "Name", "Rd 1", "Rd 2", "Rd 3"],
    ["1", "Pat", "B", "H", "L3 (b)"],
    ["2", "Quinn", "L3 (b)", "D4 (w)", "W5 (w)"],
    ["3", "Sam", "W2 (w)", "W5 (b)", "W1 (w)"],
    ["4", "Zoe", "L5 (w)", "D2 (b)", "U"],
    ["5", "Yan", "W4 (b)", "L3 (w)", "L2 (b)"],
]


def _standings(fake: SheetsFake, sheet_id: str) -> list[list[str]]:
    """Name, score and the tiebreaks (CUM, MM), in rank order."""
    return [list(row) for row in fake.values(sheet_id, "Standings!C2:F6")]


def test_options_in_the_settings_tab_change_the_standings(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    plain = make_sheet({"Results": BYES, "Harkness": settings_rows(Tiebreaks="CUM, MM")})
    assert run_sync(plain).problems == ()
    assert _standings(sheets_fake, plain)[1:3] == [
        ["Quinn", "1.5", "2", "1"],
        ["Pat", "1.5", "3", "0"],
    ]
    options = {"Cumulative half-point bye": "Yes", "Unplayed points rule": "No"}
    switched = make_sheet(
        {"Results": BYES, "Harkness": settings_rows(Tiebreaks="CUM, MM", **options)}
    )
    assert run_sync(switched).problems == ()
    expected = [["Pat", "1.5", "2.5", "0"], ["Quinn", "1.5", "2", "1"]]
    assert _standings(sheets_fake, switched)[1:3] == expected
    swisssys = make_sheet(
        {"Results": BYES, "Harkness": settings_rows(Rules="swisssys", Tiebreaks="CUM, MM")}
    )
    assert run_sync(swisssys).problems == ()
    assert _standings(sheets_fake, swisssys)[1:3] == expected
