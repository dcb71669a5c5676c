"""Results on their way to a spreadsheet: the outbox.

When a linked tournament's result becomes final (confirmed, set, a bye, a withdrawal, a
clear, or an undo of one of those), the same transaction that writes the event adds one
outbox row. The row is unique per event, so it exists once whatever happens; a worker
*claims* rows for a while (a short lease, renewed while its write runs, so two workers never
write the same row at once), writes them to the sheet, and marks them written; a failure puts
the row back with a later retry time. Each payload carries a ``key`` to write with the row, so
that a worker which crashed after writing but before marking can find the row already in the
sheet: written once. A worker that starts frees the leases of workers it knows have stopped
(:func:`release`), so a result being written when its process was killed is written again at
once, not when the lease runs out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, insert, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema
from bot.store.model import Event, EventKind
from bot.store.queries import Loaded
from bot.store.records import OutboxItem
from core.results import score_text
from sheets.database.transactions import Conflict


def key(guild: str, tournament: int, seq: int) -> str:
    """The unique key of the sheet row of event ``seq`` (written in the row itself).

    >>> key("80351110224678912", 7, 12)
    'harkness:80351110224678912:7:12'
    """
    return f"harkness:{guild}:{tournament}:{seq}"


def key_guild(row_key: str) -> str | None:
    """The guild whose result a sheet row's key (:func:`key`) is (None: not such a key).

    >>> key_guild(key("80351110224678912", 7, 12)), key_guild("my own note")
    ('80351110224678912', None)
    """
    parts = row_key.split(":")
    return parts[1] if len(parts) == 4 and parts[0] == "harkness" else None


def payload(
    loaded: Loaded, event: Event, *, reported_by: Sequence[str] = (), confirmed_by: str = ""
) -> dict[str, Any]:
    """The sheet row for ``event``: when, which round, who, what, reported and confirmed by."""
    names = {p.id: p for p in loaded.players}
    row: dict[str, Any] = {
        "key": key(loaded.info.guild, loaded.info.id, event.seq),
        "action": event.kind.value,
        "time": event.at.isoformat(timespec="seconds"),
        "round": event.round,
        "reported_by": ", ".join(reported_by),
        "confirmed_by": confirmed_by or event.actor_name or event.actor,
    }
    if event.player is not None:
        row["player"] = names[event.player].name
        row["player_number"] = names[event.player].number
    if event.opponent is not None:
        row["opponent"] = names[event.opponent].name
        row["opponent_number"] = names[event.opponent].number
    if event.result is not None:
        row["result"] = (
            score_text(event.result, event.double) if event.opponent else event.result.value
        )
    if event.colour is not None and event.opponent is not None and event.player is not None:
        white, black = (
            (event.player, event.opponent)
            if event.colour.value == "w"
            else (event.opponent, event.player)
        )
        row["white"], row["black"] = names[white].name, names[black].name
    if event.kind is EventKind.REVERT:
        assert event.refers_to is not None
        row["undoes"] = key(loaded.info.guild, loaded.info.id, event.refers_to)
    return row


async def enqueue(
    conn: AsyncConnection, loaded: Loaded, event: Event, row: dict[str, Any], now: datetime
) -> bool:
    """Add the outbox row of ``event`` if the tournament is linked to a sheet."""
    sheet = loaded.info.sheet
    if sheet is None:
        return False
    try:
        await conn.execute(
            insert(schema.sheet_outbox).values(
                guild_id=loaded.info.guild,
                tournament_id=loaded.info.id,
                event_seq=event.seq,
                spreadsheet_id=sheet.spreadsheet_id,
                payload=json.dumps(row, ensure_ascii=False),
                created_at=now,
                attempts=0,
                next_attempt_at=now,
            )
        )
    except IntegrityError as error:
        raise Conflict from error
    return True


async def has_item(conn: AsyncConnection, loaded: Loaded, seq: int) -> bool:
    o = schema.sheet_outbox
    found = await conn.scalar(
        select(o.c.id).where(
            o.c.guild_id == loaded.info.guild,
            o.c.tournament_id == loaded.info.id,
            o.c.event_seq == seq,
        )
    )
    return found is not None


def _item(row: Row[Any]) -> OutboxItem:
    return OutboxItem(
        row.id,
        row.guild_id,
        row.name,
        row.spreadsheet_id,
        row.event_seq,
        json.loads(row.payload),
        row.created_at,
        row.attempts,
        row.last_error,
        row.written_at,
    )


def _joined() -> Any:
    o, t = schema.sheet_outbox, schema.tournaments
    return select(o, t.c.name).join(
        t, and_(t.c.id == o.c.tournament_id, t.c.guild_id == o.c.guild_id)
    )


async def claim(
    conn: AsyncConnection,
    worker: str,
    now: datetime,
    lease: timedelta,
    limit: int,
    guild: str | None = None,
    busy: Collection[str] = (),
) -> list[OutboxItem]:
    """Lease up to ``limit`` unwritten rows due now to ``worker``, oldest first.

    Only rows whose tournament is still linked to the same spreadsheet are due, and not
    those of the spreadsheets in ``busy`` (another process is writing them now: the fleet's
    leases, :meth:`sheets.fleet.Fleet.held_by_others`). On PostgreSQL the rows are selected
    ``FOR UPDATE SKIP LOCKED``: processes claiming at once each take other rows, without
    waiting for each other. The ``UPDATE`` repeats the "free" condition on the row itself as
    well, so a row is never given to two workers.
    """
    o, t = schema.sheet_outbox, schema.tournaments
    free = and_(
        o.c.written_at.is_(None),
        o.c.next_attempt_at <= now,
        or_(o.c.claimed_until.is_(None), o.c.claimed_until <= now),
    )
    due = (
        select(o.c.id)
        .join(t, and_(t.c.id == o.c.tournament_id, t.c.guild_id == o.c.guild_id))
        .where(free, t.c.sheet_id == o.c.spreadsheet_id)
        .order_by(o.c.id)
        .limit(limit)
        .with_for_update(of=o, skip_locked=True)
    )
    if busy:
        due = due.where(o.c.spreadsheet_id.not_in(list(busy)))
    if guild is not None:
        due = due.where(o.c.guild_id == guild)
    ids = list((await conn.execute(due)).scalars())
    if not ids:
        return []
    until = now + lease
    await conn.execute(
        update(o).where(o.c.id.in_(ids), free).values(claimed_by=worker, claimed_until=until)
    )
    rows = await conn.execute(
        _joined()
        .where(o.c.id.in_(ids), o.c.claimed_by == worker, o.c.claimed_until == until)
        .order_by(o.c.id)
    )
    return [_item(row) for row in rows]


async def renew(
    conn: AsyncConnection, ids: Sequence[int], worker: str, until: datetime
) -> list[int]:
    """Extend ``worker``'s lease on the rows ``ids`` it still holds; the ids renewed."""
    o = schema.sheet_outbox
    held = and_(o.c.id.in_(list(ids)), o.c.claimed_by == worker, o.c.written_at.is_(None))
    await conn.execute(update(o).where(held).values(claimed_until=until))
    return list((await conn.execute(select(o.c.id).where(held).order_by(o.c.id))).scalars())


