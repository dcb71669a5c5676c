"""Who may do what: tournament directors, server managers, members.

A tournament director (TD) is a member holding the guild's configured TD role
(``/config td-role``) or the Manage Server permission. Only TDs change other people's
results, add or withdraw players, start and finish tournaments. Server managers (Manage
Server) choose the TD role. Members report and confirm their own games; the store checks
that a member only touches games they played.

These checks read the TD role from the store, so they run after the interaction is deferred.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import UserError
from bot.store import Actor, Store


class NotTD(UserError):
    """The member is not a tournament director."""


def member_roles(interaction: discord.Interaction[discord.Client]) -> set[str]:
    """The ids of the member's roles (empty outside a server)."""
    user = interaction.user
    if isinstance(user, discord.Member):
        return {str(role.id) for role in user.roles}
    return set()


def manages_server(interaction: discord.Interaction[discord.Client]) -> bool:
    """Whether the member holds Manage Server (or Administrator) where they used the command."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def guild_of(interaction: discord.Interaction[discord.Client]) -> str:
    """The id of the server the interaction came from; the store's tenant key."""
    if interaction.guild_id is None:
        raise UserError("Harkness commands work in a server, not in direct messages")
    return str(interaction.guild_id)


async def is_td(store: Store, interaction: discord.Interaction[discord.Client]) -> bool:
    """Whether the member is a tournament director of this server."""
    if manages_server(interaction):
        return True
    role = await store.td_role(guild_of(interaction))
    return role is not None and role in member_roles(interaction)


async def actor(store: Store, interaction: discord.Interaction[discord.Client]) -> Actor:
    """The member as the store sees them: id, display name, and whether they act as a TD."""
    user = interaction.user
    return Actor(str(user.id), user.display_name, await is_td(store, interaction))


async def td_actor(
    store: Store, interaction: discord.Interaction[discord.Client], what: str
) -> Actor:
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


def require_manager(interaction: discord.Interaction[discord.Client], what: str) -> None:
    """Refuse unless the member holds Manage Server (server settings are theirs)."""
    if not manages_server(interaction):
        raise UserError(f"only members with the Manage Server permission can {what}")


def in_servers() -> app_commands.AppCommandContext:
    """The contexts of a command group: servers only, never direct messages."""
    return app_commands.AppCommandContext(guild=True, dm_channel=False, private_channel=False)
