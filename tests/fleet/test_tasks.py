"""Stopping a lease renewal from the task that started it (sheets.fleet.tasks): a stop of that
task while it waits must stop it, not be taken for the renewal's own cancellation (a bot
closing at that moment waited for ever on its outbox loop)."""

from __future__ import annotations

import asyncio

import pytest

from sheets.fleet.tasks import cancel_and_wait


async def _renewal(ending: asyncio.Event) -> None:
    """A helper that takes a moment to end once cancelled (its last database call)."""
    try:
        await asyncio.sleep(3600)
    finally:
        await ending.wait()


async def test_the_helper_is_cancelled_and_waited_for() -> None:
    ending = asyncio.Event()
    ending.set()
    renewal = asyncio.create_task(_renewal(ending))
    await asyncio.sleep(0)
    await cancel_and_wait(renewal)
    assert renewal.cancelled()


async def test_a_stop_of_the_caller_while_it_waits_is_not_swallowed() -> None:
    ending = asyncio.Event()
    renewal = asyncio.create_task(_renewal(ending))
    went_on = False

    async def flush() -> None:
        nonlocal went_on
        try:
            pass  # the writes
        finally:
            await cancel_and_wait(renewal)
        went_on = True

    flushing = asyncio.create_task(flush())
    await asyncio.sleep(0.05)  # the flush waits for its renewal to end
    assert not flushing.done()
    flushing.cancel()  # the bot is stopped at that moment
    ending.set()
    with pytest.raises(asyncio.CancelledError):
        await flushing
    assert not went_on
    await asyncio.wait([renewal])
    assert renewal.cancelled()


async def test_an_error_the_helper_ended_with_is_raised() -> None:
    async def broken() -> None:
        raise ValueError("the renewal's bug")

    renewal = asyncio.create_task(broken())
    await asyncio.sleep(0)
    with pytest.raises(ValueError, match="the renewal's bug"):
        await cancel_and_wait(renewal)
