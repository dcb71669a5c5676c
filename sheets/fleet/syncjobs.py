"""Durable sync jobs: "sync this spreadsheet soon", kept in the database, run by any worker.

One row per spreadsheet, so requests for a sheet coalesce. A request *debounces*: the sync
falls due ``debounce`` after the latest request, but no later than ``max_wait`` after the
first of the burst. A worker claims a due row (``FOR UPDATE SKIP LOCKED`` on PostgreSQL, and
never a sheet another process is writing: :mod:`sheets.fleet.leases`) for a lease it renews while
the sync runs; when done it deletes the row, unless a request came after the sync started, in
which case the row falls due again (one more sync reads that edit). A worker killed mid-sync
loses nothing: its lease runs out and another worker takes the row. A failure puts the row
back with a later due time.

With several service accounts, a job goes to a worker whose key opens the sheet, and one
that no running worker's key opens is set aside and reported (:mod:`sheets.fleet.routing`).

Why rows of our own rather than a job-queue library (procrastinate, PgQueuer): both need a
second PostgreSQL driver (psycopg) beside asyncpg and a schema of their own outside the
fleet's migrations, and neither *moves* a waiting job's start when another request for the
same sheet comes (procrastinate's queueing lock refuses the second job instead), which is
what debouncing an editing TD needs. The claim design here is that of the bot's outbox
(``bot.store.outbox``), tested the same way on SQLite and PostgreSQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, exists, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from sheets.database.transactions import Conflict
from sheets.fleet import routing, schema

#: What :func:`request` answers: a sync was scheduled (or moved later by the debounce), or
#: one is running and another will follow it.
SCHEDULED = "scheduled"
AFTER_RUNNING = "after the running sync"


@dataclass(frozen=True)
class SyncJob:
    """A claimed sync: the spreadsheet, why it was asked for, and earlier failures."""

    spreadsheet_id: str
    reason: str
    attempts: int
    requested_at: datetime
    account: str | None = None


@dataclass(frozen=True)
class SetAside:
    """A sync no running worker's service account can open: its sheet, why, since when."""

    spreadsheet_id: str
    error: str
    since: datetime


def _free(now: datetime) -> Any:
    j = schema.sync_jobs
    return and_(j.c.parked_at.is_(None), or_(j.c.claimed_until.is_(None), j.c.claimed_until <= now))


async def request(
    conn: AsyncConnection,
    spreadsheet: str,
    reason: str,
    now: datetime,
    debounce: timedelta,
    max_wait: timedelta,
    account: str | None = None,
) -> str:
    """Ask for a sync of ``spreadsheet``; :data:`SCHEDULED` or :data:`AFTER_RUNNING`.
    ``account`` is a service account that just opened the sheet (the bot's), remembered
    for routing; without it, the one remembered before routes the job. A job set aside
    (no running worker's account could open the sheet) is taken up again, from scratch."""
    j = schema.sync_jobs
    if account is not None:
        await routing.remember(conn, spreadsheet, account, now)
    else:
        account = await routing.known(conn, spreadsheet)
    row = (
        await conn.execute(select(j).where(j.c.spreadsheet_id == spreadsheet).with_for_update())
    ).one_or_none()
    if row is None:
        try:
            await conn.execute(
                insert(j).values(
                    spreadsheet_id=spreadsheet,
                    first_at=now,
                    requested_at=now,
                    due_at=now + debounce,
                    reason=reason[:200],
                    attempts=0,
                    account=account,
                )
            )
        except IntegrityError as error:  # another process asked at the same moment
            raise Conflict from error
        return SCHEDULED
    values: dict[str, Any] = {"requested_at": now, "reason": reason[:200], "account": account}
    if row.parked_at is not None:  # the TD may have shared it since: every key tries again
        values.update(
            first_at=now,
            due_at=now + debounce,
            attempts=0,
            refused_by=None,
            parked_at=None,
            last_error=None,
        )
        await conn.execute(update(j).where(j.c.spreadsheet_id == spreadsheet).values(**values))
        return SCHEDULED
    running = row.claimed_until is not None and row.claimed_until > now
    if not running and row.attempts == 0:
        values["due_at"] = min(now + debounce, row.first_at + max_wait)
    await conn.execute(update(j).where(j.c.spreadsheet_id == spreadsheet).values(**values))
    return AFTER_RUNNING if running else SCHEDULED


async def claim(
    conn: AsyncConnection,
    worker: str,
    now: datetime,
    lease: timedelta,
    account: str | None = None,
) -> SyncJob | None:
    """Lease the sync due first to ``worker``, or None when none is due. A worker holding
    ``account``'s key takes only the jobs it may serve (:func:`sheets.fleet.routing.routable`)."""
    j, s = schema.sync_jobs, schema.sheet_leases
    written_by_another = exists().where(
        s.c.spreadsheet_id == j.c.spreadsheet_id, s.c.holder != worker, s.c.until > now
    )
    conditions = [j.c.due_at <= now, _free(now), ~written_by_another]
    if account is not None:
        conditions.append(routing.routable(account, now))
    due = (
        select(j.c.spreadsheet_id)
        .where(*conditions)
        .order_by(j.c.due_at)
        .limit(1)
        .with_for_update(skip_locked=True)
    )
    spreadsheet = await conn.scalar(due)
    if spreadsheet is None:
        return None
    taken = await conn.execute(
        update(j)
        .where(j.c.spreadsheet_id == spreadsheet, _free(now))
        .values(claimed_by=worker, claimed_until=now + lease, started_at=now)
    )
    if taken.rowcount != 1:
        raise Conflict
    row = (await conn.execute(select(j).where(j.c.spreadsheet_id == spreadsheet))).one()
    return SyncJob(row.spreadsheet_id, row.reason, row.attempts, row.requested_at, row.account)


