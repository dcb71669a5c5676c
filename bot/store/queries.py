"""Reading and writing rows, always inside one guild.

Every function here takes the guild and puts it in the ``WHERE`` clause of every statement,
so a tournament, player or event of another guild is never read or written, whatever id a
caller passes. Rows become the records of :mod:`bot.store.model`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, Row, Select, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import limits, schema
from bot.store.errors import StoreError
from bot.store.fold import Folded
from bot.store.model import (
    DOUBLE_FORFEIT,
    Actor,
    Event,
    EventKind,
    PlayerInfo,
    SheetLink,
    Source,
    TournamentInfo,
    TournamentStatus,
)
from core.log import Part
from core.model import Colour, EntryKind
from core.names import NAME_MAX, name_key, name_problem, tidy
from sheets.database.transactions import Conflict

NAME_LENGTH = NAME_MAX


def clean_name(name: str, what: str) -> str:
    """A name with its spaces tidied, or a :class:`StoreError` if it breaks one of the rules
    of :func:`core.names.name_problem` (empty, too long, control characters).

    >>> clean_name("  Spring   Open ", "tournament")
    'Spring Open'
    """
    text = tidy(name)
    if not text:
        raise StoreError(f"give the {what} a name", "bad-name")
    problem = name_problem(text, f"{what} name")
    if problem is not None:
        raise StoreError(problem.message, "bad-name")
    return text


def tournament_info(row: Row[Any]) -> TournamentInfo:
    sheet = None
    if row.sheet_id is not None:
        sheet = SheetLink(
            row.sheet_id, row.sheet_url or "", row.sheet_linked_by or "", row.sheet_linked_at
        )
    records = tuple((str(code), str(value)) for code, value in json.loads(row.records))
    return TournamentInfo(
        row.id,
        row.guild_id,
        row.name,
        row.profile,
        row.tiebreaks,
        row.rounds,
        TournamentStatus(row.status),
        row.created_by,
        row.created_at,
        row.start_date,
        row.end_date,
        row.round_robin,
        records,
        sheet,
        row.options,
        row.acceleration,
        row.players_version,
    )


def player_info(row: Row[Any]) -> PlayerInfo:
    return PlayerInfo(
        row.id,
        row.number,
        row.name,
        row.rating,
        row.discord_id,
        row.uscf_id,
        row.fide_id,
        row.title,
        row.sex,
        row.federation,
        row.birth_date,
        row.late_entry_round,
    )


def event_of(row: Row[Any]) -> Event:
    return Event(
        row.seq,
        EventKind(row.kind),
        row.actor,
        row.created_at,
        row.round,
        row.player_id,
        row.opponent_id,
        _result(row.result),
        Colour(row.colour) if row.colour else None,
        row.refers_to,
        row.supersedes,
        row.actor_name,
        row.td,
        Source(row.source),
        row.note,
        row.result == DOUBLE_FORFEIT,
    )


def _result(text: str | None) -> EntryKind | None:
    """A stored result: an entry kind's value, or the double forfeit (a forfeit loss)."""
    if not text:
        return None
    return EntryKind.FORFEIT_LOSS if text == DOUBLE_FORFEIT else EntryKind(text)


async def find_tournament(
    conn: AsyncConnection, guild: str, name: str, *, lock: bool = False
) -> TournamentInfo:
    """The guild's tournament called ``name`` (case and spacing ignored).

    With ``lock``, the row is locked until the transaction ends (``SELECT … FOR UPDATE`` on
    PostgreSQL; SQLite's write transaction already holds the database), so that writers of
    one tournament take turns.
    """
    t = schema.tournaments
    query = select(t).where(t.c.guild_id == guild, t.c.name_key == name_key(name))
    if lock:
        query = query.with_for_update()
    row = (await conn.execute(query)).first()
    if row is None:
        raise StoreError(
            f"there is no tournament called {name.strip()!r} here", "unknown-tournament"
        )
    return tournament_info(row)


async def load_players(conn: AsyncConnection, guild: str, tournament: int) -> list[PlayerInfo]:
    p = schema.players
    rows = await conn.execute(
        select(p).where(p.c.guild_id == guild, p.c.tournament_id == tournament).order_by(p.c.number)
    )
    return [player_info(row) for row in rows]


async def bump_players(conn: AsyncConnection, info: TournamentInfo) -> None:
    """Note that the tournament's players changed (see :attr:`TournamentInfo.players_version`),
    in the transaction that changes them."""
    t = schema.tournaments
    await conn.execute(
        update(t)
        .where(t.c.guild_id == info.guild, t.c.id == info.id)
        .values(players_version=t.c.players_version + 1)
    )


