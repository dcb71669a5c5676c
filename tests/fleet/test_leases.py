"""One writer per spreadsheet across processes (``sheet_leases``): taken, renewed, dropped,
run out, freed when its process has stopped, and won by one of many processes racing."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sheets.fleet import Fleet
from tests.store.conftest import Clock

LEASE = timedelta(seconds=60)


async def test_a_spreadsheet_has_one_writer_until_it_is_dropped_or_its_lease_runs_out(
    fleet: Fleet, clock: Clock
):
    assert await fleet.take_sheet("sheet-a", "bot-1", lease=LEASE)
    assert not await fleet.take_sheet("sheet-a", "bot-2", lease=LEASE)
    assert await fleet.take_sheet("sheet-b", "bot-2", lease=LEASE)  # another sheet is free
    assert await fleet.take_sheet("sheet-a", "bot-1", lease=LEASE)  # renewed by its holder
    clock.advance(59)
    assert not await fleet.take_sheet("sheet-a", "bot-2", lease=LEASE)
    clock.advance(2)  # bot-1 stopped renewing: its lease has run out
    assert await fleet.take_sheet("sheet-a", "bot-2", lease=LEASE)
    await fleet.drop_sheet("sheet-a", "bot-1")  # not its own any more: nothing happens
    assert not await fleet.take_sheet("sheet-a", "bot-1", lease=LEASE)
    await fleet.drop_sheet("sheet-a", "bot-2")
    assert await fleet.take_sheet("sheet-a", "bot-1", lease=LEASE)


async def test_the_sheets_of_stopped_processes_are_freed_at_once(fleet: Fleet):
    assert await fleet.take_sheet("sheet-a", "killed", lease=LEASE)
    assert await fleet.take_sheet("sheet-b", "running", lease=LEASE)
    assert await fleet.release_sheets(lambda holder: holder == "killed") == 1
    assert await fleet.take_sheet("sheet-a", "new", lease=LEASE)
    assert not await fleet.take_sheet("sheet-b", "new", lease=LEASE)


async def test_many_processes_racing_for_a_spreadsheet_give_it_to_one(fleet: Fleet, db_url: str):
    fleets = [
        fleet,
        *[await Fleet.open(db_url, migrate=False, clock=fleet.clock) for _ in range(2)],
    ]
    try:
        for sheet in ("sheet-a", "sheet-b", "sheet-c"):
            won = await asyncio.gather(
                *(
                    s.take_sheet(sheet, f"bot-{n}-{i}", lease=LEASE)
                    for i in range(4)
                    for n, s in enumerate(fleets)
                )
            )
            assert sum(won) == 1, won
    finally:
        for other in fleets[1:]:
            await other.close()


async def test_a_writer_knows_the_sheets_other_processes_hold_now(fleet: Fleet, clock: Clock):
    assert await fleet.take_sheet("sheet-a", "bot-1", lease=LEASE)
    assert await fleet.take_sheet("sheet-b", "bot-2", lease=LEASE)
    assert await fleet.held_by_others("bot-1") == {"sheet-b"}
    assert await fleet.held_by_others("bot-3") == {"sheet-a", "sheet-b"}
    clock.advance(61)  # both ran out
    assert await fleet.held_by_others("bot-3") == frozenset()
