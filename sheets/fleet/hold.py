"""Holding a spreadsheet's lease for a block of work: one writer per spreadsheet across every
process on the database (bot shards and Sheets workers alike).

:func:`holding` takes the lease (:meth:`sheets.fleet.Fleet.take_sheet`, waiting at most a
few seconds when asked to), renews it every quarter of its length while the block runs, and
drops it after, or keeps it a while longer when the block says so (a write that timed out may
still land: nobody else writes until it has). A holder is named by :func:`process_name`.
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
from typing import TYPE_CHECKING

from sheets.fleet.schema import PROCESS_LENGTH
from sheets.fleet.tasks import cancel_and_wait

if TYPE_CHECKING:
    from sheets.fleet.fleet import Fleet

log = logging.getLogger(__name__)


def process_name(kind: str) -> str:
    """A name for this process (``harkness-bot``, ``harkness-sheets``), unique across hosts
    and restarts: ``KIND:HOST:PID:TAG`` (``TAG`` random per start), so that a new process of
    the same host can tell the stopped ones (the bot's ``bot.sheetlink.outbox.stopped``).
    The host's name is cut to fit the fleet's column of holders (64 characters).

    >>> name = process_name("harkness-sheets")
    >>> name.startswith("harkness-sheets:") and len(name.split(":")) == 4 and len(name) <= 64
    True
    """
    tail = f":{os.getpid()}:{uuid.uuid4().hex[:8]}"
    host = socket.gethostname()[: PROCESS_LENGTH - len(kind) - 1 - len(tail)]
    return f"{kind}:{host}{tail}"


class SheetBusy(Exception):
    """Another process is writing to this spreadsheet now (it holds the lease)."""


@dataclass
class Held:
    """A spreadsheet held: set ``keep`` to hold it that much longer after the block (a
    write that timed out may still land: nobody else writes until it has)."""

    keep: timedelta | None = None


@contextlib.asynccontextmanager
async def holding(
    fleet: Fleet,
    spreadsheet: str,
    holder: str,
    *,
    lease: timedelta,
    wait: float = 0.0,
    poll: float = 0.25,
) -> AsyncIterator[Held]:
    """Hold ``spreadsheet``'s lease for the block, waiting at most ``wait`` seconds for it
    (:class:`SheetBusy` when another process keeps it longer)."""
    deadline = time.monotonic() + wait
    while not await fleet.take_sheet(spreadsheet, holder, lease=lease):
        if time.monotonic() >= deadline:
            raise SheetBusy
        await asyncio.sleep(poll)
    renewal = asyncio.create_task(_renew(fleet, spreadsheet, holder, lease), name="sheet-lease")
    held = Held()
    try:
        yield held
    finally:
        await cancel_and_wait(renewal)
        try:
            if held.keep is not None:
                await fleet.take_sheet(spreadsheet, holder, lease=held.keep)
            else:
                await fleet.drop_sheet(spreadsheet, holder)
        except Exception:  # it runs out by itself
            log.exception("could not give up the lease on a spreadsheet")


async def _renew(fleet: Fleet, spreadsheet: str, holder: str, lease: timedelta) -> None:
    while True:
        await asyncio.sleep(lease.total_seconds() / 4)
        try:
            if not await fleet.take_sheet(spreadsheet, holder, lease=lease):
                log.warning(
                    "another process took the spreadsheet while this one was writing it",
                    extra={"spreadsheet": spreadsheet},
                )
        except Exception:  # the database may be back by the next renewal
            log.exception("could not renew the lease on a spreadsheet")
