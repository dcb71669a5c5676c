"""The sheet link's side of the store (:class:`LinkedSheets`, ``store.linked``): which
spreadsheet a tournament is linked to and which server a sheet belongs to, and the outbox of
results on their way to the sheets (:mod:`bot.store.outbox`), claimed by the bot's sheet
writer (:class:`bot.sheetlink.outbox.OutboxWriter`).

Its callers are the sheet link (:mod:`bot.sheetlink`), not the slash commands. Linking is
guild-scoped like the rest of the store; the outbox's claims are not, since one writer
serves every guild (:meth:`LinkedSheets.claim_writes`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from datetime import datetime, timedelta

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import outbox, queries, schema
from bot.store.base import StorePart
from bot.store.errors import StoreError
from bot.store.live import Folds
from bot.store.model import Actor, TournamentInfo
from bot.store.records import OutboxItem
from sheets.database.transactions import Conflict


def sheet_of_another_server(guild: str) -> str:
    """Why a server may not use a spreadsheet that another server linked first."""
    return (
        "that spreadsheet belongs to another Discord server (the first to link it). If it "
        f"is meant to be shared, an editor of the sheet writes this server's id, {guild}, in "
        "the “Discord servers” row of its Harkness tab; then a TD links it again"
    )


class LinkedSheets(StorePart):
    """Linked spreadsheets and the results queued for them (see the module)."""

    def __init__(self, engine: AsyncEngine, clock: Callable[[], datetime], folds: Folds) -> None:
        super().__init__(engine, clock, folds)
        #: Told after each change that queued a result for a linked sheet (:meth:`on_queued`).
        self._queued: list[Callable[[], None]] = []

    def on_queued(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` after each change that queued a result for a linked sheet (its
        outbox row committed, :mod:`bot.store.outbox`), so that this process's sheet writer
        looks at once; other processes find the row on their next look."""
        self._queued.append(listener)

    def queued(self) -> None:
        """A change of the store committed a result for a linked sheet: tell the listeners."""
        for listener in self._queued:
            listener()

    async def link_sheet(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        spreadsheet_id: str,
        url: str = "",
        guests: Collection[str] = (),
    ) -> TournamentInfo:
        """Link a tournament to a spreadsheet (TD): final results are queued for it.

        A spreadsheet belongs to the first server that links it; another server may link it
        only when it is among ``guests`` (the servers the sheet itself names)."""
        sheet_id = spreadsheet_id.strip()[:128]
        if not sheet_id:
            raise StoreError("give the spreadsheet's id or link", "bad-sheet")
        if not actor.td:
            raise StoreError("only a tournament director can link a spreadsheet", "not-td")
        now = self.clock()
        t, o = schema.tournaments, schema.sheet_owners

        async def work(conn: AsyncConnection) -> TournamentInfo:
            found = await queries.find_tournament(conn, guild, tournament, lock=True)
            owner = await queries.sheet_owner(conn, sheet_id)
            if owner is None:
                try:
                    await conn.execute(
                        insert(o).values(
                            spreadsheet_id=sheet_id,
                            guild_id=guild,
                            claimed_by=actor.user,
                            claimed_at=now,
                        )
                    )
                except IntegrityError as error:  # another server claimed it just now
                    raise Conflict from error
            elif owner != guild and guild not in guests:
                raise StoreError(sheet_of_another_server(guild), "sheet-owned")
            row = (
                await conn.execute(
                    update(t)
                    .where(t.c.guild_id == guild, t.c.id == found.id)
                    .values(
                        sheet_id=sheet_id,
                        sheet_url=url[:512] or None,
                        sheet_linked_by=actor.user,
                        sheet_linked_at=now,
                    )
                    .returning(*t.c)
                )
            ).one()
            return queries.tournament_info(row)

        return await self._write(work)

    async def sheet_owner(self, spreadsheet_id: str) -> str | None:
        """The server a spreadsheet belongs to (the first that linked it), if any."""
        return await self._read(lambda conn: queries.sheet_owner(conn, spreadsheet_id))

    async def unlink_sheet(self, guild: str, tournament: str, actor: Actor) -> TournamentInfo:
        """Unlink the spreadsheet (TD); writes still queued for it stay queued, unsent."""
        return await self._update_tournament(
            guild,
            tournament,
            actor,
            "unlink a spreadsheet",
            lambda _: {
                "sheet_id": None,
                "sheet_url": None,
                "sheet_linked_by": None,
                "sheet_linked_at": None,
            },
        )

    async def pending_writes(self, guild: str, tournament: str) -> list[OutboxItem]:
        """Results of a tournament still to be written to its sheet, oldest first."""

        async def work(conn: AsyncConnection) -> list[OutboxItem]:
            info = await queries.find_tournament(conn, guild, tournament)
            return await outbox.items(conn, guild, info.id, pending=True)

        return await self._read(work)

    async def outbox_backlog(self) -> tuple[int, float]:
        """Unwritten sheet writes of every guild, and how long (s) the oldest due one has
        been due; for the metrics, so not guild-scoped."""
        now = self.clock()
        return await self._read(lambda conn: outbox.backlog(conn, now))

    async def claim_writes(
        self,
        worker: str,
        *,
        limit: int = 20,
        lease: timedelta = timedelta(seconds=60),
        guild: str | None = None,
        busy: Collection[str] = (),
    ) -> list[OutboxItem]:
        """Lease up to ``limit`` due sheet writes to ``worker`` (a name unique to the worker
        process), passing by the spreadsheets in ``busy`` (another process is writing them:
        :meth:`sheets.fleet.Fleet.held_by_others`). The sheet writer serves every guild, so
        ``guild`` is optional here: the claims, their renewal and release are the only
        methods of the store that are not guild-scoped."""
        now = self.clock()
        return await self._write(
            lambda conn: outbox.claim(conn, worker, now, lease, limit, guild, busy)
        )

    async def renew_claims(
        self, items: Sequence[OutboxItem | int], worker: str, *, lease: timedelta
    ) -> list[int]:
        """Extend ``worker``'s lease on ``items`` (those it still holds, whose ids it answers)
        to ``lease`` from now: a worker renews while a write runs, so a short lease suffices."""
        ids = [i if isinstance(i, int) else i.id for i in items]
        until = self.clock() + lease
        return await self._write(lambda conn: outbox.renew(conn, ids, worker, until))

    async def release_claims(self, gone: Callable[[str], bool]) -> int:
        """Free the sheet writes leased to workers that ``gone(worker)`` says have stopped (a
        process killed mid-write), so they are due again now; the number freed."""
        now = self.clock()
        return await self._write(lambda conn: outbox.release(conn, gone, now))

    async def postpone_writes(
        self, items: Sequence[OutboxItem | int], worker: str, *, retry_in: timedelta
    ) -> int:
        """Give claimed items back untried (their spreadsheet is busy), due after ``retry_in``."""
        ids = [i if isinstance(i, int) else i.id for i in items]
        retry_at = self.clock() + retry_in
        return await self._write(lambda conn: outbox.postpone(conn, ids, worker, retry_at))

    async def mark_written(self, item: OutboxItem | int, worker: str) -> bool:
        """Record that ``worker`` wrote a claimed item (False: its lease was lost)."""
        item_id = item if isinstance(item, int) else item.id
        now = self.clock()
        return await self._write(lambda conn: outbox.written(conn, item_id, worker, now))

    async def mark_failed(
        self,
        item: OutboxItem | int,
        worker: str,
        error: str,
        *,
        retry_in: timedelta = timedelta(seconds=30),
    ) -> bool:
        """Give a claimed item back after a failed write, due again after ``retry_in``."""
        item_id = item if isinstance(item, int) else item.id
        retry_at = self.clock() + retry_in
        return await self._write(lambda conn: outbox.failed(conn, item_id, worker, error, retry_at))
