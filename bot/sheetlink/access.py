"""Access to Google Sheets, shared by every part of the sheet link (:class:`SheetAccess`):
the Sheets client (or why there is none), the bot's settings for it, the store and the fleet,
one lock per spreadsheet, the spreadsheet's lease, the service account's per-minute budget,
which server may use a spreadsheet, and the link's background tasks.

gspread is synchronous, so every Sheets call runs in a worker thread, and the calls for one
spreadsheet are made one at a time (under :meth:`SheetAccess.lock`); writes also hold the
spreadsheet's lease in the fleet, so that several bot processes (shards) and the Sheets
workers never interleave them (:meth:`SheetAccess.writing`). Every request is first spent
from the service account's budget, shared by every process on the database, on the
server's fair share of it (:meth:`SheetAccess.spend`, :mod:`sheets.budget`). A member who
waits is told why (:func:`waiting_reason`): this bot's share of the budget, Google's own
refusal, Google not answering, or another process writing the sheet. Without Sheets settings
(no ``GOOGLE_APPLICATION_CREDENTIALS``) the link is off, and :attr:`SheetAccess.why_not`
says why.

Before it shows what it read and before it writes, the link asks whether the sheet names the
server (:meth:`SheetAccess.check_use`); a sheet whose editors took the server off its
Discord servers row is unlinked there and then, and the TD told
(:meth:`SheetAccess.on_withdrawn`).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Collection, Coroutine
from datetime import datetime, timedelta
from typing import Any, Self, TypeVar

from bot.errors import UserError
from bot.settings import BotSettings
from bot.sheetlink.api import (
    SHEETS_MISSING,
    SheetsClient,
    SheetsError,
    SheetsSettings,
    SheetsTimeoutError,
    SheetsUnavailableError,
    open_client,
)
from bot.sheetlink.lease import KIND, SheetBusy
from bot.store import Store, TournamentInfo, sheet_not_named
from core.limits import shorten
from sheets.budget import Quota
from sheets.fleet import Fleet, Held, hold, process_name

log = logging.getLogger("harkness.bot")
T = TypeVar("T")

NOT_SET_UP = (
    "this bot is not set up for Google Sheets: its operator gives it a Google service "
    "account's key (GOOGLE_APPLICATION_CREDENTIALS, the JSON key file; see sheets/README.md, "
    '"Setting up") and restarts it. Until then the tournament is kept in Discord only'
)
NOT_INSTALLED = (
    "this bot was installed without Google Sheets support: its operator installs "
    "harkness[sheets] (gspread and google-auth) and restarts it"
)


class SheetUnreadable(UserError):
    """The linked sheet cannot be read now, and nothing read earlier is at hand. ``note``
    says why in a few words, for the footer of an answer from Discord's own results."""

    def __init__(
        self, message: str, note: str = "the Google Sheet cannot be read just now"
    ) -> None:
        super().__init__(message)
        self.note = note


class SheetNotNamed(SheetUnreadable):
    """The spreadsheet does not name this Discord server (any more): its editors never let
    it use the sheet, or took it off the sheet's Discord servers row."""

    def __init__(
        self, message: str, note: str = "the Google Sheet no longer names this server"
    ) -> None:
        super().__init__(message, note)


class OverBudget(Exception):
    """This server's fair share of the service account's requests for this minute is spent
    (the budget every process on the database shares): ``wait`` seconds until it fits."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"this bot's share of Google Sheets requests is spent for {wait:.0f} s")
        self.wait = wait


class Waiting(enum.Enum):
    """What keeps a sheet from being read or written just now, so a member is told why."""

    BUDGET = "budget"
    """This server's share of the service account's requests for this minute is spent."""
    REFUSED = "refused"
    """Google refused more requests (429, its own quota) until the retries ran out."""
    SILENT = "silent"
    """Google did not answer (a timeout, a 5xx) until the retries ran out."""
    BUSY = "busy"
    """Another Harkness process holds the sheet's lease."""
    UNNAMED = "unnamed"
    """The sheet no longer names this server: the tournament was unlinked from it."""
    FAILED = "failed"
    """Anything else (the error says what)."""

    @classmethod
    def of(cls, error: BaseException) -> Waiting:
        """What ``error`` (of a read, a write, or the budget) means for a member."""
        if isinstance(error, OverBudget):
            return cls.BUDGET
        if isinstance(error, SheetBusy):
            return cls.BUSY
        if isinstance(error, SheetNotNamed):
            return cls.UNNAMED
        if isinstance(error, SheetsUnavailableError) and error.status == 429:
            return cls.REFUSED
        if isinstance(error, SheetsTimeoutError | SheetsUnavailableError):
            return cls.SILENT
        return cls.FAILED

    @property
    def words(self) -> str:
        """Why, in a few words (:attr:`FAILED` has none of its own: :func:`short`)."""
        return _WAITING_WORDS[self]

    def noted(self, detail: str = "") -> str:
        """What a result waiting for this keeps as its last error (:meth:`noted_in`).

        >>> Waiting.BUDGET.noted("12 s"), Waiting.noted_in(Waiting.BUDGET.noted("12 s"))
        ('[budget] 12 s', <Waiting.BUDGET: 'budget'>)
        >>> Waiting.noted_in("timed out") is None
        True
        """
        return f"[{self.value}] {detail}".strip()

    @classmethod
    def noted_in(cls, text: str | None) -> Waiting | None:
        found = re.match(r"\[([a-z]+)\]", text or "")
        return cls._value2member_map_.get(found[1]) if found else None  # type: ignore[return-value]


