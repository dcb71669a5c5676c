"""The world inside the fake Discord: users, roles, members, channels and guilds.

Each object knows how to render itself as the JSON Discord's API documents (user, role,
guild member, channel and guild objects), so the real discord.py client parses exactly what
it would parse in production. Ids are real snowflakes: their timestamps are "now".

>>> ids = SnowflakeFactory()
>>> first, second = ids.next(), ids.next()
>>> second > first
True
>>> snowflake_time_ms(first) > DISCORD_EPOCH_MS
True
"""

from __future__ import annotations

import datetime as dt
import enum
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

JSON = dict[str, Any]
"""A JSON object as Discord sends it (ids are strings)."""

DISCORD_EPOCH_MS = 1_420_070_400_000
"""The first millisecond of 2015, the zero of Discord's snowflake clock."""


class SnowflakeFactory:
    """Issues unique, increasing snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """A new snowflake, larger than every one issued before."""
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def snowflake_time_ms(snowflake: int) -> int:
    """The Unix time in milliseconds at which ``snowflake`` was issued.

    >>> snowflake_time_ms(175928847299117063)
    1462015105796
    """
    return (snowflake >> 22) + DISCORD_EPOCH_MS


def iso_now() -> str:
    """The current UTC time as the ISO 8601 string Discord uses for timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()


