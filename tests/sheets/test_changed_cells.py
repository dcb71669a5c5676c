"""After the first sync, a sync writes only what changed in the Harkness tabs (rows moved
where players moved, the cells whose value, format or note differ), in one request as a
rule, and leaves each tab exactly as a first sync of the same input would: a TD's edit
inside one (a value, a colour, a note) is replaced, rows follow players added, withdrawn
or removed, and the Standings tab is never seen half written."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from core.formats.crosstable import crosstable_rows, read_crosstable
from core.model import Tournament
from core.standings import compute_standings
from sheets.batches import MAX_REQUEST_BYTES
from sheets.client import SheetsClient, open_client
from sheets.layout import column_letters
from sheets.looks import canonical_format
from sheets.settings import SheetsSettings
from sheets.sync import sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.generate import random_swiss

MakeSheet = Callable[..., str]
NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
OUTPUT_TABS = ("Standings", "Breakdown", "Errors")


@pytest.fixture
def patient(sheets_settings: SheetsSettings) -> SheetsClient:
    """The worker's client waiting long enough for the fake to take a large write on a
    loaded machine."""
    return open_client(sheets_settings.model_copy(update={"timeout": 60.0}))


def _tab(fake: SheetsFake, sheet_id: str, title: str) -> tuple[Any, list[list[Any]]]:
    """A tab's grid and every cell's value, format (as the TD sees it: a colour either way
    the API spells it) and note, row by row."""
    document = fake.spreadsheet_json(sheet_id, include_grid_data=True)
    sheet = next(s for s in document["sheets"] if s["properties"]["title"] == title)
    rows = []
    for block in sheet["data"]:
        assert not block.get("startRow") and not block.get("startColumn")
        for row in block.get("rowData") or []:
            cells = [
                (
                    c.get("userEnteredValue"),
                    canonical_format(c.get("userEnteredFormat")),
                    c.get("note"),
                )
                for c in row.get("values", [])
            ]
            while cells and cells[-1] == (None, (), None):
                cells.pop()
            rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return sheet["properties"]["gridProperties"], rows


def _as_a_first_sync(
    fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    sheet_id: str,
    now: datetime,
    titles: tuple[str, ...] = OUTPUT_TABS,
) -> None:
    """The Harkness tabs are cell for cell those a first sync of the same input writes."""
    fresh = make_sheet({"Results": fake.values(sheet_id, "Results")})
    assert sync(client, fresh, now=now).changed
    for title in titles:
        assert _tab(fake, sheet_id, title) == _tab(fake, fresh, title), title


def _writes(fake: SheetsFake, sheet_id: str) -> list[Any]:
    writes = fake.calls(sheet_id, operation=Op.BATCH_UPDATE)
    assert all(call.status == 200 for call in writes)
    return writes


def _cells_written(fake: SheetsFake, sheet_id: str) -> int:
    """How many cells the writes' ``updateCells`` and ``repeatCell`` covered."""
    total = 0
    for call in _writes(fake, sheet_id):
        for request in call.body["requests"]:
            area = (request.get("updateCells") or request.get("repeatCell") or {}).get("range")
            if area:
                rows = area["endRowIndex"] - area["startRowIndex"]
                total += rows * (area["endColumnIndex"] - area["startColumnIndex"])
    return total


def _results(t: Tournament) -> list[list[Any]]:
    return [list(row) for row in crosstable_rows(t)]


def _correct_a_game(rows: list[list[Any]], player: int) -> list[tuple[int, int]]:
    """The first game ``player`` won with white becomes a loss, on both players' cells (the
    rows' index is the starting number); answer the two cells (row, column)."""
    first = 3 if rows[0][2] == "Rating" else 2
    row = _row_of(rows)
    for c, cell in enumerate(rows[row[player]][first:], start=first):
        if str(cell).startswith("W") and str(cell).endswith("(w)"):
            opponent = int(str(cell)[1:].split()[0])
            rows[row[player]][c] = f"L{opponent} (w)"
            rows[row[opponent]][c] = f"W{player} (b)"
            return [(row[player], c), (row[opponent], c)]
    raise AssertionError(f"player {player} never won with white")


def _row_of(rows: list[list[Any]]) -> dict[int, int]:
    """Each starting number's row."""
    return {int(row[0]): r for r, row in enumerate(rows) if r}


def _withdraw(rows: list[list[Any]], player: int, after: int) -> None:
    """``player`` withdraws after round ``after``; each later opponent gets a full-point bye."""
    first = 3 if rows[0][2] == "Rating" else 2
    row = _row_of(rows)
    for c in range(first + after, len(rows[0])):
        cell = str(rows[row[player]][c])
        if cell[:1] in "WDLXF" and cell[1:2].isdigit():
            rows[row[int(cell[1:].split()[0])]][c] = "B"
        rows[row[player]][c] = "-"


