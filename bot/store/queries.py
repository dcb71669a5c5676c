"""Reading and writing rows, always inside one guild.

Every function here takes the guild and puts it in the ``WHERE`` clause of every statement,
so a tournament, player or event of another guild is never read or written, whatever id a
caller passes. Rows become the records of :mod:`bot.store.model`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row, func, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema
from bot.store.errors import StoreError
from bot.store.fold import Folded, fold
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


async def load_events(conn: AsyncConnection, guild: str, tournament: int) -> list[Event]:
    e = schema.events
    rows = await conn.execute(
        select(e).where(e.c.guild_id == guild, e.c.tournament_id == tournament).order_by(e.c.seq)
    )
    return [event_of(row) for row in rows]


async def last_event(
    conn: AsyncConnection, guild: str, tournament: int
) -> tuple[int, int, datetime | None]:
    """How many events the tournament's log has, the last one's seq (0 if none) and when it
    was written: what changes with every event (and with a restore of another log), read
    through the log's index, not the log. :func:`log_version` is the same of a log read."""
    e = schema.events
    mine = (e.c.guild_id == guild, e.c.tournament_id == tournament)
    count, seq = (
        await conn.execute(select(func.count(), func.coalesce(func.max(e.c.seq), 0)).where(*mine))
    ).one()
    at = (await conn.execute(select(e.c.created_at).where(*mine, e.c.seq == seq))).scalar()
    return int(count), int(seq), at


def log_version(events: Sequence[Event]) -> tuple[int, int, datetime | None]:
    """:func:`last_event` of a log already read."""
    if not events:
        return 0, 0, None
    return len(events), events[-1].seq, events[-1].at


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament with its players, its whole log, and the fold of the log."""

    info: TournamentInfo
    players: tuple[PlayerInfo, ...]
    events: tuple[Event, ...]
    folded: Folded

    def player(self, player_id: int) -> PlayerInfo:
        return next(p for p in self.players if p.id == player_id)

    def event(self, seq: int) -> Event | None:
        if 1 <= seq <= len(self.events) and self.events[seq - 1].seq == seq:
            return self.events[seq - 1]
        return next((e for e in self.events if e.seq == seq), None)


async def load(conn: AsyncConnection, guild: str, name: str, *, lock: bool = False) -> Loaded:
    """Read a tournament and fold its log (locking it first when about to write)."""
    info = await find_tournament(conn, guild, name, lock=lock)
    players = await load_players(conn, guild, info.id)
    events = await load_events(conn, guild, info.id)
    return Loaded(info, tuple(players), tuple(events), fold(players, events, info))


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
