"""Answering an interaction: defer first, then replace the "thinking…" message once.

Every command that touches the database calls :func:`defer` before anything else, so
Discord's 3-second window is met however slow the database is; the answer then comes with
:func:`reply` (the deferred message is edited into it). Whether the answer is public or
ephemeral is chosen at the deferral, as Discord requires.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.errors import PUBLIC_DEFERRAL
from bot.render import message_text

Interaction = discord.Interaction[discord.Client]


async def defer(interaction: Interaction, *, public: bool) -> None:
    """Acknowledge now ("Harkness is thinking…"), publicly or only for the member."""
    interaction.extras[PUBLIC_DEFERRAL] = public
    await interaction.response.defer(ephemeral=not public, thinking=True)


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
    if files:
        kwargs["attachments"] = list(files)
    if view is not None:
        kwargs["view"] = view
    await interaction.edit_original_response(**kwargs)
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
