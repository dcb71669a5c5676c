"""Driving the Harkness bot through the fake Discord, as the club's members would.

:class:`Club` starts the real bot (``bot.app.create_bot`` reading the environment) and
offers short verbs for what members do: run a command and read the answer, click a button,
type into an autocomplete field. Every answer is checked against Discord's rules by the fake
itself; these helpers add the bot's own promises: exactly one answer, errors ephemeral.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Mapping
from typing import Any

from bot.app import HarknessBot, create_bot
from bot.store import Store
from core.model import Tournament
from tests.fakes.discord_api import (
    DiscordFake,
    FakeGuild,
    FakeMember,
    FakeUser,
    InteractionRecord,
    MessageRecord,
)
from tests.fakes.discord_fake.models import ChannelType, FakeChannel, FakeRole
from tests.fakes.discord_fixtures import BotRunner

Who = FakeMember | FakeUser


class Refusals(logging.Handler):
    """Keeps the bot's log records about interactions it refused or failed, by interaction
    id (the error handler logs each one with ``interaction_id``)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.by_interaction: dict[int, logging.LogRecord] = {}

    def emit(self, record: logging.LogRecord) -> None:
        interaction = getattr(record, "interaction_id", None)
        if interaction is not None:
            self.by_interaction[int(interaction)] = record


class Club:
    """The chess club's server with Harkness running in it."""

    def __init__(self, fake: DiscordFake, runner: BotRunner) -> None:
        self.fake = fake
        self.runner = runner
        self.bot: HarknessBot | None = None
        self.refusals = Refusals()

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[Club]:
        """The bot started, with its refusals (the errors it answered) recorded from the
        log, and the log put back afterwards."""
        logger = logging.getLogger("harkness.bot")
        level = logger.level
        logger.setLevel(logging.INFO)
        logger.addHandler(self.refusals)
        try:
            await self.start()
            yield self
        finally:
            logger.removeHandler(self.refusals)
            logger.setLevel(level)

    async def start(self) -> HarknessBot:
        """Start (or restart) the bot from the environment and wait until it is ready."""
        bot = create_bot()
        await self.runner(bot, configure_endpoints=False)
        self.bot = bot
        return bot

    async def restart(self) -> HarknessBot:
        """Stop the bot (closing its store) and start a new one on the same database."""
        assert self.bot is not None
        await self.bot.close()
        return await self.start()

    @property
    def store(self) -> Store:
        assert self.bot is not None and self.bot.store is not None
        return self.bot.store

    @property
    def guild(self) -> str:
        """The server's id as the store keys it."""
        return str(self.fake.guild.id)

    def member(self, name: str) -> FakeMember:
        return self.fake.member(name)

    def _who(self, who: Who | str) -> Who:
        return self.member(who) if isinstance(who, str) else who

    async def run(
        self, who: Who | str, command: str, options: Mapping[str, Any] | None = None
    ) -> InteractionRecord:
        """``who`` uses ``/command`` with ``options``; returns the interaction record."""
        return await self.fake.command(self._who(who), command, dict(options or {}))

    async def ok(
        self, who: Who | str, command: str, options: Mapping[str, Any] | None = None
    ) -> MessageRecord:
        """The answer to ``/command``, which must not be a refusal."""
        return await self.succeeded(await self.run(who, command, options))

    async def refused(
        self, who: Who | str, command: str, options: Mapping[str, Any] | None = None
    ) -> MessageRecord:
        """The ephemeral error ``/command`` is refused with."""
        return await self.failed(await self.run(who, command, options))

    async def succeeded(self, record: InteractionRecord) -> MessageRecord:
        """The one message answering ``record``, which must not be an error."""
        reply = await record.reply()
        refusal = self.refusals.by_interaction.get(record.id)
        assert refusal is None, f"{record.label} was refused: {refusal.getMessage()}"
        assert not reply.deleted
        return reply

    async def failed(self, record: InteractionRecord) -> MessageRecord:
        """The single ephemeral error answering ``record`` (a refusal, not a bug)."""
        first = await record.response()
        if first.type == 4:  # answered at once
            message = await record.reply()
        elif (
            record.original is not None
            and record.original.interaction is record
            and (first.ephemeral)
        ):  # deferred privately: the placeholder becomes the error
            message = await record.reply()
            assert not record.followups, "the error was answered more than once"
        else:  # deferred publicly, or a button: the error is an ephemeral follow-up
            message = await record.followup(0)
            assert len(record.followups) == 1, "the error was answered more than once"
            if record.original is not None and record.original.interaction is record:
                assert record.original.deleted, "a public 'thinking…' message was left behind"
        assert message.ephemeral, f"the error {message.text!r} is visible to everyone"
        refusal = self.refusals.by_interaction.get(record.id)
        assert refusal is not None, f"{record.label}: {message.text!r} is not an error"
        assert not hasattr(refusal, "reference"), f"a bug, not a refusal: {message.text}"
        return message

    async def click(self, who: Who | str, message: MessageRecord, label: str) -> InteractionRecord:
        return await self.fake.click(self._who(who), message, label)

    async def choices(
        self,
        who: Who | str,
        command: str,
        option: str,
        typed: str = "",
        options: Mapping[str, Any] | None = None,
    ) -> list[dict[str, Any]]:
        record = await self.fake.autocomplete(self._who(who), command, option, typed, options)
        return await record.choices()


