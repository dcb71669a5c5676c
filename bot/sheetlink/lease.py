"""One writer per spreadsheet across every bot process on the database.

A process writes to a spreadsheet only while it holds the spreadsheet's lease in the store
(:meth:`bot.store.Store.take_sheet`): taken before the write, renewed every quarter of its
length while the write runs, dropped after. So two shards never interleave writes to one
sheet, and a process killed mid-write holds the sheet no longer than one lease (or until a
new process of its host starts and frees it). Within one process the per-sheet
:class:`asyncio.Lock` still orders the tasks, so the database is asked once per write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta

from bot.errors import UserError
from bot.store import Store

log = logging.getLogger("harkness.bot")

#: How long a process holds what it is writing (results, a spreadsheet) before another may
#: take it; renewed every quarter of it while the write runs, so a process that died frees
#: them within this time (``HARKNESS_SHEETS_LEASE``).
LEASE = timedelta(seconds=60)


def process_name() -> str:
    """A name for this process, unique across hosts and restarts:
    ``harkness-bot:HOST:PID:TAG`` (``TAG`` random per start)."""
    return f"harkness-bot:{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class SheetBusy(UserError):
    """Another process is writing to this spreadsheet now."""

    def __init__(self) -> None:
        super().__init__(
            "the Google Sheet is being written by the bot just now: try again in a minute"
        )


@dataclass
class Held:
    """A spreadsheet held: set ``keep`` to hold it that much longer after the block (a
    write that timed out may still land: nobody else writes until it has)."""

    keep: timedelta | None = None


@contextlib.asynccontextmanager
async def holding(
    store: Store,
    spreadsheet: str,
    holder: str,
    *,
    lease: timedelta = LEASE,
    wait: float = 0.0,
    poll: float = 0.25,
) -> AsyncIterator[Held]:
    """Hold ``spreadsheet``'s lease for the block, waiting at most ``wait`` seconds for it
    (:class:`SheetBusy` when another process keeps it longer)."""
    deadline = time.monotonic() + wait
    while not await store.take_sheet(spreadsheet, holder, lease=lease):
        if time.monotonic() >= deadline:
            raise SheetBusy
        await asyncio.sleep(poll)
    renewal = asyncio.create_task(_renew(store, spreadsheet, holder, lease), name="sheet-lease")
    held = Held()
    try:
        yield held
    finally:
        renewal.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewal
        try:
            if held.keep is not None:
                await store.take_sheet(spreadsheet, holder, lease=held.keep)
            else:
                await store.drop_sheet(spreadsheet, holder)
        except Exception:  # it runs out by itself
            log.exception("could not give up the lease on a spreadsheet")


async def _renew(store: Store, spreadsheet: str, holder: str, lease: timedelta) -> None:
    while True:
        await asyncio.sleep(lease.total_seconds() / 4)
        try:
            if not await store.take_sheet(spreadsheet, holder, lease=lease):
                log.warning(
                    "another process took the spreadsheet while this one was writing it",
                    extra={"spreadsheet": spreadsheet},
                )
        except Exception:  # the database may be back by the next renewal
            log.exception("could not renew the lease on a spreadsheet")
