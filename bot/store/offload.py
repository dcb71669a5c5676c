"""Slow work off the event loop, shared fairly between servers: reading an upload, folding a
results log, computing standings, writing an export, drawing a picture.

Work whose cost grows with a section's size never runs on the event loop: it runs in a
worker thread, so every server's commands are acknowledged meanwhile. :class:`Jobs` (one for
the process, :data:`JOBS`) sends it down one of three lanes:

- **heavy** (a section of :data:`SMALL` round entries or more: a large import, fold,
  standings or export): :data:`WORKERS` threads, each server at most
  :data:`GUILD_RUNNING` of them at once and :data:`GUILD_WAITING` more waiting;
- **small** (a small section's standings, a picture: milliseconds each):
  :data:`SMALL_WORKERS` threads, each server at most :data:`GUILD_SMALL_RUNNING` at once and
  :data:`GUILD_SMALL_WAITING` waiting;
- **urgent** (work inside a write, which holds the database: a write's own event settled,
  bounded by one round; an import's rows made): at once, never behind anyone.

In each fair lane (:class:`FairPool`) every server has its own queue, and a free thread
takes the next job of the server served longest ago (round robin): one server's jobs take
its own turns, never another's, so a second server's job starts as soon as a thread is free,
ahead of the first server's next one. A job asked for while its server already has its
lane's waiting jobs is refused at once, in words (:class:`StoreError` ``busy``).

A job that runs longer than its time limit is answered with a :class:`StoreError` (the
thread finishes by itself; its server's turn is taken until then). A heavy job builds under
:class:`~bot.store.collector.Collector` (full collections wait while it builds, and what it
leaves is frozen out of their way), never with the collector disabled.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections import deque
from collections.abc import Callable, Iterator
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
#: while a first server's long one runs), and a server's share of them.
WORKERS = 2
GUILD_RUNNING = 1
GUILD_WAITING = 8
#: Threads that run small jobs, and a server's share of them.
SMALL_WORKERS = 3
GUILD_SMALL_RUNNING = 1
GUILD_SMALL_WAITING = 32
#: A job on a section of fewer round entries (players × rounds) than this is small.
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
    #: When the server's last job started (a count of jobs started): -1, never.
    served: int = -1


class FairPool:
    """``workers`` threads serving each server's queue in turn, a server at most
    ``guild_running`` jobs at once and ``guild_waiting`` waiting; ``around`` wraps each job
    in its thread."""

    def __init__(
        self,
        name: str,
        workers: int,
        guild_running: int,
        guild_waiting: int,
        around: Callable[[], contextlib.AbstractContextManager[None]] = contextlib.nullcontext,
    ) -> None:
        self.name = name
        self.workers = workers
        self.guild_running = guild_running
        self.guild_waiting = guild_waiting
        self._around = around
        self._threads = ThreadPoolExecutor(workers, thread_name_prefix=f"harkness-{name}")
        self._guilds: dict[str, _Guild] = {}
        self._running = 0
        self._served = 0

    def waiting(self, guild: str) -> int:
        """How many of the server's jobs wait for their turn."""
        found = self._guilds.get(guild)
        return len(found.waiting) if found is not None else 0

    def running(self, guild: str | None = None) -> int:
        """How many jobs run (the server's, or everyone's)."""
        if guild is None:
            return self._running
        found = self._guilds.get(guild)
        return found.running if found is not None else 0

    async def start(self, guild: str, work: Callable[[], Any], what: str) -> asyncio.Future[Any]:
        """Queue ``work`` in ``guild``'s turn; once a thread has taken it, its outcome."""
        state = self._guilds.setdefault(guild, _Guild())
        if len(state.waiting) >= self.guild_waiting:
            raise StoreError(
                f"this server already has {len(state.waiting)} requests waiting for their "
                f"turn, so {what} was not started: please try again in a minute",
                "busy",
            )
        loop = asyncio.get_running_loop()
        job = _Job(work, loop.create_future(), loop.create_future())
        state.waiting.append(job)
        self._dispatch()
        try:
            await asyncio.shield(job.begun)
        except asyncio.CancelledError:
            self._withdraw(guild, job)
            raise
        return job.done

    def _withdraw(self, guild: str, job: _Job) -> None:
        """Take back a job nobody waits for any more, unless a thread has it already."""
        state = self._guilds.get(guild)
        if state is not None and job in state.waiting:
            state.waiting.remove(job)
            if not state.waiting and not state.running:
                del self._guilds[guild]

    def _dispatch(self) -> None:
        """Start waiting jobs while a thread is free: each time, of the server served
        longest ago among those with a job waiting and a share free (a server new to the
        queue first)."""
        while self._running < self.workers:
            ready = [
                (state.served, guild)
                for guild, state in self._guilds.items()
                if state.waiting and state.running < self.guild_running
            ]
            if not ready:
                return
            _, guild = min(ready)
            state = self._guilds[guild]
            job = state.waiting.popleft()
            self._served += 1
            state.served = self._served
            state.running += 1
            self._running += 1
            job.begun.set_result(None)
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(self._threads, self._wrapped, job.work)
            future.add_done_callback(functools.partial(self._finished, guild, job))

    def _wrapped(self, work: Callable[[], T]) -> T:
        with self._around():
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
        self._threads.shutdown(wait=False, cancel_futures=True)


