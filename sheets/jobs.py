"""Durable sync jobs for ``harkness-sheets serve`` on PostgreSQL: any worker runs them.

With ``HARKNESS_DATABASE_URL`` naming a PostgreSQL database (the bot's), ``serve`` keeps its
queue there instead of in memory (:class:`DurableSyncQueue`): a request is a row in the
fleet's tables (:mod:`sheets.fleet.syncjobs`: coalesced per spreadsheet and debounced), every
``serve`` process on the database claims due rows one at a time, holds the spreadsheet's
lease while it syncs (so a bot shard never writes it meanwhile: :mod:`sheets.fleet.leases`),
spends the sync's requests from its service account's per-minute budget, shared by every
worker through the database, on the sheet's fair share of it (:mod:`sheets.budget`,
:meth:`sheets.fleet.Fleet.spend_quota`: a sync that does not fit waits for the minute to
turn), and a restart or a ``kill -9`` loses
nothing (the row stays, its lease runs out, another worker takes it).

Several service accounts at once: each worker holds one key (its
``GOOGLE_APPLICATION_CREDENTIALS``) and claims only the jobs its account may serve
(:mod:`sheets.fleet.routing`): those of sheets its account opened before (or the bot's, which
linked the sheet), and those of sheets no running worker's account is known to open. A
worker whose key cannot open a sheet hands the job to the other accounts' workers; when
every running worker's account has failed, the job is set aside and reported (an error in
the log, ``harkness_sync_jobs_total{event="set_aside"}``, ``set_aside`` in ``/healthz``)
and not retried until the sheet is asked for again (the TD shares it and edits it).
Without a database, or with SQLite, the in-memory :class:`sheets.serve.SyncQueue` of one
process remains.

The fleet comes with the worker's extra (``harkness[sheets]``: SQLAlchemy, Alembic and the
drivers), without the bot: a worker needs neither discord.py nor the bot's store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from sqlalchemy.exc import SQLAlchemyError

from sheets.budget import (
    HOLD,
    READS_PER_MINUTE,
    SYNC_READS,
    SYNC_WRITES,
    WRITES_PER_MINUTE,
    share_label,
)
from sheets.client import SheetsNotFoundError, SheetsPermissionError
from sheets.database.engine import database_url, is_sqlite
from sheets.database.errors import DatabaseError
from sheets.fleet import Fleet, cancel_and_wait, process_name
from sheets.metrics import SYNC_JOBS
from sheets.sync import SyncResult

logger = logging.getLogger(__name__)

#: When a sync whose spreadsheet another process is writing is looked at again.
BUSY_RETRY = timedelta(seconds=2)
#: Backoff after a failed sync: doubled per failure from the first, up to the longest.
RETRY_FIRST = 10.0
RETRY_LONGEST = 600.0


class DatabaseUnavailable(Exception):
    """The durable queue's database cannot be used (the message says why)."""


@contextlib.asynccontextmanager
async def durable_fleet(
    url: str | None, *, what: str = "the sync queue"
) -> AsyncIterator[Fleet | None]:
    """The fleet that keeps ``what`` (for the log): None (in this process) without a URL or
    with SQLite; opened (its tables brought up to date) for PostgreSQL, closed after;
    :class:`DatabaseUnavailable` when the URL is not one or the database cannot be opened."""
    try:
        local = url is None or is_sqlite(database_url(url))
    except DatabaseError as error:
        raise DatabaseUnavailable(error.message) from None
    if local:
        if url is not None:
            logger.info("%s: in this process (SQLite serves one process)", what)
        yield None
        return
    try:
        fleet = await Fleet.open(url)
    except (OSError, SQLAlchemyError) as error:
        reason = str(getattr(error, "orig", None) or error).splitlines()[0]
        raise DatabaseUnavailable(f"cannot open the database: {reason}") from None
    logger.info("%s: in the database, shared with every process on it", what)
    try:
        yield fleet
    finally:
        await fleet.close()


