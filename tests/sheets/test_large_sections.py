"""Large sections sync within Google's request limits: one write up to 300 players, else as
few ``batchUpdate`` requests of at most 2 MB as needed, the Standings tab never seen half
written, a staging tab left by a stopped write cleaned up by the next sync."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from core.formats.crosstable import crosstable_rows
from core.model import Tournament
from core.standings import compute_standings
from sheets.batches import MAX_REQUEST_BYTES, STAGING_SUFFIX
from sheets.client import SheetsClient, open_client
from sheets.settings import SheetsSettings
from sheets.sync import sync
from sheets.write import STAGING_MARKER
from tests.fakes.sheets_api import Op, SheetsFake
from tests.generate import random_swiss

MakeSheet = Callable[..., str]


def _results(t: Tournament) -> list[list[Any]]:
    return [list(row) for row in crosstable_rows(t)]


def _writes(fake: SheetsFake, sheet_id: str) -> list[int]:
    """The body sizes of the successful writes, in order."""
    return [c.size for c in fake.calls(sheet_id, operation=Op.BATCH_UPDATE, status=200)]


def _names_in_rank_order(fake: SheetsFake, sheet_id: str, count: int) -> list[str]:
    rows = fake.values(sheet_id, f"Standings!A2:C{count + 1}")
    return [row[2] for row in rows]


@pytest.fixture
def patient(sheets_settings: SheetsSettings) -> SheetsClient:
    """The worker's client waiting 30 s for an answer: the fake takes seconds over a 2 MB
    write on a loaded machine."""
    return open_client(sheets_settings.model_copy(update={"timeout": 30.0}))


def test_a_300_player_section_is_one_read_and_one_write(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, patient: SheetsClient
) -> None:
    t = random_swiss(300, 9, seed=7)
    sheet_id = make_sheet({"Results": _results(t)})
    assert sync(patient, sheet_id).published
    assert len(sheets_fake.calls(sheet_id, operation=Op.GET)) == 1
    writes = _writes(sheets_fake, sheet_id)
    assert len(writes) == 1
    assert writes[0] <= MAX_REQUEST_BYTES


def test_a_2000_player_section_syncs_in_requests_google_accepts(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, patient: SheetsClient
) -> None:
    """2,000 × 9 is about 11 MB of cells, which Google refuses in one request."""
    t = random_swiss(2000, 9, seed=7)
    sheet_id = make_sheet({"Results": _results(t)})
    assert sync(patient, sheet_id).published
    writes = _writes(sheets_fake, sheet_id)
    assert sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE, status=400) == []
    assert all(size <= MAX_REQUEST_BYTES for size in writes), writes
    assert 6 <= len(writes) <= 12  # 11 MB in 2 MB requests, and the small ones
    expected = [row.player.name for row in compute_standings(t, "uscf").rows]
    assert _names_in_rank_order(sheets_fake, sheet_id, len(expected)) == expected
    assert not any(STAGING_SUFFIX in title for title in sheets_fake.sheet_titles(sheet_id))


def _observe_standings(fake: SheetsFake, sheet_id: str, seen: list[list[list[Any]]]) -> None:
    """Before every write, what a TD looking at the Standings tab would see."""

    def look(f: SheetsFake) -> None:
        if "Standings" in f.sheet_titles(sheet_id):
            seen.append(f.values(sheet_id, "Standings"))

    fake.before_call(look, operation=Op.BATCH_UPDATE, times=None)


def test_standings_too_large_for_one_request_take_the_old_tab_s_place_whole(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, patient: SheetsClient
) -> None:
    """With a limit the Standings tab alone passes, the new standings go to a staging tab
    first; the Standings tab a TD sees is always the old one or the new one, in its place,
    marked and protected."""
    t = random_swiss(40, 5, seed=3)
    sheet_id = make_sheet({"Results": _results(t)})
    assert sync(patient, sheet_id, request_limit=12_000).published
    assert len(_writes(sheets_fake, sheet_id)) > 3
    first = sheets_fake.values(sheet_id, "Standings")
    place = sheets_fake.sheet(sheet_id, "Standings")
    changed = random_swiss(40, 5, seed=4)  # other results: other standings
    sheets_fake.set_values(sheet_id, "Results!A1", _results(changed))
    seen: list[list[list[Any]]] = []
    _observe_standings(sheets_fake, sheet_id, seen)
    sheets_fake.reset_calls()
    assert sync(patient, sheet_id, request_limit=12_000).published
    last = sheets_fake.values(sheet_id, "Standings")
    assert last != first
    assert len(seen) >= 3
    assert all(view in (first, last) for view in seen), "a half-written Standings tab"
    now = sheets_fake.sheet(sheet_id, "Standings")
    assert now.index == place.index
    assert now.protected_ranges
    assert [m["metadataValue"] for m in now.developer_metadata] == ["standings"]
    assert not any(STAGING_SUFFIX in title for title in sheets_fake.sheet_titles(sheet_id))
    expected = [row.player.name for row in compute_standings(changed, "uscf").rows]
    assert _names_in_rank_order(sheets_fake, sheet_id, len(expected)) == expected


def test_a_staging_tab_left_by_a_stopped_write_is_removed_by_the_next_sync(
    sheets_fake: SheetsFake, make_sheet: MakeSheet, patient: SheetsClient
) -> None:
    """The write that would put the staging tab in place is refused: the worker reads the
    sheet again, deletes the staging tab and writes everything."""
    t = random_swiss(40, 5, seed=3)
    rehearsal = make_sheet({"Results": _results(t)})
    assert sync(patient, rehearsal, request_limit=12_000).published
    count = len(_writes(sheets_fake, rehearsal))
    sheet_id = make_sheet({"Results": _results(t)})
    calls = {"n": 0}

    def refuse_the_last(f: SheetsFake) -> None:
        calls["n"] += 1
        if calls["n"] == count - 1:  # the next write is the last one
            f.fail_next(1, 400, operation=Op.BATCH_UPDATE, spreadsheet_id=sheet_id)

    sheets_fake.before_call(
        refuse_the_last, operation=Op.BATCH_UPDATE, spreadsheet_id=sheet_id, times=None
    )
    assert sync(patient, sheet_id, request_limit=12_000).published
    assert len(sheets_fake.calls(sheet_id, operation=Op.BATCH_UPDATE, status=400)) == 1
    assert len(sheets_fake.calls(sheet_id, operation=Op.GET)) == 2
    assert not any(STAGING_SUFFIX in title for title in sheets_fake.sheet_titles(sheet_id))
    markers = [m["metadataValue"] for m in sheets_fake.developer_metadata(sheet_id)]
    assert STAGING_MARKER not in markers
    assert markers.count("standings") == 1
