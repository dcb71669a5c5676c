"""The garbage collector and the large states Harkness builds and keeps.

Full collections wait while a heavy job (:mod:`bot.store.offload`) builds, and what it
leaves is frozen out of their way: :mod:`core.collector`, the process's one policy, shared
with the Sheets worker's syncs (its names are here too, where the bot's store looks for them).

Letting go of a large state costs as much as building it: the last reference to a section's
standings frees a million objects in one go, and no other thread runs meanwhile. So what the
store lets go of (a fold or standings the cache drops, an import's rows once written) goes to
:func:`let_go`, which frees it a piece at a time in a thread of its own.
"""

from __future__ import annotations

import gc
import queue
import sys
import threading
import time

from core.collector import COLLECTOR, RELEASE_SECONDS, Collector

__all__ = ["COLLECTOR", "RELEASE_SECONDS", "Collector", "crumble", "let_go"]

#: Objects freed between two moments the releasing thread gives the others a turn.
PIECE = 2_000


def crumble(held: list[object]) -> int:
    """Free what ``held`` holds (the caller keeps no other reference), an object at a time:
    each object only this walk holds has its parts taken out before it goes, so no single
    step frees more than one object's own memory; what others still hold is only let go.
    How many objects were let go."""
    freed = 0
    while held:
        piece = held.pop()
        if sys.getrefcount(piece) <= 2:  # this name and the call's argument: ours alone
            held.extend(gc.get_referents(piece))
        del piece
        freed += 1
        if freed % PIECE == 0:
            time.sleep(0)  # the event loop's turn
    return freed


class Releaser:
    """A thread of its own that frees what it is given a piece at a time (:func:`crumble`)."""

    def __init__(self) -> None:
        self._given: queue.SimpleQueue[list[object]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        #: Objects let go so far.
        self.freed = 0

    def let_go(self, value: object) -> None:
        """Free ``value`` in the releasing thread (hand over the last reference to it)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="harkness-release", daemon=True
                )
                self._thread.start()
        self._given.put([value])

    def _run(self) -> None:
        while True:
            held = self._given.get()
            for _ in range(100):  # the giver lets go of its own reference as it returns
                if sys.getrefcount(held[0]) <= 2:
                    break
                time.sleep(0.01)
            self.freed += crumble(held)
            del held


#: The process's releasing thread.
RELEASER = Releaser()


def let_go(value: object) -> None:
    """Free ``value`` a piece at a time, off the event loop (:class:`Releaser`)."""
    RELEASER.let_go(value)
