"""A member's ``/standings`` read syncs the sheet under the sheet's lease in the fleet, as
every other writer does, so bot processes never interleave their writes to one sheet; with
``HARKNESS_SHEETS_SYNC_JOBS`` the bot's own requests for a sync are counted as queued jobs.
Real bot (in this process) on both loopback fakes; SQLite and real PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from prometheus_client import REGISTRY

from tests.bot.support import clicked, reported
from tests.fakes.sheets_api import Op
from tests.link.conftest import LinkedClub, eventually

#: Another process on the database (a shard writing results, a Sheets worker syncing).
OTHER = "harkness-sheets:elsewhere:1:0ther000"
LEASE = timedelta(seconds=60)


def writes(club: LinkedClub) -> int:
    return club.sheets.call_count(club.sheet_id, operation=Op.BATCH_UPDATE)


@pytest.mark.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)
async def test_a_members_read_syncs_the_sheet_only_while_holding_its_lease(
    linked: LinkedClub,
) -> None:
    club = linked
    before = club.tab("Standings")
    assert await club.fleet.take_sheet(club.sheet_id, OTHER, lease=LEASE)
    # The TD types Alice's win over Bob; a member asks while the other process writes.
    club.sheets.set_values(club.sheet_id, "Results!E2:E3", [["W2 (w)"], ["L1 (b)"]])
    club.refresh()
    made = writes(club)
    answer = await club.ok("erin", "standings")
    assert "Alice" in answer.embeds[0]["description"]  # answered from the read ...
    assert writes(club) == made  # ... but the sheet was left to the process holding it
    assert club.tab("Standings") == before

    await club.fleet.drop_sheet(club.sheet_id, OTHER)
    club.refresh()
    club.sheets.slow_next(1, 1.5, operation=Op.BATCH_UPDATE, spreadsheet_id=club.sheet_id)
    asking = asyncio.create_task(club.ok("erin", "standings"))

    async def writing() -> bool:
        return writes(club) > made

    await eventually(writing, 30, "the read's sync writing the Standings tab")
    # While its write is in flight the bot holds the sheet: no other process may take it.
    assert not await club.fleet.take_sheet(club.sheet_id, OTHER, lease=LEASE)
    await asyncio.wait_for(asking, 30)
    assert club.tab("Standings") != before
    assert await club.fleet.take_sheet(club.sheet_id, OTHER, lease=LEASE)  # given back


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
async def test_the_bots_own_sync_requests_are_counted_as_queued_jobs(
    linked: LinkedClub, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = linked
    monkeypatch.setenv("HARKNESS_SHEETS_SYNC_JOBS", "1")
    await club.restart()
    assert club.links.sync_jobs
    queued = REGISTRY.get_sample_value("harkness_sync_jobs_total", {"event": "queued"}) or 0.0
    message = await reported(club, "alice", 2, "#3", "draw")
    await clicked(club, "carol", message, "Confirm")
    await club.settled()
    club.refresh()
    await club.ok("erin", "standings")
    # The written result and the read each asked the workers for a sync: one job, two asks.
    assert REGISTRY.get_sample_value("harkness_sync_jobs_total", {"event": "queued"}) == (
        queued + 2
    )
    waiting, _ = await club.fleet.syncs_waiting()
    assert waiting == 1
