"""The default world: a chess club's Discord server, ready for the bot to join.

``Harkness Chess Club`` has the roles a tournament bot cares about and a handful of
members covering every permission case:

============  ==================================  =====================================
member        roles                               why
============  ==================================  =====================================
``owner``     (owns the server)                   holds every permission
``td``        Tournament Director                 the TD role, no server permissions
``manager``   Server Manager (Manage Server)      may manage without being a TD
``alice``…    (only @everyone)                    ordinary players: alice, bob, carol,
                                                  dave, erin, frank
``harkness``  Harkness (the bot's managed role)   the bot itself
============  ==================================  =====================================

Channels: a ``Chess`` category holding ``general``, ``results`` and ``td-desk`` text
channels and an ``analysis`` voice channel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .models import (
    EVERYONE_PERMISSIONS,
    ChannelType,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Permission,
    SnowflakeFactory,
)

PLAYER_NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
TD_ROLE_NAME = "Tournament Director"
MANAGER_ROLE_NAME = "Server Manager"
BOT_ROLE_NAME = "Harkness"

BOT_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.SEND_MESSAGES_IN_THREADS
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.USE_APPLICATION_COMMANDS
)
"""What the invite URL grants the bot (see bot/README.md, "Inviting the bot")."""


@dataclass
class World:
    """Everyone and everything the fake knows, built before the bot connects."""

    ids: SnowflakeFactory
    application_id: int
    bot_user: FakeUser
    app_owner: FakeUser
    users: dict[int, FakeUser] = field(default_factory=dict)
    guilds: dict[int, FakeGuild] = field(default_factory=dict)
    channels: dict[int, FakeChannel] = field(default_factory=dict)

    def new_user(
        self, username: str, *, global_name: str | None = None, bot: bool = False
    ) -> FakeUser:
        """Create a Discord account."""
        user = FakeUser(self.ids.next(), username, global_name or username.title(), bot)
        self.users[user.id] = user
        return user

    def new_role(
        self, guild: FakeGuild, name: str, permissions: int = 0, *, managed: bool = False
    ) -> FakeRole:
        """Create a role in ``guild`` above the existing ones."""
        role = FakeRole(
            self.ids.next(), name, int(permissions), position=len(guild.roles), managed=managed
        )
        guild.roles.append(role)
        return role

    def new_member(
        self,
        guild: FakeGuild,
        user: FakeUser,
        roles: Sequence[FakeRole] = (),
        *,
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member of ``guild``."""
        member = FakeMember(user, guild, list(roles), nick=nick)
        guild.members[user.id] = member
        return member

    def new_channel(
        self,
        guild: FakeGuild,
        name: str,
        kind: ChannelType = ChannelType.GUILD_TEXT,
        *,
        parent: FakeChannel | None = None,
        topic: str | None = None,
    ) -> FakeChannel:
        """Create a channel in ``guild``."""
        channel = FakeChannel(
            self.ids.next(),
            name,
            kind,
            guild,
            position=len(guild.channels),
            parent_id=parent.id if parent else None,
            topic=topic,
        )
        guild.channels.append(channel)
        self.channels[channel.id] = channel
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        for channel in self.channels.values():
            if channel.type is ChannelType.DM and channel.recipient is user:
                return channel
        channel = FakeChannel(self.ids.next(), "", ChannelType.DM, recipient=user)
        self.channels[channel.id] = channel
        return channel


def chess_club_world() -> World:
    """The default world described in this module's docstring."""
    ids = SnowflakeFactory()
    application_id = ids.next()
    bot_user = FakeUser(application_id, "Harkness", None, bot=True)
    app_owner = FakeUser(ids.next(), "club_admin", "Club Admin")
    world = World(ids, application_id, bot_user, app_owner)
    world.users[bot_user.id] = bot_user
    world.users[app_owner.id] = app_owner

    owner = world.new_user("owner", global_name="Olga Owner")
    guild = FakeGuild(ids.next(), "Harkness Chess Club", owner_id=owner.id)
    guild.roles.append(FakeRole(guild.id, "@everyone", int(EVERYONE_PERMISSIONS)))
    world.guilds[guild.id] = guild

    td_role = world.new_role(guild, TD_ROLE_NAME)
    manager_role = world.new_role(guild, MANAGER_ROLE_NAME, Permission.MANAGE_GUILD)
    bot_role = world.new_role(guild, BOT_ROLE_NAME, BOT_PERMISSIONS, managed=True)

    world.new_member(guild, owner)
    world.new_member(guild, world.new_user("td", global_name="Tina Director"), [td_role])
    world.new_member(guild, world.new_user("manager", global_name="Max Manager"), [manager_role])
    for name in PLAYER_NAMES:
        world.new_member(guild, world.new_user(name))
    world.new_member(guild, bot_user, [bot_role])

    category = world.new_channel(guild, "Chess", ChannelType.GUILD_CATEGORY)
    world.new_channel(guild, "general", parent=category, topic="Club chat")
    world.new_channel(guild, "results", parent=category, topic="Report your games here")
    world.new_channel(guild, "td-desk", parent=category, topic="Tournament directors")
    world.new_channel(guild, "analysis", ChannelType.GUILD_VOICE, parent=category)
    return world
