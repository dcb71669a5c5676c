"""Every kind of malformed cell gets an Errors row with its A1 reference, and loses nothing:
the TD's tabs stay as typed, and the last good standings stay unless the TD asks for partial
standings."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheets.problems import SheetProblem
from sheets.sync import SyncResult
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.conftest import seed_crosstable, settings_rows

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]

CROSSTABLE = [
    ["#", "Name", "Rating", "Rd 1", "Rd 2"],
    ["1", "Ann", "1500", "W2 (w)", "D3 (b)"],
    ["2", "Bob", "", "L1 (b)", "B"],
    ["3", "Cy", "1400", "H", "D1 (w)"],
]
PLAYERS = [["#", "Name"], ["1", "Ann"], ["2", "Bob"], ["3", "Cy"], ["4", "Dee"]]
GAMES = [
    ["Round", "White", "Black", "Result"],
    ["1", "Ann", "Bob", "1-0"],
    ["1", "Cy", "Dee", "½-½"],
    ["2", "Bob", "", "B"],
]


def changed(rows: list[list[str]], cell: str, text: str) -> list[list[str]]:
    """A copy of ``rows`` with one cell (``"D2"``) replaced."""
    copy = [list(row) for row in rows]
    column, row = ord(cell[0]) - ord("A"), int(cell[1:]) - 1
    while len(copy) <= row:
        copy.append([])
    copy[row] += [""] * (column + 1 - len(copy[row]))
    copy[row][column] = text
    return copy


CROSSTABLE_CASES: list[tuple[str, dict[str, list[list[str]]], str, str | None, str]] = [
    (
        "an unreadable round cell",
        {"Results": changed(CROSSTABLE, "E2", "Q3")},
        "Results!E2",
        "Q3",
        "not a round entry",
    ),
    (
        "an opponent who does not exist",
        {"Results": changed(CROSSTABLE, "D2", "W99")},
        "Results!D2",
        "W99",
        "there is no player 99",
    ),
    *[
        (
            f"a half point alone ({half})",
            {"Results": changed(CROSSTABLE, "E3", half)},
            "Results!E3",
            half,
            "not a round entry; a half point alone: for a half-point bye write H, for a draw D",
        )
        for half in ("½", "1/2", "0.5")
    ],
    (
        "two sides of a game that disagree",
        {"Results": changed(CROSSTABLE, "D3", "W1 (b)")},
        "Results!D2",
        "W2 (w)",
        "player 1 has W2 (w) but player 2 has 'W1 (b)': one of the two is wrong (W2 for "
        "player 1 means L1 for player 2); player 2's cell is Results!D3",
    ),
    (
        "a forfeit against a game",
        {"Results": changed(CROSSTABLE, "D2", "X2")},
        "Results!D2",
        "X2",
        "player 2 has 'L1 (b)': one of the two is wrong (X2 for player 1 means F1 for player 2)"
        "; player 2's cell is Results!D3",
    ),
    (
        "a player paired with themselves",
        {"Results": changed(CROSSTABLE, "D4", "W3")},
        "Results!D4",
        "W3",
        "cannot be paired with themselves",
    ),
    (
        "both players with White",
        {"Results": changed(CROSSTABLE, "D3", "L1 (w)")},
        "Results!D2",
        "W2 (w)",
        "both player 1 and player 2 have white",
    ),
    (
        "a starting number that is not a number",
        {"Results": changed(CROSSTABLE, "A3", "x")},
        "Results!A3",
        "x",
        "'#' must be the player's starting number",
    ),
    (
        "a starting number used twice",
        {"Results": changed(CROSSTABLE, "A3", "1")},
        "Results!A3",
        "1",
        "starting number 1 is used twice (first in Results!A2)",
    ),
    (
        "a player without a name",
        {"Results": changed(CROSSTABLE, "B3", "")},
        "Results!B3",
        None,
        "the player has no name",
    ),
    (
        "a rating that is not a number",
        {"Results": changed(CROSSTABLE, "C2", "strong")},
        "Results!C2",
        "strong",
        "a rating must be a whole number",
    ),
    (
        "a round beyond the rounds set",
        {"Results": CROSSTABLE, "Harkness": settings_rows(Rounds="1")},
        "Results!E2",
        "D3 (b)",
        "round 2 is beyond the 1 rounds set in Harkness!B4",
    ),
    (
        "no header row",
        {"Results": [["Name", "Score"], ["Ann", "1"]]},
        "Results!A1",
        "Name, Score",
        "no header row found",
    ),
    (
        "round columns out of order",
        {"Results": changed(CROSSTABLE, "E1", "Rd 3")},
        "Results!E1",
        "Rd 3",
        "round columns must be 'Rd 1', 'Rd 2', … in order",
    ),
    ("no results tab", {"Scores": CROSSTABLE}, "Results", None, "there is no tab named 'Results'"),
]

GAME_LIST_CASES: list[tuple[str, dict[str, list[list[str]]], str, str | None, str]] = [
    (
        "a player the players tab does not list",
        {"Results": changed(GAMES, "B2", "Zed"), "Players": PLAYERS},
        "Results!B2",
        "Zed",
        "there is no player of that name",
    ),
    (
        "a name two players share",
        {"Results": GAMES, "Players": changed(PLAYERS, "B5", "Cy")},
        "Results!B3",
        "Cy",
        "2 players are called 'Cy'",
    ),
    (
        "a starting number nobody has",
        {"Results": changed(GAMES, "C2", "#9"), "Players": PLAYERS},
        "Results!C2",
        "#9",
        "there is no player 9",
    ),
    (
        "a round that is not a number",
        {"Results": changed(GAMES, "A2", "first"), "Players": PLAYERS},
        "Results!A2",
        "first",
        "the round must be a number",
    ),
    (
        "a result that is not a result",
        {"Results": changed(GAMES, "D2", "2-0"), "Players": PLAYERS},
        "Results!D2",
        "2-0",
        "not a game result",
    ),
    (
        "a game without a result in a round before one with results",
        {"Results": [*changed(GAMES, "D2", ""), ["2", "Cy", "Dee", "1-0"]], "Players": PLAYERS},
        "Results!D2",
        None,
        "no result, but round 2 has results",
    ),
    (
        "a bye with a result that is not a bye's",
        {"Results": changed(GAMES, "D4", "Q"), "Players": PLAYERS},
        "Results!D4",
        "Q",
        "not a bye result",
    ),
    (
        "a player with two results in a round",
        {"Results": [*GAMES, ["1", "Ann", "Cy", "0-1"]], "Players": PLAYERS},
        "Results!D5",
        "0-1",
        "player 1 (Ann) already has a result in round 1 (row 2)",
    ),
    (
        "a player paired with themselves",
        {"Results": changed(GAMES, "C2", "Ann"), "Players": PLAYERS},
        "Results!C2",
        "Ann",
        "cannot be paired with themselves",
    ),
    ("no players tab", {"Results": GAMES}, "Players", None, "a game list needs a players tab"),
    (
        "a bad starting number in the players tab",
        {"Results": GAMES, "Players": changed(PLAYERS, "A3", "two")},
        "Players!A3",
        "two",
        "'#' must be the player's starting number",
    ),
]

SETTINGS_CASES: list[tuple[str, dict[str, list[list[str]]], str, str | None, str]] = [
    (
        "an unknown rule profile",
        {"Harkness": settings_rows(Rules="nope")},
        "Harkness!B2",
        "nope",
        "unknown profile",
    ),
    (
        "a profile option under FIDE rules",
        {"Harkness": settings_rows(Rules="fide-2024", Unplayed_points_rule="yes")},
        "Harkness!B12",
        "Yes",
        "only for the US Chess profiles",
    ),
    (
        "a profile option that is neither yes nor no",
        {"Harkness": settings_rows(**{"Cumulative half-point bye": "sometimes"})},
        "Harkness!B11",
        "sometimes",
        "answer Yes or No",
    ),
    (
        "an unknown tiebreak code",
        {"Harkness": settings_rows(Tiebreaks="MM, XYZ")},
        "Harkness!B3",
        "MM, XYZ",
        "unknown code 'XYZ'",
    ),
    (
        "a number of rounds that is not a number",
        {"Harkness": settings_rows(Rounds="many")},
        "Harkness!B4",
        "many",
        "the number of rounds must be a whole number",
    ),
    (
        "a yes-or-no setting that is neither",
        {"Harkness": settings_rows(Publish_partial_standings="maybe")},
        "Harkness!B10",
        "maybe",
        "answer Yes or No",
    ),
    (
        "a label that is not a setting",
        {"Harkness": [*settings_rows(), ["Colour", "blue"]]},
        f"Harkness!A{len(settings_rows()) + 1}",
        "Colour",
        "not a setting",
    ),
    (
        "two output tabs with one name",
        {"Harkness": settings_rows(Breakdown_tab="Standings")},
        "Harkness!B8",
        "Standings",
        "must differ from the standings tab",
    ),
]


def _run(
    fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync, tabs: dict[str, list[list[str]]]
) -> tuple[str, SyncResult]:
    if "Results" not in tabs and "Scores" not in tabs:
        tabs = {"Results": CROSSTABLE, **tabs}
    sheet_id = make_sheet(tabs)
    return sheet_id, run_sync(sheet_id)


@pytest.mark.parametrize(
    ("case", "tabs", "cell", "text", "message"),
    CROSSTABLE_CASES + GAME_LIST_CASES + SETTINGS_CASES,
    ids=[c[0] for c in CROSSTABLE_CASES + GAME_LIST_CASES + SETTINGS_CASES],
)
def test_each_malformed_cell_gets_an_errors_row_with_its_a1_reference(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    run_sync: RunSync,
    case: str,
    tabs: dict[str, list[list[str]]],
    cell: str,
    text: str | None,
    message: str,
) -> None:
    sheet_id, result = _run(sheets_fake, make_sheet, run_sync, tabs)
    matching = [p for p in result.problems if p.cell == cell and message in p.message]
    assert matching, [str(p) for p in result.problems]
    assert matching[0].text == text
    rows = sheets_fake.values(sheet_id, "Errors")
    assert [cell, text or "", matching[0].message] in [row + [""] * (3 - len(row)) for row in rows]
    assert not result.published
    notice = sheets_fake.values(sheet_id, "Standings")  # the first sync: no standings yet
    assert notice[0] == ["No standings yet"] and "on the Errors tab" in notice[1][0]
    assert len(notice) == 3 and notice[2][0].startswith("Synced ")


def test_a_problem_reads_as_cell_text_and_message() -> None:
    assert str(SheetProblem("there is no player 99", "Results!E7", "W99")) == (
        'Results!E7: "W99": there is no player 99'
    )


def test_every_problem_of_a_sheet_is_listed_at_once(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    rows = changed(changed(changed(CROSSTABLE, "E2", "Q3"), "D4", "W3"), "C3", "strong")
    sheet_id, result = _run(sheets_fake, make_sheet, run_sync, {"Results": rows})
    assert {p.cell for p in result.problems} >= {"Results!E2", "Results!D4", "Results!C3"}
    errors = sheets_fake.values(sheet_id, "Errors")
    assert errors[-2][0].startswith(
        f"{len(result.problems)} problems, listed above: the standings were not updated. Fix "
        "those cells, or write Yes in Harkness!B10"
    )


def test_with_errors_the_last_good_standings_stay_and_nothing_typed_is_lost(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    standings = sheets_fake.values(sheet_id, "Standings")
    sheets_fake.set_values(sheet_id, "Results!C2", [["W99"]])
    results = sheets_fake.values(sheet_id, "Results")
    result = run_sync(sheet_id)
    assert result.changed and not result.published
    assert sheets_fake.values(sheet_id, "Standings") == standings
    assert sheets_fake.values(sheet_id, "Results") == results
    assert sheets_fake.values(sheet_id, "Errors!A2:C2") == [
        ["Results!C2", "W99", "there is no player 99"]
    ]


def test_partial_standings_leave_out_the_cells_with_problems_when_the_td_allows_it(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    rows = seed_crosstable()
    rows[1][2] = "W99"  # Player A's round 1 (against Player I) is unreadable now
    sheet_id = make_sheet(
        {"Results": rows, "Harkness": settings_rows(Publish_partial_standings="Yes")}
    )
    result = run_sync(sheet_id)
    assert result.published
    assert [str(p) for p in result.problems][:1] == ['Results!C2: "W99": there is no player 99']
    standings = sheets_fake.values(sheet_id, "Standings")
    scores = {row[2]: row[3] for row in standings[1:11]}
    assert scores["Player A"] == "2"  # the round-1 win left out
    assert scores["Player I"] == "1"  # and so is the other side of that game
    assert any("Partial standings" in row[0] for row in standings[11:] if row)
    errors = sheets_fake.values(sheet_id, "Errors")
    assert any("standings were published from the other cells" in row[0] for row in errors if row)


def test_problems_are_logged_with_their_cells(
    make_sheet: MakeSheet, run_sync: RunSync, caplog: pytest.LogCaptureFixture
) -> None:
    sheet_id = make_sheet({"Results": changed(CROSSTABLE, "D2", "W99")})
    with caplog.at_level("WARNING", logger="sheets.sync"):
        run_sync(sheet_id)
    assert 'Results!D2: "W99": there is no player 99' in caplog.text


def test_a_points_column_that_disagrees_is_listed_but_the_results_are_published(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    totals = ["Tot", "2", "1", "1"]  # Ann's results add up to 1½
    rows = [[*row, total] for row, total in zip(CROSSTABLE, totals, strict=True)]
    sheet_id, result = _run(sheets_fake, make_sheet, run_sync, {"Results": rows})
    assert result.published
    message = "Ann: the points column says 2, the results add up to 1.5; the results are used"
    assert [(p.cell, p.text, p.message) for p in result.problems] == [("Results!F2", "2", message)]
    errors = sheets_fake.values(sheet_id, "Errors")
    assert ["Results!F2", "2", message] in errors
    assert any(
        row and row[0].startswith("1 points cell disagrees with the results") for row in errors
    )
    standings = sheets_fake.values(sheet_id, "Standings")
    assert {row[2]: row[3] for row in standings[1:4]}["Ann"] == "1.5"