# -- setting the scene through Discord ----------------------------------------------------

TD_ROLE = "Tournament Director"


async def appoint_tds(club: Club) -> None:
    """The server owner makes the Tournament Director role the TD role."""
    await club.ok("owner", "config td-role", {"role": club.fake.role(TD_ROLE)})


async def running_tournament(
    club: Club,
    name: str = "Club Night",
    rounds: int = 4,
    players: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
) -> None:
    """A TD creates ``name``, ``players`` join (starting numbers in that order), it starts."""
    await appoint_tds(club)
    await club.ok("td", "tournament create", {"name": name, "rounds": rounds})
    for player in players:
        await club.ok(player, "join", {"tournament": name})
    await club.ok("td", "tournament start", {"tournament": name})


async def reported(club: Club, who: str, round: int, opponent: str, result: str) -> MessageRecord:
    """``who`` reports their game; the public message with the opponent's buttons."""
    return await club.ok(who, "report", {"round": round, "opponent": opponent, "result": result})


async def clicked(club: Club, who: str, message: MessageRecord, label: str) -> MessageRecord:
    """``who`` presses ``label`` under ``message``; the message as it is afterwards."""
    return await club.succeeded(await club.click(who, message, label))


async def imported_swiss(
    club: Club, players: int, rounds: int, name: str = "Big Swiss", seed: int = 7
) -> Tournament:
    """A TD imports a generated Swiss of ``players`` × ``rounds`` (as a TRF-16 upload);
    returns the tournament as core reads it."""
    from core.formats.trf import write_trf
    from tests.fakes.discord_api import Upload
    from tests.generate import random_swiss

    swiss = random_swiss(players, rounds, seed=seed)
    await appoint_tds(club)
    upload = Upload(f"{players}-players.trf", write_trf(swiss).encode(), "text/plain")
    await club.ok("td", "tournament import", {"file": upload, "name": name})
    return swiss


# -- a second server ---------------------------------------------------------------------


def second_guild(
    fake: DiscordFake, prefix: str = "other"
) -> tuple[FakeGuild, FakeMember, FakeMember]:
    """A second server where the bot is also installed: its owner, a member (a visitor)
    and #general. Build it before the bot connects, so it arrives in the bot's
    GUILD_CREATEs; offer it the commands once they are synced (:func:`commands_everywhere`)."""
    world = fake.world
    owner = world.new_user(f"{prefix}-owner")
    guild = FakeGuild(world.ids.next(), "Another Club", owner_id=owner.id)
    guild.roles.append(FakeRole(guild.id, "@everyone", fake.guild.everyone.permissions))
    world.guilds[guild.id] = guild
    owner_member = world.new_member(guild, owner)
    visitor = world.new_member(
        guild, world.new_user("visitor" if prefix == "other" else f"{prefix}-visitor")
    )
    world.new_member(guild, world.bot_user, [world.new_role(guild, "Harkness", 0, managed=True)])
    world.new_channel(guild, "general", ChannelType.GUILD_TEXT)
    return guild, owner_member, visitor


def general(guild: FakeGuild) -> FakeChannel:
    return next(c for c in guild.channels if c.name == "general")


def commands_everywhere(fake: DiscordFake, guild: FakeGuild) -> None:
    """The bot syncs its commands to the development server only (``HARKNESS_DEV_GUILD``);
    as a production bot's global commands would, they are offered in ``guild`` too."""
    fake.commands[guild.id] = dict(fake.commands[fake.guild.id])


class LoopWatch:
    """How late the event loop ran while watched (a timer every 10 ms): the longest moment
    no interaction could be answered; and whether the garbage collector was ever off."""

    PERIOD = 0.01

    def __init__(self) -> None:
        self.worst = 0.0
        self.looks = 0
        self.collector_off = False
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asleep = loop.time()
            await asyncio.sleep(self.PERIOD)
            self.worst = max(self.worst, loop.time() - asleep - self.PERIOD)
            self.looks += 1
            self.collector_off |= not gc.isenabled()

    async def __aenter__(self) -> LoopWatch:
        self._task = asyncio.ensure_future(self._watch())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