class DurableSyncQueue:
    """Debounced, coalesced syncs kept in the database, run by whichever worker is free.

    ``sync`` is called with a spreadsheet ID in a worker thread; its exceptions are logged
    and the job retried later, never raised.
    """

    def __init__(
        self,
        fleet: Fleet,
        sync: Callable[[str], SyncResult],
        *,
        debounce: float = 5.0,
        max_wait: float = 30.0,
        syncs_per_minute: float = 50.0,
        lease: timedelta = timedelta(seconds=60),
        poll: float = 1.0,
        worker: str | None = None,
        account: str | None = None,
        reads_per_minute: int = READS_PER_MINUTE,
        writes_per_minute: int = WRITES_PER_MINUTE,
        quota_window: float = 60.0,
        quota_hold: float = HOLD,
    ) -> None:
        self.fleet = fleet
        self.sync = sync
        self.debounce = timedelta(seconds=debounce)
        self.max_wait = timedelta(seconds=max_wait)
        self.gap = 60.0 / syncs_per_minute
        self.lease = lease
        self.poll = poll
        self.worker = worker or process_name("harkness-sheets")
        self.account = account
        self.limits = (reads_per_minute, writes_per_minute)
        self.quota_window = quota_window
        self.quota_hold = quota_hold
        self.completed: deque[tuple[str, SyncResult | None]] = deque(maxlen=100)
        self.running: str | None = None
        self._claiming = False
        self._seen_at: float | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._rng = random.Random()

    async def ask(self, spreadsheet_id: str, reason: str = "") -> str:
        """Ask for a sync; answers ``"scheduled"`` or ``"after the running sync"``."""
        state = await self.fleet.request_sync(
            spreadsheet_id, reason=reason, debounce=self.debounce, max_wait=self.max_wait
        )
        self._wake.set()
        SYNC_JOBS.labels("queued").inc()
        return state

    async def waiting(self) -> int:
        """Syncs asked for (of every worker) and not running."""
        return (await self.fleet.syncs_waiting())[0]

    async def set_aside(self) -> int:
        """Syncs no running worker's service account can open (reported, not retried)."""
        return len(await self.fleet.syncs_set_aside())

    async def start(self) -> None:
        """Start taking due syncs (on the running event loop)."""
        self._task = asyncio.create_task(self._work(), name="harkness-sync-jobs")

    async def stop(self) -> None:
        """Stop taking syncs; one running is finished by its thread, and its job is left to
        run again (its lease runs out) unless it was recorded done."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def idle(self, timeout: float = 10.0) -> None:
        """Wait until no sync is asked for or running (for tests and orderly shutdown)."""
        deadline = time.monotonic() + timeout
        while await self.waiting() or self.running is not None or self._claiming:
            if time.monotonic() > deadline:
                raise TimeoutError(f"syncs still pending after {timeout} s")
            await asyncio.sleep(0.05)

    async def _work(self) -> None:
        last_start: float | None = None
        while True:
            try:
                if last_start is not None:  # this worker's own pace
                    await asyncio.sleep(max(0.0, last_start + self.gap - time.monotonic()))
                # A claimed row no longer counts as waiting, and the sync is not running
                # yet: ``_claiming`` covers that gap for :meth:`idle`, from before the claim
                # (its commit may come before its answer) to the end of the run.
                self._claiming = True
                try:
                    await self._present()
                    job = await self.fleet.claim_sync(
                        self.worker, lease=self.lease, account=self.account
                    )
                    if job is not None:
                        last_start = time.monotonic()
                        await self._run(job.spreadsheet_id, job.attempts)
                finally:
                    self._claiming = False
                if job is None:
                    await self._sleep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the database may be back in a moment
                logger.exception("the sync queue could not reach the database")
                await asyncio.sleep(self.poll)

    async def _present(self) -> None:
        """Tell the other workers this one runs, and with which account (every quarter
        lease), so that jobs only its account can serve wait for it."""
        if self.account is None:
            return
        now = time.monotonic()
        if self._seen_at is None or now - self._seen_at >= self.lease.total_seconds() / 4:
            await self.fleet.sync_worker_seen(self.worker, self.account, lease=self.lease)
            self._seen_at = now

    async def _sleep(self) -> None:
        """Until the next sync falls due, a request arrives, or the poll time passes."""
        _, due = await self.fleet.syncs_waiting()
        wait = self.poll
        if due is not None:
            wait = min(wait, max(0.05, (due - self.fleet.clock()).total_seconds()))
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), wait)

    async def _run(self, sheet: str, attempts: int) -> None:
        if not await self.fleet.take_sheet(sheet, self.worker, lease=self.lease):
            await self.fleet.sync_failed(sheet, self.worker, None, retry_in=BUSY_RETRY)
            return
        if self.account is not None:
            wait = await self.fleet.spend_quota(
                self.account,
                reads=SYNC_READS,
                writes=SYNC_WRITES,
                reads_limit=self.limits[0],
                writes_limit=self.limits[1],
                window=self.quota_window,
                hold=self.quota_hold,
                share=share_label(f"sheet:{sheet}"),  # its fair share (sheets.budget)
            )
            if wait:  # the account's minute (or this sheet's share of it) is spent: after it
                await self.fleet.sync_failed(
                    sheet, self.worker, None, retry_in=timedelta(seconds=wait)
                )
                with contextlib.suppress(Exception):
                    await self.fleet.drop_sheet(sheet, self.worker)
                await asyncio.sleep(wait)
                return
        self.running = sheet
        renewal = asyncio.create_task(self._renew(sheet), name="harkness-sync-lease")
        result: SyncResult | None = None
        try:
            SYNC_JOBS.labels("run").inc()
            result = await asyncio.to_thread(self.sync, sheet)
        except (SheetsPermissionError, SheetsNotFoundError) as error:
            SYNC_JOBS.labels("failed").inc()
            await self._refused(sheet, error)
        except Exception as error:  # logged; the queue goes on with the next sheet
            SYNC_JOBS.labels("failed").inc()
            logger.error("sync of %s failed: %s", sheet, error)
            wait = min(RETRY_LONGEST, RETRY_FIRST * 2**attempts) * self._rng.uniform(0.5, 1.0)
            await self.fleet.sync_failed(
                sheet,
                self.worker,
                f"{type(error).__name__}: {error}",
                retry_in=timedelta(seconds=wait),
            )
        else:
            await self.fleet.sync_done(
                sheet, self.worker, debounce=self.debounce, account=self.account
            )
        finally:
            await cancel_and_wait(renewal)
            self.running = None
            self.completed.append((sheet, result))
            with contextlib.suppress(Exception):  # it runs out by itself
                await self.fleet.drop_sheet(sheet, self.worker)

    async def _refused(self, sheet: str, error: Exception) -> None:
        """This worker's key cannot open ``sheet``: the job goes to another account's
        worker, or is set aside (and reported) when every running account has failed."""
        if self.account is None:  # one key only: retried later, as any failure
            logger.error("sync of %s failed: %s", sheet, error)
            await self.fleet.sync_failed(
                sheet, self.worker, str(error), retry_in=timedelta(seconds=RETRY_LONGEST)
            )
            return
        if await self.fleet.sync_refused(sheet, self.worker, self.account, str(error)):
            SYNC_JOBS.labels("set_aside").inc()
            logger.error(
                "sync of %s set aside: no running worker's service account can open it "
                "(the last: %s); it is tried again when the sheet is edited after a TD "
                "shares it with one of them as an Editor",
                sheet,
                error,
            )
        else:
            logger.warning(
                "%s cannot open %s: left to the workers of another service account",
                self.account,
                sheet,
            )

    async def _renew(self, sheet: str) -> None:
        while True:
            await asyncio.sleep(self.lease.total_seconds() / 4)
            try:
                await self.fleet.renew_sync(sheet, self.worker, lease=self.lease)
                await self.fleet.take_sheet(sheet, self.worker, lease=self.lease)
            except Exception:  # the database may be back by the next renewal
                logger.exception("could not renew the lease on a sync")