@pytest.fixture
def section(make_sheet: MakeSheet, client: SheetsClient) -> tuple[str, list[list[Any]]]:
    """An 80-player, 6-round section, synced once."""
    rows = _results(random_swiss(80, 6, seed=11))
    sheet_id = make_sheet({"Results": rows})
    assert sync(client, sheet_id, now=NOW).published
    return sheet_id, rows


def test_a_corrected_game_writes_the_cells_that_changed_and_nothing_else(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    section: tuple[str, list[list[Any]]],
) -> None:
    sheet_id, rows = section
    whole = sum(call.size for call in _writes(sheets_fake, sheet_id))
    _correct_a_game(rows, 5)
    sheets_fake.set_values(sheet_id, "Results!A1", rows)
    sheets_fake.reset_calls()
    later = NOW + timedelta(hours=1)
    assert sync(client, sheet_id, now=later).published
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 1
    (write,) = _writes(sheets_fake, sheet_id)
    assert write.size < whole / 4  # in a section this small, the tints of most groups change
    assert "moveDimension" in write.request_kinds  # players moved, with their rows
    assert "addSheet" not in write.request_kinds
    _as_a_first_sync(sheets_fake, make_sheet, client, sheet_id, later)


@pytest.mark.parametrize("change", ["withdrawal", "new player", "player removed"])
def test_rows_follow_players_added_withdrawn_or_removed(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    section: tuple[str, list[list[Any]]],
    change: str,
) -> None:
    sheet_id, rows = section
    if change == "withdrawal":
        _withdraw(rows, 3, after=2)  # a leader drops out: many places change
    elif change == "new player":
        rows.append([81, "Late Entrant", 1500, "U", "U", "H", "H", "H", "H"])
    else:
        _withdraw(rows, 40, after=0)
        rows = [row for row in rows if str(row[0]) != "40"]
    sheets_fake.set_values(sheet_id, "Results!A1", [[""] * len(rows[0])] * (len(rows) + 1))
    sheets_fake.set_values(sheet_id, "Results!A1", rows)
    sheets_fake.reset_calls()
    later = NOW + timedelta(hours=1)
    result = sync(client, sheet_id, now=later)
    assert result.published and not result.problems, result.summary
    assert len(_writes(sheets_fake, sheet_id)) == 1
    _as_a_first_sync(sheets_fake, make_sheet, client, sheet_id, later)


def _as_the_td(client: SheetsClient, sheet_id: str, requests: list[dict[str, Any]]) -> None:
    """A TD's edit the fake has no verb for (a colour, a note), sent through the API."""
    client.http_client.batch_update(sheet_id, {"requests": requests})


def _one_cell(fake: SheetsFake, sheet_id: str, title: str, row: int, column: int) -> dict[str, Any]:
    return {
        "sheetId": fake.sheet(sheet_id, title).sheet_id,
        "startRowIndex": row,
        "endRowIndex": row + 1,
        "startColumnIndex": column,
        "endColumnIndex": column + 1,
    }


@pytest.mark.parametrize(
    ("title", "cell", "fields"),
    [
        ("Standings", {"userEnteredValue": {"stringValue": "typed by the TD"}}, "userEnteredValue"),
        (
            "Standings",
            {"userEnteredFormat": {"backgroundColorStyle": {"rgbColor": {"red": 1}}}},
            "userEnteredFormat.backgroundColorStyle",
        ),
        ("Breakdown", {"note": "the TD's note"}, "note"),
        ("Breakdown", {"userEnteredFormat": {"textFormat": {"italic": True}}}, "userEnteredFormat"),
        ("Errors", {"userEnteredValue": {"numberValue": 7}}, "userEnteredValue"),
    ],
)
def test_a_tds_edit_inside_a_harkness_tab_is_replaced_and_only_that_cell_written(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    section: tuple[str, list[list[Any]]],
    title: str,
    cell: dict[str, Any],
    fields: str,
) -> None:
    sheet_id, _ = section
    before = _tab(sheets_fake, sheet_id, title)
    where = _one_cell(sheets_fake, sheet_id, title, 4, 1)
    _as_the_td(client, sheet_id, [{"repeatCell": {"range": where, "cell": cell, "fields": fields}}])
    assert _tab(sheets_fake, sheet_id, title) != before
    sheets_fake.reset_calls()
    assert sync(client, sheet_id, now=NOW).changed
    assert _tab(sheets_fake, sheet_id, title) == before
    assert len(_writes(sheets_fake, sheet_id)) == 1
    assert _cells_written(sheets_fake, sheet_id) == 1
    sheets_fake.reset_calls()
    assert not sync(client, sheet_id, now=NOW).changed  # healed once, then quiet
    assert _writes(sheets_fake, sheet_id) == []


