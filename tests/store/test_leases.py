"""One writer per spreadsheet across processes (``sheet_leases``), and outbox claims that
several processes make at once: each row to one of them, none to two."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.store import Store
from tests.store.conftest import ANN, BOB, CAT, DAN, GUILD, TD, Clock, Club

LEASE = timedelta(seconds=60)


@pytest.fixture
async def linked(club: Club) -> Club:
    await club.store.link_sheet(GUILD, club.name, TD, spreadsheet_id="sheet-abc")
    return club


async def test_a_spreadsheet_has_one_writer_until_it_is_dropped_or_its_lease_runs_out(
    store: Store, clock: Clock
):
    assert await store.take_sheet("sheet-a", "bot-1", lease=LEASE)
    assert not await store.take_sheet("sheet-a", "bot-2", lease=LEASE)
    assert await store.take_sheet("sheet-b", "bot-2", lease=LEASE)  # another sheet is free
    assert await store.take_sheet("sheet-a", "bot-1", lease=LEASE)  # renewed by its holder
    clock.advance(59)
    assert not await store.take_sheet("sheet-a", "bot-2", lease=LEASE)
    clock.advance(2)  # bot-1 stopped renewing: its lease has run out
    assert await store.take_sheet("sheet-a", "bot-2", lease=LEASE)
    await store.drop_sheet("sheet-a", "bot-1")  # not its own any more: nothing happens
    assert not await store.take_sheet("sheet-a", "bot-1", lease=LEASE)
    await store.drop_sheet("sheet-a", "bot-2")
    assert await store.take_sheet("sheet-a", "bot-1", lease=LEASE)


async def test_the_sheets_of_stopped_processes_are_freed_at_once(store: Store):
    assert await store.take_sheet("sheet-a", "killed", lease=LEASE)
    assert await store.take_sheet("sheet-b", "running", lease=LEASE)
    assert await store.release_sheets(lambda holder: holder == "killed") == 1
    assert await store.take_sheet("sheet-a", "new", lease=LEASE)
    assert not await store.take_sheet("sheet-b", "new", lease=LEASE)


async def test_many_processes_racing_for_a_spreadsheet_give_it_to_one(store: Store, db_url: str):
    stores = [
        store,
        *[await Store.open(db_url, migrate=False, clock=store.clock) for _ in range(2)],
    ]
    try:
        for sheet in ("sheet-a", "sheet-b", "sheet-c"):
            won = await asyncio.gather(
                *(
                    s.take_sheet(sheet, f"bot-{n}-{i}", lease=LEASE)
                    for i in range(4)
                    for n, s in enumerate(stores)
                )
            )
            assert sum(won) == 1, won
    finally:
        for other in stores[1:]:
            await other.close()


async def test_claims_pass_by_a_sheet_another_process_writes_and_postponing_is_no_failure(
    linked: Club, clock: Clock
):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=ANN.name)
    assert await store.take_sheet("sheet-abc", "bot-2", lease=LEASE)
    assert await store.claim_writes("bot-1") == []  # bot-2 is writing that sheet
    [item] = await store.claim_writes("bot-2")
    assert await store.postpone_writes([item], "bot-2", retry_in=timedelta(seconds=2)) == 1
    await store.drop_sheet("sheet-abc", "bot-2")
    assert await store.claim_writes("bot-1") == []  # due in two seconds
    clock.advance(2)
    [again] = await store.claim_writes("bot-1")
    assert again.id == item.id and again.attempts == 0


async def test_processes_claiming_at_once_each_get_other_results(linked: Club, db_url: str):
    for player in (ANN, BOB, CAT, DAN):
        for round_ in (1, 2, 3):
            await linked.store.set_bye(GUILD, linked.name, TD, round=round_, player=player.name)
    stores = [await Store.open(db_url, migrate=False, clock=linked.store.clock) for _ in range(3)]
    try:
        claimed = await asyncio.gather(
            *(s.claim_writes(f"bot-{i}", limit=2) for i in range(4) for s in stores)
        )
    finally:
        for s in stores:
            await s.close()
    ids = [item.id for batch in claimed for item in batch]
    assert len(ids) == len(set(ids)) == 12
