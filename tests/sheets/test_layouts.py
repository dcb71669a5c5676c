"""Both input layouts, end to end on the seed crosstable: the Standings tab carries the
values MD Chess published, and the worker's tabs are formatted, frozen, protected and marked.
"""

from __future__ import annotations

from collections.abc import Callable

from sheets.layout import PROTECTION_DESCRIPTION, TAB_METADATA_KEY
from sheets.settings_tab import default_rows
from sheets.sync import SyncResult
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.conftest import seed_crosstable, seed_game_list, settings_rows
from tests.test_seed_crosstable import published_table

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]


def published_standings() -> list[list[str]]:
    """Seed 000's published rows as the Standings tab shows them: #, name, score, M S C O."""
    return [[row[0], row[1], *row[-5:]] for row in published_table()[1:]]


def standings_columns(fake: SheetsFake, sheet_id: str) -> list[list[str]]:
    rows = fake.values(sheet_id, "Standings!B2:H11")
    return [list(row) for row in rows]


def test_a_crosstable_tab_gets_the_published_standings(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet(
        {"Results": seed_crosstable(), "Harkness": settings_rows(Rules="mdchess")}
    )
    result = run_sync(sheet_id)
    assert result.changed and result.published and result.problems == ()
    assert sheets_fake.values(sheet_id, "Standings!A1:I1") == [
        ["Place", "#", "Name", "Score", "MM", "SOLK", "CUM", "OCUM", "Why"]
    ]
    assert standings_columns(sheets_fake, sheet_id) == published_standings()
    assert [row[0] for row in sheets_fake.values(sheet_id, "Standings!A2:A11")] == [
        str(n) for n in range(1, 11)
    ]
    why_d = sheets_fake.values(sheet_id, "Standings!I5")[0][0]
    assert why_d == (
        "Player C and Player D both scored 3; Modified Median 6.5 each; Solkoff 7.5 vs 6.5 decides."
    )


def test_a_game_list_with_a_players_tab_gets_the_same_standings(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    games, players = seed_game_list()
    sheet_id = make_sheet({"Results": games, "Players": players})
    result = run_sync(sheet_id)
    assert result.problems == () and result.published
    assert standings_columns(sheets_fake, sheet_id) == published_standings()


def test_scores_and_tiebreaks_are_numbers_and_names_are_text(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    assert sheets_fake.cell(sheet_id, "Standings!E2").entered == {"numberValue": 8.5}
    assert sheets_fake.cell(sheet_id, "Standings!D6").entered == {"numberValue": 2.5}
    assert sheets_fake.cell(sheet_id, "Standings!C2").entered == {"stringValue": "Player A"}


def test_the_worker_tabs_have_a_bold_frozen_header_a_warning_and_a_marker(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    for title, role in (
        ("Standings", "standings"),
        ("Breakdown", "breakdown"),
        ("Errors", "errors"),
    ):
        tab = sheets_fake.sheet(sheet_id, title)
        assert tab.frozen_row_count == 1
        assert [p["warningOnly"] for p in tab.protected_ranges] == [True]
        assert tab.protected_ranges[0]["description"] == PROTECTION_DESCRIPTION
        assert [(m["metadataKey"], m["metadataValue"]) for m in tab.developer_metadata] == [
            (TAB_METADATA_KEY, role)
        ]
        header = sheets_fake.cell(sheet_id, f"{title}!A1")
        assert header.format["textFormat"]["bold"] is True


def test_the_results_tab_is_left_exactly_as_the_td_typed_it(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    before = sheets_fake.values(sheet_id, "Results")
    results_tab = sheets_fake.sheet(sheet_id, "Results")
    run_sync(sheet_id)
    assert sheets_fake.values(sheet_id, "Results") == before
    assert sheets_fake.sheet(sheet_id, "Results") == results_tab


def test_the_settings_tab_is_created_with_the_defaults_and_then_left_to_the_td(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    assert sheets_fake.values(sheet_id, "Harkness") == default_rows()
    sheets_fake.set_values(sheet_id, "Harkness!B3", [["SOLK, MM"]])
    run_sync(sheet_id)
    assert sheets_fake.values(sheet_id, "Harkness!B3") == [["SOLK, MM"]]
    assert sheets_fake.values(sheet_id, "Standings!E1:G1") == [["SOLK", "MM", "Why"]]


def test_the_breakdown_shows_each_round_and_the_dropped_one_in_brackets(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    rows = sheets_fake.values(sheet_id, "Breakdown")
    assert rows[0] == [
        "Place",
        "#",
        "Name",
        "Tiebreak",
        "Value",
        "Rd 1",
        "Rd 2",
        "Rd 3",
        "Rd 4",
        "Adjusted",
        "How",
    ]
    player_a_mm = rows[1]
    assert player_a_mm[:9] == ["1", "1", "Player A", "MM", "8.5", "(1)", "3", "2.5", "3"]
    assert player_a_mm[10].startswith("Modified Median 8.5")
    note = sheets_fake.cell(sheet_id, "Breakdown!F2").note
    assert note is not None and "Player I" in note and "dropped" in note
    assert len(rows) == 1 + 10 * 4


def test_a_clean_sync_says_so_on_the_errors_tab(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    rows = sheets_fake.values(sheet_id, "Errors")
    assert rows[0][:3] == ["Cell", "Entered", "Problem"]
    assert rows[0][3].startswith("Last checked ")
    assert rows[2] == ["No problems found."]
    assert rows[3][0].startswith("After round 4 · 10 players · rules uscf")
