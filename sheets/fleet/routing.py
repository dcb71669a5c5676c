"""Which service account serves which spreadsheet, when several are used at once.

Google's quota is per service account, so a deployment with many sheets runs workers with
different keys; a TD shares a sheet with one of them. A sync job must go to a worker whose
key can open the sheet:

- ``sheet_accounts`` remembers the account known to open each sheet: the bot's when it
  linked or read the sheet, a worker's after its first successful sync (:func:`remember`);
  a request for a sync takes it from there (:func:`known`).
- ``sync_workers`` lists the running workers and their accounts, each seen until a lease
  after its last look for work (:func:`seen`), so that the claim can tell a job whose
  account no running worker holds (any worker may try it) from one that waits for its own.
- A worker whose key cannot open a sheet adds its account to the job's ``refused_by``; when
  every running worker's account has refused it, the job is set aside (``parked_at``) and
  reported, not retried, until the sheet is asked for again (:mod:`sheets.fleet.syncjobs`).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Column, Table, and_, delete, exists, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from sheets.database.transactions import Conflict
from sheets.fleet import schema

#: How long after its lease ran out a worker's row is deleted (it stopped long ago).
FORGET_AFTER = timedelta(days=1)


def accounts_in(refused_by: str | None) -> set[str]:
    """The accounts listed in a ``refused_by`` cell."""
    return {line for line in (refused_by or "").split("\n") if line}


def listed(accounts: set[str]) -> str:
    """A ``refused_by`` cell listing ``accounts``: each between newlines, so that one is
    found with a ``LIKE '%\\naccount\\n%'`` (:func:`routable`)."""
    return "\n" + "\n".join(sorted(accounts)) + "\n"


async def known(conn: AsyncConnection, spreadsheet: str) -> str | None:
    """The account known to open ``spreadsheet``, if any."""
    a = schema.sheet_accounts
    found: str | None = await conn.scalar(
        select(a.c.account).where(a.c.spreadsheet_id == spreadsheet)
    )
    return found


async def _put(conn: AsyncConnection, table: Table, key: Column[Any], **values: Any) -> None:
    """Set the row of ``table`` whose primary ``key`` is ``values[key.name]`` to ``values``
    (inserted when there is none; a row another process inserted meanwhile: again)."""
    changed = await conn.execute(update(table).where(key == values[key.name]).values(**values))
    if changed.rowcount == 1:
        return
    try:
        await conn.execute(insert(table).values(**values))
    except IntegrityError as error:
        raise Conflict from error


async def remember(conn: AsyncConnection, spreadsheet: str, account: str, now: datetime) -> None:
    """Note that ``account`` opens ``spreadsheet``."""
    a = schema.sheet_accounts
    await _put(conn, a, a.c.spreadsheet_id, spreadsheet_id=spreadsheet, account=account, since=now)


async def forget(conn: AsyncConnection, spreadsheet: str, account: str) -> None:
    """``account`` no longer opens ``spreadsheet`` (it was unshared)."""
    a = schema.sheet_accounts
    await conn.execute(delete(a).where(a.c.spreadsheet_id == spreadsheet, a.c.account == account))


async def seen(
    conn: AsyncConnection, worker: str, account: str, now: datetime, until: datetime
) -> None:
    """``worker`` runs, holding ``account``'s key, until ``until`` unless seen again; the
    rows of workers gone for long are deleted."""
    w = schema.sync_workers
    await conn.execute(delete(w).where(w.c.seen_until < now - FORGET_AFTER))
    await _put(conn, w, w.c.worker, worker=worker, account=account, seen_until=until)


async def running_accounts(conn: AsyncConnection, now: datetime) -> set[str]:
    """The accounts of the workers running now."""
    w = schema.sync_workers
    rows = await conn.execute(select(w.c.account).where(w.c.seen_until > now).distinct())
    return set(rows.scalars())


def routable(account: str, now: datetime) -> Any:
    """The sync jobs a worker holding ``account``'s key may claim: those of its account;
    those whose account is unknown, or held by no running worker, unless its account
    already could not open the sheet."""
    j, w = schema.sync_jobs, schema.sync_workers
    served = exists().where(w.c.account == j.c.account, w.c.seen_until > now)
    untried = or_(
        j.c.refused_by.is_(None),
        ~j.c.refused_by.contains(f"\n{account}\n", autoescape=True),
    )
    return or_(j.c.account == account, and_(or_(j.c.account.is_(None), ~served), untried))
