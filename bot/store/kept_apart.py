"""Players a TD keeps apart (team-mates, family): groups of two or more players that the
pairing never puts on one board (``/round avoid``).

A group is a row of ``kept_apart`` holding its players' ids; pairing hands the groups to
core as starting numbers (:func:`core.pairing.prepare`'s ``avoid``, which the engine gets as
TRF record 260, prohibited pairings, and core's check enforces). The groups are listed in
the order they were added, numbered from 1: that number removes one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.store import schema
from bot.store.errors import StoreError
from bot.store.model import PlayerInfo
from bot.store.players import PlayerRef
from bot.store.queries import Loaded
from bot.store.results import Change

#: The most groups one tournament keeps apart (a per-tournament limit, bot/README.md "Limits").
MAX_GROUPS = 100
#: The most players in one group.
MAX_PLAYERS = 20


@dataclass(frozen=True, slots=True)
class KeptApart:
    """A group of players kept apart: its number in the list (from 1) and its players."""

    number: int
    players: tuple[PlayerInfo, ...]
    id: int

    @property
    def label(self) -> str:
        return " – ".join(p.label for p in self.players)


async def load(conn: AsyncConnection, loaded: Loaded) -> list[KeptApart]:
    """The tournament's groups, in the order they were added (players no longer in the
    tournament left out, and a group left with fewer than two with them)."""
    k = schema.kept_apart
    rows = await conn.execute(
        select(k.c.id, k.c.players)
        .where(k.c.guild_id == loaded.info.guild, k.c.tournament_id == loaded.info.id)
        .order_by(k.c.id)
    )
    by_id = {p.id: p for p in loaded.players}
    groups: list[KeptApart] = []
    for row in rows:
        players = tuple(by_id[i] for i in json.loads(row.players) if i in by_id)
        if len(players) >= 2:
            groups.append(KeptApart(len(groups) + 1, players, int(row.id)))
    return groups


def numbers(groups: Sequence[KeptApart]) -> tuple[tuple[int, ...], ...]:
    """The groups as starting numbers, for core's pairing."""
    return tuple(tuple(p.number for p in group.players) for group in groups)


async def add(change: Change, refs: Sequence[PlayerRef]) -> KeptApart:
    """A TD keeps the players ``refs`` apart from one another."""
    change.require_td("keep players apart")
    players = tuple(dict.fromkeys(change.player(ref) for ref in refs))
    if len(players) < 2:
        raise StoreError("name two or more different players to keep apart", "bad-avoid")
    if len(players) > MAX_PLAYERS:
        raise StoreError(f"a group kept apart has at most {MAX_PLAYERS} players", "bad-avoid")
    groups = await load(change.conn, change.loaded)
    if len(groups) >= MAX_GROUPS:
        raise StoreError(
            f"{change.name} already keeps {MAX_GROUPS} groups apart, the most it may: "
            "remove one first (/round avoid remove)",
            "limit",
        )
    wanted = {p.id for p in players}
    for group in groups:
        if {p.id for p in group.players} == wanted:
            raise StoreError(
                f"{group.label} are kept apart already (group {group.number})", "exists"
            )
    info = change.loaded.info
    await change.conn.execute(
        insert(schema.kept_apart).values(
            guild_id=info.guild,
            tournament_id=info.id,
            players=json.dumps(sorted(wanted)),
            added_by=change.actor.user,
            added_at=change.now,
        )
    )
    return KeptApart(len(groups) + 1, players, 0)


async def remove(change: Change, number: int) -> KeptApart:
    """A TD stops keeping group ``number`` (of the list) apart."""
    change.require_td("keep players apart")
    groups = await load(change.conn, change.loaded)
    found = next((g for g in groups if g.number == number), None)
    if found is None:
        listed = f"groups 1–{len(groups)}" if groups else "no group"
        raise StoreError(
            f"{change.name} has no group {number} kept apart (it has {listed}: /round avoid list)",
            "no-such-group",
        )
    k = schema.kept_apart
    await change.conn.execute(
        delete(k).where(k.c.guild_id == change.loaded.info.guild, k.c.id == found.id)
    )
    return found
