"""One writer per spreadsheet across every bot process on the database.

A process writes to a spreadsheet only while it holds the spreadsheet's lease in the store
(:meth:`bot.store.Store.take_sheet`): taken before the write, renewed every quarter of its
length while the write runs, dropped after. So two shards never interleave writes to one
sheet, and a process killed mid-write holds the sheet no longer than one lease (or until a
new process of its host starts and frees it). Within one process the per-sheet
:class:`asyncio.Lock` still orders the tasks, so the database is asked once per write.
"""

from __future__ import annotations

from datetime import timedelta

from bot.store.hold import Held, SheetBusy, holding, process_name

__all__ = ["LEASE", "Held", "SheetBusy", "holding", "process_name"]

#: How long a process holds what it is writing (results, a spreadsheet) before another may
#: take it; renewed every quarter of it while the write runs, so a process that died frees
#: them within this time (``HARKNESS_SHEETS_LEASE``).
LEASE = timedelta(seconds=60)
