"""Finding players by what a member types, and registering them.

A player is named by starting number (``12`` or ``"#12"``), by name (case and spacing
ignored, or a unique start or part of it: :func:`core.players.find`), by a Discord mention
(``"<@80351110224678912>"``), or by :class:`DiscordUser` (a member's id, as the bot has it).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema
from bot.store.errors import StoreError
from bot.store.model import Actor, PlayerInfo, TournamentInfo, TournamentStatus
from bot.store.queries import bump_players, clean_name, next_number, player_info
from core.limits import quote, shorten
from core.names import mentioned_id, name_key
from core.players import Found, Roster, close_to
from sheets.database.transactions import Conflict

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """A Discord member, by user id: the player linked to them."""

    id: str


PlayerRef = int | str | DiscordUser


def resolve(players: Sequence[PlayerInfo], ref: PlayerRef, tournament: str) -> PlayerInfo:
    """The player ``ref`` names, or a :class:`StoreError` saying why there is none.

    >>> roster = [PlayerInfo(7, 1, "Ann Example", discord_id="42"), PlayerInfo(8, 2, "Bob")]
    >>> [resolve(roster, r, "Club").name for r in (2, "#1", "ann example", "<@42>", "ex")]
    ['Bob', 'Ann Example', 'Ann Example', 'Ann Example', 'Ann Example']
    """
    if isinstance(ref, DiscordUser):
        found = [p for p in players if p.discord_id == ref.id]
        if not found:
            raise StoreError(f"<@{ref.id}> is not registered in {tournament}", "unknown-player")
        return found[0]
    if isinstance(ref, int):
        ref = f"#{ref}"
    text = ref.strip()
    mentioned = mentioned_id(text)
    if mentioned is not None:
        return resolve(players, DiscordUser(mentioned), tournament)
    named = _roster(players).find(text)
    if named.match is not None:
        return named.match
    raise player_not_found(
        tournament, text, named, players, number=lambda p: p.number, name=lambda p: p.name
    )


#: Rosters of the players lists looked in lately (a tournament's players, kept with its
#: fold, are the same list from one command to the next: indexed once, not per lookup).
_ROSTERS: OrderedDict[int, tuple[Sequence[PlayerInfo], Roster[PlayerInfo]]] = OrderedDict()
ROSTERS_KEPT = 8


def _roster(players: Sequence[PlayerInfo]) -> Roster[PlayerInfo]:
    found = _ROSTERS.get(id(players))
    if found is not None and found[0] is players:
        _ROSTERS.move_to_end(id(players))
        return found[1]
    roster = Roster(players, number=lambda p: p.number, name=lambda p: p.name)
    _ROSTERS[id(players)] = (players, roster)
    while len(_ROSTERS) > ROSTERS_KEPT:
        _ROSTERS.popitem(last=False)
    return roster


def player_not_found(
    where: str,
    typed: str,
    found: Found[T],
    candidates: Sequence[T],
    *,
    number: Callable[[T], int],
    name: Callable[[T], str],
) -> StoreError:
    """Why ``typed`` names no one player of ``where`` (a tournament, or its Google Sheet),
    in the bot's one wording for every tournament: no such starting number, which of
    several (by number), or no such name, with the names :func:`core.players.close_to` it
    when there are any. ``found`` is :func:`core.players.find` of ``typed``.

    >>> from core.players import find
    >>> roster = [(1, "Ann Lee"), (2, "Dana Ng"), (3, "Ann Ito")]
    >>> def why(typed: str) -> str:
    ...     how = {"number": lambda p: p[0], "name": lambda p: p[1]}
    ...     return str(player_not_found("Club", typed, find(roster, typed, **how), roster, **how))
    >>> why("#4")
    'Club has no player #4'
    >>> why("ann")
    "'ann' could be #1 Ann Lee, #3 Ann Ito: give the starting number (e.g. #1)"
    >>> why("Dane Ng")
    "Club has no player called 'Dane Ng'; did you mean Dana Ng?"
    >>> why("Zed")
    "Club has no player called 'Zed'"
    """
    if found.how == "number":
        return StoreError(f"{where} has no player #{shorten(found.digits)}", "unknown-player")
    if found.ambiguous:
        names = ", ".join(f"#{number(p)} {name(p)}" for p in found.matches[:5])
        return StoreError(
            f"{quote(typed)} could be {names}: give the starting number "
            f"(e.g. #{number(found.matches[0])})",
            "ambiguous-player",
        )
    close = ", ".join(name(p) for p in close_to(typed, candidates, name=name))
    hint = f"; did you mean {close}?" if close else ""
    return StoreError(f"{where} has no player called {quote(typed)}{hint}", "unknown-player")


def matching(players: Sequence[PlayerInfo], typed: str, limit: int = 25) -> list[PlayerInfo]:
    """Players whose name or number contains what was typed (for autocomplete)."""
    key = name_key(typed).lstrip("#")
    hits = [p for p in players if key in name_key(p.name) or key == str(p.number)]
    hits.sort(key=lambda p: (not name_key(p.name).startswith(key), p.number))
    return hits[:limit]


def name_taken(where: str, name: str, number: int) -> str:
    """Why a member's ``/join`` under a name ``where`` already has (player ``number``)
    registers nobody: a name is not an identity, a TD says who a player is."""
    return (
        f"{where} already has a player called {name} (#{number}). If that is you, ask a TD "
        f"to link you (/player link player:#{number}); otherwise join under another name "
        "(the name option)"
    )


async def add_player(
    conn: AsyncConnection,
    info: TournamentInfo,
    players: Sequence[PlayerInfo],
    actor: Actor,
    now: datetime,
    name: str,
    *,
    rating: int | None = None,
    discord_id: str | None = None,
    uscf_id: str | None = None,
    fide_id: str | None = None,
    late_entry_round: int | None = None,
    title: str = "",
    sex: str = "",
    federation: str = "",
    birth_date: str = "",
    own_name: bool = False,
) -> PlayerInfo:
    """Register a player with the next starting number (the tournament row is locked).

    ``own_name``: a member registers themselves, so a name the tournament already has is
    refused (a name is not an identity; a TD says which member a player is)."""
    if info.status is TournamentStatus.FINISHED:
        raise StoreError(f"{info.name} is finished: no one can join it now", "finished")
    name = clean_name(name, "player")
    same = next((p for p in players if name_key(p.name) == name_key(name)), None)
    if own_name and same is not None and (discord_id is None or same.discord_id != discord_id):
        raise StoreError(name_taken(info.name, same.name, same.number), "name-taken")
    if rating is not None and not 0 <= rating <= 4000:
        raise StoreError(f"a rating is between 0 and 4000 (got {rating})", "bad-rating")
    for label, value, longest in (
        ("Discord id", discord_id, 32),
        ("US Chess id", uscf_id, 16),
        ("FIDE id", fide_id, 16),
    ):
        if value is not None and len(value) > longest:
            raise StoreError(f"a {label} has at most {longest} characters", "bad-id")
    if discord_id is not None:
        taken = next((p for p in players if p.discord_id == discord_id), None)
        if taken is not None:
            raise StoreError(
                f"<@{discord_id}> is already registered in {info.name} as {taken.label}",
                "already-registered",
            )
    number = await next_number(conn, info.guild, info.id)
    values = {
        "guild_id": info.guild,
        "tournament_id": info.id,
        "number": number,
        "name": name,
        "rating": rating,
        "discord_id": discord_id,
        "uscf_id": uscf_id or None,
        "fide_id": fide_id or None,
        "title": title,
        "sex": sex,
        "federation": federation,
        "birth_date": birth_date,
        "late_entry_round": late_entry_round,
        "added_by": actor.user,
        "added_at": now,
    }
    try:
        new_id = (
            await conn.execute(
                insert(schema.players).values(**values).returning(schema.players.c.id)
            )
        ).scalar_one()
    except IntegrityError as error:
        raise Conflict from error
    await bump_players(conn, info)
    return PlayerInfo(
        new_id,
        number,
        name,
        rating,
        discord_id,
        uscf_id or None,
        fide_id or None,
        title,
        sex,
        federation,
        birth_date,
        late_entry_round,
    )


async def link(
    conn: AsyncConnection,
    info: TournamentInfo,
    players: Sequence[PlayerInfo],
    player: PlayerInfo,
    discord_id: str | None,
) -> PlayerInfo:
    """Link a player to a Discord member (or unlink with None)."""
    if discord_id is not None and len(discord_id) > 32:
        raise StoreError("a Discord id has at most 32 characters", "bad-id")
    if discord_id is not None:
        taken = next((p for p in players if p.discord_id == discord_id and p.id != player.id), None)
        if taken is not None:
            raise StoreError(
                f"<@{discord_id}> is already linked to {taken.label}", "already-registered"
            )
    p = schema.players
    try:
        row = (
            await conn.execute(
                update(p)
                .where(
                    p.c.guild_id == info.guild, p.c.tournament_id == info.id, p.c.id == player.id
                )
                .values(discord_id=discord_id)
                .returning(*p.c)
            )
        ).one()
    except IntegrityError as error:
        raise Conflict from error
    await bump_players(conn, info)
    return player_info(row)
