"""Access to Google Sheets, shared by every part of the sheet link (:class:`SheetAccess`):
the Sheets client (or why there is none), the bot's settings for it, the store and the fleet,
one lock per spreadsheet, the spreadsheet's lease, the service account's per-minute budget,
which server may use a spreadsheet, and the link's background tasks.

gspread is synchronous, so every Sheets call runs in a worker thread, and the calls for one
spreadsheet are made one at a time (under :meth:`SheetAccess.lock`); writes also hold the
spreadsheet's lease in the fleet, so that several bot processes (shards) and the Sheets
workers never interleave them (:meth:`SheetAccess.writing`). Without Sheets settings
(no ``GOOGLE_APPLICATION_CREDENTIALS``) the link is off, and :attr:`SheetAccess.why_not`
says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine
from datetime import timedelta
from typing import Any, Self, TypeVar

from bot.errors import UserError
from bot.settings import BotSettings
from bot.sheetlink.api import (
    SHEETS_MISSING,
    SheetsClient,
    SheetsError,
    SheetsSettings,
    open_client,
)
from bot.sheetlink.lease import KIND, SheetBusy
from bot.store import Store, sheet_of_another_server
from core.limits import shorten
from sheets.budget import Quota
from sheets.fleet import Fleet, Held, hold, process_name

log = logging.getLogger("harkness.bot")
T = TypeVar("T")

NOT_SET_UP = (
    "this bot is not set up for Google Sheets: its operator gives it a Google service "
    "account's key (GOOGLE_APPLICATION_CREDENTIALS, the JSON key file; see the README, "
    '"Google Sheets") and restarts it. Until then the tournament is kept in Discord only'
)
NOT_INSTALLED = (
    "this bot was installed without Google Sheets support: its operator installs "
    "harkness[sheets] (gspread and google-auth) and restarts it"
)


class SheetUnreadable(UserError):
    """The linked sheet cannot be read now, and nothing read earlier is at hand."""


class SheetOfAnotherServer(SheetUnreadable):
    """The spreadsheet belongs to another Discord server, and does not name this one."""


def short(error: BaseException) -> str:
    """A Sheets error in a few words, for a reply (what failed and what to do, without
    Google's own answer)."""
    text = error.summary if isinstance(error, SheetsError) else str(error)
    return shorten(text, 300)


class SheetAccess:
    """Google Sheets as every part of :class:`bot.sheetlink.SheetLinks` reaches it.

    ``clock`` measures how fresh a read is (tests move it by hand); the outbox's retry times
    are the store's.
    """

    def __init__(
        self,
        store: Store,
        fleet: Fleet,
        settings: BotSettings,
        client: SheetsClient | None,
        why_not: str | None = None,
        *,
        timeout: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.fleet = fleet
        self.client = client
        self.why_not = why_not
        self.clock = clock
        self.refresh_seconds = settings.sheets_refresh
        self.answer_wait = settings.sheets_answer_wait
        self.timeout = timeout
        self.worker = process_name(KIND)
        self.lease = timedelta(seconds=settings.sheets_lease)
        self.quota = Quota()
        self.sync_jobs = settings.sheets_sync_jobs
        self.sync_debounce = timedelta(seconds=5)
        self._locks: dict[str, asyncio.Lock] = {}
        self._owners: dict[str, str] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    @classmethod
    def from_environment(cls, store: Store, fleet: Fleet, settings: BotSettings) -> Self:
        """Access configured from the environment, or switched off with the reason."""
        if SHEETS_MISSING is not None:
            log.warning("Google Sheets is off: %s", SHEETS_MISSING)
            return cls(store, fleet, settings, None, NOT_INSTALLED)
        try:
            sheets_settings = SheetsSettings()
        except ValueError as error:
            log.warning("Google Sheets is off: bad settings: %s", error)
            return cls(
                store,
                fleet,
                settings,
                None,
                "this bot's Google Sheets settings are wrong: its operator sees why in the log",
            )
        if sheets_settings.google_application_credentials is None:
            log.info("Google Sheets is off: GOOGLE_APPLICATION_CREDENTIALS is not set")
            return cls(store, fleet, settings, None, NOT_SET_UP)
        try:
            client = open_client(sheets_settings)
        except SheetsError as error:
            log.warning("Google Sheets is off: %s", error)
            return cls(
                store,
                fleet,
                settings,
                None,
                "this bot's Google service account key cannot be used: its operator "
                "sees why in the log",
            )
        log.info("Google Sheets is on, as service account %s", client.service_account_email)
        access = cls(store, fleet, settings, client, timeout=sheets_settings.timeout)
        access.quota = sheets_settings.quota
        access.sync_debounce = timedelta(seconds=sheets_settings.debounce)
        return access

    @property
    def available(self) -> bool:
        """Whether this bot can reach Google Sheets at all."""
        return self.client is not None

    def sheets_client(self) -> SheetsClient:
        """The Sheets client, or a refusal saying why this bot has none."""
        if self.client is None:
            raise UserError(self.why_not or NOT_SET_UP, markup=True)
        return self.client

    async def check_use(self, guild: str, spreadsheet: str, guests: Collection[str]) -> None:
        """Refuse (:class:`SheetOfAnotherServer`) unless ``guild`` may read and write
        ``spreadsheet``: it linked it first, or the sheet's Harkness tab names it among
        ``guests``. Called before every read is shown and every write is made."""
        owner = self._owners.get(spreadsheet)
        if owner is None:
            owner = await self.store.linked.sheet_owner(spreadsheet)
            if owner is not None:  # a sheet's first server never changes: keep it
                self._owners[spreadsheet] = owner
        if owner != guild and guild not in guests:
            raise SheetOfAnotherServer(sheet_of_another_server(guild))

    async def spend(self, reads: int, writes: int) -> float:
        """Spend requests from the service account's per-minute budget, shared by every
        process on the database (:meth:`sheets.fleet.Fleet.spend_quota`): 0 when spent, else
        the seconds until they fit (nothing spent)."""
        client = self.sheets_client()
        return await self.quota.spend(
            self.fleet, client.service_account_email, reads=reads, writes=writes
        )

    async def spent(self, reads: int, writes: int) -> bool:
        """:meth:`spend`, waiting for the budget at most the answer wait; whether spent."""
        deadline = time.monotonic() + self.answer_wait
        while wait := await self.spend(reads, writes):
            if time.monotonic() + wait > deadline:
                return False
            await asyncio.sleep(wait)
        return True

    def lock(self, spreadsheet: str) -> asyncio.Lock:
        """This process's lock for ``spreadsheet``: its Sheets calls are made one at a time."""
        return self._locks.setdefault(spreadsheet, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def leased(self, spreadsheet: str, *, wait: float = 0.0) -> AsyncIterator[Held]:
        """Hold ``spreadsheet``'s lease in the fleet for the block (no other process writes
        it meanwhile), waited for at most ``wait`` seconds, else
        :class:`~bot.sheetlink.lease.SheetBusy`."""
        try:
            async with hold.holding(
                self.fleet, spreadsheet, self.worker, lease=self.lease, wait=wait
            ) as held:
                yield held
        except hold.SheetBusy:
            raise SheetBusy from None

    @contextlib.asynccontextmanager
    async def writing(self, spreadsheet: str, *, wait: float | None = None) -> AsyncIterator[Held]:
        """Write to ``spreadsheet`` in the block: this process's lock for it, then its lease
        (:meth:`leased`), waited for at most ``wait`` seconds (default: the answer wait)."""
        async with (
            self.lock(spreadsheet),
            self.leased(spreadsheet, wait=self.answer_wait if wait is None else wait) as held,
        ):
            yield held

    def spawn(self, work: Coroutine[Any, Any, T], name: str | None = None) -> asyncio.Task[T]:
        """Run ``work`` as a task the bot keeps (and cancels when it stops, :meth:`close`); a
        failure is logged, never left unseen."""
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("Google Sheets work failed", exc_info=task.exception())

    async def bounded(self, work: Coroutine[Any, Any, T]) -> T | None:
        """Run ``work`` for at most the answer wait; it goes on in the background after.
        None when it is not done by then or failed (the failure is logged)."""
        task = self.spawn(work)
        done, _ = await asyncio.wait({task}, timeout=self.answer_wait)
        if task not in done or task.cancelled() or task.exception() is not None:
            return None
        return task.result()

    async def close(self) -> None:
        """Stop the background work (a Sheets call in flight is finished by its thread)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
