"""The sheet link's side of the store (:class:`LinkedSheets`, ``store.linked``): which
spreadsheet a tournament is linked to, which servers a sheet lets use it, and the outbox of
results on their way to the sheets (:mod:`bot.store.outbox`), claimed by the bot's sheet
writer (:class:`bot.sheetlink.outbox.OutboxWriter`).

**Who may use a sheet** is the sheet's to say, in the "Discord servers" row of its Harkness
tab, which only its editors can change: a server uses a spreadsheet only while that row
names it, by the server's id or by a *link code*. ``/tournament link-sheet`` gives the TD a
code (:meth:`LinkedSheets.link_code`: unguessable, for that server, tournament and sheet,
expiring after :data:`CODE_LIFETIME`); an editor types it into the row, and the link
(:meth:`LinkedSheets.link_sheet`) uses it up: from then on it names that server for that
sheet, for as long as the row holds it. Deleting it withdraws the server
(:meth:`LinkedSheets.sheet_use`, :meth:`LinkedSheets.withdraw_sheet`). A server that linked a
sheet first before sheets named their servers (``sheet_owners``) goes on using it while the
row is empty, until its grace period ends (:data:`LEGACY_GRACE` from the upgrade).

Its callers are the sheet link (:mod:`bot.sheetlink`), not the slash commands. Linking is
guild-scoped like the rest of the store; the outbox's claims are not, since one writer
serves every guild (:meth:`LinkedSheets.claim_writes`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.store import outbox, queries, schema
from bot.store.base import StorePart
from bot.store.errors import StoreError
from bot.store.live import Folds
from bot.store.model import Actor, TournamentInfo
from bot.store.records import OutboxItem
from sheets.database.transactions import Conflict
from sheets.settings_tab import new_link_code

#: How long a link code waits for the sheet to hold it.
CODE_LIFETIME = timedelta(minutes=30)
#: How long the servers that linked a sheet first before sheets named their servers go on
#: using it unnamed (from the upgrade; revision 0011 keeps its own copy).
LEGACY_GRACE = timedelta(days=14)


def sheet_not_named(guild: str) -> str:
    """Why a server may not use a spreadsheet: the sheet does not name it."""
    return (
        "that spreadsheet does not name this Discord server: only its editors can let a "
        "server use it, in the “Discord servers” row of its Harkness tab (with the code "
        f"/tournament link-sheet gives a TD, or this server's id, {guild})"
    )


class Naming(enum.Enum):
    """What a sheet's Discord servers row says of a server about to link a tournament."""

    NAMED = "named"
    """It names the server: by its id, or by a code the server used before."""
    CODE = "code"
    """It holds the code given for this tournament, not used yet: linking uses it."""
    EXPIRED = "expired"
    """It holds a code of this server, given for this tournament, that expired unused."""
    NONE = "none"
    """It does not name the server."""


@dataclass(frozen=True, slots=True)
class SheetUse:
    """Whether a server may use a spreadsheet now (:meth:`LinkedSheets.sheet_use`): the sheet
    names it, or it linked the sheet first before sheets named their servers and may go on
    using it, while the sheet names no server, until ``grace_until``."""

    named: bool
    grace_until: datetime | None = None

    @property
    def allowed(self) -> bool:
        return self.named or self.grace_until is not None


