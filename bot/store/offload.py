"""Slow work off the event loop: reading an upload, computing standings, writing an export.

The work runs in a worker thread, so every other server's commands are answered meanwhile,
with a time limit. While any such work runs, Python's cyclic garbage collector is paused: the
work builds up to a million small objects (entries of a section of the largest size
:mod:`core.limits` allows), and a full collection they would trigger scans the whole process
with every thread stopped (up to a second in a large bot). What they build has no cycles; the
collector resumes when the last worker ends.
"""

from __future__ import annotations

import asyncio
import gc
import threading
from collections.abc import Callable
from typing import TypeVar

from bot.store.errors import StoreError

#: Longest the store waits for a file to be read or standings to be computed in a worker
#: thread; the limits of :mod:`core.limits` keep the worst real case well under it.
READ_SECONDS = 60.0

A = TypeVar("A")
B = TypeVar("B")
T = TypeVar("T")


class _CollectorPause:
    """Counts the workers running; the collector is off while there is one (and is turned
    back on after the last only if it was on before the first)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._was_enabled = False

    def __enter__(self) -> None:
        with self._lock:
            if self._running == 0:
                self._was_enabled = gc.isenabled()
                gc.disable()
            self._running += 1

    def __exit__(self, *_: object) -> None:
        with self._lock:
            self._running -= 1
            if self._running == 0 and self._was_enabled:
                gc.enable()


_PAUSE = _CollectorPause()


def _paused(work: Callable[[A, B], T], first: A, second: B) -> T:
    with _PAUSE:
        return work(first, second)


async def off_loop(
    work: Callable[[A, B], T], first: A, second: B, *, what: str, seconds: float = READ_SECONDS
) -> T:
    """``work(first, second)`` in a worker thread; a :class:`StoreError` if it takes longer
    than ``seconds`` (the member is answered; the thread ends by itself)."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(_paused, work, first, second), seconds)
    except TimeoutError:
        raise StoreError(
            f"{what} took longer than {seconds:.0f} seconds, so Harkness stopped waiting; "
            "nothing was changed",
            "too-slow",
        ) from None
