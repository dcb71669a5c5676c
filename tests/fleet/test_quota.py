"""A service account's per-minute budget is spent through the database: processes spending
at once never spend more than the limit in any window."""

from __future__ import annotations

import asyncio

from sheets.fleet import Fleet
from tests.store.conftest import Clock


async def test_the_budget_refuses_what_does_not_fit_and_says_how_long_to_wait(
    fleet: Fleet, clock: Clock
):
    spend = {"reads_limit": 3, "writes_limit": 2, "hold": 0.0}
    assert await fleet.spend_quota("a@x", reads=1, writes=1, **spend) == 0
    clock.advance(10)
    assert await fleet.spend_quota("a@x", reads=1, writes=1, **spend) == 0
    clock.advance(10)
    assert await fleet.spend_quota("a@x", reads=1, writes=1, **spend) == 40  # writes are out
    assert await fleet.spend_quota("b@x", reads=1, writes=1, **spend) == 0  # another account
    assert await fleet.spend_quota("a@x", reads=1, writes=0, **spend) == 0
    clock.advance(40)
    assert await fleet.spend_quota("a@x", reads=1, writes=1, **spend) == 0


async def test_processes_spending_at_once_stay_within_the_limit(
    fleet: Fleet, db_url: str, clock: Clock
):
    others = [await Fleet.open(db_url, migrate=False, clock=fleet.clock) for _ in range(2)]
    try:
        waits = await asyncio.gather(
            *(
                s.spend_quota("a@x", reads=1, writes=1, reads_limit=10, writes_limit=10)
                for _ in range(8)
                for s in [fleet, *others]
            )
        )
    finally:
        for other in others:
            await other.close()
    assert sum(1 for wait in waits if wait == 0) == 10


async def test_a_busy_share_leaves_the_reserve_to_another_that_comes(fleet: Fleet, clock: Clock):
    spend = {"reads_limit": 12, "writes_limit": 12, "hold": 0.0}
    busy = [
        await fleet.spend_quota("a@x", reads=1, writes=0, share="a", **spend) for _ in range(11)
    ]
    assert busy == [0.0] * 10 + [60.0]  # alone, it spends all but the reserve (2 of 12)
    clock.advance(1)
    assert await fleet.spend_quota("a@x", reads=2, writes=0, share="b", **spend) == 0  # at once
    assert await fleet.spend_quota("a@x", reads=1, writes=0, share="a", **spend) > 0
    # Without shares (a caller that names none) it is first come, first served, as before.
    assert await fleet.spend_quota("c@x", reads=12, writes=0, **spend) == 0
    assert await fleet.spend_quota("c@x", reads=1, writes=0, share="b", **spend) > 0