class Permission(enum.IntFlag):
    """Discord permission bits (the subset a club's tournament bot cares about)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_AUDIT_LOG = 1 << 7
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1
"""Every permission bit Discord currently defines; what owners and administrators hold."""

EVERYONE_PERMISSIONS = (
    Permission.VIEW_CHANNEL
    | Permission.SEND_MESSAGES
    | Permission.EMBED_LINKS
    | Permission.ATTACH_FILES
    | Permission.READ_MESSAGE_HISTORY
    | Permission.ADD_REACTIONS
    | Permission.USE_EXTERNAL_EMOJIS
    | Permission.CHANGE_NICKNAME
    | Permission.USE_APPLICATION_COMMANDS
    | Permission.SEND_MESSAGES_IN_THREADS
)
"""What @everyone may do in a new community server (Discord's defaults, roughly)."""


class ChannelType(enum.IntEnum):
    """Discord channel types the fake models."""

    GUILD_TEXT = 0
    DM = 1
    GUILD_VOICE = 2
    GUILD_CATEGORY = 4


class InteractionType(enum.IntEnum):
    """Why Discord created an interaction."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    APPLICATION_COMMAND_AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class CallbackType(enum.IntEnum):
    """How a bot answers an interaction (POST /interactions/{id}/{token}/callback)."""

    PONG = 1
    CHANNEL_MESSAGE_WITH_SOURCE = 4
    DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    APPLICATION_COMMAND_AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    PREMIUM_REQUIRED = 10
    LAUNCH_ACTIVITY = 12


class OptionType(enum.IntEnum):
    """Application command option types."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


class MessageFlag(enum.IntFlag):
    """Message flags that matter for interaction answers."""

    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    SUPPRESS_NOTIFICATIONS = 1 << 12
    IS_VOICE_MESSAGE = 1 << 13
    IS_COMPONENTS_V2 = 1 << 15


class Intent(enum.IntFlag):
    """Gateway intents the fake looks at."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


PRIVILEGED_INTENTS = Intent.GUILD_MEMBERS | Intent.GUILD_PRESENCES | Intent.MESSAGE_CONTENT


@dataclass(eq=False)
class FakeUser:
    """A Discord account: a club member, or the bot itself."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        """How a message mentions this user."""
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        """The name Discord shows when there is no nickname."""
        return self.global_name or self.username

    def payload(self) -> JSON:
        """The user object."""
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }

    def __repr__(self) -> str:
        return f"FakeUser({self.username!r}, id={self.id})"


@dataclass(eq=False)
class FakeRole:
    """A guild role; the guild's @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0
    color: int = 0
    hoist: bool = False
    mentionable: bool = False
    managed: bool = False

    @property
    def mention(self) -> str:
        """How a message mentions this role."""
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        """The role object."""
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {
                "primary_color": self.color,
                "secondary_color": None,
                "tertiary_color": None,
            },
            "hoist": self.hoist,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(int(self.permissions)),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"FakeRole({self.name!r}, id={self.id})"


@dataclass(eq=False)
class FakeMember:
    """A user's membership of a guild, with their roles."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        """The member's user id."""
        return self.user.id

    @property
    def name(self) -> str:
        """The member's username."""
        return self.user.username

    @property
    def mention(self) -> str:
        """How a message mentions this member."""
        return self.user.mention

    @property
    def permissions(self) -> int:
        """The member's guild-wide permissions (roles, ownership and Administrator)."""
        return self.guild.permissions_of(self)

    def has_role(self, role: FakeRole) -> bool:
        """Whether the member holds ``role`` (everyone holds @everyone)."""
        return role.id == self.guild.id or any(r.id == role.id for r in self.roles)

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        """The guild member object; interactions add the computed ``permissions``."""
        data: JSON = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data

    def __repr__(self) -> str:
        return f"FakeMember({self.name!r}, roles={[r.name for r in self.roles]})"


@dataclass(eq=False)
class FakeChannel:
    """A guild channel (text, voice, category) or a DM channel between the bot and a user."""

    id: int
    name: str
    type: ChannelType = ChannelType.GUILD_TEXT
    guild: FakeGuild | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    recipient: FakeUser | None = None

    @property
    def mention(self) -> str:
        """How a message mentions this channel."""
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        """The channel object."""
        if self.type is ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        data: JSON = {
            "id": str(self.id),
            "type": int(self.type),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "nsfw": False,
            "flags": 0,
        }
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
        if self.type is ChannelType.GUILD_TEXT:
            data.update(topic=self.topic, last_message_id=None, rate_limit_per_user=0)
        elif self.type is ChannelType.GUILD_VOICE:
            data.update(bitrate=64000, user_limit=0, rtc_region=None)
        return data

    def __repr__(self) -> str:
        return f"FakeChannel({self.name!r}, id={self.id}, type={self.type.name})"


_Named = TypeVar("_Named", FakeRole, FakeMember, FakeChannel)


@dataclass(eq=False)
class FakeGuild:
    """A Discord server: its roles (first is @everyone), members and channels."""

    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channels: list[FakeChannel] = field(default_factory=list)
    preferred_locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        """The @everyone role (its id is the guild's id)."""
        return next(r for r in self.roles if r.id == self.id)

    def role(self, name: str) -> FakeRole:
        """The role called ``name``."""
        return self._named("role", self.roles, name)

    def member(self, name: str) -> FakeMember:
        """The member whose username is ``name``."""
        return self._named("member", self.members.values(), name)

    def channel(self, name: str) -> FakeChannel:
        """The channel called ``name``."""
        return self._named("channel", self.channels, name)

    def _named(self, what: str, items: Iterable[_Named], name: str) -> _Named:
        for item in items:
            if item.name == name:
                return item
        raise KeyError(f"no {what} {name!r} in {self.name}")

    def permissions_of(self, member: FakeMember) -> int:
        """Guild-wide permissions: owner and Administrator hold all, others the union of roles.

        Channel permission overwrites are not modelled: every channel grants the same.
        """
        if member.id == self.owner_id:
            return ALL_PERMISSIONS
        bits = int(self.everyone.permissions)
        for role in member.roles:
            bits |= int(role.permissions)
        if bits & Permission.ADMINISTRATOR:
            return ALL_PERMISSIONS
        return bits

    def summary_payload(self) -> JSON:
        """The guild object as REST answers GET /guilds/{id}."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": ["COMMUNITY"],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "approximate_member_count": len(self.members),
            "approximate_presence_count": 0,
        }

    def create_payload(self, *, include_members: list[FakeMember]) -> JSON:
        """The GUILD_CREATE event data, with the members the bot's intents let it see."""
        data = self.summary_payload()
        data.update(
            joined_at=iso_now(),
            large=False,
            unavailable=False,
            member_count=len(self.members),
            voice_states=[],
            members=[m.payload() for m in include_members],
            channels=[c.payload() for c in self.channels],
            threads=[],
            presences=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
        )
        return data

    def __repr__(self) -> str:
        return f"FakeGuild({self.name!r}, id={self.id})"


@dataclass(frozen=True)
class Upload:
    """A file a user attaches to a command's ATTACHMENT option (e.g. a TRF for import)."""

    filename: str
    data: bytes
    content_type: str = "application/octet-stream"
