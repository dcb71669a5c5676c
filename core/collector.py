"""The garbage collector and the large states a long-running Harkness process builds.

CPython's cyclic collector stops every thread while it scans, and a full collection scans
every object that has lasted: with the largest section :mod:`core.limits` allows (10,000
players × 99 rounds) folded and ranked, a few million objects, about a second each time,
during which no server is answered. So, per heavy job (the Discord bot's folds and
standings, a sheet's sync by the Sheets worker):

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

One policy a process: every front door uses :data:`COLLECTOR` (the bot and the Sheets
worker may share a process), so that two jobs never set the thresholds against each other.
"""

from __future__ import annotations

import contextlib
import gc
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


#: The process's collector policy (the bot's heavy jobs, the Sheets worker's syncs).
COLLECTOR = Collector()
