"""Answering an interaction: defer first, then give the answer once.

Every slash command is acknowledged (:func:`acknowledge`) before anything else runs, its
checks and options included, so Discord's 3-second window is met however slow the database
is; the answer then comes with :func:`reply`. A command answers only the member unless it
says it answers the channel (``extras=public()``). An ephemeral command defers at once
(only the member sees "thinking…"). A public one defers only if it has not answered within
:data:`PUBLIC_DEFERRAL_AFTER` seconds, so that a refusal (ephemeral) never first appears to
the whole channel as a public "thinking…": a quick answer is the interaction's first
response, a slow one replaces the deferred message.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.errors import (
    PENDING_DEFERRAL,
    PUBLIC_DEFERRAL,
    PendingDeferral,
    acknowledged,
    answering,
)
from bot.render import message_text

Interaction = discord.Interaction[discord.Client]


#: Seconds a public command may take before Discord is told it is thinking (Discord allows
#: 3 from the moment the member used the command).
PUBLIC_DEFERRAL_AFTER = 1.5

#: ``Command.extras`` key: whether the command answers the whole channel (True), or only
#: the member (False, the default), or a function of its options that says which.
PUBLIC = "harkness_public"


def public(
    when: Callable[[app_commands.Namespace], bool] | None = None,
) -> dict[str, bool | Callable[[app_commands.Namespace], bool]]:
    """A command's ``extras`` saying it answers the whole channel (given ``when``: only
    when ``when`` is true of its options)."""
    return {PUBLIC: when if when is not None else True}


def answers_publicly(interaction: Interaction) -> bool:
    """Whether the slash command of ``interaction`` answers the channel (:func:`public`)."""
    command = interaction.command
    said = command.extras.get(PUBLIC, False) if command is not None else False
    return bool(said(interaction.namespace) if callable(said) else said)


async def acknowledge(interaction: Interaction) -> None:
    """Defer a slash command as it answers (:func:`answers_publicly`), before its checks
    and options read the database: the command tree does it, before the command waits for
    its server's turn (every cog's ``interaction_check`` again, which then does nothing)."""
    if PENDING_DEFERRAL in interaction.extras or PUBLIC_DEFERRAL in interaction.extras:
        return
    await defer(interaction, public=answers_publicly(interaction))


async def defer(interaction: Interaction, *, public: bool) -> None:
    """Acknowledge: only for the member at once ("Harkness is thinking…"), or, for a public
    answer, publicly if the answer is slow (:class:`~bot.errors.PendingDeferral`)."""
    if public:
        interaction.extras[PENDING_DEFERRAL] = PendingDeferral(interaction, PUBLIC_DEFERRAL_AFTER)
        return
    interaction.extras[PUBLIC_DEFERRAL] = False
    await interaction.response.defer(ephemeral=True, thinking=True)
    acknowledged(interaction)


async def thinking(interaction: Interaction) -> discord.InteractionMessage:
    """Defer a public command now if it has not been (when its message must exist before
    the answer, e.g. to note where buttons will be), and return that message."""
    async with answering(interaction):
        if not interaction.response.is_done():
            interaction.extras[PUBLIC_DEFERRAL] = True
            await interaction.response.defer(thinking=True)
            acknowledged(interaction)
    return await interaction.original_response()


async def reply(
    interaction: Interaction,
    content: str | None = None,
    *,
    embed: discord.Embed | None = None,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    view: discord.ui.View | None = None,
    mention: Sequence[int] = (),
) -> None:
    """Replace the deferred message with the answer. ``mention`` lists the user ids that
    may be pinged (nobody else is, whatever the text says)."""
    kwargs: dict[str, Any] = {
        "content": message_text(content),
        "embeds": [embed] if embed is not None else list(embeds),
        "allowed_mentions": discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(i) for i in mention]
        ),
    }
    if view is not None:
        kwargs["view"] = view
    async with answering(interaction):
        if interaction.response.is_done():
            if files:
                kwargs["attachments"] = list(files)
            await interaction.edit_original_response(**kwargs)
        else:  # answered before any deferral: the answer is the first response
            if files:
                kwargs["files"] = list(files)
            await interaction.response.send_message(**kwargs)
            acknowledged(interaction)
        interaction.extras[PUBLIC_DEFERRAL] = False


async def more(
    interaction: Interaction,
    content: str | None = None,
    *,
    embeds: Sequence[discord.Embed] = (),
    files: Sequence[discord.File] = (),
    ephemeral: bool = True,
) -> None:
    """A further message after the answer (a follow-up)."""
    kwargs: dict[str, Any] = {
        "embeds": list(embeds),
        "ephemeral": ephemeral,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if content:
        kwargs["content"] = message_text(content)
    if files:
        kwargs["files"] = list(files)
    await interaction.followup.send(**kwargs)