async def release(conn: AsyncConnection, gone: Callable[[str], bool], now: datetime) -> int:
    """Free the leases of the workers ``gone`` says have stopped; the number of rows freed."""
    o = schema.sheet_outbox
    leased = and_(o.c.written_at.is_(None), o.c.claimed_until > now)
    holders = (await conn.execute(select(o.c.claimed_by).where(leased).distinct())).scalars()
    dead = [worker for worker in holders if worker is not None and gone(worker)]
    if not dead:
        return 0
    result = await conn.execute(
        update(o)
        .where(leased, o.c.claimed_by.in_(dead))
        .values(claimed_by=None, claimed_until=None)
    )
    return int(result.rowcount)


async def written(conn: AsyncConnection, item_id: int, worker: str, now: datetime) -> bool:
    """Mark a claimed row written; False if it was not ``worker``'s (lease lost) or already
    written (then the other writer's mark stands)."""
    o = schema.sheet_outbox
    result = await conn.execute(
        update(o)
        .where(o.c.id == item_id, o.c.claimed_by == worker, o.c.written_at.is_(None))
        .values(written_at=now, claimed_until=None)
    )
    return result.rowcount == 1


async def failed(
    conn: AsyncConnection, item_id: int, worker: str, error: str, retry_at: datetime
) -> bool:
    """Give a claimed row back after a failed write, to be retried from ``retry_at``."""
    o = schema.sheet_outbox
    result = await conn.execute(
        update(o)
        .where(o.c.id == item_id, o.c.claimed_by == worker, o.c.written_at.is_(None))
        .values(
            attempts=o.c.attempts + 1,
            last_error=error[:2000],
            next_attempt_at=retry_at,
            claimed_by=None,
            claimed_until=None,
        )
    )
    return result.rowcount == 1


async def postpone(
    conn: AsyncConnection,
    ids: Sequence[int],
    worker: str,
    retry_at: datetime,
    why: str | None = None,
) -> int:
    """Give claimed rows back unwritten and untried (their spreadsheet was busy, or the
    budget spent: ``why``, kept as their last error when given), due again from
    ``retry_at``; how many were ``worker``'s."""
    o = schema.sheet_outbox
    values: dict[str, Any] = {
        "next_attempt_at": retry_at,
        "claimed_by": None,
        "claimed_until": None,
    }
    if why is not None:
        values["last_error"] = why[:2000]
    result = await conn.execute(
        update(o)
        .where(o.c.id.in_(list(ids)), o.c.claimed_by == worker, o.c.written_at.is_(None))
        .values(**values)
    )
    return int(result.rowcount)


async def backlog(conn: AsyncConnection, now: datetime) -> tuple[int, float]:
    """The unwritten rows (every guild), and the seconds the oldest due one has been due
    (0 when none is due): the outbox depth and age a host graphs."""
    o = schema.sheet_outbox
    query = select(
        func.count(),
        func.min(o.c.next_attempt_at).filter(o.c.next_attempt_at <= now),
    ).where(o.c.written_at.is_(None))
    depth, oldest = (await conn.execute(query)).one()
    return int(depth), max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0


async def items(
    conn: AsyncConnection, guild: str, tournament: int, *, pending: bool
) -> list[OutboxItem]:
    o = schema.sheet_outbox
    query = _joined().where(o.c.guild_id == guild, o.c.tournament_id == tournament)
    if pending:
        query = query.where(o.c.written_at.is_(None))
    return [_item(row) for row in await conn.execute(query.order_by(o.c.id))]
