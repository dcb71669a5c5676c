"""Slow work off the event loop, shared fairly between servers: reading an upload, folding a
results log, computing standings, writing an export, drawing a picture.

Work whose cost grows with a section's size never runs on the event loop: it runs in a
worker thread, so every server's commands are acknowledged meanwhile. :class:`Jobs` is the
queue in front of those threads, one for the process (:data:`JOBS`):

- **Small work** (a section's size under :data:`SMALL`, a few milliseconds) starts at once in
  a thread of its own lane: a club's answer never waits behind another club's import.
- **Heavy work** waits its turn: each server has its own queue, the queues are served in
  turn (round robin) by :data:`WORKERS` threads, and a server has at most
  :data:`GUILD_RUNNING` heavy jobs running and :data:`GUILD_WAITING` waiting. One server's
  imports and large standings take its own turns, never another's: a second server's job
  starts as soon as a thread is free, ahead of the first server's next one. A job asked for
  while its server already has :data:`GUILD_WAITING` waiting is refused at once, in words.

A job that runs longer than its time limit is answered with a :class:`StoreError` (the
thread finishes by itself; its server's turn is taken until then). A heavy job builds under
:class:`~bot.store.collector.Collector` (full collections wait while it builds, and what it
leaves is frozen out of their way), never with the collector disabled.
"""

from __future__ import annotations

import asyncio
import functools
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.store.collector import COLLECTOR, Collector
from bot.store.errors import StoreError

#: Longest the store waits for a job once it has started (a file read, a log folded,
#: standings computed); the limits of :mod:`core.limits` keep the worst real case under it.
READ_SECONDS = 60.0
#: Threads that run heavy jobs (a Python thread holds the interpreter while it computes, so
#: more threads than cores only share the same time; two let a second server's job start
#: while a first server's long one runs).
WORKERS = 2
#: Heavy jobs one server may have running at once, and waiting for their turn.
GUILD_RUNNING = 1
GUILD_WAITING = 8
#: A job on a section of fewer round entries (players × rounds) than this is small: it
#: takes milliseconds and starts at once.
SMALL = 20_000

T = TypeVar("T")


@dataclass(slots=True)
class _Job:
    work: Callable[[], Any]
    #: Set when a thread takes the job, then its outcome.
    begun: asyncio.Future[None]
    done: asyncio.Future[Any]


@dataclass(slots=True)
class _Guild:
    waiting: deque[_Job] = field(default_factory=deque)
    running: int = 0


