"""One writer per spreadsheet across processes: the ``sheet_leases`` table.

Several bot processes (Discord shards) and Sheets workers may share one database. Writes to
one spreadsheet must not interleave (each reads the sheet, then writes where the rows are
missing), so a process writes only while it holds the spreadsheet's *lease*: a row naming it
and a time until which it is its own. The lease is taken with one conditional ``UPDATE`` (or
an ``INSERT`` where there is no row yet; two processes racing to insert are told apart by the
primary key), renewed while the write runs, and dropped when it is done. A process killed
mid-write holds the sheet until its lease runs out, or until a new process of the same host
frees the leases of the stopped ones (:func:`release`, as the outbox does).

The database decides, not a lock in one process, so this holds on PostgreSQL across hosts;
on SQLite (one bot process) it is the same code at no cost.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from sheets.database.transactions import Conflict
from sheets.fleet import schema


async def take(
    conn: AsyncConnection, spreadsheet: str, holder: str, now: datetime, until: datetime
) -> bool:
    """Make ``holder`` the writer of ``spreadsheet`` until ``until`` if nobody else holds it
    now (its own lease is extended); whether it holds it."""
    s = schema.sheet_leases
    free = and_(s.c.spreadsheet_id == spreadsheet, or_(s.c.holder == holder, s.c.until <= now))
    taken = await conn.execute(update(s).where(free).values(holder=holder, until=until))
    if taken.rowcount == 1:
        return True
    if await conn.scalar(select(s.c.holder).where(s.c.spreadsheet_id == spreadsheet)):
        return False
    try:
        await conn.execute(insert(s).values(spreadsheet_id=spreadsheet, holder=holder, until=until))
    except IntegrityError as error:  # another process inserted it first: ask again
        raise Conflict from error
    return True


async def drop(conn: AsyncConnection, spreadsheet: str, holder: str) -> None:
    """End ``holder``'s lease on ``spreadsheet`` (nothing when it does not hold it)."""
    s = schema.sheet_leases
    await conn.execute(delete(s).where(s.c.spreadsheet_id == spreadsheet, s.c.holder == holder))


async def release(conn: AsyncConnection, gone: Callable[[str], bool]) -> int:
    """Drop the leases of the holders ``gone`` says have stopped; how many were dropped."""
    s = schema.sheet_leases
    holders = (await conn.execute(select(s.c.holder).distinct())).scalars()
    dead = [holder for holder in holders if gone(holder)]
    if not dead:
        return 0
    result = await conn.execute(delete(s).where(s.c.holder.in_(dead)))
    return int(result.rowcount)


async def holder(conn: AsyncConnection, spreadsheet: str, now: datetime) -> str | None:
    """Who holds ``spreadsheet``'s lease now (None: nobody)."""
    s = schema.sheet_leases
    found: str | None = await conn.scalar(
        select(s.c.holder).where(s.c.spreadsheet_id == spreadsheet, s.c.until > now)
    )
    return found


async def held_by_others(conn: AsyncConnection, holder: str, now: datetime) -> frozenset[str]:
    """The spreadsheets whose lease a holder other than ``holder`` has now."""
    s = schema.sheet_leases
    rows = await conn.execute(
        select(s.c.spreadsheet_id).where(s.c.holder != holder, s.c.until > now)
    )
    return frozenset(rows.scalars())
