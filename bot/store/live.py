"""Each tournament's fold, kept in memory and brought up to date from the database at the cost
of what changed (:class:`Folds`).

Reading a tournament reads its row and the seq of its log's last event (two index look-ups);
when the fold kept for it is that far already and its players are the same
(:attr:`~bot.store.model.TournamentInfo.players_version`), nothing else is read. Otherwise the
events after the kept ones are read and added (:class:`~bot.store.fold.LiveFold`), the players
read again when they changed, and only a tournament with no fold kept is read whole: its log
streamed from the database a chunk at a time and folded in its server's turn among the heavy
jobs (:mod:`bot.store.offload`), never on the event loop. Several processes may write one
database: the log is append-only and numbered, so the events of another process are simply
the next ones.

A write (:meth:`Folds.writing`) holds its tournament's lock in this process from before its
transaction until after its commit, and adds its own events to the kept fold as it appends
them (its round settled in a worker thread); if the transaction does not commit, the fold is
let go (read again when next needed). Readers never wait for a write unless the fold they
need is being changed by it.

Folds are kept in the store's byte-bounded cache (:class:`~bot.store.cache.Kept`), each with
an estimate of its size (:func:`fold_bytes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import collector, queries, schema
from bot.store.cache import Kept
from bot.store.fold import PAIRING_KINDS, Folded, LiveFold, part_of
from bot.store.model import Event, EventKind, PlayerInfo, TournamentInfo
from bot.store.offload import Jobs
from core.log import Part
from core.names import name_key

#: Rows of a log read from the database at a time while a fold is built.
CHUNK = 5_000
#: Estimated bytes of a fold (:func:`fold_bytes`): an event folded (its game's replay and
#: settled state), a player, and a round entry of the built tournament. Measured with
#: tracemalloc on a 2,000-player, 40-round Swiss (``tests/bench/store.py --sizes``).
EVENT_BYTES = 600
PLAYER_BYTES = 700
ENTRY_BYTES = 110


def fold_bytes(events: int, players: int, rounds: int) -> int:
    """About how many bytes a fold of ``events`` events, ``players`` players and ``rounds``
    rounds holds, its tournament built."""
    return events * EVENT_BYTES + players * PLAYER_BYTES + players * rounds * ENTRY_BYTES


@dataclass(slots=True, eq=False)
class Live:
    """A tournament's fold kept: the fold, the players it is read with, the state last
    handed out (its tournament built once), and whether a write not yet committed changed
    it."""

    guild: str
    tournament: int
    fold: LiveFold
    players: tuple[PlayerInfo, ...]
    players_version: int
    current: Folded | None = None
    tentative: bool = False

    @property
    def size(self) -> int:
        return fold_bytes(self.fold.size, len(self.players), max(self.fold.settled, default=0))

    def folded(self, info: TournamentInfo) -> Folded:
        """The state for ``info``: the last one handed out when nothing changed since."""
        found = self.current
        if (
            found is None
            or found.last_seq != self.fold.last_seq
            or found.players is not self.players
            or found.info != info
        ):
            if found is not None:
                collector.let_go(found)  # its tournament: freed off the event loop
            found = self.current = self.fold.folded(self.players, info)
        return found


class WriteInProgress(Exception):
    """A write of the tournament is changing its fold: wait (:meth:`wait`, holding no
    connection) and read again."""

    def __init__(self, lock: asyncio.Lock) -> None:
        super().__init__("a write of the tournament is in progress")
        self._lock = lock

    async def wait(self) -> None:
        async with self._lock:
            pass


@dataclass(slots=True)
class _Writing:
    """A write in progress: whether it changed the kept fold."""

    changed: set[tuple[str, int]] = field(default_factory=set)


#: The writes the running task is inside (:meth:`Folds.writing`), by folds and tournament.
_WRITING: contextvars.ContextVar[dict[tuple[int, str, str], _Writing] | None]
_WRITING = contextvars.ContextVar("harkness_writing", default=None)


class Folds:
    """The folds of a store's tournaments, kept in ``kept`` and built or advanced by
    ``jobs``."""

    def __init__(self, kept: Kept[Any, Any], jobs: Jobs) -> None:
        self.kept = kept
        self.jobs = jobs
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}
        self._building: dict[tuple[str, int], asyncio.Future[Live]] = {}
        #: Events folded while building folds from whole logs (tests read it: a write
        #: never reads the whole log).
        self.events_read = 0

    def _lock(self, guild: str, name: str) -> asyncio.Lock:
        key = (guild, name_key(name))
        found = self._locks.get(key)
        if found is None:
            found = self._locks[key] = asyncio.Lock()
        return found

    def _held(self, guild: str, name: str) -> _Writing | None:
        """The write of tournament ``name`` this task is inside, if any."""
        return (_WRITING.get() or {}).get((id(self), guild, name_key(name)))

    def _get(self, guild: str, tournament: int) -> Live | None:
        found = self.kept.get(("fold", guild, tournament))
        return found if isinstance(found, Live) else None

    def _keep(self, live: Live) -> None:
        self.kept.put(("fold", live.guild, live.tournament), live.guild, live, live.size)

    def fold_of(self, guild: str, tournament: int) -> LiveFold | None:
        """The fold kept for a tournament (by id), if any."""
        live = self._get(guild, tournament)
        return live.fold if live is not None else None

    def forget(self, guild: str, tournament: int) -> None:
        """Let the fold of a tournament go (it is read again when next needed)."""
        self.kept.forget(("fold", guild, tournament))

    @contextlib.asynccontextmanager
    async def writing(self, guild: str, name: str) -> AsyncIterator[None]:
        """Around a write transaction of tournament ``name``, commit included: writes of one
        tournament in this process take turns; a fold the write changed is kept if it
        commits, let go if not."""
        key = (guild, name_key(name))
        async with self._lock(guild, name):
            writing = _Writing()
            mine = _WRITING.set({**(_WRITING.get() or {}), (id(self), *key): writing})
            try:
                yield
            except BaseException:
                for g, t in writing.changed:
                    self.forget(g, t)
                raise
            finally:
                _WRITING.reset(mine)
            for g, t in writing.changed:
                live = self._get(g, t)
                if live is not None:
                    live.tentative = False

    async def prepare(
        self, conn: AsyncConnection, guild: str, name: str, *, whole: bool = False
    ) -> None:
        """Build or advance the fold of ``name`` (and its tournament, with ``whole``) in a
        read transaction, before a write: the write then finds it ready."""
        await self.loaded(conn, guild, name, whole=whole)

    async def players(self, conn: AsyncConnection, guild: str, name: str) -> tuple[PlayerInfo, ...]:
        """The players of tournament ``name``: those of its kept fold when they are current,
        else read (made records off the event loop), without folding anything."""
        info = await queries.find_tournament(conn, guild, name)
        live = self._get(guild, info.id)
        if live is not None and live.players_version == info.players_version:
            return live.players
        return await self._players(conn, info, writing=False)

    async def loaded(
        self,
        conn: AsyncConnection,
        guild: str,
        name: str,
        *,
        lock: bool = False,
        whole: bool = False,
    ) -> queries.Loaded:
        """Tournament ``name`` of ``guild`` with its players and the fold of its log, up
        to date with what ``conn`` sees (``lock``: its row locked, for a write, which must
        be inside :meth:`writing`); ``whole`` builds its core tournament too (off the event
        loop). A reader that would wait for a write of the tournament to end is told so
        (:class:`WriteInProgress`): it lets its connection go, waits, and reads again."""
        info = await queries.find_tournament(conn, guild, name, lock=lock)
        last = await queries.last_seq(conn, guild, info.id)
        held = self._held(guild, name)
        live = self._get(guild, info.id)
        current = (
            live is not None
            and not live.tentative
            and live.fold.last_seq >= last
            and live.players_version == info.players_version
        )
        if not current:
            if held is not None:
                live = await self._update(conn, info, last, live, writing=True)
            else:
                turn = self._lock(guild, name)
                if turn.locked():  # never wait holding a connection: the writer needs one
                    raise WriteInProgress(turn)
                async with turn:
                    live = await self._update(conn, info, last, self._get(guild, info.id))
        assert live is not None
        folded = live.folded(info)
        if whole and "tournament" not in folded._built:
            await self.jobs.run(
                guild,
                folded.complete,
                size=round_entries(live.players, folded.rounds),
                what="reading the tournament",
                urgent=held is not None,
            )
        advance = None
        if held is not None:

            async def advance(loaded: queries.Loaded, event: Event) -> queries.Loaded:
                return await self._advance(conn, loaded, event)

        return queries.Loaded(info, live.players, folded, tuple(live.fold.pairing_events), advance)

    async def _update(
        self,
        conn: AsyncConnection,
        info: TournamentInfo,
        last: int,
        live: Live | None,
        *,
        writing: bool = False,
    ) -> Live:
        """The fold of ``info`` brought up to ``last`` (built if there is none, or if a
        write that did not commit changed it)."""
        if live is not None and live.tentative:
            self.forget(info.guild, info.id)
            live = None
        if live is None:
            live = await self._built(conn, info, writing=writing)
        if live.players_version != info.players_version:
            live.players = await self._players(conn, info, writing=writing)
            live.players_version = info.players_version
        if live.fold.last_seq < last:
            later = await queries.events_where(
                conn, info.guild, info.id, schema.events.c.seq > live.fold.last_seq
            )
            await self._add(conn, info, live, later, writing=writing)
        self._keep(live)
        return live

    async def _built(self, conn: AsyncConnection, info: TournamentInfo, *, writing: bool) -> Live:
        """The fold of a tournament read whole (once, whoever asks meanwhile)."""
        key = (info.guild, info.id)
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Live] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            live = await self._read_whole(conn, info, writing=writing)
            future.set_result(live)
            return live
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: whoever waits gets it
            raise
        finally:
            del self._building[key]

    async def _read_whole(
        self, conn: AsyncConnection, info: TournamentInfo, *, writing: bool
    ) -> Live:
        guild, e = info.guild, schema.events
        players = await self._players(conn, info, writing=writing)
        reverts = await queries.events_where(
            conn, guild, info.id, e.c.kind == EventKind.REVERT.value
        )
        pairing = await queries.events_where(
            conn, guild, info.id, e.c.kind.in_([k.value for k in PAIRING_KINDS])
        )
        fold = LiveFold.begin(reverts, pairing)
        size = round_entries(players, info.rounds)
        async for rows in queries.fold_rows(conn, guild, info.id, chunk=CHUNK):
            await self.jobs.run(
                guild,
                functools.partial(_feed, fold, rows),
                size=size,
                what=f"reading the results of {info.name}",
                urgent=writing,
            )
            self.events_read += len(rows)
        await self.jobs.run(
            guild, fold.finish, size=size, what=f"reading {info.name}", urgent=writing
        )
        return Live(guild, info.id, fold, players, info.players_version)

    async def _add(
        self,
        conn: AsyncConnection,
        info: TournamentInfo,
        live: Live,
        events: Sequence[Event],
        *,
        writing: bool,
    ) -> None:
        """Add the log's next events to the kept fold (an undo's rounds read again), and
        settle the rounds they changed, in a worker thread."""
        e = schema.events
        steps: list[tuple[Event, dict[Part, list[Sequence[Any]]]]] = []

        async def add_steps() -> None:
            await self.jobs.run(
                info.guild,
                functools.partial(_add_all, live.fold, list(steps)),
                size=0,
                what="adding the results",
                urgent=writing,
            )
            steps.clear()

        for event in events:
            parts = {}
            if event.kind is EventKind.REVERT:
                # Undos of undos: whether a revert restores depends on those before it, so
                # they are in the fold first.
                if steps:
                    await add_steps()
                changed = live.fold.changes(event)
                targets = await queries.events_where(
                    conn, info.guild, info.id, e.c.seq.in_(changed)
                )
                for part in {part_of(t) for t in targets}:
                    parts[part] = await queries.part_rows(conn, info.guild, info.id, part)
            steps.append((event, parts))
        await add_steps()

    async def _players(
        self, conn: AsyncConnection, info: TournamentInfo, *, writing: bool
    ) -> tuple[PlayerInfo, ...]:
        """The tournament's players, read, and made records off the event loop."""
        rows = await queries.player_rows(conn, info.guild, info.id)
        return await self.jobs.run(
            info.guild,
            lambda: tuple(queries.player_info(row) for row in rows),
            size=0,
            what="reading the players",
            urgent=writing,
        )

    async def _advance(
        self, conn: AsyncConnection, loaded: queries.Loaded, event: Event
    ) -> queries.Loaded:
        """A write's own event, just appended, added to the kept fold."""
        info = loaded.info
        writing = self._held(info.guild, info.name)
        live = self._get(info.guild, info.id)
        assert writing is not None and live is not None, "a write outside Folds.writing"
        assert live.fold.last_seq == loaded.folded.last_seq, "the fold moved under a write"
        writing.changed.add((info.guild, info.id))
        live.tentative = True
        await self._add(conn, info, live, [event], writing=True)
        self._keep(live)
        return replace(
            loaded, folded=live.folded(info), pairing_events=tuple(live.fold.pairing_events)
        )


def _feed(fold: LiveFold, rows: Sequence[Sequence[Any]]) -> None:
    fold.feed(queries.fold_event(row) for row in rows)


def _add_all(
    fold: LiveFold, steps: Sequence[tuple[Event, Mapping[Part, Sequence[Sequence[Any]]]]]
) -> None:
    """Add events to a fold (each undo with the rows of the parts it changes), then settle
    the rounds they changed: a worker thread's job."""
    for event, parts in steps:
        fold.add(
            event,
            {part: [queries.fold_event(row) for row in rows] for part, rows in parts.items()},
        )
    fold.settle()


def round_entries(players: Sequence[PlayerInfo], rounds: int) -> int:
    """A section's size for :meth:`bot.store.offload.Jobs.run`: its round entries."""
    return len(players) * max(rounds, 1)
