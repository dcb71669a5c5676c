"""One transaction per call, run again on the new state when another process wrote first.

There are no in-process locks: the database decides. A write that loses a race raises
:class:`Conflict` (a unique key another writer took first, or a row another writer changed)
or, on PostgreSQL, a serialization failure or a deadlock; :meth:`Transactions.write` then
runs the whole transaction again after a short random pause, up to :data:`ATTEMPTS` times,
and raises :class:`Busy` after that. Writes begin as writes (SQLite's ``BEGIN IMMEDIATE``,
:data:`sheets.database.engine.WRITE`), so two writers queue on the file lock instead of
failing when a read turns into a write.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from sheets.database.engine import WRITE
from sheets.database.errors import DatabaseError

T = TypeVar("T")
#: How many times a transaction is run again after losing a race to another writer.
ATTEMPTS = 12
#: PostgreSQL says a transaction lost a race it can retry: serialization failure, deadlock.
_RETRY_SQLSTATES = {"40001", "40P01"}


class Conflict(Exception):
    """Another writer got there first (a unique key was taken): run the transaction again."""


class Busy(DatabaseError):
    """A write lost its race :data:`ATTEMPTS` times in a row."""

    def __init__(self) -> None:
        super().__init__("the database is very busy right now: please try again", "busy")


class Transactions:
    """Transactions on ``engine``: :meth:`read` and :meth:`write` each run one unit of work."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def read(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work`` in a read transaction."""
        async with self.engine.connect() as conn, conn.begin():
            return await work(conn)

    async def write(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work`` in a write transaction, again on the new state if another writer
        got there first (a unique key taken, a deadlock, a serialization failure)."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                async with self.engine.connect() as conn:
                    await conn.execution_options(**{WRITE: True})
                    async with conn.begin():
                        return await work(conn)
            except Conflict:
                pass
            except DBAPIError as error:
                if getattr(error.orig, "sqlstate", None) not in _RETRY_SQLSTATES:
                    raise
            if attempt < ATTEMPTS:
                await asyncio.sleep(random.uniform(0, 0.01 * attempt))
        raise Busy