class Jobs:
    """Heavy work in ``workers`` threads, each server's in its own queue, served in turn;
    small work at once in ``small_workers`` threads of its own."""

    def __init__(
        self,
        workers: int = WORKERS,
        *,
        guild_running: int = GUILD_RUNNING,
        guild_waiting: int = GUILD_WAITING,
        small_workers: int = 4,
        collector: Collector = COLLECTOR,
    ) -> None:
        self.workers = workers
        self.collector = collector
        self.guild_running = guild_running
        self.guild_waiting = guild_waiting
        self._heavy = ThreadPoolExecutor(workers, thread_name_prefix="harkness-heavy")
        self._small = ThreadPoolExecutor(small_workers, thread_name_prefix="harkness-small")
        self._guilds: dict[str, _Guild] = {}
        #: Servers with jobs waiting, in the order they are served next.
        self._turns: deque[str] = deque()
        self._running = 0

    def waiting(self, guild: str) -> int:
        """How many of the server's heavy jobs wait for their turn."""
        found = self._guilds.get(guild)
        return len(found.waiting) if found is not None else 0

    def running(self, guild: str | None = None) -> int:
        """How many heavy jobs run (the server's, or everyone's)."""
        if guild is None:
            return self._running
        found = self._guilds.get(guild)
        return found.running if found is not None else 0

    async def run(
        self,
        guild: str,
        work: Callable[[], T],
        *,
        size: int,
        what: str,
        seconds: float = READ_SECONDS,
    ) -> T:
        """``work()`` in a worker thread, in ``guild``'s turn when ``size`` (round entries of
        the section it works on) makes it heavy; a :class:`StoreError` if the server has too
        many jobs waiting, or if it runs longer than ``seconds``."""
        loop = asyncio.get_running_loop()
        if size < SMALL:
            done = loop.run_in_executor(self._small, work)
        else:
            job = self._queue(guild, work, what)
            try:
                await asyncio.shield(job.begun)
            except asyncio.CancelledError:
                self._withdraw(guild, job)
                raise
            done = job.done
        try:
            return await asyncio.wait_for(asyncio.shield(done), seconds)
        except TimeoutError:
            raise StoreError(
                f"{what} took longer than {seconds:.0f} seconds, so Harkness stopped waiting; "
                "nothing was changed",
                "too-slow",
            ) from None

    def _queue(self, guild: str, work: Callable[[], Any], what: str) -> _Job:
        state = self._guilds.setdefault(guild, _Guild())
        if len(state.waiting) >= self.guild_waiting:
            raise StoreError(
                f"this server already has {len(state.waiting)} large jobs waiting for their "
                f"turn, so {what} was not started: please try again in a minute",
                "busy",
            )
        loop = asyncio.get_running_loop()
        job = _Job(work, loop.create_future(), loop.create_future())
        state.waiting.append(job)
        if guild not in self._turns:
            self._turns.append(guild)
        self._dispatch()
        return job

    def _withdraw(self, guild: str, job: _Job) -> None:
        """Take back a job nobody waits for any more, unless a thread has it already."""
        state = self._guilds.get(guild)
        if state is not None and job in state.waiting:
            state.waiting.remove(job)
            if not state.waiting and not state.running:
                del self._guilds[guild]
                if guild in self._turns:
                    self._turns.remove(guild)

    def _dispatch(self) -> None:
        """Start waiting jobs while a thread is free, one server after another."""
        passes = len(self._turns)
        while self._running < self.workers and self._turns and passes > 0:
            guild = self._turns.popleft()
            state = self._guilds.get(guild)
            if state is None or not state.waiting:
                passes = len(self._turns)
                continue
            if state.running >= self.guild_running:
                self._turns.append(guild)  # its turn comes again when a job of it ends
                passes -= 1
                continue
            job = state.waiting.popleft()
            if state.waiting:
                self._turns.append(guild)
            passes = len(self._turns)
            state.running += 1
            self._running += 1
            loop = asyncio.get_running_loop()
            if not job.begun.done():
                job.begun.set_result(None)
            future = loop.run_in_executor(self._heavy, self._built, job.work)
            future.add_done_callback(functools.partial(self._finished, guild, job))

    def _built(self, work: Callable[[], T]) -> T:
        with self.collector.building():
            return work()

    def _finished(self, guild: str, job: _Job, future: asyncio.Future[Any]) -> None:
        state = self._guilds[guild]
        state.running -= 1
        self._running -= 1
        if not state.waiting and not state.running:
            del self._guilds[guild]
        if not job.done.done():
            if future.cancelled():
                job.done.cancel()
            elif (error := future.exception()) is not None:
                job.done.set_exception(error)
            else:
                job.done.set_result(future.result())
        self._dispatch()

    def close(self) -> None:
        """Stop taking jobs (running ones finish in their threads)."""
        self._heavy.shutdown(wait=False, cancel_futures=True)
        self._small.shutdown(wait=False, cancel_futures=True)


#: The process's jobs (every store and every picture of the bot share its threads).
JOBS = Jobs()


async def off_loop(
    guild: str,
    work: Callable[[], T],
    *,
    size: int,
    what: str,
    seconds: float = READ_SECONDS,
) -> T:
    """``work()`` among the process's jobs (:data:`JOBS`, see :meth:`Jobs.run`)."""
    return await JOBS.run(guild, work, size=size, what=what, seconds=seconds)