async def load_events(conn: AsyncConnection, guild: str, tournament: int) -> list[Event]:
    """The whole log (for tests and tools: the store itself never reads it whole on a
    request, see :mod:`bot.store.live`)."""
    e = schema.events
    rows = await conn.execute(
        select(e).where(e.c.guild_id == guild, e.c.tournament_id == tournament).order_by(e.c.seq)
    )
    return [event_of(row) for row in rows]


async def last_seq(conn: AsyncConnection, guild: str, tournament: int) -> int:
    """The seq of the log's last event (0 if none), read through the log's index."""
    e = schema.events
    found = await conn.scalar(
        select(func.max(e.c.seq)).where(e.c.guild_id == guild, e.c.tournament_id == tournament)
    )
    return int(found or 0)


def _log(guild: str, tournament: int) -> Select[Any]:
    e = schema.events
    return select(e).where(e.c.guild_id == guild, e.c.tournament_id == tournament)


async def events_where(
    conn: AsyncConnection, guild: str, tournament: int, *where: ColumnElement[bool]
) -> list[Event]:
    """The tournament's events that match ``where``, oldest first."""
    rows = await conn.execute(_log(guild, tournament).where(*where).order_by(schema.events.c.seq))
    return [event_of(row) for row in rows]


async def event_at(conn: AsyncConnection, guild: str, tournament: int, seq: int) -> Event | None:
    """Event ``seq`` of the tournament's log, if there is one."""
    found = await events_where(conn, guild, tournament, schema.events.c.seq == seq)
    return found[0] if found else None


async def part_rows(
    conn: AsyncConnection, guild: str, tournament: int, part: Part
) -> list[Sequence[Any]]:
    """Every event of one part of the fold (:func:`bot.store.fold.part_of`: a player's
    withdrawals, or everything else of a round), oldest first, as the fold reads them
    (:data:`FOLD_COLUMNS`, made events by :func:`fold_event` off the event loop)."""
    e = schema.events
    if part.withdrawal:
        where = (e.c.kind == EventKind.WITHDRAW.value, e.c.player_id == part.number)
    else:
        where = (e.c.round == part.number, e.c.kind != EventKind.WITHDRAW.value)
    query = (
        select(*FOLD_COLUMNS)
        .where(e.c.guild_id == guild, e.c.tournament_id == tournament, *where)
        .order_by(e.c.seq)
    )
    return [tuple(row) for row in await conn.execute(query)]


async def player_rows(conn: AsyncConnection, guild: str, tournament: int) -> Sequence[Row[Any]]:
    """A tournament's players as rows (:func:`player_info` of each, off the event loop for
    a large section)."""
    p = schema.players
    return (
        await conn.execute(
            select(*(c for c in p.c if c.name not in ("added_by", "added_at")))
            .where(p.c.guild_id == guild, p.c.tournament_id == tournament)
            .order_by(p.c.number)
        )
    ).all()


#: The columns the fold reads of each event (:func:`fold_event`).
FOLD_COLUMNS = (
    schema.events.c.seq,
    schema.events.c.kind,
    schema.events.c.round,
    schema.events.c.player_id,
    schema.events.c.opponent_id,
    schema.events.c.result,
    schema.events.c.colour,
    schema.events.c.refers_to,
)
_KINDS = {k.value: k for k in EventKind}
_RESULTS: dict[str | None, EntryKind | None] = {k.value: k for k in EntryKind}
_RESULTS[DOUBLE_FORFEIT] = EntryKind.FORFEIT_LOSS
_RESULTS[None] = _RESULTS[""] = None
_COLOURS: dict[str | None, Colour | None] = {c.value: c for c in Colour}
_COLOURS[None] = _COLOURS[""] = None
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)


def fold_event(row: Sequence[Any]) -> Event:
    """An event of :data:`FOLD_COLUMNS` (what the fold reads; who wrote it and when are
    left out): made in a worker thread, half a million at a time."""
    seq, kind, round, player, opponent, result, colour, refers_to = row
    return Event(
        seq,
        _KINDS[kind],
        "",
        _NEVER,
        round,
        player,
        opponent,
        _RESULTS[result],
        _COLOURS[colour],
        refers_to,
        double=result == DOUBLE_FORFEIT,
    )


async def fold_rows(
    conn: AsyncConnection, guild: str, tournament: int, *, chunk: int
) -> AsyncIterator[list[Sequence[Any]]]:
    """The log as the fold reads it (:data:`FOLD_COLUMNS`), oldest first, ``chunk`` rows at
    a time (each a short step of the event loop)."""
    e = schema.events
    query = (
        select(*FOLD_COLUMNS)
        .where(e.c.guild_id == guild, e.c.tournament_id == tournament)
        .order_by(e.c.seq)
    )
    result = await conn.stream(query.execution_options(yield_per=chunk))
    async for rows in result.partitions(chunk):
        yield [tuple(row) for row in rows]


