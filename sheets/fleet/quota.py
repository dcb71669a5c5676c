"""Google's per-minute quota of each service account, spent by every worker process from
one row (``quota_budget``): the row is locked while a worker spends (``FOR UPDATE`` on
PostgreSQL; SQLite's write transactions are one at a time), so two workers never both spend
the last request of a minute. The arithmetic is :class:`sheets.budget.Budget`'s, fair shares
included: the row keeps on whose behalf each request was spent (a short hash,
:func:`sheets.budget.share_label`).
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from sheets.budget import Budget
from sheets.database.transactions import Conflict
from sheets.fleet import schema


async def spend(
    conn: AsyncConnection,
    account: str,
    now: datetime,
    reads: int,
    writes: int,
    reads_limit: int,
    writes_limit: int,
    window: float = 60.0,
    hold: float = 0.0,
    share: str | None = None,
) -> float:
    """Spend ``reads`` and ``writes`` of ``account``'s budget now if they fit (answers 0),
    else the seconds to wait (nothing spent); for ``share`` when given (fair shares)."""
    q = schema.quota_budget
    row = (
        await conn.execute(select(q.c.uses).where(q.c.account == account).with_for_update())
    ).one_or_none()
    budget = Budget.from_json(
        json.loads(row.uses) if row else {}, reads_limit, writes_limit, window=window
    )
    moment = now.timestamp()
    wait = budget.spend(moment, reads, writes, hold, share)
    if wait:
        return wait
    budget.reads.wait(moment, 0)  # drop what left the window before storing
    budget.writes.wait(moment, 0)
    uses = json.dumps(budget.to_json())
    if row is not None:
        await conn.execute(update(q).where(q.c.account == account).values(uses=uses))
        return 0.0
    try:
        await conn.execute(insert(q).values(account=account, uses=uses))
    except IntegrityError as error:  # another worker spent first: spend on its row
        raise Conflict from error
    return 0.0
