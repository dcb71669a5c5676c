"""Durable sync jobs: requests for one spreadsheet coalesce and debounce, any worker claims a
due one, a request during a sync brings one more, a killed worker's sync is taken over."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.store import Store
from tests.store.conftest import Clock

S = timedelta(seconds=1)


async def test_a_burst_of_requests_is_one_sync_after_the_last_within_the_longest_wait(
    store: Store, clock: Clock
):
    for _ in range(4):  # an edit every 3 s: each moves the sync 5 s later ...
        assert await store.request_sync("sheet-a", debounce=5 * S, max_wait=12 * S) == "scheduled"
        assert await store.claim_sync("w1") is None
        clock.advance(3)
    # ... but never later than 12 s after the first: now, not 14 s after the first.
    assert await store.syncs_waiting() == (1, clock.now)
    job = await store.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-a"
    assert await store.claim_sync("w2") is None
    assert not await store.sync_done("sheet-a", "w1")
    assert await store.syncs_waiting() == (0, None)


async def test_a_request_during_a_sync_brings_one_more_after_it(store: Store, clock: Clock):
    await store.request_sync("sheet-a", debounce=0 * S)
    job = await store.claim_sync("w1")
    assert job is not None
    clock.advance(1)
    assert await store.request_sync("sheet-a", debounce=0 * S) == "after the running sync"
    assert await store.claim_sync("w2") is None  # not while w1 runs it
    assert await store.sync_done("sheet-a", "w1", debounce=0 * S)
    again = await store.claim_sync("w2")
    assert again is not None and again.spreadsheet_id == "sheet-a"
    assert not await store.sync_done("sheet-a", "w2")


async def test_a_killed_workers_sync_is_taken_over_when_its_lease_runs_out(
    store: Store, clock: Clock
):
    await store.request_sync("sheet-a", debounce=0 * S)
    assert await store.claim_sync("killed", lease=30 * S) is not None
    clock.advance(20)
    assert await store.renew_sync("sheet-a", "killed", lease=30 * S)
    clock.advance(29)
    assert await store.claim_sync("w2") is None
    clock.advance(2)
    assert (await store.claim_sync("w2", lease=30 * S)) is not None
    assert not await store.renew_sync("sheet-a", "killed", lease=30 * S)
    assert not await store.sync_done("sheet-a", "killed")
    assert not await store.sync_done("sheet-a", "w2")
    assert await store.syncs_waiting() == (0, None)


async def test_a_failed_sync_is_tried_again_later_and_a_busy_sheet_is_passed_by(
    store: Store, clock: Clock
):
    await store.request_sync("sheet-a", debounce=0 * S)
    await store.request_sync("sheet-b", debounce=0 * S)
    assert await store.take_sheet("sheet-a", "a-bot", lease=60 * S)  # a bot is writing it
    job = await store.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-b"
    assert await store.sync_failed("sheet-b", "w1", "Google: 503", retry_in=10 * S)
    await store.request_sync("sheet-b", debounce=0 * S)  # the backoff stands
    assert await store.claim_sync("w1") is None
    clock.advance(10)
    job = await store.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-b" and job.attempts == 1


async def test_workers_claiming_at_once_each_get_another_sheet(store: Store, db_url: str):
    for n in range(6):
        await store.request_sync(f"sheet-{n}", debounce=0 * S)
    others = [await Store.open(db_url, migrate=False, clock=store.clock) for _ in range(2)]
    try:
        jobs = await asyncio.gather(
            *(s.claim_sync(f"w{i}-{k}") for k in range(4) for i, s in enumerate([store, *others]))
        )
    finally:
        for other in others:
            await other.close()
    sheets = [job.spreadsheet_id for job in jobs if job is not None]
    assert sorted(sheets) == [f"sheet-{n}" for n in range(6)]
