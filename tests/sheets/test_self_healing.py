"""A TD's edit inside a Harkness tab is replaced at the next sync even when the inputs did
not change, as the tabs' protection warning promises; nothing is written when nobody edited."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sheets.client import SheetsClient
from sheets.layout import OUTPUT_METADATA_KEY
from sheets.sync import sync
from tests.fakes.sheets_api import Op, SheetsFake
from tests.sheets.conftest import seed_crosstable

MakeSheet = Callable[..., str]


def _writes(fake: SheetsFake, sheet_id: str) -> int:
    return len(fake.calls(sheet_id, operation=Op.BATCH_UPDATE, status=200))


@pytest.mark.parametrize("cell", ["Standings!C2", "Breakdown!E3", "Errors!A3"])
def test_an_edit_inside_a_harkness_tab_is_replaced_at_the_next_sync(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient, cell: str
) -> None:
    sheet_id = make_sheet({"Results": seed_crosstable()})
    assert sync(client, sheet_id).published
    before = sheets_fake.values(sheet_id, cell)
    writes = _writes(sheets_fake, sheet_id)
    assert not sync(client, sheet_id).changed  # nobody edited: nothing written
    assert _writes(sheets_fake, sheet_id) == writes
    sheets_fake.set_values(sheet_id, cell, [["typed by the TD"]])
    assert sync(client, sheet_id).changed
    assert sheets_fake.values(sheet_id, cell) == before
    writes = _writes(sheets_fake, sheet_id)
    assert not sync(client, sheet_id).changed  # healed once, then quiet
    assert _writes(sheets_fake, sheet_id) == writes


def test_a_sheet_synced_before_the_check_existed_records_what_it_shows_once(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, client: SheetsClient
) -> None:
    """No stored digest (a sheet written by an older worker): one small write records what
    the tabs show; the tabs are not written again, and later syncs write nothing."""
    sheet_id = make_sheet({"Results": seed_crosstable()})
    assert sync(client, sheet_id).published
    sheets_fake.delete_developer_metadata(sheet_id, OUTPUT_METADATA_KEY)
    sheets_fake.reset_calls()
    assert not sync(client, sheet_id).changed
    (write,) = sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE)
    assert write.request_kinds == ["createDeveloperMetadata"]  # no tab written
    assert sheets_fake.developer_metadata(sheet_id, OUTPUT_METADATA_KEY)
    sheets_fake.reset_calls()
    assert not sync(client, sheet_id).changed
    assert sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE) == []
