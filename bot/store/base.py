"""What every part of the store shares (:class:`StorePart`): its engine, its clock, and
transactions in the store's words.

Each method of a part is one database transaction (:class:`sheets.database.transactions.
Transactions`: run again on the new state when another process wrote first). Every method
that reads or writes a guild's data takes the guild first and finds the tournament *in that
guild* by name, so nothing of one guild is reachable from another. Writes to a tournament lock
its row first (PostgreSQL) or take the database's write lock (SQLite), and append events
under a per-tournament unique sequence number. There are no in-process locks, so any number
of processes can share one database.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import queries, schema
from bot.store.errors import StoreError
from bot.store.live import Folds, WriteInProgress
from bot.store.model import Actor, TournamentInfo
from sheets.database.transactions import Busy, Transactions

T = TypeVar("T")


def utc_now() -> datetime:
    return datetime.now(UTC)


class StorePart:
    """A part of the store on ``engine``; ``clock`` gives the time of events (tests pass
    their own); ``folds`` keeps each tournament's fold (:mod:`bot.store.live`), shared by
    the parts of one store."""

    def __init__(self, engine: AsyncEngine, clock: Callable[[], datetime], folds: Folds) -> None:
        self.engine = engine
        self.clock = clock
        self.folds = folds
        self._db = Transactions(engine)

    async def _reading(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work``, which reads a tournament's fold (:meth:`Folds.loaded`), in a read
        transaction; again, holding no connection meanwhile, after a write of the
        tournament it waited for."""
        while True:
            try:
                return await self._read(work)
            except WriteInProgress as busy:
                await busy.wait()

    async def _prepare(self, guild: str, name: str, *, whole: bool = False) -> None:
        """Bring the tournament's fold up to date (and build its core tournament, with
        ``whole``) in a read, so that a write after it holds the database's write lock only
        for its own events."""
        await self._reading(lambda conn: self.folds.prepare(conn, guild, name, whole=whole))

    async def _read(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        return await self._db.read(work)

    async def _write(self, work: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """Run ``work`` in a write transaction, again on the new state if another writer
        got there first; a member is told when that kept happening."""
        try:
            return await self._db.write(work)
        except Busy:
            raise StoreError(
                "the tournament is very busy right now: please try again", "busy"
            ) from None

    async def _update_tournament(
        self,
        guild: str,
        name: str,
        actor: Actor,
        what: str,
        values: Callable[[queries.Loaded], dict[str, Any]],
    ) -> TournamentInfo:
        if not actor.td:
            raise StoreError(f"only a tournament director can {what}", "not-td")
        t = schema.tournaments

        async def work(conn: AsyncConnection) -> TournamentInfo:
            loaded = await self.folds.loaded(conn, guild, name, lock=True)
            row = (
                await conn.execute(
                    update(t)
                    .where(t.c.guild_id == guild, t.c.id == loaded.info.id)
                    .values(**values(loaded))
                    .returning(*t.c)
                )
            ).one()
            return queries.tournament_info(row)

        await self._prepare(guild, name)
        return await self._write(work)
