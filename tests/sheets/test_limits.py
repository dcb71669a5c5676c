"""A pathological sheet is a list of Errors rows, never a crash: cells over the length limit,
digits that are not ASCII, numbers of thousands of digits; and the watcher goes on with the
other sheets."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from core.limits import MAX_CELL_CHARS, QUOTED_CHARS
from sheets.client import SheetsClient
from sheets.sync import SyncResult
from sheets.watch import WatchConfig, WatchedSheet, Watcher
from tests.fakes.sheets_api import SheetsFake
from tests.sheets.addon import Editor
from tests.sheets.conftest import seed_crosstable
from tests.sheets.test_errors import CROSSTABLE, GAMES, PLAYERS, changed
from tests.sheets.test_watch import Clock

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]
LONG = "W2 " * 15_000  # 45,000 characters: Sheets holds up to 50,000 in a cell


@pytest.mark.parametrize(
    ("tabs", "cell", "message"),
    [
        (
            {"Results": changed(CROSSTABLE, "D2", LONG)},
            "Results!D2",
            f"the cell is 45,000 characters long; the limit is {MAX_CELL_CHARS}",
        ),
        (
            {"Results": changed(CROSSTABLE, "A2", "1²")},
            "Results!A2",
            "'#' must be the player's starting number",
        ),
        (
            {"Results": changed(CROSSTABLE, "A2", "9" * 150)},
            "Results!A2",
            "'#' must be the player's starting number",
        ),
        (
            {"Results": changed(CROSSTABLE, "C2", "15²0")},
            "Results!C2",
            "a rating must be a whole number (0–9999) or empty",
        ),
        (
            {"Results": GAMES, "Players": PLAYERS},
            None,
            None,
        ),
        (
            {"Results": changed(GAMES, "A2", "1²"), "Players": PLAYERS},
            "Results!A2",
            "the round must be a number",
        ),
        (
            {"Results": changed(GAMES, "B2", "#" + "1" * 150), "Players": PLAYERS},
            "Results!B2",
            "there is no player 1111",
        ),
    ],
    ids=[
        "a long cell",
        "superscript #",
        "150-digit #",
        "superscript rating",
        "a good game list",
        "superscript round",
        "150-digit player",
    ],
)
def test_a_pathological_cell_is_an_errors_row(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    run_sync: RunSync,
    tabs: dict[str, list[list[str]]],
    cell: str | None,
    message: str | None,
) -> None:
    sheet_id = make_sheet(tabs)
    result = run_sync(sheet_id)
    assert not any("bug in Harkness" in p.message for p in result.problems), result.problems
    if cell is None:
        assert result.published and not result.problems
        return
    found = [p for p in result.problems if p.cell == cell]
    assert found and message in found[0].message, result.problems
    errors = sheets_fake.values(sheet_id, "Errors")
    row = next(r for r in errors if r and r[0] == cell)
    assert len(row[1]) <= QUOTED_CHARS


def test_a_sheet_over_the_limits_never_stops_the_watcher(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    good = make_sheet({"Results": seed_crosstable()}, title="Good")
    rows = seed_crosstable()
    for row in rows[1:]:
        row[1] = "x" * 20_000  # every name over the limit
    huge = make_sheet({"Results": rows}, title="Huge")
    config = WatchConfig((WatchedSheet(huge, "huge"), WatchedSheet(good, "good")))
    clock = Clock()
    watcher = Watcher(client, config, interval=60, clock=clock)
    clock.now += 60
    outcomes = {o.sheet.name: o for o in watcher.poll()}
    assert outcomes["good"].result is not None and outcomes["good"].result.published
    result = outcomes["huge"].result
    assert result is not None and not result.published
    assert all("characters long" in p.message for p in result.problems)
    assert len(result.problems) == len(rows) - 1
    assert not watcher.failures


async def test_a_sheet_over_the_limits_never_stops_the_endpoint(
    sheets_fake: SheetsFake,
    make_sheet: MakeSheet,
    client: SheetsClient,
    make_editor: Callable[..., Editor],
) -> None:
    from tests.sheets.test_serve import start

    rows = seed_crosstable()
    rows[1][0] = "1²"  # a digit int() refuses
    rows[2][2] = "W2 " * 15_000  # a cell over the length limit
    bad = make_sheet({"Results": rows}, title="Bad")
    good = make_sheet({"Results": seed_crosstable()}, title="Good")
    td = make_editor("td", bad, good)
    endpoint, runner = await start(client)
    try:
        for sheet in (bad, good):
            key = await endpoint.connect(td, sheet)
            assert (await endpoint.post("/sync", sheet, key))[0] == 202
        await endpoint.queue.idle()
    finally:
        await runner.cleanup()
    assert sorted(key for key, *_ in endpoint.runs) == sorted((bad, good))
    assert sheets_fake.values(good, "Standings")
    errors = sheets_fake.values(bad, "Errors")
    assert any(row and row[0] == "Results!C3" and "characters long" in row[2] for row in errors)
