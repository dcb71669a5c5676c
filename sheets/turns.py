"""A turn at a spreadsheet for ``harkness-sheets serve``: one writer at a time, within the
service account's budget.

Before "Pair next round" reads and writes a sheet, ``serve`` takes a turn (:meth:`Turns.at`):

1. this process's lock on the sheet (:class:`SheetLocks`): a second press waits for the
   first, then reads what it wrote;
2. with a database, the sheet's lease in the fleet (:func:`sheets.fleet.hold.holding`): no
   bot shard, sync or other worker writes the sheet meanwhile;
3. the requests it may make, spent from the service account's per-minute budget
   (:meth:`sheets.budget.Quota.spend`): with a database the one budget every process
   spends from (:meth:`sheets.fleet.Fleet.spend_quota`); without, this process's own
   (:class:`sheets.budget.LocalBudgets`), which its in-memory sync queue spends from too.

A turn not had within :attr:`Turns.wait` seconds raises :class:`Busy`, which says why (our
budget for Google, or another process writing the sheet) and when to try again, so that
Google never refuses a request for quota. ``/connect`` spends its one read the same way
(:meth:`Turns.spend`).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING

from sheets.budget import LocalBudgets, Quota, SharedBudgets

if TYPE_CHECKING:
    from sheets.fleet import Fleet

#: The longest a caller of the endpoint waits for its turn before it is told to come back.
TURN_WAIT = 10.0
#: How long another process's hold on a sheet is presumed to last, for ``Retry-After``.
BUSY_RETRY = 5.0


class Busy(Exception):
    """No turn at the sheet within the wait: ``message`` says why, ``retry_after`` when to
    try again (seconds)."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


@dataclass
class SheetLocks:
    """One lock per spreadsheet in this process, kept only while someone holds or waits
    for it."""

    _locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    _users: dict[str, int] = field(default_factory=dict)

    @contextlib.asynccontextmanager
    async def holding(self, spreadsheet_id: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(spreadsheet_id, asyncio.Lock())
        self._users[spreadsheet_id] = self._users.get(spreadsheet_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._users[spreadsheet_id] -= 1
            if not self._users[spreadsheet_id]:
                del self._users[spreadsheet_id], self._locks[spreadsheet_id]


@dataclass
class Turns:
    """Turns at spreadsheets for one service account (see the module docstring).

    ``budgets`` is where the account's budget lives (the fleet, or :class:`LocalBudgets`);
    ``fleet``, when given, holds the sheets' leases as ``holder`` (a name of this process's
    own, not its sync queue's, so that the two never write one sheet at once).
    """

    account: str
    quota: Quota = field(default_factory=Quota)
    budgets: SharedBudgets = field(default_factory=LocalBudgets)
    fleet: Fleet | None = None
    holder: str = ""
    wait: float = TURN_WAIT
    lease: timedelta = timedelta(seconds=60)
    _locks: SheetLocks = field(default_factory=SheetLocks)

    def __post_init__(self) -> None:
        if self.fleet is not None and not self.holder:
            raise ValueError("a turn with the fleet's leases needs a holder (process_name)")

    async def spend(
        self, reads: int, writes: int, *, wait: float | None = None, spreadsheet_id: str = ""
    ) -> None:
        """Spend ``reads`` and ``writes`` from the account's budget (on ``spreadsheet_id``'s
        fair share of it, :mod:`sheets.budget`), waiting for them to fit at most ``wait``
        seconds (:attr:`wait` by default); :class:`Busy` if they do not."""
        deadline = time.monotonic() + (self.wait if wait is None else wait)
        share = f"sheet:{spreadsheet_id}" if spreadsheet_id else ""
        while True:
            due = await self.quota.spend(
                self.budgets, self.account, reads=reads, writes=writes, share=share
            )
            if not due:
                return
            if time.monotonic() + due > deadline:
                raise Busy(
                    "Harkness has used this minute's share of Google's quota for its service "
                    f"account: try again in {math.ceil(due)} s",
                    due,
                )
            await asyncio.sleep(due)

    @contextlib.asynccontextmanager
    async def at(
        self, spreadsheet_id: str, *, reads: int, writes: int, wait: float | None = None
    ) -> AsyncIterator[None]:
        """Hold a turn at the sheet for the block: the lock, the lease, the budget."""
        async with self._locks.holding(spreadsheet_id):
            if self.fleet is None:
                await self.spend(reads, writes, wait=wait, spreadsheet_id=spreadsheet_id)
                yield
                return
            from sheets.fleet import SheetBusy, holding

            async with contextlib.AsyncExitStack() as stack:
                try:
                    await stack.enter_async_context(
                        holding(
                            self.fleet,
                            spreadsheet_id,
                            self.holder,
                            lease=self.lease,
                            wait=min(self.wait if wait is None else wait, self.wait),
                        )
                    )
                except SheetBusy:
                    raise Busy(
                        "another Harkness process is writing this sheet just now: try again "
                        "in a few seconds",
                        BUSY_RETRY,
                    ) from None
                await self.spend(reads, writes, wait=wait, spreadsheet_id=spreadsheet_id)
                yield
