"""The fleet (:class:`Fleet`): how the processes sharing a database share Google, as async
methods, each one transaction.

Open it with :meth:`Fleet.open` (its own engine: a Sheets worker) or :meth:`Fleet.on` (the
engine of the bot's store: one pool for both), either of which brings the fleet's tables up
to date (:data:`sheets.fleet.migrations.HISTORY`). ``clock`` gives the time of leases and
due times (tests pass their own).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from sheets.database.migrate import open_engine, upgrade
from sheets.database.transactions import Transactions
from sheets.fleet import keys, leases, quota, routing, syncjobs
from sheets.fleet.migrations import HISTORY


def utc_now() -> datetime:
    return datetime.now(UTC)


class Fleet:
    """Leases on spreadsheets, durable sync jobs routed among service accounts, and each
    account's per-minute budget, shared by every process on the database (see the
    :mod:`sheets.fleet` docstring for a tour)."""

    def __init__(
        self, engine: AsyncEngine, clock: Callable[[], datetime] = utc_now, *, owns_engine: bool
    ) -> None:
        self.engine = engine
        self.clock = clock
        self._db = Transactions(engine)
        self._owns_engine = owns_engine

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        migrate: bool = True,
        clock: Callable[[], datetime] = utc_now,
        **engine_options: Any,
    ) -> Fleet:
        """Connect to ``url`` (default: ``$HARKNESS_DATABASE_URL``, else ``./harkness.db``)
        and, unless ``migrate`` is False, bring the fleet's tables up to date."""
        engine = await open_engine(url, HISTORY, migrate=migrate, **engine_options)
        return cls(engine, clock, owns_engine=True)

    @classmethod
    async def on(cls, engine: AsyncEngine, *, clock: Callable[[], datetime] = utc_now) -> Fleet:
        """The fleet on an engine opened by another (the bot's store), its tables brought
        up to date; :meth:`close` leaves the engine to its owner."""
        await upgrade(engine, HISTORY)
        return cls(engine, clock, owns_engine=False)

    async def close(self) -> None:
        if self._owns_engine:
            await self.engine.dispose()

    async def __aenter__(self) -> Fleet:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # -- leases on spreadsheets (sheets.fleet.leases) --------------------------------------

    async def take_sheet(
        self, spreadsheet: str, holder: str, *, lease: timedelta = timedelta(seconds=60)
    ) -> bool:
        """Make ``holder`` (a name unique to the process) the one writer of ``spreadsheet``
        for ``lease`` from now, if no other process holds it; whether it does. Renew with
        this again while the write runs; :meth:`drop_sheet` when done."""
        now = self.clock()
        return await self._db.write(
            lambda conn: leases.take(conn, spreadsheet, holder, now, now + lease)
        )

    async def sheet_holder(self, spreadsheet: str) -> str | None:
        """The process holding ``spreadsheet``'s lease now, if any (see :meth:`take_sheet`)."""
        now = self.clock()
        return await self._db.read(lambda conn: leases.holder(conn, spreadsheet, now))

    async def held_by_others(self, holder: str) -> frozenset[str]:
        """The spreadsheets another process than ``holder`` holds now (a writer passes them by)."""
        now = self.clock()
        return await self._db.read(lambda conn: leases.held_by_others(conn, holder, now))

    async def drop_sheet(self, spreadsheet: str, holder: str) -> None:
        """End ``holder``'s hold on ``spreadsheet`` (see :meth:`take_sheet`)."""
        await self._db.write(lambda conn: leases.drop(conn, spreadsheet, holder))

    async def release_sheets(self, gone: Callable[[str], bool]) -> int:
        """Free the spreadsheets held by processes ``gone(holder)`` says have stopped."""
        return await self._db.write(lambda conn: leases.release(conn, gone))

    # -- sync jobs (any Sheets worker process: sheets.fleet.syncjobs) ----------------------

    async def request_sync(
        self,
        spreadsheet: str,
        *,
        reason: str = "",
        debounce: timedelta = timedelta(seconds=5),
        max_wait: timedelta = timedelta(seconds=30),
        account: str | None = None,
    ) -> str:
        """Ask for a sync of ``spreadsheet`` by any worker, ``debounce`` after the latest
        request but within ``max_wait`` of the first; answers ``"scheduled"`` or ``"after
        the running sync"``. ``account``: a service account that just opened the sheet,
        whose workers serve it (:mod:`sheets.fleet.routing`)."""
        now = self.clock()
        return await self._db.write(
            lambda conn: syncjobs.request(
                conn, spreadsheet, reason, now, debounce, max_wait, account
            )
        )

    async def claim_sync(
        self,
        worker: str,
        *,
        lease: timedelta = timedelta(seconds=60),
        account: str | None = None,
    ) -> syncjobs.SyncJob | None:
        """Lease the sync due first to ``worker`` (None when none is due); a worker with
        ``account``'s key gets only the syncs it may serve (:mod:`sheets.fleet.routing`)."""
        now = self.clock()
        return await self._db.write(lambda conn: syncjobs.claim(conn, worker, now, lease, account))

    async def sync_worker_seen(
        self, worker: str, account: str, *, lease: timedelta = timedelta(seconds=60)
    ) -> None:
        """``worker``, holding ``account``'s key, is running (for ``lease`` unless seen again)."""
        now = self.clock()
        await self._db.write(lambda conn: routing.seen(conn, worker, account, now, now + lease))

    async def renew_sync(self, spreadsheet: str, worker: str, *, lease: timedelta) -> bool:
        """Extend ``worker``'s lease on the sync of ``spreadsheet``; False when lost."""
        until = self.clock() + lease
        return await self._db.write(lambda conn: syncjobs.renew(conn, spreadsheet, worker, until))

    async def sync_done(
        self,
        spreadsheet: str,
        worker: str,
        *,
        debounce: timedelta = timedelta(seconds=5),
        account: str | None = None,
    ) -> bool:
        """Record a finished sync (made with ``account``'s key, remembered for the sheet);
        True when another was asked for meanwhile (due again)."""
        now = self.clock()
        return await self._db.write(
            lambda conn: syncjobs.done(conn, spreadsheet, worker, now, debounce, account)
        )

    async def sync_refused(self, spreadsheet: str, worker: str, account: str, error: str) -> bool:
        """Give back a claimed sync whose sheet ``account``'s key cannot open: another
        account's worker takes it, or it is set aside when none is left; whether set aside."""
        now = self.clock()
        return await self._db.write(
            lambda conn: syncjobs.refused(conn, spreadsheet, worker, account, error, now)
        )

    async def syncs_set_aside(self) -> list[syncjobs.SetAside]:
        """The syncs no running worker's account can open (reported, not retried)."""
        return await self._db.read(syncjobs.set_aside)

    async def sync_failed(
        self, spreadsheet: str, worker: str, error: str | None, *, retry_in: timedelta
    ) -> bool:
        """Give a claimed sync back, due after ``retry_in`` (``error`` None: not tried)."""
        retry_at = self.clock() + retry_in
        return await self._db.write(
            lambda conn: syncjobs.failed(conn, spreadsheet, worker, error, retry_at)
        )

    async def syncs_waiting(self) -> tuple[int, datetime | None]:
        """Syncs asked for and not running, and when the next falls due."""
        now = self.clock()
        return await self._db.read(lambda conn: syncjobs.waiting(conn, now))

    # -- the budget of each service account (sheets.fleet.quota) ---------------------------

    async def spend_quota(
        self,
        account: str,
        *,
        reads: int = 1,
        writes: int = 1,
        reads_limit: int = 60,
        writes_limit: int = 60,
        window: float = 60.0,
        hold: float = 5.0,
        share: str | None = None,
    ) -> float:
        """Spend requests of a Google service account's per-minute budget, shared by every
        process on the database: 0 when spent, else the seconds to wait (nothing spent).
        The requests are made within ``hold`` seconds (:meth:`sheets.budget.Window.spend`);
        on behalf of ``share`` (a label, :func:`sheets.budget.share_label`), fairly among
        shares, when given (:mod:`sheets.budget`)."""
        now = self.clock()
        return await self._db.write(
            lambda conn: quota.spend(
                conn, account, now, reads, writes, reads_limit, writes_limit, window, hold, share
            )
        )

    # -- the add-on's keys of each spreadsheet (sheets.fleet.keys) -------------------------

    async def addon_keys(self, spreadsheet: str) -> frozenset[str]:
        """The hashes of the add-on keys ``spreadsheet`` is connected with (none: not
        connected), as every ``serve`` process accepts them (:mod:`sheets.addon_keys`)."""
        return await self._db.read(lambda conn: keys.kept(conn, spreadsheet))

    async def keep_addon_keys(self, spreadsheet: str, digests: Collection[str]) -> None:
        """Make ``digests`` the key hashes of ``spreadsheet``, and only those (none: every
        key of the sheet is refused until an editor connects it again)."""
        now = self.clock()
        await self._db.write(lambda conn: keys.keep(conn, spreadsheet, digests, now))
