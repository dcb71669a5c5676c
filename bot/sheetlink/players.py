"""Who is who between Discord and a linked sheet: ``/join`` on a linked tournament, the
sheet's starting number of a member, ``/player link`` of a player only the sheet lists, and
the sheet's ``Discord players`` tab, kept saying which member each player is."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace

import discord

from bot.errors import UserError
from bot.sheetlink.access import OverBudget, SheetAccess, SheetNotNamed
from bot.sheetlink.api import (
    Member,
    PlayerRow,
    SheetsError,
    TabTaken,
    discord_of,
    match_players,
    names_member,
    player_rows,
    players_requests,
    read_input,
    read_snapshot,
)
from bot.sheetlink.lease import SheetBusy
from bot.sheetlink.reading import SheetReader, SheetView
from bot.store import Actor, DiscordUser, PlayerInfo, PlayerRef, StoreError, TournamentInfo
from bot.store.players import name_taken, player_not_found
from core.limits import quote
from core.names import markdown_safe as md
from core.names import mentioned_id, name_key
from core.players import find

log = logging.getLogger("harkness.bot")


class PlayerLinks:
    """The registered players as the sheet knows them, and its Discord players tab. Keeps
    the Discord usernames seen (a sheet may name a member ``@name``)."""

    def __init__(self, bot: discord.Client, access: SheetAccess, reader: SheetReader) -> None:
        self.bot = bot
        self.access = access
        self.reader = reader
        self._usernames: dict[str, str | None] = {}

    async def _username(self, discord_id: str) -> str | None:
        """A member's Discord username (for ``@name`` in a Discord column), cached."""
        if discord_id not in self._usernames:
            name: str | None = None
            with contextlib.suppress(ValueError, discord.HTTPException):
                user = self.bot.get_user(int(discord_id)) or await self.bot.fetch_user(
                    int(discord_id)
                )
                name = user.name
            self._usernames[discord_id] = name
        return self._usernames[discord_id]

    async def members(
        self, registered: Sequence[PlayerInfo], players: Mapping[int, PlayerRow]
    ) -> list[Member]:
        """The registered players as :class:`~sheets.discord_tabs.Member` s. Their usernames are
        the ones seen in commands, and are looked up only when the sheet names someone by
        ``@name``."""
        by_name = any(discord_of(p).strip().startswith("@") for p in players.values())
        members = []
        for p in registered:
            name = self._usernames.get(p.discord_id) if p.discord_id else None
            if name is None and by_name and p.discord_id:
                name = await self._username(p.discord_id)
            members.append(Member(p.id, p.name, p.number, p.discord_id, name))
        return members

    async def number_of(
        self,
        guild: str,
        info: TournamentInfo,
        view: SheetView,
        player: PlayerRef,
        username: str | None = None,
    ) -> int:
        """The sheet's starting number of ``player``: a number, ``#n``, a name, a mention, or
        a member (by the sheet's Discord column, else by their registration here)."""
        standings = view.standings
        assert standings is not None
        t = standings.tournament
        if isinstance(player, str) and (mentioned := mentioned_id(player)) is not None:
            player = DiscordUser(mentioned)
        if isinstance(player, DiscordUser):
            if username:
                self._usernames[player.id] = username
            for number, row in view.input.players.items():
                if names_member(discord_of(row), player.id, username):
                    return number
            registered = [
                p
                for p in await self.access.store.players(guild, info.name)
                if p.discord_id == player.id
            ]
            if registered:
                members = await self.members(registered, view.input.players)
                found = match_players(members, view.input.players).get(registered[0].id)
                if found is not None:
                    return found
            raise UserError(
                f"you are not on the Google Sheet of {info.name}: name a player "
                "with the player option, or ask a TD to link you (/player link)"
            )
        typed = f"#{player}" if isinstance(player, int) else player
        named = find(t.players, typed, number=lambda p: p.id, name=lambda p: p.name)
        if named.match is None:
            raise player_not_found(
                f"the Google Sheet of {info.name}",
                typed,
                named,
                t.players,
                number=lambda p: p.id,
                name=lambda p: p.name,
            )
        return named.match.id

    async def join(
        self,
        guild: str,
        info: TournamentInfo,
        who: Actor,
        *,
        name: str | None,
        rating: int | None,
        username: str | None,
    ) -> tuple[PlayerInfo, str]:
        """``/join`` on a linked tournament. When the sheet's Discord column names the member
        (only the sheet's editors write it), they become that player; a name the sheet
        already has is refused (a name is not an identity: a TD links the player with
        ``/player link``); anyone else is registered as a new player. The sheet's Discord
        players tab says so. Answers the player and a line about the sheet."""
        try:
            view = await self.reader.view(guild, info)
        except UserError as error:
            try:
                player = await self.access.store.join(
                    guild, info.name, who, name=name, rating=rating
                )
            except StoreError as refused:
                if refused.code != "name-taken":
                    raise
                # The sheet has a player of this name, and only the sheet can say whether it
                # names this member: wait for it rather than refuse as if it did not.
                raise UserError(
                    f"the Google Sheet could not be read just now ({error.message}), and it "
                    "has a player of that name who may be you: try /join again in a minute"
                ) from None
            return player, f"(The Google Sheet could not be read: {error.message}.)"
        if username:
            self._usernames[who.user] = username
        registered = await self.access.store.players(guild, info.name)
        if any(p.discord_id == who.user for p in registered):
            # The store refuses a second registration, and says as whom they are registered.
            await self.access.store.join(guild, info.name, who, name=name, rating=rating)
        players = view.input.players
        wanted = name_key(name or who.label)
        by_discord = [
            n for n, p in players.items() if names_member(discord_of(p), who.user, username)
        ]
        by_name = [n for n, p in players.items() if name_key(p.name) == wanted]
        if by_discord:  # the sheet's editors say who this member is
            number = by_discord[0]
            sheet_name = players[number].name
            free = [
                p
                for p in registered
                if p.discord_id is None and name_key(p.name) == name_key(sheet_name)
            ]
            if free:  # the sheet's player is registered already (by the TD): it is them
                player = await self.access.store.link_player(
                    guild, info.name, free[0].number, who.user, replace(who, td=True)
                )
            else:
                player = await self.access.store.join(
                    guild, info.name, who, name=sheet_name, rating=rating
                )
            note = f"📗 On the Google Sheet you are #{number} {md(sheet_name)}."
        elif by_name:  # a name is not an identity: claiming a player takes a TD
            number = by_name[0]
            raise UserError(
                name_taken(f"the Google Sheet of {info.name}", players[number].name, number)
            )
        else:
            player = await self.access.store.join(guild, info.name, who, name=name, rating=rating)
            note = (
                f"⚠️ The Google Sheet has no player called {md(player.name)}: ask a TD to add "
                "you to its results tab, or to link you with /player link."
            )
        await self.players_changed(guild, info)
        return player, note

    async def players_changed(self, guild: str, info: TournamentInfo) -> None:
        """Bring the sheet's Discord players tab up to date (waiting at most the answer wait;
        the next write of a result does it otherwise), under the sheet's lease and within
        the server's share of the budget, as every read and write of the sheet."""
        if info.sheet is not None and self.access.available:
            await self.access.bounded(self._write_players(guild, info))

    async def _write_players(self, guild: str, info: TournamentInfo) -> None:
        client = self.access.sheets_client()
        assert info.sheet is not None
        sheet = info.sheet.spreadsheet_id
        try:
            async with self.access.writing(sheet):
                await self.access.spent(1, 0, guild=guild)
                snapshot = await asyncio.to_thread(read_snapshot, client, sheet)
                found = await asyncio.to_thread(read_input, snapshot)
                await self.access.check_use(
                    guild, sheet, found.settings.discord_servers, title=snapshot.title
                )
                members = await self.members(
                    await self.access.store.players(guild, info.name), found.players
                )
                matched = match_players(members, found.players)
                requests = players_requests(snapshot, player_rows(members, found.players, matched))
                if requests:
                    await self.access.spent(0, 1, guild=guild)
                    await asyncio.to_thread(
                        client.http_client.batch_update, sheet, {"requests": requests}
                    )
        except (SheetsError, TabTaken, SheetNotNamed, SheetBusy, OverBudget) as error:
            log.warning(
                "the Discord players tab of %s was not updated: %s",
                info.name,
                error,
                extra={"guild_id": guild, "spreadsheet": sheet},
            )

    async def sheet_name_of(self, guild: str, info: TournamentInfo, player: PlayerInfo) -> str:
        """How the sheet knows a registered player (``#3 Carol``), or a warning line."""
        try:
            view = await self.reader.view(guild, info)
        except UserError:
            return ""
        members = await self.members([player], view.input.players)
        number = match_players(members, view.input.players).get(player.id)
        if number is None:
            return (
                f"⚠️ {md(player.name)} is not on the Google Sheet: add them to its results tab "
                "so their games count there."
            )
        return f"📗 On the Google Sheet: #{number} {md(view.input.players[number].name)}."

    async def add_from_sheet(
        self, guild: str, info: TournamentInfo, player: str, member_id: str, td: Actor
    ) -> PlayerInfo:
        """Register the sheet's player ``player`` (not known in Discord yet) as the member
        ``member_id`` (``/player link`` by a TD)."""
        view = await self.reader.view(guild, info)
        rows = list(view.input.players.values())
        found = find(rows, player, number=lambda row: row.id, name=lambda row: row.name)
        row = found.match
        if found.ambiguous:  # the sheet's numbers are not Discord's: only a name says whom
            raise UserError(
                f"{quote(player)} could be several players on the sheet: give the name in full"
            )
        if row is None:
            raise player_not_found(
                f"{info.name}, here or on its Google Sheet,",
                player,
                found,
                rows,
                number=lambda row: row.id,
                name=lambda row: row.name,
            )
        return await self.access.store.add_player(
            guild, info.name, row.name, actor=td, rating=row.rating, discord_id=member_id
        )
