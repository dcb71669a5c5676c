"""Outbox claims that several processes make at once: each row to one of them, none to two,
and none of a spreadsheet another process is writing (the fleet's leases)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.store import Store
from sheets.fleet import Fleet
from tests.store.conftest import ANN, BOB, CAT, DAN, GUILD, TD, Clock, Club

LEASE = timedelta(seconds=60)
S = timedelta(seconds=1)


@pytest.fixture
async def linked(club: Club) -> Club:
    await club.store.linked.link_sheet(
        GUILD, club.name, TD, spreadsheet_id="sheet-abc", named=[GUILD]
    )
    return club


async def test_claims_pass_by_a_sheet_another_process_writes_and_postponing_is_no_failure(
    linked: Club, db_url: str, clock: Clock
):
    store = linked.store
    await store.set_bye(GUILD, linked.name, TD, round=1, player=ANN.name)
    async with await Fleet.open(db_url, clock=clock) as fleet:
        assert await fleet.take_sheet("sheet-abc", "bot-2", lease=LEASE)
        busy = await fleet.held_by_others("bot-1")
        assert await store.linked.claim_writes("bot-1", busy=busy) == []  # bot-2 writes it
        [item] = await store.linked.claim_writes("bot-2", busy=await fleet.held_by_others("bot-2"))
        assert await store.linked.postpone_writes([item], "bot-2", retry_in=2 * S) == 1
        await fleet.drop_sheet("sheet-abc", "bot-2")
        assert await fleet.held_by_others("bot-1") == frozenset()
    assert await store.linked.claim_writes("bot-1") == []  # due in two seconds
    clock.advance(2)
    [again] = await store.linked.claim_writes("bot-1")
    assert again.id == item.id and again.attempts == 0


async def test_processes_claiming_at_once_each_get_other_results(linked: Club, db_url: str):
    for player in (ANN, BOB, CAT, DAN):
        for round_ in (1, 2, 3):
            await linked.store.set_bye(GUILD, linked.name, TD, round=round_, player=player.name)
    stores = [await Store.open(db_url, migrate=False, clock=linked.store.clock) for _ in range(3)]
    try:
        claimed = await asyncio.gather(
            *(s.linked.claim_writes(f"bot-{i}", limit=2) for i in range(4) for s in stores)
        )
    finally:
        for s in stores:
            await s.close()
    ids = [item.id for batch in claimed for item in batch]
    assert len(ids) == len(set(ids)) == 12