async def renew(conn: AsyncConnection, spreadsheet: str, worker: str, until: datetime) -> bool:
    """Extend ``worker``'s lease on the sync of ``spreadsheet``; False when lost."""
    j = schema.sync_jobs
    result = await conn.execute(
        update(j)
        .where(j.c.spreadsheet_id == spreadsheet, j.c.claimed_by == worker)
        .values(claimed_until=until)
    )
    return result.rowcount == 1


async def done(
    conn: AsyncConnection,
    spreadsheet: str,
    worker: str,
    now: datetime,
    debounce: timedelta,
    account: str | None = None,
) -> bool:
    """Record that ``worker`` synced ``spreadsheet`` (with ``account``'s key, remembered
    for the sheet's next jobs): the job is gone, or due again when a request came after the
    sync started (it read the sheet after any earlier one); whether another sync follows."""
    j = schema.sync_jobs
    mine = and_(j.c.spreadsheet_id == spreadsheet, j.c.claimed_by == worker)
    if account is not None:
        await routing.remember(conn, spreadsheet, account, now)
    gone = await conn.execute(delete(j).where(mine, j.c.requested_at <= j.c.started_at))
    if gone.rowcount == 1:
        return False
    again = await conn.execute(
        update(j)
        .where(mine)
        .values(
            first_at=now,
            due_at=now + debounce,
            attempts=0,
            last_error=None,
            claimed_by=None,
            claimed_until=None,
            started_at=None,
            **({} if account is None else {"account": account, "refused_by": None}),
        )
    )
    return again.rowcount == 1


async def refused(
    conn: AsyncConnection,
    spreadsheet: str,
    worker: str,
    account: str,
    error: str,
    now: datetime,
) -> bool:
    """Give back a claimed sync whose sheet ``account``'s key cannot open (not shared with
    it, or not as an Editor): due again at once for another account's worker; set aside,
    with ``error``, when every running worker's account has refused it. Whether it was set
    aside."""
    j = schema.sync_jobs
    mine = and_(j.c.spreadsheet_id == spreadsheet, j.c.claimed_by == worker)
    row = (await conn.execute(select(j).where(mine).with_for_update())).one_or_none()
    if row is None:  # its lease ran out and another worker has it
        return False
    await routing.forget(conn, spreadsheet, account)
    tried = routing.accounts_in(row.refused_by) | {account}
    left = await routing.running_accounts(conn, now) - tried
    values: dict[str, Any] = {
        "refused_by": routing.listed(tried),
        "account": None if row.account == account else row.account,
        "claimed_by": None,
        "claimed_until": None,
        "started_at": None,
        "last_error": error[:2000],
    }
    if left:
        values["due_at"] = now
    else:
        values.update(parked_at=now, attempts=j.c.attempts + 1)
    await conn.execute(update(j).where(mine).values(**values))
    return not left


async def set_aside(conn: AsyncConnection) -> list[SetAside]:
    """The syncs set aside because no running worker's account can open their sheet."""
    j = schema.sync_jobs
    rows = await conn.execute(
        select(j.c.spreadsheet_id, j.c.last_error, j.c.parked_at)
        .where(j.c.parked_at.is_not(None))
        .order_by(j.c.parked_at)
    )
    return [SetAside(r.spreadsheet_id, r.last_error or "", r.parked_at) for r in rows]


async def failed(
    conn: AsyncConnection,
    spreadsheet: str,
    worker: str,
    error: str | None,
    retry_at: datetime,
) -> bool:
    """Give a claimed sync back, due again at ``retry_at``: after a failure (``error``,
    counted), or untried because another process was writing the sheet (``None``)."""
    j = schema.sync_jobs
    values: dict[str, Any] = {
        "due_at": retry_at,
        "claimed_by": None,
        "claimed_until": None,
        "started_at": None,
    }
    if error is not None:
        values.update(attempts=j.c.attempts + 1, last_error=error[:2000])
    result = await conn.execute(
        update(j)
        .where(j.c.spreadsheet_id == spreadsheet, j.c.claimed_by == worker)
        .values(**values)
    )
    return result.rowcount == 1


async def waiting(conn: AsyncConnection, now: datetime) -> tuple[int, datetime | None]:
    """How many syncs are asked for and not running, and when the next falls due."""
    j = schema.sync_jobs
    row = (await conn.execute(select(func.count(), func.min(j.c.due_at)).where(_free(now)))).one()
    return int(row[0]), row[1]
