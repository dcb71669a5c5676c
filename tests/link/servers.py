"""More Discord servers with Harkness installed, beside the club's (the fake's first guild):
another club sharing the bot, or a hostile one."""

from __future__ import annotations

from typing import Any

from tests.bot.support import Club
from tests.fakes.discord_api import DiscordFake, FakeMember, MessageRecord
from tests.fakes.discord_fake.models import ChannelType, FakeChannel, FakeGuild, FakeRole


def add_guild(fake: DiscordFake, number: int) -> FakeGuild:
    """Another server where the bot is installed, with an owner and #general; its id is
    ``number`` milliseconds after the first's (so that servers alternate shards). A bot
    started after sees it; one started before is restarted to (``Club.restart``)."""
    world = fake.world
    owner = world.new_user(f"owner{number}")
    guild_id = fake.guild.id + (number << 22)
    guild = FakeGuild(guild_id, f"Club {number}", owner_id=owner.id)
    guild.roles.append(FakeRole(guild.id, "@everyone", fake.guild.everyone.permissions))
    world.guilds[guild.id] = guild
    world.new_member(guild, owner)
    world.new_member(guild, world.bot_user, [world.new_role(guild, "Harkness", 0, managed=True)])
    world.new_channel(guild, "general", ChannelType.GUILD_TEXT)
    return guild


def general(guild: FakeGuild) -> FakeChannel:
    return next(c for c in guild.channels if c.name == "general")


def with_commands(fake: DiscordFake, guild: FakeGuild) -> None:
    """The bot's commands in ``guild`` too (a production bot registers them globally)."""
    fake.commands[guild.id] = dict(fake.commands[fake.guild.id])


class Server:
    """Another server on the club's bot: its owner (who manages it, so is its TD) and its
    members use commands in its #general."""

    def __init__(self, club: Club, number: int) -> None:
        self.club = club
        self.fake = club.fake
        self.guild = add_guild(club.fake, number)
        self.owner = club.fake.member(f"owner{number}", self.guild)

    @property
    def id(self) -> str:
        return str(self.guild.id)

    def add_member(self, name: str) -> FakeMember:
        return self.fake.add_member(name, guild=self.guild)

    async def ok(
        self, who: FakeMember | None, command: str, options: dict[str, Any] | None = None
    ) -> MessageRecord:
        """The answer to ``who`` (default: the owner) using ``/command`` here."""
        record = await self.fake.command(
            who or self.owner, command, options or {}, channel=general(self.guild)
        )
        return await self.club.succeeded(record)

    async def click(self, message: MessageRecord, label: str) -> MessageRecord:
        """The owner presses ``label`` under ``message``; the answer."""
        return await self.club.succeeded(await self.fake.click(self.owner, message, label))
