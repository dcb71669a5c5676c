"""A loopback fake of Discord's REST API and gateway; import it from ``tests.fakes.discord_api``.

Modules: :mod:`.models` (users, roles, members, channels, guilds), :mod:`.world` (the default
chess club), :mod:`.limits` (Discord's documented limits), :mod:`.records` (what the fake
saw, and the errors it raises into tests), :mod:`.gateway` (the websocket), :mod:`.rest`
(the HTTP routes) and :mod:`.fake` (:class:`DiscordFake`, which a test drives).

The package is not called ``discord`` on purpose: a directory of that name on ``sys.path``
would shadow the real discord.py.
"""

from .fake import DiscordFake
from .limits import Problem
from .models import (
    CallbackType,
    ChannelType,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    Intent,
    InteractionType,
    MessageFlag,
    OptionType,
    Permission,
    Upload,
)
from .records import (
    AttachmentRecord,
    CallbackRecord,
    CommandUnavailable,
    DiscordLimitError,
    FakeUsageError,
    InteractionRecord,
    MessageRecord,
    RequestRecord,
    UploadedFile,
    Violation,
    ViolationKind,
)
from .world import World, chess_club_world

__all__ = [
    "AttachmentRecord",
    "CallbackRecord",
    "CallbackType",
    "ChannelType",
    "CommandUnavailable",
    "DiscordFake",
    "DiscordLimitError",
    "FakeChannel",
    "FakeGuild",
    "FakeMember",
    "FakeRole",
    "FakeUsageError",
    "FakeUser",
    "Intent",
    "InteractionRecord",
    "InteractionType",
    "MessageFlag",
    "MessageRecord",
    "OptionType",
    "Permission",
    "Problem",
    "RequestRecord",
    "Upload",
    "UploadedFile",
    "Violation",
    "ViolationKind",
    "World",
    "chess_club_world",
]
