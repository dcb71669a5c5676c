"""``harkness-sheets watch`` on the bot's PostgreSQL database: one watch per service account,
spending from the budget every process shares, never writing a sheet another process writes.

Without a database (or with SQLite) ``watch`` is one process that paces itself
(:meth:`sheets.watch.Watcher.run`). With ``HARKNESS_DATABASE_URL`` naming PostgreSQL:

- **One watch per service account.** ``watch`` decides when each listed sheet is polled,
  within its account's budget; a second ``watch`` with the same key would only split that
  budget and poll every sheet twice. So ``watch`` holds the database's watch lease for its
  account (renewed while it runs, dropped when it stops) and a second one with the same key
  on the same database refuses to start (exit 2), naming the one running. For more sheets,
  run a ``watch`` per key, each with its own sheets (shared with that key), or use the
  add-on with ``serve`` workers (any number, :mod:`sheets.jobs`).
- **One budget.** Each poll spends its requests (one read, at most one write) from the
  account's per-minute budget shared by every process on the database (bot shards,
  ``serve`` workers: :meth:`sheets.fleet.Fleet.spend_quota`), on the sheet's fair share of
  it (:mod:`sheets.budget`); a poll that does not fit waits for the minute to turn, so
  together they stay within Google's limits.
- **One writer a sheet.** Each poll holds the sheet's lease (:mod:`sheets.fleet.hold`), like
  the bot's writes and the workers' syncs; a sheet another process is writing is polled
  again a moment later.

Each poll counts as a sync job run (or failed) in the metrics.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from datetime import timedelta

from sheets.budget import SYNC_READS, SYNC_WRITES, Quota
from sheets.fleet import Fleet, SheetBusy, cancel_and_wait, holding, process_name
from sheets.watch import Watcher

logger = logging.getLogger(__name__)

#: How long a watch holds its account (and each sheet it polls) unless renewed.
LEASE = timedelta(seconds=60)
#: When a sheet another process is writing is polled again.
BUSY_RETRY = 2.0


class AnotherWatch(Exception):
    """A watch with the same service account already runs on this database."""


def watch_key(account: str) -> str:
    """The lease that makes one watch the account's (it fits the leases' 128 characters).

    >>> watch_key("w@p.iam.gserviceaccount.com")
    'harkness-sheets-watch:w@p.iam.gserviceaccount.com'
    """
    key = f"harkness-sheets-watch:{account}"
    if len(key) <= 128:
        return key
    return "harkness-sheets-watch:" + hashlib.sha256(account.encode()).hexdigest()


async def run_shared(
    watcher: Watcher,
    fleet: Fleet,
    account: str,
    quota: Quota,
    stop: asyncio.Event,
    *,
    lease: timedelta = LEASE,
    holder: str | None = None,
) -> None:
    """Poll ``watcher``'s sheets until ``stop`` is set, as the one watch of ``account`` on
    ``fleet``'s database (:class:`AnotherWatch` when another holds it)."""
    holder = holder or process_name("harkness-sheets")
    key = watch_key(account)
    if not await fleet.take_sheet(key, holder, lease=lease):
        running = await fleet.sheet_holder(key) or "another process"
        raise AnotherWatch(
            f"another harkness-sheets watch ({running}) polls for service account {account} "
            "on this database: one watch per service account. Stop it first, or give this "
            "one another key and its own sheets (or use the add-on with serve workers). A "
            f"watch that was killed holds the account for {lease.total_seconds():.0f} s at most"
        )
    lost = asyncio.Event()
    renewal = asyncio.create_task(_keep(fleet, key, holder, lease, lost), name="watch-lease")
    try:
        await _poll(watcher, fleet, account, quota, stop, lost, holder, lease)
    finally:
        await cancel_and_wait(renewal)
        with contextlib.suppress(Exception):  # it runs out by itself
            await fleet.drop_sheet(key, holder)
    if lost.is_set():
        raise AnotherWatch(f"another harkness-sheets watch took service account {account} over")


async def _keep(fleet: Fleet, key: str, holder: str, lease: timedelta, lost: asyncio.Event) -> None:
    """Renew the watch's lease every quarter of it; set ``lost`` if another took it."""
    while True:
        await asyncio.sleep(lease.total_seconds() / 4)
        try:
            if not await fleet.take_sheet(key, holder, lease=lease):
                logger.error("another watch took this service account over: stopping")
                lost.set()
                return
        except Exception:  # the database may be back by the next renewal
            logger.exception("could not renew the watch's lease")


async def _poll(
    watcher: Watcher,
    fleet: Fleet,
    account: str,
    quota: Quota,
    stop: asyncio.Event,
    lost: asyncio.Event,
    holder: str,
    lease: timedelta,
) -> None:
    logger.info(
        "watching %d spreadsheets for %s, within its budget shared through the database",
        len(watcher.config.sheets),
        account,
    )
    last_start: float | None = None
    while not stop.is_set() and not lost.is_set():
        sheet, when = watcher.next_due()
        if last_start is not None:
            when = max(when, last_start + watcher.gap)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, when - watcher.clock()))
            break
        key = sheet.spreadsheet_id
        try:
            async with holding(fleet, key, holder, lease=lease):
                wait = await quota.spend(
                    fleet, account, reads=SYNC_READS, writes=SYNC_WRITES, share=f"sheet:{key}"
                )
                if wait:  # the account's minute is spent (by any process): after it
                    watcher.due[key] = watcher.clock() + wait
                    continue
                last_start = watcher.clock()
                await asyncio.to_thread(watcher.poll_one, sheet)
        except SheetBusy:  # a bot shard or a worker is writing it: a moment later
            watcher.due[key] = watcher.clock() + BUSY_RETRY
        except Exception:  # the database may be back in a moment; the sheet waits
            logger.exception("%s: the database could not be reached", sheet.label)
            watcher.due[key] = watcher.clock() + BUSY_RETRY
