"""The fleet: how the processes that share one database share Google.

Several bot processes (Discord shards) and Sheets workers (``harkness-sheets serve`` and
``watch``) may run on one PostgreSQL database. Google limits each service account's requests
a minute, and two processes writing one spreadsheet at once would interleave their rows; so
they coordinate through the database, and only through it (no in-process locks), in tables
of the fleet's own (:mod:`sheets.fleet.schema`, keyed by spreadsheet, service account or
process, never by a Discord server) with a history of migrations of their own
(:mod:`sheets.fleet.migrations`). With SQLite the same code serves one process at no cost.

- **Leases** (:mod:`~sheets.fleet.leases`, :mod:`~sheets.fleet.hold`): one writer per
  spreadsheet; a process holds a sheet's lease while it writes (:func:`holding`), named by
  :func:`process_name`; a process killed mid-write frees it when the lease runs out.
- **Sync jobs** (:mod:`~sheets.fleet.syncjobs`): "sync this sheet soon", one row per sheet,
  debounced and coalesced, claimed by any worker, taken over when a worker dies.
- **Routing** (:mod:`~sheets.fleet.routing`): with several service accounts, a job goes to a
  worker whose key opens its sheet; one no running worker's key opens is set aside.
- **Budget** (:mod:`~sheets.fleet.quota`): each service account's per-minute quota, spent by
  every process from one row, fairly among the servers and sheets it is spent for (the
  arithmetic is :mod:`sheets.budget`'s).
- **Add-on keys** (:mod:`~sheets.fleet.keys`): the hashes of the keys each spreadsheet
  vouches for, accepted by every ``serve`` process (:mod:`sheets.addon_keys`).

:class:`Fleet` is the one API (each method one transaction). A worker opens its own
(:meth:`Fleet.open`); the bot opens one on its store's engine (:meth:`Fleet.on`). The fleet
knows nothing of Discord, tournaments or the bot (``sheets`` never imports ``bot``).

The API at a glance (all ``async``)::

    Fleet.open(url=None) / Fleet.on(engine) / close()
    take_sheet / sheet_holder / held_by_others / drop_sheet / release_sheets
    request_sync / claim_sync / renew_sync / sync_done / sync_failed / syncs_waiting
    sync_worker_seen / sync_refused / syncs_set_aside
    spend_quota(account, reads=, writes=, reads_limit=, writes_limit=, window=, hold=, share=)
    addon_keys / keep_addon_keys

One writer at a time::

    >>> import asyncio, tempfile, pathlib
    >>> async def two_shards(url):
    ...     async with await Fleet.open(url) as fleet:
    ...         print(await fleet.take_sheet("sheet-1", "shard-0"))
    ...         print(await fleet.take_sheet("sheet-1", "shard-1"))
    ...         await fleet.drop_sheet("sheet-1", "shard-0")
    ...         print(await fleet.take_sheet("sheet-1", "shard-1"))
    >>> folder = tempfile.mkdtemp()
    >>> asyncio.run(two_shards(f"sqlite:///{pathlib.Path(folder) / 'fleet.db'}"))
    True
    False
    True
"""

from __future__ import annotations

from sheets.fleet.fleet import Fleet
from sheets.fleet.hold import Held, SheetBusy, holding, process_name
from sheets.fleet.syncjobs import SetAside, SyncJob
from sheets.fleet.tasks import cancel_and_wait

__all__ = [
    "Fleet",
    "Held",
    "SetAside",
    "SheetBusy",
    "SyncJob",
    "cancel_and_wait",
    "holding",
    "process_name",
]
