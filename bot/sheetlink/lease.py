"""One writer per spreadsheet across every process on the database, in the bot's words.

A process writes to a spreadsheet only while it holds the spreadsheet's lease in the fleet
(:meth:`bot.sheetlink.access.SheetAccess.leased`, on :func:`sheets.fleet.holding`): taken
before the write, renewed every quarter of its length (``HARKNESS_SHEETS_LEASE``) while the
write runs, dropped after. So two shards (or a shard and a Sheets worker) never interleave
writes to one sheet, and a process killed mid-write holds the sheet no longer than one lease
(or until a new process of its host starts and frees it). Within one process the per-sheet
:class:`asyncio.Lock` still orders the tasks, so the database is asked once per write. When
another process holds the sheet, the member is told :class:`SheetBusy`.
"""

from __future__ import annotations

from bot.errors import UserError

#: What a bot process is called in the fleet's leases and the outbox's claims.
KIND = "harkness-bot"


class SheetBusy(UserError):
    """Another process is writing to this spreadsheet now."""

    def __init__(self) -> None:
        super().__init__(
            "the Google Sheet is being written by the bot just now: try again in a minute"
        )