@dataclass(frozen=True, slots=True)
class LinkCode:
    """A link code given to a TD: ``code`` names the server for ``spreadsheet_id`` once an
    editor types it into the sheet and the tournament is linked before ``expires_at``."""

    code: str
    tournament: str
    spreadsheet_id: str
    expires_at: datetime


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

    async def link_code(
        self, guild: str, tournament: str, actor: Actor, *, spreadsheet_id: str
    ) -> LinkCode:
        """A code for an editor of the spreadsheet to type into its Discord servers row, so
        that this server may link ``tournament`` to it (TD): the one given before, while it
        is valid, else a new one (expiring after :data:`CODE_LIFETIME`)."""
        sheet_id = _sheet_id(spreadsheet_id)
        if not actor.td:
            raise StoreError("only a tournament director can link a spreadsheet", "not-td")
        now = self.clock()
        c = schema.sheet_link_codes

        async def work(conn: AsyncConnection) -> LinkCode:
            info = await queries.find_tournament(conn, guild, tournament)
            await conn.execute(  # codes of this server that expired unused are no use
                delete(c).where(
                    c.c.guild_id == guild, c.c.confirmed_at.is_(None), c.c.expires_at <= now
                )
            )
            row = (
                await conn.execute(
                    select(c.c.code, c.c.expires_at).where(
                        c.c.guild_id == guild,
                        c.c.tournament_id == info.id,
                        c.c.spreadsheet_id == sheet_id,
                        c.c.confirmed_at.is_(None),
                    )
                )
            ).first()
            if row is not None:
                return LinkCode(row.code, info.name, sheet_id, row.expires_at)
            code, expires = new_link_code(), now + CODE_LIFETIME
            try:
                await conn.execute(
                    insert(c).values(
                        code=code,
                        guild_id=guild,
                        tournament_id=info.id,
                        spreadsheet_id=sheet_id,
                        requested_by=actor.user,
                        requested_at=now,
                        expires_at=expires,
                    )
                )
            except IntegrityError as error:  # the same code drawn twice: draw again
                raise Conflict from error
            return LinkCode(code, info.name, sheet_id, expires)

        return await self._write(work)

    async def naming(
        self, guild: str, tournament: str, spreadsheet_id: str, named: Collection[str]
    ) -> Naming:
        """What the sheet's Discord servers row (``named``, as just read) says of this
        server linking ``tournament`` to it (nothing is changed)."""
        sheet_id, now = _sheet_id(spreadsheet_id), self.clock()

        async def work(conn: AsyncConnection) -> Naming:
            info = await queries.find_tournament(conn, guild, tournament)
            naming, _ = await _naming(conn, guild, info.id, sheet_id, named, now)
            return naming

        return await self._read(work)

    async def link_sheet(
        self,
        guild: str,
        tournament: str,
        actor: Actor,
        *,
        spreadsheet_id: str,
        url: str = "",
        named: Collection[str],
    ) -> TournamentInfo:
        """Link a tournament to a spreadsheet (TD): final results are queued for it.

        Only when the sheet's Discord servers row (``named``, as just read from the sheet)
        names this server: by its id, by a code it used before, or by the code given for
        this tournament, which this uses up (see the module); else a :class:`StoreError`
        (``sheet-not-named``)."""
        sheet_id = _sheet_id(spreadsheet_id)
        if not actor.td:
            raise StoreError("only a tournament director can link a spreadsheet", "not-td")
        now = self.clock()
        t, c = schema.tournaments, schema.sheet_link_codes

        async def work(conn: AsyncConnection) -> TournamentInfo:
            info = await queries.find_tournament(conn, guild, tournament, lock=True)
            naming, code = await _naming(conn, guild, info.id, sheet_id, named, now)
            if naming is Naming.CODE:
                await conn.execute(update(c).where(c.c.code == code).values(confirmed_at=now))
            elif naming is not Naming.NAMED:
                raise StoreError(sheet_not_named(guild), "sheet-not-named")
            row = (
                await conn.execute(
                    update(t)
                    .where(t.c.guild_id == guild, t.c.id == info.id)
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

    async def sheet_use(self, guild: str, spreadsheet_id: str, named: Collection[str]) -> SheetUse:
        """Whether this server may use the spreadsheet now, given its Discord servers row
        (``named``, as just read from the sheet): see :class:`SheetUse`."""
        now = self.clock()
        c, o = schema.sheet_link_codes, schema.sheet_owners

        async def work(conn: AsyncConnection) -> SheetUse:
            if guild in named:
                return SheetUse(True)
            used = await conn.scalar(
                select(c.c.code)
                .where(
                    c.c.guild_id == guild,
                    c.c.spreadsheet_id == spreadsheet_id,
                    c.c.code.in_(list(named)),
                    c.c.confirmed_at.is_not(None),
                )
                .limit(1)
            )
            if used is not None:
                return SheetUse(True)
            if named:  # the row names servers, this one not among them
                return SheetUse(False)
            until = await conn.scalar(
                select(o.c.grace_until).where(
                    o.c.spreadsheet_id == spreadsheet_id, o.c.guild_id == guild
                )
            )
            return SheetUse(False, until if until is not None and until > now else None)

        return await self._read(work)

    async def withdraw_sheet(self, guild: str, spreadsheet_id: str) -> list[TournamentInfo]:
        """Unlink every tournament of this server linked to the spreadsheet, which no longer
        names it (:meth:`sheet_use`); the tournaments as they were linked (none when another
        process unlinked them first). Results waiting stay queued, as with
        :meth:`unlink_sheet`."""
        t = schema.tournaments

        async def work(conn: AsyncConnection) -> list[TournamentInfo]:
            rows = (
                await conn.execute(
                    select(t)
                    .where(t.c.guild_id == guild, t.c.sheet_id == spreadsheet_id)
                    .with_for_update()
                )
            ).all()
            if rows:
                await conn.execute(
                    update(t)
                    .where(t.c.guild_id == guild, t.c.id.in_([r.id for r in rows]))
                    .values(
                        sheet_id=None, sheet_url=None, sheet_linked_by=None, sheet_linked_at=None
                    )
                )
            return [queries.tournament_info(r) for r in rows]

        return await self._write(work)

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
        self,
        items: Sequence[OutboxItem | int],
        worker: str,
        *,
        retry_in: timedelta,
        why: str | None = None,
    ) -> int:
        """Give claimed items back untried (their spreadsheet is busy, or the budget spent:
        ``why``, kept as their last error), due after ``retry_in``."""
        ids = [i if isinstance(i, int) else i.id for i in items]
        retry_at = self.clock() + retry_in
        return await self._write(lambda conn: outbox.postpone(conn, ids, worker, retry_at, why))

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


def _sheet_id(spreadsheet_id: str) -> str:
    sheet_id = spreadsheet_id.strip()[:128]
    if not sheet_id:
        raise StoreError("give the spreadsheet's id or link", "bad-sheet")
    return sheet_id


async def _naming(
    conn: AsyncConnection,
    guild: str,
    tournament: int,
    spreadsheet_id: str,
    named: Collection[str],
    now: datetime,
) -> tuple[Naming, str | None]:
    """What ``named`` (a sheet's Discord servers row) says of ``guild`` linking
    ``tournament`` to the sheet, and the code to use up (for :attr:`Naming.CODE`)."""
    if guild in named:
        return Naming.NAMED, None
    c = schema.sheet_link_codes
    rows = (
        await conn.execute(
            select(c.c.code, c.c.tournament_id, c.c.expires_at, c.c.confirmed_at).where(
                c.c.guild_id == guild,
                c.c.spreadsheet_id == spreadsheet_id,
                c.c.code.in_(list(named)),
            )
        )
    ).all()
    if any(r.confirmed_at is not None for r in rows):
        return Naming.NAMED, None
    mine = [r for r in rows if r.tournament_id == tournament]
    valid = [r for r in mine if r.expires_at > now]
    if valid:
        return Naming.CODE, valid[0].code
    return (Naming.EXPIRED if mine else Naming.NONE), None
