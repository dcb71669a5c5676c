"""Durable sync jobs: requests for one spreadsheet coalesce and debounce, any worker claims a
due one, a request during a sync brings one more, a killed worker's sync is taken over."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sheets.fleet import Fleet
from tests.store.conftest import Clock

S = timedelta(seconds=1)


async def test_a_burst_of_requests_is_one_sync_after_the_last_within_the_longest_wait(
    fleet: Fleet, clock: Clock
):
    for _ in range(4):  # an edit every 3 s: each moves the sync 5 s later ...
        assert await fleet.request_sync("sheet-a", debounce=5 * S, max_wait=12 * S) == "scheduled"
        assert await fleet.claim_sync("w1") is None
        clock.advance(3)
    # ... but never later than 12 s after the first: now, not 14 s after the first.
    assert await fleet.syncs_waiting() == (1, clock.now)
    job = await fleet.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-a"
    assert await fleet.claim_sync("w2") is None
    assert not await fleet.sync_done("sheet-a", "w1")
    assert await fleet.syncs_waiting() == (0, None)


async def test_a_request_during_a_sync_brings_one_more_after_it(fleet: Fleet, clock: Clock):
    await fleet.request_sync("sheet-a", debounce=0 * S)
    job = await fleet.claim_sync("w1")
    assert job is not None
    clock.advance(1)
    assert await fleet.request_sync("sheet-a", debounce=0 * S) == "after the running sync"
    assert await fleet.claim_sync("w2") is None  # not while w1 runs it
    assert await fleet.sync_done("sheet-a", "w1", debounce=0 * S)
    again = await fleet.claim_sync("w2")
    assert again is not None and again.spreadsheet_id == "sheet-a"
    assert not await fleet.sync_done("sheet-a", "w2")


async def test_a_killed_workers_sync_is_taken_over_when_its_lease_runs_out(
    fleet: Fleet, clock: Clock
):
    await fleet.request_sync("sheet-a", debounce=0 * S)
    assert await fleet.claim_sync("killed", lease=30 * S) is not None
    clock.advance(20)
    assert await fleet.renew_sync("sheet-a", "killed", lease=30 * S)
    clock.advance(29)
    assert await fleet.claim_sync("w2") is None
    clock.advance(2)
    assert (await fleet.claim_sync("w2", lease=30 * S)) is not None
    assert not await fleet.renew_sync("sheet-a", "killed", lease=30 * S)
    assert not await fleet.sync_done("sheet-a", "killed")
    assert not await fleet.sync_done("sheet-a", "w2")
    assert await fleet.syncs_waiting() == (0, None)


async def test_a_failed_sync_is_tried_again_later_and_a_busy_sheet_is_passed_by(
    fleet: Fleet, clock: Clock
):
    await fleet.request_sync("sheet-a", debounce=0 * S)
    await fleet.request_sync("sheet-b", debounce=0 * S)
    assert await fleet.take_sheet("sheet-a", "a-bot", lease=60 * S)  # a bot is writing it
    job = await fleet.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-b"
    assert await fleet.sync_failed("sheet-b", "w1", "Google: 503", retry_in=10 * S)
    await fleet.request_sync("sheet-b", debounce=0 * S)  # the backoff stands
    assert await fleet.claim_sync("w1") is None
    clock.advance(10)
    job = await fleet.claim_sync("w1")
    assert job is not None and job.spreadsheet_id == "sheet-b" and job.attempts == 1


async def test_workers_claiming_at_once_each_get_another_sheet(fleet: Fleet, db_url: str):
    for n in range(6):
        await fleet.request_sync(f"sheet-{n}", debounce=0 * S)
    others = [await Fleet.open(db_url, migrate=False, clock=fleet.clock) for _ in range(2)]
    try:
        jobs = await asyncio.gather(
            *(s.claim_sync(f"w{i}-{k}") for k in range(4) for i, s in enumerate([fleet, *others]))
        )
    finally:
        for other in others:
            await other.close()
    sheets = [job.spreadsheet_id for job in jobs if job is not None]
    assert sorted(sheets) == [f"sheet-{n}" for n in range(6)]


# -- several service accounts (sheets.fleet.routing) --------------------------------------

A, B = "worker-a@keys.example", "worker-b@keys.example"


async def _running(fleet: Fleet) -> None:
    """Worker ``wa`` holds account A's key, ``wb`` account B's."""
    await fleet.sync_worker_seen("wa", A, lease=60 * S)
    await fleet.sync_worker_seen("wb", B, lease=60 * S)


async def test_a_job_goes_only_to_the_workers_of_the_account_that_opens_its_sheet(
    fleet: Fleet, clock: Clock
):
    await _running(fleet)
    await fleet.request_sync("sheet-a", debounce=0 * S, account=A)  # the bot read it with A
    assert await fleet.claim_sync("wb", account=B) is None
    job = await fleet.claim_sync("wa", account=A)
    assert job is not None and job.account == A
    assert not await fleet.sync_done("sheet-a", "wa", account=A)
    # Remembered: the next request (from the add-on, which names no account) routes too.
    await fleet.request_sync("sheet-a", debounce=0 * S)
    assert await fleet.claim_sync("wb", account=B) is None
    assert (await fleet.claim_sync("wa", account=A)) is not None
    assert not await fleet.sync_done("sheet-a", "wa", account=A)
    # A sheet first opened by B's worker is B's from then on.
    await fleet.request_sync("sheet-b", debounce=0 * S)
    job = await fleet.claim_sync("wb", account=B)
    assert job is not None and job.account is None
    assert not await fleet.sync_done("sheet-b", "wb", account=B)
    await fleet.request_sync("sheet-b", debounce=0 * S)
    assert await fleet.claim_sync("wa", account=A) is None
    assert (await fleet.claim_sync("wb", account=B)) is not None


async def test_a_job_whose_account_has_no_running_worker_goes_to_any(fleet: Fleet, clock: Clock):
    await fleet.sync_worker_seen("wa", A, lease=60 * S)
    await fleet.request_sync("sheet-a", debounce=0 * S, account=B)  # B's worker is not running
    job = await fleet.claim_sync("wa", account=A)
    assert job is not None and job.account == B


async def test_a_sheet_no_account_opens_is_set_aside_and_reported_not_retried(
    fleet: Fleet, clock: Clock
):
    await _running(fleet)
    await fleet.request_sync("sheet-x", debounce=0 * S)
    job = await fleet.claim_sync("wa", account=A)
    assert job is not None
    assert not await fleet.sync_refused("sheet-x", "wa", A, "403: not shared with A")
    assert await fleet.claim_sync("wa", account=A) is None  # A cannot: not again
    job = await fleet.claim_sync("wb", account=B)  # at once for B
    assert job is not None and job.spreadsheet_id == "sheet-x"
    assert await fleet.sync_refused("sheet-x", "wb", B, "403: not shared with B")
    [aside] = await fleet.syncs_set_aside()
    assert aside.spreadsheet_id == "sheet-x" and "not shared with B" in aside.error
    assert await fleet.syncs_waiting() == (0, None)
    clock.advance(3600)
    for worker, account in (("wa", A), ("wb", B)):
        await fleet.sync_worker_seen(worker, account, lease=60 * S)
        assert await fleet.claim_sync(worker, account=account) is None
    # The TD shares it and edits it: a new request takes it up again, for every account.
    await fleet.request_sync("sheet-x", debounce=0 * S)
    assert await fleet.syncs_set_aside() == []
    assert (await fleet.claim_sync("wa", account=A)) is not None


async def test_an_account_that_stops_opening_a_sheet_hands_it_to_the_others(
    fleet: Fleet, clock: Clock
):
    await _running(fleet)
    await fleet.request_sync("sheet-a", debounce=0 * S, account=A)
    assert (await fleet.claim_sync("wa", account=A)) is not None
    assert not await fleet.sync_refused("sheet-a", "wa", A, "403: unshared")  # B is left
    job = await fleet.claim_sync("wb", account=B)
    assert job is not None and job.account is None
    assert not await fleet.sync_done("sheet-a", "wb", account=B)
    await fleet.request_sync("sheet-a", debounce=0 * S)
    assert await fleet.claim_sync("wa", account=A) is None
    assert (await fleet.claim_sync("wb", account=B)) is not None
