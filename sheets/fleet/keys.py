"""The add-on's keys every ``serve`` process accepts: the ``addon_keys`` table.

A spreadsheet's rows are the hashes its developer metadata held when an editor last
connected it (:mod:`sheets.addon_keys`); :func:`keep` replaces them all at once, so what the
workers accept is always what the sheet held at one moment, never a mix.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from sheets.fleet import schema


async def kept(conn: AsyncConnection, spreadsheet: str) -> frozenset[str]:
    """The key hashes kept for ``spreadsheet`` (none: not connected)."""
    k = schema.addon_keys
    rows = await conn.execute(select(k.c.digest).where(k.c.spreadsheet_id == spreadsheet))
    return frozenset(row.digest for row in rows)


async def keep(
    conn: AsyncConnection, spreadsheet: str, digests: Collection[str], now: datetime
) -> None:
    """Make ``digests`` the key hashes of ``spreadsheet``, and only those (none: forget it)."""
    k = schema.addon_keys
    await conn.execute(delete(k).where(k.c.spreadsheet_id == spreadsheet))
    if digests:
        await conn.execute(
            insert(k),
            [{"spreadsheet_id": spreadsheet, "digest": d, "since": now} for d in sorted(digests)],
        )
