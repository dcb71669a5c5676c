"""Who may do what: tournament directors, server managers, members.

A tournament director (TD) is a member holding the guild's configured TD role
(``/config td-role``) or the Manage Server permission. Only TDs change other people's
results, add or withdraw players, start and finish tournaments. Server managers (Manage
Server) choose the TD role. Members report and confirm their own games; the store checks
that a member only touches games they played.

A command for TDs says so with :func:`td_only`, one for server managers with
:func:`managers_only`: checks (``app_commands.check``) that discord.py runs before the
command's options are read and its body runs. They read the TD role from the store, so they
run after the interaction is acknowledged (:func:`bot.respond.acknowledge`, in every cog's
``interaction_check``, which discord.py runs before a command's own checks). A refusal is a
:class:`Refused`, answered once, ephemerally, by :func:`bot.errors.answer_error`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord
from discord import app_commands

from bot.errors import UserError, to_the_handler
from bot.store import Actor, Store

T = TypeVar("T")
Interaction = discord.Interaction[discord.Client]

#: ``interaction.extras`` key: the member as the TD whom :func:`td_only` let through.
TD = "harkness_td"


class Refused(UserError, app_commands.CheckFailure):
    """A check refused the member, in words written for them (a :class:`UserError` that
    discord.py treats as a failed check)."""


class NotTD(Refused):
    """The member is not a tournament director."""


def store_of(client: discord.Client) -> Store:
    """The bot's store."""
    store = getattr(client, "store", None)
    if not isinstance(store, Store):
        raise RuntimeError("the bot has no store (it has not finished starting)")
    return store


def bot_store(interaction: Interaction) -> Store:
    """The store of the bot that received the interaction."""
    return store_of(interaction.client)


def member_roles(interaction: Interaction) -> set[str]:
    """The ids of the member's roles (empty outside a server)."""
    user = interaction.user
    if isinstance(user, discord.Member):
        return {str(role.id) for role in user.roles}
    return set()


def manages_server(interaction: Interaction) -> bool:
    """Whether the member holds Manage Server (or Administrator) where they used the command."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def guild_of(interaction: Interaction) -> str:
    """The id of the server the interaction came from; the store's tenant key."""
    if interaction.guild_id is None:
        raise UserError("Harkness commands work in a server, not in direct messages")
    return str(interaction.guild_id)


async def is_td(store: Store, interaction: Interaction) -> bool:
    """Whether the member is a tournament director of this server."""
    if manages_server(interaction):
        return True
    role = await store.td_role(guild_of(interaction))
    return role is not None and role in member_roles(interaction)


async def actor(store: Store, interaction: Interaction) -> Actor:
    """The member as the store sees them: id, display name, and whether they act as a TD."""
    user = interaction.user
    return Actor(str(user.id), user.display_name, await is_td(store, interaction))


async def td_actor(store: Store, interaction: Interaction, what: str) -> Actor:
    """The member as a TD, or :class:`NotTD` saying who may ``what``."""
    who = await actor(store, interaction)
    if not who.td:
        role = await store.td_role(guild_of(interaction))
        holder = (
            f"the <@&{role}> role"
            if role
            else "a TD role (a server manager sets it with /config td-role)"
        )
        raise NotTD(
            f"only a tournament director can {what}: that is {holder} or the "
            "Manage Server permission",
            markup=True,
        )
    return who


def td_only(
    what: str, *, when: Callable[[app_commands.Namespace], bool] | None = None
) -> Callable[[T], T]:
    """A check: only a tournament director may use the command (or, given ``when``, only
    a TD may use it with the options ``when`` is true of); anyone else is refused with
    :class:`NotTD` saying who may ``what``. The command finds the TD with :func:`td_of`."""

    async def predicate(interaction: Interaction) -> None:
        if when is None or when(interaction.namespace):
            interaction.extras[TD] = await td_actor(bot_store(interaction), interaction, what)

    return _check(predicate)


def td_of(interaction: Interaction) -> Actor:
    """The member as the TD whom the command's :func:`td_only` check let through."""
    who = interaction.extras.get(TD)
    if not isinstance(who, Actor):
        raise RuntimeError("the command has no td_only check for this use")
    return who


def managers_only(what: str) -> Callable[[T], T]:
    """A check: only members holding Manage Server may use the command (server settings are
    theirs); anyone else is refused with words saying who may ``what``."""

    async def predicate(interaction: Interaction) -> None:
        if not manages_server(interaction):
            raise Refused(f"only members with the Manage Server permission can {what}")

    return _check(predicate)


def _check(refuse: Callable[[Interaction], Awaitable[None]]) -> Callable[[T], T]:
    """``app_commands.check`` of ``refuse``, which raises to refuse; anything else it raises
    is answered as the command's own error would be."""

    async def predicate(interaction: Interaction) -> bool:
        with to_the_handler(interaction):
            await refuse(interaction)
        return True

    return app_commands.check(predicate)


def in_servers() -> app_commands.AppCommandContext:
    """The contexts of a command group: servers only, never direct messages."""
    return app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
