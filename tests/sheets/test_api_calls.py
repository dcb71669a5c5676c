"""API calls per sync: one read and at most one write; one read when nothing changed; a TD
edit that lands between the worker's read and its write is neither overwritten nor missed."""

from __future__ import annotations

from collections.abc import Callable

from sheets.client import SheetsClient
from sheets.sync import SyncResult
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]
RunSync = Callable[[str], SyncResult]


def counts(fake: SheetsFake, sheet_id: str) -> tuple[int, int]:
    """(reads, writes) the fake received for the spreadsheet, then forget them."""
    reads = fake.call_count(sheet_id, kind="read")
    writes = fake.call_count(sheet_id, kind="write")
    fake.reset_calls()
    return reads, writes


def test_a_first_sync_is_one_read_and_one_write(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    assert [c.operation for c in sheets_fake.calls(sheet_id)] == [Op.GET, Op.BATCH_UPDATE]
    write = sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE)[0]
    assert "addSheet" in write.request_kinds and "updateCells" in write.request_kinds


def test_an_unchanged_sheet_costs_one_read_and_no_write(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    sheets_fake.reset_calls()
    for _ in range(3):
        result = run_sync(sheet_id)
        assert not result.changed
        assert counts(sheets_fake, sheet_id) == (1, 0)


def test_a_changed_result_costs_one_read_and_one_write(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    sheets_fake.reset_calls()
    # Player A and Player E drew in round 3; make it a win for Player E.
    sheets_fake.set_values(sheet_id, "Results!E2", [["L5 (w)"]])
    sheets_fake.set_values(sheet_id, "Results!E6", [["W1 (b)"]])
    result = run_sync(sheet_id)
    assert result.changed and result.published
    assert counts(sheets_fake, sheet_id) == (1, 1)
    assert sheets_fake.values(sheet_id, "Standings!C2:D2") == [["Player B", "3"]]


def test_a_deleted_output_tab_is_written_again_although_the_input_is_unchanged(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync, client: SheetsClient
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    breakdown = sheets_fake.sheet(sheet_id, "Breakdown").sheet_id
    # Someone deletes the Breakdown tab (here through the API; the fake has no TD verb for it).
    client.http_client.batch_update(
        sheet_id, {"requests": [{"deleteSheet": {"sheetId": breakdown}}]}
    )
    sheets_fake.reset_calls()
    result = run_sync(sheet_id)
    assert result.changed
    assert counts(sheets_fake, sheet_id) == (1, 1)
    assert sheets_fake.values(sheet_id, "Breakdown!A1:B1") == [["Place", "#"]]


def test_a_td_edit_between_the_read_and_the_write_is_kept_and_synced_next_time(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, run_sync: RunSync
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    run_sync(sheet_id)
    # The TD corrects round 3 (Player A beat Player E) while the worker is ranking: the edit
    # lands after the worker's read and before its write.
    sheets_fake.set_values(sheet_id, "Results!E2", [["L5 (w)"]])

    def td_edits(fake: SheetsFake) -> None:
        fake.set_values(sheet_id, "Results!E2", [["W5 (w)"]])
        fake.set_values(sheet_id, "Results!E6", [["L1 (b)"]])
        fake.set_values(sheet_id, "Results!G2", [["3.5"]])  # and the Tot column with them
        fake.set_values(sheet_id, "Results!G6", [["2"]])

    sheets_fake.before_call(td_edits, operation=Op.BATCH_UPDATE, spreadsheet_id=sheet_id)
    first = run_sync(sheet_id)
    assert first.changed
    # The write did not touch the results tab: the TD's edit is there.
    assert sheets_fake.values(sheet_id, "Results!E2") == [["W5 (w)"]]
    assert sheets_fake.values(sheet_id, "Results!E6") == [["L1 (b)"]]
    # It ranked what it read (an inconsistent round 3), so the next sync must rank again.
    sheets_fake.reset_calls()
    second = run_sync(sheet_id)
    assert second.changed and second.published and second.problems == ()
    assert counts(sheets_fake, sheet_id) == (1, 1)
    assert sheets_fake.values(sheet_id, "Standings!C2:D2") == [["Player A", "3.5"]]
