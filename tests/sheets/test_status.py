"""What the TD reads about a sync: once, in the sheet's own time zone, with the last check of
an idle worker, in columns wide enough to read, and a Standings tab even before there are
standings."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sheets.client import SheetsClient
from sheets.sync import CHECK_STAMP_EVERY, SyncResult, sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable, settings_rows

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]

T0 = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)


def _with_typo() -> list[list[str]]:
    rows = seed_crosstable()
    rows[1][2] = "W99"  # Player A's round 1: there is no player 99
    return rows


def _set_time_zone(client: SheetsClient, sheet_id: str, zone: str) -> None:
    """The TD picks the spreadsheet's time zone (File > Settings), through the API here."""
    request = {"properties": {"timeZone": zone}, "fields": "timeZone"}
    client.http_client.batch_update(
        sheet_id, {"requests": [{"updateSpreadsheetProperties": request}]}
    )


def test_sync_prints_each_problem_once_and_the_summary_points_at_them(
    sheets_env: dict[str, str], make_sheet: MakeSheet
) -> None:
    sheet_id = make_sheet({"Results": _with_typo()})
    done = subprocess.run(
        [sys.executable, "-m", "sheets", "sync", sheet_id],
        env={**os.environ, **sheets_env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count('Results!C2: "W99": there is no player 99') == 1, done.stderr
    assert "listed above" not in done.stdout
    assert (
        "2 problems, listed below and on the Errors tab: the standings were not updated"
        in done.stdout
    )


def test_a_refused_standings_tab_is_reported_as_not_written(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    mine = [["My own standings, typed by hand"]]
    sheet_id = make_sheet({"Results": seed_crosstable(), "Standings": mine})
    result = run_sync(sheet_id)
    assert not result.published
    status = [row[0] for row in sheets_fake.values(sheet_id, "Errors")[2:] if row]
    for text in (status[0], result.summary):
        assert "published" not in text and "Publish partial standings" not in text
        assert "the standings were not written, because a tab named 'Standings'" in text


def test_times_are_in_the_spreadsheets_time_zone(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    _set_time_zone(client, sheet_id, "Europe/Paris")
    sync(client, sheet_id, now=T0)
    footer = [row[0] for row in sheets_fake.values(sheet_id, "Standings")[11:] if row]
    assert footer[-1].startswith("Synced 2026-03-01 15:05 CET, when something last changed")
    errors = sheets_fake.values(sheet_id, "Errors")
    assert errors[0][3] == "Last checked 2026-03-01 15:05 CET"
    assert errors[-1][0].startswith("Synced 2026-03-01 15:05 CET")


def test_an_idle_worker_shows_its_last_check_with_one_small_write_now_and_then(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    _set_time_zone(client, sheet_id, "America/New_York")
    sync(client, sheet_id, now=T0)
    standings = sheets_fake.values(sheet_id, "Standings")
    errors = sheets_fake.values(sheet_id, "Errors")
    sheets_fake.reset_calls()

    soon = sync(client, sheet_id, now=T0 + timedelta(minutes=1))
    assert not soon.changed
    assert sheets_fake.call_count(sheet_id, operation=Op.BATCH_UPDATE) == 0

    later = sync(client, sheet_id, now=T0 + CHECK_STAMP_EVERY + timedelta(minutes=1))
    assert not later.changed and not later.problems
    (write,) = sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE)
    assert write.request_kinds == ["updateCells", "updateDeveloperMetadata"]
    assert sheets_fake.values(sheet_id, "Errors!D1") == [["Last checked 2026-03-01 09:16 EST"]]
    assert sheets_fake.values(sheet_id, "Standings") == standings  # nothing else moved
    after = sheets_fake.values(sheet_id, "Errors")
    assert [row[:3] for row in after] == [row[:3] for row in errors]
    checked = sheets_fake.developer_metadata(sheet_id, "harkness.checkedAt")
    assert [m["metadataValue"] for m in checked] == ["2026-03-01T14:16:00+00:00"]


def test_a_check_time_in_the_future_is_not_trusted(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    sync(client, sheet_id, now=T0 + timedelta(days=365))  # a clock that was wrong
    sheets_fake.reset_calls()
    sync(client, sheet_id, now=T0)
    assert sheets_fake.call_count(sheet_id, operation=Op.BATCH_UPDATE) == 1
    assert sheets_fake.values(sheet_id, "Errors!D1") == [["Last checked 2026-03-01 14:05 GMT"]]


def _widths(sheets_fake: SheetsFake, sheet_id: str, title: str) -> dict[int, int]:
    sheet = sheets_fake.sheet(sheet_id, title).sheet_id
    found: dict[int, int] = {}
    for request in sheets_fake.recorded_requests(sheet_id):
        body: dict[str, Any] = request.get("updateDimensionProperties") or {}
        if body.get("range", {}).get("sheetId") == sheet and body["fields"] == "pixelSize":
            assert body["range"]["dimension"] == "COLUMNS"
            found[body["range"]["startIndex"]] = body["properties"]["pixelSize"]
    return found


def test_columns_get_widths_and_the_sentences_wrap_in_the_same_write(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet(
        {"Results": _with_typo(), "Harkness": settings_rows(Publish_partial_standings="Yes")}
    )
    run_sync(sheet_id)
    assert sheets_fake.call_count(sheet_id, operation=Op.BATCH_UPDATE) == 1
    standings = _widths(sheets_fake, sheet_id, "Standings")
    assert standings[8] >= 400 and standings[2] >= 150 and standings[0] < 100  # Why, Name, Place
    assert sheets_fake.cell(sheet_id, "Standings!I2").format.get("wrapStrategy") == "WRAP"
    errors = _widths(sheets_fake, sheet_id, "Errors")
    assert errors[2] >= 400
    assert sheets_fake.cell(sheet_id, "Errors!C2").format.get("wrapStrategy") == "WRAP"
    breakdown = _widths(sheets_fake, sheet_id, "Breakdown")
    last = max(breakdown)
    assert breakdown[last] >= 400
    assert len(breakdown) == sheets_fake.sheet(sheet_id, "Breakdown").column_count


def test_a_first_sync_with_a_typo_leaves_a_standings_tab_that_says_why(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": _with_typo()})
    result = run_sync(sheet_id)
    assert not result.published
    notice = sheets_fake.values(sheet_id, "Standings")
    assert notice[0] == ["No standings yet"]
    assert notice[1][0] == (
        "2 problems, on the Errors tab: the standings were not updated. Fix those cells, or "
        "write Yes in Harkness!B10 to publish standings from the other cells."
    )
    assert sheets_fake.cell(sheet_id, "Standings!A2").format.get("wrapStrategy") == "WRAP"
    # Fixed: the notice gives way to the standings, in the same tab.
    sheets_fake.set_values(sheet_id, "Results!C2", [["W9 (w)"]])
    fixed = run_sync(sheet_id)
    assert fixed.published
    assert sheets_fake.values(sheet_id, "Standings!A1:C2") == [
        ["Place", "#", "Name"],
        ["1", "1", "Player A"],
    ]
