"""What every cog of Harkness shares: the bot's store, and the acknowledgement that comes
before anything else a command does.

discord.py runs a cog's ``interaction_check`` for each of its slash commands before the
command's own checks (:func:`bot.checks.td_only`) and before its options are transformed
(:class:`bot.lookup.Stage`), so the interaction is acknowledged there, within Discord's 3
seconds, before anything reads the database (see :mod:`bot.respond`). A command then reads
as what it does::

    @result.command(name="undo", description="…", extras=public())
    @td_only("undo changes")
    async def undo(self, interaction, event=None, tournament: RunningFirst = RUNNING_FIRST.obvious):
        found = await tournament.pick(interaction)
        outcome = await self.store.undo(found.guild, found.name, td_of(interaction), event)
"""

from __future__ import annotations

from discord.ext import commands

from bot.checks import store_of
from bot.errors import to_the_handler
from bot.respond import Interaction, acknowledge
from bot.store import Store


class HarknessCog(commands.Cog):
    """A cog of slash commands that answer from the bot's store."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @property
    def store(self) -> Store:
        """The bot's store (opened before the cogs are added)."""
        return store_of(self.bot)

    async def interaction_check(self, interaction: Interaction, /) -> bool:
        """Acknowledge every command first (:func:`bot.respond.acknowledge`)."""
        with to_the_handler(interaction):
            await acknowledge(interaction)
        return True