_WAITING_WORDS = {
    Waiting.BUDGET: "Harkness has used its share of Google Sheets requests for this minute",
    Waiting.REFUSED: "Google Sheets refused more requests this minute (its quota)",
    Waiting.SILENT: "Google Sheets is not answering just now",
    Waiting.BUSY: "another Harkness process is writing the sheet just now",
    Waiting.UNNAMED: "the Google Sheet no longer names this server",
    Waiting.FAILED: "the Google Sheet could not be reached",
}


def waiting_reason(error: BaseException) -> str:
    """Why a Sheets request was not made or did not succeed, in a few words for a member:
    this bot's own budget, Google's refusal (429), Google not answering (a timeout, a 5xx),
    the sheet held by another process, or the error itself (:func:`short`).

    >>> waiting_reason(OverBudget(12.0))
    'Harkness has used its share of Google Sheets requests for this minute'
    """
    waiting = Waiting.of(error)
    return short(error) if waiting is Waiting.FAILED else waiting.words


def short(error: BaseException) -> str:
    """A Sheets error in a few words, for a reply (what failed and what to do, without
    Google's own answer)."""
    text = error.summary if isinstance(error, SheetsError) else str(error)
    return shorten(text, 300)


#: Told that the sheet no longer names a server: (guild, sheet's title, the tournaments
#: that were unlinked from it).
Withdrawn = Callable[[str, str, list[TournamentInfo]], Coroutine[Any, Any, None]]
#: Told that a server uses a sheet unnamed in its grace period: (guild, spreadsheet, the
#: sheet's title, until when).
Graced = Callable[[str, str, str, datetime], Coroutine[Any, Any, None]]


def withdrawn_message(title: str, names: Collection[str]) -> str:
    """What a member is told when the sheet no longer names the server (it was unlinked)."""
    sheet = f"the Google Sheet “{title}”" if title else "the Google Sheet"
    which = ", ".join(names) or "the tournament"
    return (
        f"{sheet} no longer names this Discord server (its editors took it off the "
        f"“Discord servers” row of its Harkness tab), so {which} is no longer linked to it: "
        "Discord's own results count. A TD links it again with /tournament link-sheet once "
        "an editor of the sheet names this server"
    )


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
        #: The Discord servers rows found to name a server, by (guild, spreadsheet).
        self._named: dict[tuple[str, str], frozenset[str]] = {}
        self._withdrawn: list[Withdrawn] = []
        self._graced: list[Graced] = []
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

    def on_withdrawn(self, listener: Withdrawn) -> None:
        """Call ``listener`` (in the background) when a sheet no longer naming a server was
        unlinked from its tournaments (:meth:`check_use`)."""
        self._withdrawn.append(listener)

    def on_graced(self, listener: Graced) -> None:
        """Call ``listener`` when a server uses a sheet that does not name it, in the grace
        period of a link made before sheets named their servers (:meth:`check_use`)."""
        self._graced.append(listener)

    async def check_use(
        self, guild: str, spreadsheet: str, named: Collection[str], *, title: str = ""
    ) -> None:
        """Refuse (:class:`SheetNotNamed`) unless ``guild`` may read and write
        ``spreadsheet``: its Discord servers row (``named``, as just read) names the server
        (:meth:`bot.store.LinkedSheets.sheet_use`), or it is in the grace period of a link
        made before. Called before every read is shown and every write is made. A server
        the sheet does not name has its tournaments unlinked from it here, and the TD is
        told (:meth:`on_withdrawn`); nothing of the sheet is shown or written."""
        row = frozenset(named)
        if self._named.get((guild, spreadsheet)) == row:
            return
        use = await self.store.linked.sheet_use(guild, spreadsheet, row)
        if use.named:
            self._named[(guild, spreadsheet)] = row
            return
        self._named.pop((guild, spreadsheet), None)
        if use.grace_until is not None:
            for graced in self._graced:
                self.spawn(graced(guild, spreadsheet, title, use.grace_until))
            return
        unlinked = await self.store.linked.withdraw_sheet(guild, spreadsheet)
        if unlinked:
            log.info(
                "the sheet no longer names this server: unlinked",
                extra={"guild_id": guild, "spreadsheet": spreadsheet},
            )
            for withdrawn in self._withdrawn:
                self.spawn(withdrawn(guild, title, unlinked))
            raise SheetNotNamed(withdrawn_message(title, [t.name for t in unlinked]))
        raise SheetNotNamed(sheet_not_named(guild))

    async def spend(self, reads: int, writes: int, *, guild: str = "") -> float:
        """Spend requests from the service account's per-minute budget, shared by every
        process on the database (:meth:`sheets.fleet.Fleet.spend_quota`), on ``guild``'s fair
        share of it (:mod:`sheets.budget`): 0 when spent, else the seconds until they fit
        (nothing spent)."""
        client = self.sheets_client()
        return await self.quota.spend(
            self.fleet,
            client.service_account_email,
            reads=reads,
            writes=writes,
            share=f"guild:{guild}" if guild else "",
        )

    async def spent(
        self, reads: int, writes: int, *, guild: str = "", patience: float | None = None
    ) -> None:
        """:meth:`spend`, waiting for the budget at most ``patience`` seconds (default: the
        answer wait); else :class:`OverBudget` (nothing spent)."""
        deadline = time.monotonic() + (self.answer_wait if patience is None else patience)
        while wait := await self.spend(reads, writes, guild=guild):
            if time.monotonic() + wait > deadline:
                raise OverBudget(wait)
            await asyncio.sleep(wait)

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
