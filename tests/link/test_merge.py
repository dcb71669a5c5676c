"""The worker (``harkness-sheets sync``, and the bot's own syncs) merges the bot's Discord
reports tab into the TD's results: what the TD typed always wins, an empty cell takes the
report, a disagreement is listed on the Errors tab and never applied, and nothing the TD
typed is changed. These tests run the worker alone, with real gspread against the fake; the
bot's tab is written with the bot's own requests (:func:`sheets.discord_tabs.append_requests`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from sheets.client import SheetsClient, open_client
from sheets.discord_tabs import (
    REPORT_HEADER,
    REPORTS_TAB,
    ReportConflict,
    append_requests,
    report_row,
)
from sheets.settings import SheetsSettings
from sheets.sync import read_snapshot, sync
from tests.fakes.sheets_api import ServiceAccountKey, SheetsFake

ROSTER = [
    ["#", "Name", "Rd 1", "Rd 2"],
    [1, "Ann", "", ""],
    [2, "Bob", "", ""],
    [3, "Cat", "W4", ""],
    [4, "Dan", "L3", ""],
]


@pytest.fixture
def client(sheets_settings: SheetsSettings) -> SheetsClient:
    return open_client(sheets_settings)


@pytest.fixture
def sheet(sheets_fake: SheetsFake, service_account_file: ServiceAccountKey) -> Iterator[str]:
    yield sheets_fake.create_spreadsheet(
        "Club", {"Results": [list(r) for r in ROSTER]}, shared_with=[service_account_file.email]
    )


def game(
    seq: int,
    round_number: int,
    player: tuple[int, str],
    result: str,
    opponent: tuple[int, str],
    action: str = "confirm",
    **more: Any,
) -> dict[str, Any]:
    """An outbox payload as the store makes it."""
    return {
        "key": f"harkness:g:1:{seq}",
        "action": action,
        "round": round_number,
        "time": "2026-03-14T18:30:00+00:00",
        "player": player[1],
        "player_number": player[0],
        "opponent": opponent[1],
        "opponent_number": opponent[0],
        "result": result,
        "reported_by": player[1],
        "confirmed_by": opponent[1],
        **more,
    }


def bot_appends(client: SheetsClient, sheet: str, payloads: Sequence[dict[str, Any]]) -> None:
    """What the bot does: read the sheet, append the rows in one write."""
    snapshot = read_snapshot(client, sheet)
    rows = [report_row(p, {1: "#1 Ann", 2: "#2 Bob", 3: "#3 Cat", 4: "#4 Dan"}) for p in payloads]
    client.http_client.batch_update(sheet, {"requests": append_requests(snapshot, rows)})


def standings(fake: SheetsFake, sheet: str) -> dict[str, str]:
    """Name → score on the Standings tab."""
    rows = fake.values(sheet, "Standings")
    return {row[2]: row[3] for row in rows[1:] if len(row) > 3 and row[1].isdigit()}


def errors(fake: SheetsFake, sheet: str) -> list[list[str]]:
    return [row for row in fake.values(sheet, "Errors")[1:] if row and row[0]]


def test_an_empty_cell_takes_the_confirmed_report(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    bot_appends(client, sheet, [game(2, 1, (1, "Ann"), "1-0", (2, "Bob"))])
    result = sync(client, sheet)
    assert result.published and result.problems == ()
    assert standings(sheets_fake, sheet) == {"Ann": "1", "Cat": "1", "Bob": "0", "Dan": "0"}
    assert sheets_fake.values(sheet, "Results!A2:D3") == [["1", "Ann"], ["2", "Bob"]]


def test_what_the_td_typed_wins_and_the_disagreement_is_listed_not_applied(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    sheets_fake.set_values(sheet, "Results!C2:C3", [["L2"], ["W1"]])
    bot_appends(client, sheet, [game(2, 1, (1, "Ann"), "1-0", (2, "Bob"))])
    result = sync(client, sheet)
    [conflict] = result.problems
    assert isinstance(conflict, ReportConflict)
    assert (conflict.cell, conflict.text, conflict.key) == ("Results!C2", "L2", "harkness:g:1:2")
    assert conflict.report == "round 1: #1 Ann 1-0 #2 Bob (confirmed by Bob)"
    # The standings are the TD's (published although a report was not applied).
    assert result.published
    assert standings(sheets_fake, sheet) == {"Bob": "1", "Cat": "1", "Ann": "0", "Dan": "0"}
    assert errors(sheets_fake, sheet)[0][:2] == ["Results!C2", "L2"]
    assert [
        "1 Discord report not applied (listed above): what you typed stands."
    ] in sheets_fake.values(sheet, "Errors")
    assert sheets_fake.values(sheet, "Results!C2:C3") == [["L2"], ["W1"]]


def test_a_double_forfeit_set_in_discord_fills_both_cells_or_is_listed_as_one(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    bot_appends(client, sheet, [game(2, 1, (1, "Ann"), "-/-", (2, "Bob"), action="set")])
    result = sync(client, sheet)
    assert result.published and result.problems == ()
    assert standings(sheets_fake, sheet) == {"Cat": "1", "Ann": "0", "Bob": "0", "Dan": "0"}
    sheets_fake.set_values(sheet, "Results!C2:C3", [["L2"], ["W1"]])  # the TD says otherwise
    [conflict] = sync(client, sheet).problems
    assert isinstance(conflict, ReportConflict)
    assert conflict.report.startswith("round 1: #1 Ann -/- #2 Bob (set by")


def test_a_report_agreeing_with_one_typed_side_fills_the_other(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    sheets_fake.set_values(sheet, "Results!C2", [["W2 (b)"]])  # the TD typed Ann's side only
    bot_appends(client, sheet, [game(2, 1, (1, "Ann"), "1-0", (2, "Bob"))])
    result = sync(client, sheet)
    assert result.problems == () and result.published
    assert standings(sheets_fake, sheet)["Ann"] == "1"


def test_the_td_naming_a_player_in_another_cell_of_the_round_is_a_disagreement(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    # Discord says Ann played Bob in round 2; the TD typed only Cat's cell: Cat beat Ann.
    sheets_fake.set_values(sheet, "Results!D4", [["W1"]])
    bot_appends(client, sheet, [game(2, 2, (1, "Ann"), "½-½", (2, "Bob"))])
    conflicts = [p for p in sync(client, sheet).problems if isinstance(p, ReportConflict)]
    assert [(c.cell, c.text) for c in conflicts] == [("Results!D4", "W1")]
    assert sheets_fake.values(sheet, "Results!D2:D3") == []  # Ann's and Bob's: still empty


def test_a_report_naming_someone_not_on_the_sheet_is_listed_and_left_out(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    payload = game(2, 1, (1, "Ann"), "1-0", (9, "Zed"))
    bot_appends(client, sheet, [payload])
    result = sync(client, sheet)
    assert [str(p) for p in result.problems] == [
        "'Discord reports'!D2: \"1-0\": there is no player called 'Zed' on the results tab; "
        "this Discord report was not applied"
    ]
    assert result.published and standings(sheets_fake, sheet)["Ann"] == "0"


def test_an_undone_report_is_not_applied_and_an_undo_of_the_undo_applies_it_again(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    first = game(2, 1, (1, "Ann"), "1-0", (2, "Bob"))
    undo = {
        "key": "harkness:g:1:3",
        "action": "revert",
        "round": 1,
        "time": first["time"],
        "confirmed_by": "Tess",
        "undoes": first["key"],
    }
    bot_appends(client, sheet, [first, undo])
    sync(client, sheet)
    assert standings(sheets_fake, sheet)["Ann"] == "0"
    bot_appends(client, sheet, [{**undo, "key": "harkness:g:1:4", "undoes": undo["key"]}])
    sync(client, sheet)
    assert standings(sheets_fake, sheet)["Ann"] == "1"


def test_a_row_written_twice_counts_once(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    payload = game(2, 2, (3, "Cat"), "1-0", (1, "Ann"))
    bot_appends(client, sheet, [payload, payload])
    result = sync(client, sheet)
    assert result.problems == ()
    assert standings(sheets_fake, sheet)["Cat"] == "2"


def test_a_later_decision_replaces_an_earlier_one_and_a_clear_empties_the_round(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    bot_appends(
        client,
        sheet,
        [
            game(2, 2, (1, "Ann"), "1-0", (2, "Bob")),
            game(3, 2, (1, "Ann"), "0-1", (3, "Cat"), action="set"),  # the TD: Ann played Cat
        ],
    )
    sync(client, sheet)
    assert standings(sheets_fake, sheet) == {"Cat": "2", "Ann": "0", "Bob": "0", "Dan": "0"}
    bot_appends(
        client,
        sheet,
        [
            {
                "key": "harkness:g:1:4",
                "action": "clear",
                "round": 2,
                "player": "Ann",
                "player_number": 1,
                "time": "",
                "confirmed_by": "Tess",
            }
        ],
    )
    sync(client, sheet)
    assert standings(sheets_fake, sheet)["Cat"] == "1"


def test_a_game_list_takes_the_reports_too(
    sheets_fake: SheetsFake, client: SheetsClient, service_account_file: ServiceAccountKey
) -> None:
    sheet = sheets_fake.create_spreadsheet(
        "Club",
        {
            "Results": [["Round", "White", "Black", "Result"], [1, "Cat", "Dan", "1-0"]],
            "Players": [["#", "Name"], [1, "Ann"], [2, "Bob"], [3, "Cat"], [4, "Dan"]],
        },
        shared_with=[service_account_file.email],
    )
    bot_appends(
        client, sheet, [game(2, 1, (2, "Bob"), "½-½", (1, "Ann"), white="Bob", black="Ann")]
    )
    result = sync(client, sheet)
    assert result.problems == ()
    assert standings(sheets_fake, sheet) == {"Cat": "1", "Ann": "0.5", "Bob": "0.5", "Dan": "0"}


def test_a_tab_of_that_name_the_bot_did_not_make_is_not_read(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    sheets_fake.add_tab(
        sheet,
        REPORTS_TAB,
        [
            REPORT_HEADER,
            ["", 1, "#1 Ann", "1-0", "#2 Bob", "", "confirmed", "", "", "k", ""],
        ],
    )
    result = sync(client, sheet)
    assert result.problems == ()
    assert standings(sheets_fake, sheet)["Ann"] == "0"


def test_a_new_report_makes_the_worker_write_again_and_nothing_new_costs_one_read(
    sheets_fake: SheetsFake, client: SheetsClient, sheet: str
) -> None:
    assert sync(client, sheet).changed
    assert not sync(client, sheet).changed
    bot_appends(client, sheet, [game(2, 1, (1, "Ann"), "1-0", (2, "Bob"))])
    sheets_fake.reset_calls()
    assert sync(client, sheet).changed
    assert not sync(client, sheet).changed
    assert (
        sheets_fake.call_count(sheet, kind="read"),
        sheets_fake.call_count(sheet, kind="write"),
    ) == (2, 1)