class Jobs:
    """The three lanes of slow work (see the module): ``heavy`` and ``small`` are fair
    between servers; urgent work starts at once."""

    def __init__(
        self,
        workers: int = WORKERS,
        *,
        guild_running: int = GUILD_RUNNING,
        guild_waiting: int = GUILD_WAITING,
        small_workers: int = SMALL_WORKERS,
        guild_small_running: int = GUILD_SMALL_RUNNING,
        guild_small_waiting: int = GUILD_SMALL_WAITING,
        collector: Collector = COLLECTOR,
    ) -> None:
        self.collector = collector
        self.heavy = FairPool("heavy", workers, guild_running, guild_waiting, collector.building)
        self.small = FairPool("small", small_workers, guild_small_running, guild_small_waiting)
        self._urgent = ThreadPoolExecutor(4, thread_name_prefix="harkness-urgent")

    async def run(
        self,
        guild: str,
        work: Callable[[], T],
        *,
        size: int,
        what: str,
        urgent: bool = False,
        seconds: float = READ_SECONDS,
    ) -> T:
        """``work()`` in a worker thread: in ``guild``'s turn in the heavy lane or the small
        one by ``size`` (round entries of the section it works on), or at once when
        ``urgent``. A :class:`StoreError` if the server has too many jobs waiting in its
        lane, or if it runs longer than ``seconds`` once started."""
        if urgent:
            if size >= SMALL:
                work = functools.partial(_building, self.collector, work)
            done = asyncio.get_running_loop().run_in_executor(self._urgent, work)
        else:
            pool = self.heavy if size >= SMALL else self.small
            done = await pool.start(guild, work, what)
        try:
            return await asyncio.wait_for(asyncio.shield(done), seconds)
        except TimeoutError:
            raise StoreError(
                f"{what} took longer than {seconds:.0f} seconds, so Harkness stopped waiting; "
                "nothing was changed",
                "too-slow",
            ) from None

    def lanes(self) -> Iterator[FairPool]:
        yield self.heavy
        yield self.small

    def close(self) -> None:
        """Stop taking jobs (running ones finish in their threads)."""
        for pool in self.lanes():
            pool.close()
        self._urgent.shutdown(wait=False, cancel_futures=True)


def _building(collector: Collector, work: Callable[[], T]) -> T:
    with collector.building():
        return work()


#: The process's jobs (every store and every picture of the bot share its threads).
JOBS = Jobs()