async def last_verdict(
    conn: AsyncConnection, guild: str, tournament: int, seq: int, undone: Collection[int]
) -> EventKind | None:
    """The newest confirmation or dispute of report ``seq`` still in force, if any."""
    e = schema.events
    rows = await conn.execute(
        select(e.c.seq, e.c.kind)
        .where(
            e.c.guild_id == guild,
            e.c.tournament_id == tournament,
            e.c.refers_to == seq,
            e.c.kind.in_([EventKind.CONFIRM.value, EventKind.DISPUTE.value]),
        )
        .order_by(e.c.seq.desc())
    )
    return next((_KINDS[kind] for found, kind in rows if found not in undone), None)


async def newest_events(
    conn: AsyncConnection,
    guild: str,
    tournament: int,
    *where: ColumnElement[bool],
    batch: int = 100,
) -> AsyncGenerator[Event, None]:
    """The tournament's events that match ``where``, newest first, read ``batch`` at a
    time (as many as the caller takes)."""
    e = schema.events
    before: int | None = None
    while True:
        query = _log(guild, tournament).where(*where)
        if before is not None:
            query = query.where(e.c.seq < before)
        rows = (await conn.execute(query.order_by(e.c.seq.desc()).limit(batch))).all()
        for row in rows:
            yield event_of(row)
        if len(rows) < batch:
            return
        before = rows[-1].seq


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament with its players, the fold of its log (kept by :mod:`bot.store.live`),
    and the events of its pairings; ``then`` advances it by an event just written."""

    info: TournamentInfo
    players: tuple[PlayerInfo, ...]
    folded: Folded
    pairing_events: tuple[Event, ...] = ()
    advance: Callable[[Loaded, Event], Awaitable[Loaded]] | None = field(
        default=None, repr=False, compare=False
    )

    def player(self, player_id: int) -> PlayerInfo:
        return next(p for p in self.players if p.id == player_id)

    async def then(self, event: Event) -> Loaded:
        """The tournament with ``event`` (just appended in this transaction) folded in."""
        assert self.advance is not None, "a tournament loaded for reading"
        return await self.advance(self, event)


async def guild_tournaments(conn: AsyncConnection, guild: str) -> int:
    """How many tournaments a server has."""
    t = schema.tournaments
    return int(await conn.scalar(select(func.count()).where(t.c.guild_id == guild)) or 0)


async def guild_events(conn: AsyncConnection, guild: str) -> int:
    """How many events a server keeps in all its tournaments' logs (its index counted)."""
    e = schema.events
    return int(await conn.scalar(select(func.count()).where(e.c.guild_id == guild)) or 0)


async def append_event(
    conn: AsyncConnection,
    loaded: Loaded,
    actor: Actor,
    now: datetime,
    kind: EventKind,
    **fields: Any,
) -> Event:
    """Add the tournament's next event (seq = last + 1).

    The seq is unique per tournament: a writer that read a stale log collides with the one
    that wrote first and raises :class:`Conflict`, and the whole transaction is run again on
    the new state.
    """
    seq = loaded.folded.last_seq + 1
    full = limits.log_full(loaded.info.name, seq)
    if full is not None:
        raise full
    result = fields.get("result")
    colour = fields.get("colour")
    values = {
        "guild_id": loaded.info.guild,
        "tournament_id": loaded.info.id,
        "seq": seq,
        "kind": kind.value,
        "round": fields.get("round"),
        "player_id": fields.get("player"),
        "opponent_id": fields.get("opponent"),
        "result": DOUBLE_FORFEIT
        if fields.get("double")
        else result.value
        if result is not None
        else None,
        "colour": colour.value if colour is not None else None,
        "refers_to": fields.get("refers_to"),
        "supersedes": fields.get("supersedes"),
        "actor": actor.user,
        "actor_name": actor.label[:NAME_LENGTH],
        "td": actor.td,
        "source": actor.source.value,
        "note": fields.get("note", ""),
        "created_at": now,
    }
    try:
        await conn.execute(insert(schema.events).values(**values))
    except IntegrityError as error:
        raise Conflict from error
    return Event(
        seq,
        kind,
        actor.user,
        now,
        values["round"],
        values["player_id"],
        values["opponent_id"],
        result,
        colour,
        values["refers_to"],
        values["supersedes"],
        values["actor_name"],
        actor.td,
        actor.source,
        values["note"],
        bool(fields.get("double")),
    )


async def next_number(conn: AsyncConnection, guild: str, tournament: int) -> int:
    """The next free starting number of a tournament."""
    p = schema.players
    highest = await conn.scalar(
        select(func.max(p.c.number)).where(p.c.guild_id == guild, p.c.tournament_id == tournament)
    )
    return int(highest or 0) + 1


def records_json(records: Sequence[tuple[str, str]]) -> str:
    return json.dumps([list(r) for r in records], ensure_ascii=False)