def test_the_errors_tab_loses_the_row_of_a_problem_fixed(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    section: tuple[str, list[list[Any]]],
) -> None:
    """Three cells the worker cannot read, then the middle one fixed: the Errors tab is the
    one a first sync writes, and its other problems' rows are not written again."""
    sheet_id, rows = section
    typos = {10: rows[10][4], 20: rows[20][4], 30: rows[30][4]}
    for row in typos:
        sheets_fake.set_values(sheet_id, f"Results!E{row + 1}", [["W?"]])
    assert not sync(client, sheet_id, now=NOW).published
    assert len(sheets_fake.values(sheet_id, "Errors!A2:A4")) == 3
    sheets_fake.set_values(sheet_id, "Results!E21", [[typos[20]]])
    sheets_fake.reset_calls()
    later = NOW + timedelta(hours=1)
    assert not sync(client, sheet_id, now=later).published
    (write,) = _writes(sheets_fake, sheet_id)
    assert "deleteDimension" in write.request_kinds
    _as_a_first_sync(sheets_fake, make_sheet, client, sheet_id, later, ("Errors",))
    errors = [row[0] for row in sheets_fake.values(sheet_id, "Errors!A2:A3")]
    assert errors == ["Results!E11", "Results!E31"]


@pytest.mark.parametrize("change", ["a game corrected", "a leader withdrawn"])
def test_the_standings_tab_is_never_seen_half_written_when_a_change_takes_several_requests(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    section: tuple[str, list[list[Any]]],
    change: str,
) -> None:
    """With a request limit the changes pass, the other tabs' changes go first, in several
    requests, and the Standings tab is touched by the last request only: its changes, when
    they fit in one request, else a staging tab that takes its place."""
    sheet_id, rows = section
    if change == "a game corrected":
        _correct_a_game(rows, 5)
    else:
        _withdraw(rows, 3, after=2)
    sheets_fake.set_values(sheet_id, "Results!A1", rows)
    first = sheets_fake.values(sheet_id, "Standings")
    standings = re.compile(rf'"sheetId": {sheets_fake.sheet(sheet_id, "Standings").sheet_id}\b')
    seen: list[Any] = []
    sheets_fake.before_call(
        lambda f: seen.append(f.values(sheet_id, "Standings")),
        operation=Op.BATCH_UPDATE,
        times=None,
    )
    sheets_fake.reset_calls()
    later = NOW + timedelta(hours=1)
    assert sync(client, sheet_id, now=later, request_limit=20_000).published
    writes = _writes(sheets_fake, sheet_id)
    assert len(writes) >= 2 and all(call.size <= 20_000 for call in writes)
    assert sheets_fake.values(sheet_id, "Standings") != first
    assert all(view == first for view in seen), "the Standings tab changed before the last write"
    assert [bool(standings.search(json.dumps(call.body))) for call in writes][-1]
    assert not any(standings.search(json.dumps(call.body)) for call in writes[:-1])
    _as_a_first_sync(sheets_fake, make_sheet, client, sheet_id, later)


@pytest.mark.parametrize(("players", "rounds"), [(2000, 9), (5000, 11)])
def test_a_corrected_game_in_a_large_section_is_at_most_two_writes(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    patient: SheetsClient,
    players: int,
    rounds: int,
) -> None:
    """The first sync of such a section writes many MB in many requests; correcting one
    game (its two cells) afterwards is one read and at most two writes of a few hundred KB,
    and the standings are the new ones."""
    rows = _results(random_swiss(players, rounds, seed=7))
    sheet_id = make_sheet({"Results": rows})
    assert sync(patient, sheet_id).published
    first = sum(call.size for call in _writes(sheets_fake, sheet_id))
    for r, c in _correct_a_game(rows, 1):  # a TD's edit of two cells
        sheets_fake.set_values(sheet_id, f"Results!{column_letters(c)}{r + 1}", [[rows[r][c]]])
    sheets_fake.reset_calls()
    assert sync(patient, sheet_id).published
    assert sheets_fake.call_count(sheet_id, operation=Op.GET) == 1
    writes = _writes(sheets_fake, sheet_id)
    assert 1 <= len(writes) <= 2
    assert all(call.size <= MAX_REQUEST_BYTES for call in writes)
    assert sum(call.size for call in writes) < first / 10
    text = "\n".join("\t".join(str(cell) for cell in row) for row in rows)
    expected = compute_standings(read_crosstable(text), "uscf")
    names = [row[0] for row in sheets_fake.values(sheet_id, f"Standings!C2:C{players + 1}")]
    assert names == [row.player.name for row in expected.rows]
