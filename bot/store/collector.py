"""The garbage collector and the large states Harkness builds and keeps.

CPython's cyclic collector stops every thread while it scans, and a full collection scans
every object that has lasted: with the largest section :mod:`core.limits` allows (10,000
players × 99 rounds) folded and ranked, a few million objects, about a second each time,
during which no server is answered. So, per heavy job (:mod:`bot.store.offload`):

- While a job builds (a fold, standings, a file read), full collections wait; young
  collections go on, and the collector stays enabled. Each would otherwise scan what the job
  has built so far, again and again as it grows.
- When the job ends, everything alive is frozen (:func:`gc.freeze`): later full collections
  skip it. What the store keeps has no reference cycles, so reference counting frees it
  when the cache lets it go.
- Frozen objects that later become cyclic garbage (a request's objects that happened to be
  alive) would wait forever, so every :data:`RELEASE_SECONDS` the next job first unfreezes
  everything and runs one full collection (a pause as long as the heap is large, at most
  once in that time): whatever one server does, a full collection happens that often.

Letting go of a large state costs as much as building it: the last reference to a section's
standings frees a million objects in one go, and no other thread runs meanwhile. So what the
store lets go of (a fold or standings the cache drops, an import's rows once written) goes to
:func:`let_go`, which frees it a piece at a time in a thread of its own.
"""

from __future__ import annotations

import contextlib
import gc
import queue
import sys
import threading
import time
from collections.abc import Iterator

#: Most seconds between two full collections while jobs keep coming (see the module).
RELEASE_SECONDS = 300.0
#: The third threshold of :func:`gc.set_threshold` while a job builds: full collections
#: wait (the young generations keep theirs).
_WAITING = 1 << 30


class Collector:
    """Counts the jobs building; full collections wait while there is one, and each job
    ends by freezing what is alive (see the module)."""

    def __init__(self, release_seconds: float = RELEASE_SECONDS) -> None:
        self.release_seconds = release_seconds
        self._lock = threading.Lock()
        self._building = 0
        self._thresholds = gc.get_threshold()
        self._released = time.monotonic()
        #: Full collections run by :meth:`building` to release what was frozen.
        self.releases = 0

    @contextlib.contextmanager
    def building(self) -> Iterator[None]:
        """Around a heavy job, in its thread."""
        with self._lock:
            if time.monotonic() - self._released >= self.release_seconds:
                self._release()
            if self._building == 0:
                self._thresholds = gc.get_threshold()
                young, middle, _ = self._thresholds
                gc.set_threshold(young, middle, _WAITING)
            self._building += 1
        try:
            yield
        finally:
            with self._lock:
                gc.freeze()
                self._building -= 1
                if self._building == 0:
                    gc.set_threshold(*self._thresholds)

    def _release(self) -> None:
        gc.unfreeze()
        gc.collect()
        self._released = time.monotonic()
        self.releases += 1


#: The process's collector policy (used by :data:`bot.store.offload.JOBS`).
COLLECTOR = Collector()


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
