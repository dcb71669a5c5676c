"""Linking tournaments to Google Sheets: ``/tournament link-sheet|unlink-sheet`` and
``/player link`` (tournament directors), and the line a result's answer gets about the sheet.

The commands belong to the ``/tournament`` and ``/player`` groups, so their slash-command
declarations live in :mod:`bot.cogs.admin` and :mod:`bot.cogs.players`, which hand over to
the functions here; the link itself is :mod:`bot.sheetlink`'s.
"""

from __future__ import annotations

import discord

from bot import render
from bot.checks import guild_of, td_actor
from bot.errors import UserError
from bot.lookup import RUNNING_FIRST, bot_store, pick_tournament
from bot.respond import Interaction, defer, reply
from bot.sheetlink import NOT_SET_UP, SheetLinks, links_of
from bot.store import Actor, Outcome, PlayerInfo, StoreError, TournamentInfo
from core.limits import shorten
from core.players import find


def _links(interaction: Interaction) -> SheetLinks:
    links = links_of(interaction)
    if links is None:
        raise UserError(NOT_SET_UP, markup=True)
    return links


async def link_sheet(interaction: Interaction, url: str, tournament: str | None) -> None:
    """``/tournament link-sheet``: keep a tournament in a Google Sheet (TD)."""
    await defer(interaction, public=True)
    store, guild = bot_store(interaction), guild_of(interaction)
    who = await td_actor(store, interaction, "link a Google Sheet")
    found = await pick_tournament(store, guild, tournament, RUNNING_FIRST)
    links = _links(interaction)
    if not links.available:
        raise UserError(links.why_not or NOT_SET_UP, markup=True)
    lines = await links.link(guild, found, url, who)
    await reply(interaction, render.joined(lines))


async def unlink_sheet(interaction: Interaction, tournament: str | None) -> None:
    """``/tournament unlink-sheet``: keep the tournament in Discord only again (TD)."""
    await defer(interaction, public=True)
    store, guild = bot_store(interaction), guild_of(interaction)
    who = await td_actor(store, interaction, "unlink a Google Sheet")
    found = await pick_tournament(store, guild, tournament, RUNNING_FIRST)
    lines = await _links(interaction).unlink(guild, found, who)
    await reply(interaction, render.joined(lines))


async def link_player(
    interaction: Interaction, player: str, member: discord.Member | None, tournament: str | None
) -> None:
    """``/player link``: say which Discord member a player is, or unlink with no member (TD).

    On a linked tournament, a player the sheet lists but Discord does not know yet is
    registered with the member, and the sheet's Discord players tab is brought up to date.
    """
    await defer(interaction, public=True)
    store, guild = bot_store(interaction), guild_of(interaction)
    who = await td_actor(store, interaction, "link players to members")
    found = await pick_tournament(store, guild, tournament, RUNNING_FIRST)
    member_id = str(member.id) if member is not None else None
    links = links_of(interaction)
    try:
        linked = await store.link_player(guild, found.name, player, member_id, who)
    except StoreError as error:
        if (
            error.code != "unknown-player"
            or found.sheet is None
            or links is None
            or member_id is None
        ):
            raise
        linked = await _add_from_sheet(links, guild, found, player, member_id, who)
    if member is not None:
        text = (
            f"🔗 #{linked.number} {render.plain(linked.name)} is {member.mention} in "
            f"**{render.plain(found.name)}**."
        )
    else:
        text = (
            f"🔗 #{linked.number} {render.plain(linked.name)} is no longer linked to a "
            "Discord member."
        )
    lines = [text]
    if links is not None and found.sheet is not None and links.available:
        await links.players_changed(guild, found)
        line = await links.sheet_name_of(guild, found, linked)
        if line:
            lines.append(line)
    await reply(interaction, render.joined(lines), mention=[])


async def _add_from_sheet(
    links: SheetLinks, guild: str, info: TournamentInfo, player: str, member_id: str, who: Actor
) -> PlayerInfo:
    """Register the sheet's player ``player`` (not known in Discord yet) as ``member_id``."""
    view = await links.view(guild, info)
    rows = view.input.players
    found = find(rows.values(), player, number=lambda row: row.id, name=lambda row: row.name)
    row = found.match
    if row is None:
        raise UserError(
            f"{player!r} could be several players on the sheet: give the name in full"
            if found.ambiguous
            else f"{info.name} has no player called {player!r}, here or on its sheet"
        )
    return await links.store.add_player(
        guild, info.name, row.name, actor=who, rating=row.rating, discord_id=member_id
    )


async def landed_line(
    interaction: Interaction, guild: str, info: TournamentInfo, outcome: Outcome
) -> str:
    """A line on what became of a result in the linked sheet ("" when there is none)."""
    links = links_of(interaction)
    if links is None or not outcome.outbox or outcome.event is None:
        return ""
    return await links.landed(guild, info, outcome.event.seq)


def with_line(text: str, line: str) -> str:
    """``text`` and, when there is one, ``line`` below it, within Discord's 2,000."""
    return shorten(f"{text}\n{line}" if line else text, render.MESSAGE_MAX)
