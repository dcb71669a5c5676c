"""Registering players: ``/join`` (a member registers themselves) and
``/player add|withdraw|link`` (tournament directors).

On a tournament linked to a Google Sheet, ``/join`` makes the member the sheet's player of
their name, and the sheet's Discord players tab says so (see :mod:`bot.sheetlink`)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.checks import actor, in_servers, td_of, td_only
from bot.cogs.base import HarknessCog
from bot.lookup import (
    OPEN_FIRST,
    REGISTERING_HELP,
    RUNNING_FIRST,
    RUNNING_HELP,
    OpenFirst,
    RunningFirst,
    player_autocomplete,
)
from bot.render import joined, plain, player_line
from bot.respond import Interaction, public, reply
from bot.sheetlink import landed_line, links_of
from bot.store import StoreError


class Players(HarknessCog):
    """``/join`` and ``/player``."""

    player = app_commands.Group(
        name="player",
        description="Add, withdraw and link players (TD)",
        guild_only=True,
        allowed_contexts=in_servers(),
    )

    @app_commands.command(
        name="join", description="Register yourself in a tournament", extras=public()
    )
    @app_commands.guild_only()
    @app_commands.describe(
        tournament=REGISTERING_HELP,
        rating="Your rating, if you have one",
        name="Your name on the standings (default: your server name)",
    )
    async def join(
        self,
        interaction: Interaction,
        tournament: OpenFirst = OPEN_FIRST.obvious,
        rating: app_commands.Range[int, 0, 4000] | None = None,
        name: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        found = await tournament.pick(interaction)
        who = await actor(self.store, interaction)
        links = links_of(interaction)
        note = ""
        if found.sheet is not None and links is not None and links.available:
            player, note = await links.join(
                found.guild, found, who, name=name, rating=rating, username=interaction.user.name
            )
        else:
            player = await self.store.join(found.guild, found.name, who, name=name, rating=rating)
        late = (
            f" Rounds before round {player.late_entry_round} count as not played."
            if player.late_entry_round
            else ""
        )
        await reply(
            interaction,
            joined(
                [f"✍️ {player_line(player)} joined **{plain(found.name)}**." + late]
                + ([note] if note else [])
            ),
        )

    @player.command(name="add", description="Register a player (TD)", extras=public())
    @td_only("add other players")
    @app_commands.describe(
        name="The player's name",
        rating="Their rating, if any",
        member="Their Discord account, so they can report their own games",
        tournament=REGISTERING_HELP,
    )
    async def add(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        rating: app_commands.Range[int, 0, 4000] | None = None,
        member: discord.Member | None = None,
        tournament: OpenFirst = OPEN_FIRST.obvious,
    ) -> None:
        who = td_of(interaction)
        found = await tournament.pick(interaction)
        player = await self.store.add_player(
            found.guild,
            found.name,
            name,
            actor=who,
            rating=rating,
            discord_id=str(member.id) if member else None,
        )
        await reply(
            interaction,
            joined(
                [
                    f"✍️ {player_line(player)} is registered in "
                    f"**{plain(found.name)}** (added by {plain(who.name)})."
                ]
            ),
        )

    @player.command(
        name="withdraw", description="Withdraw a player from a round on (TD)", extras=public()
    )
    @td_only("withdraw a player")
    @app_commands.describe(
        player="The player: start typing a name or a starting number",
        from_round="The first round they miss (default: the next round)",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete)
    async def withdraw(
        self,
        interaction: Interaction,
        player: str,
        from_round: app_commands.Range[int, 1, 99] | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        outcome = await self.store.withdraw(
            found.guild, found.name, td_of(interaction), player=player, from_round=from_round
        )
        line = await landed_line(interaction, found.guild, found, outcome)
        await reply(
            interaction, joined([f"🚪 {plain(outcome.message)}"] + ([line] if line else []))
        )

    @player.command(
        name="link",
        description="Say which Discord member a player is (TD); no member unlinks",
        extras=public(),
    )
    @td_only("link players to members")
    @app_commands.describe(
        player="The player: start typing a name or a starting number",
        member="Their Discord account (leave out to unlink)",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete)
    async def link(
        self,
        interaction: Interaction,
        player: str,
        member: discord.Member | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        # On a linked tournament, a player the sheet lists but Discord does not know yet is
        # registered with the member, and the sheet's Discord players tab is brought up to
        # date.
        who = td_of(interaction)
        found = await tournament.pick(interaction)
        guild = found.guild
        member_id = str(member.id) if member is not None else None
        links = links_of(interaction)
        try:
            linked = await self.store.link_player(guild, found.name, player, member_id, who)
        except StoreError as error:
            if (
                error.code != "unknown-player"
                or found.sheet is None
                or links is None
                or member_id is None
            ):
                raise
            linked = await links.add_from_sheet(guild, found, player, member_id, who)
        if member is not None:
            text = (
                f"🔗 #{linked.number} {plain(linked.name)} is {member.mention} in "
                f"**{plain(found.name)}**."
            )
        else:
            text = (
                f"🔗 #{linked.number} {plain(linked.name)} is no longer linked to a Discord member."
            )
        lines = [text]
        if links is not None and found.sheet is not None and links.available:
            await links.players_changed(guild, found)
            line = await links.sheet_name_of(guild, found, linked)
            if line:
                lines.append(line)
        await reply(interaction, joined(lines), mention=[])
