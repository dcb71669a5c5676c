"""Stopping a helper task (a lease renewal) from the task that started it.

``task.cancel()`` then ``await task`` under ``suppress(CancelledError)`` swallows more than the
helper's cancellation: when the *caller* is cancelled while it waits (a bot or a worker being
stopped at that moment), that CancelledError is suppressed too, the caller goes on as if
nothing happened, and a loop that was told to stop runs on while whoever stopped it waits for
ever. :func:`cancel_and_wait` waits without catching anything of the caller's.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def cancel_and_wait(task: asyncio.Task[Any]) -> None:
    """Cancel ``task`` and wait until it has ended; a cancellation of the caller meanwhile
    propagates (the task, already cancelled, ends by itself). An exception the task ended
    with (other than its cancellation) is raised here, as ``await task`` would."""
    task.cancel()
    await asyncio.wait([task])
    if not task.cancelled():
        task.result()
