"""Finding what a member means: the tournament (named, or the obvious one) and players,
and the autocomplete answers that help them type it.

When a command's ``tournament`` option is left out, the server's tournaments are looked at
stage by stage in the command's order of preference (``running`` first for most commands):
if exactly one is in the first stage that has any, it is the one; if several are, the
member is asked to name one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands

from bot.checks import guild_of
from bot.errors import UserError
from bot.store import PlayerInfo, Store, StoreError, TournamentInfo, TournamentStatus

log = logging.getLogger("harkness.bot")

#: Discord's limits for autocomplete: 25 choices, names and values of at most 100 characters.
MAX_CHOICES = 25
CHOICE_TEXT = 100

RUNNING_FIRST = (TournamentStatus.RUNNING, TournamentStatus.REGISTERING, TournamentStatus.FINISHED)
OPEN_FIRST = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
RUNNING_ONLY = (TournamentStatus.RUNNING,)
REGISTERING_ONLY = (TournamentStatus.REGISTERING,)


def bot_store(interaction: discord.Interaction[discord.Client]) -> Store:
    """The store of the bot that received the interaction."""
    store = getattr(interaction.client, "store", None)
    if not isinstance(store, Store):
        raise RuntimeError("the bot has no store (it has not finished starting)")
    return store


async def pick_tournament(
    store: Store, guild: str, name: str | None, prefer: Sequence[TournamentStatus] = RUNNING_FIRST
) -> TournamentInfo:
    """The tournament called ``name``, or the only one in the first preferred stage."""
    if name and name.strip():
        return await store.tournament(guild, name)
    for status in prefer:
        found = await store.tournaments(guild, status=status, limit=MAX_CHOICES + 1)
        if len(found) == 1:
            return found[0]
        if found:
            names = ", ".join(t.name for t in found[:10])
            raise UserError(
                f"there are {len(found)} {status.value} tournaments here ({names}): "
                "choose one with the tournament option"
            )
    if not await store.tournaments(guild, limit=1):
        raise UserError("there is no tournament here yet: a TD creates one with /tournament create")
    stages = " or ".join(s.value for s in prefer)
    raise UserError(
        f"there is no {stages} tournament here: name one with the tournament "
        "option (/tournament list shows them all)"
    )


def _clip(text: str, limit: int = CHOICE_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def tournament_choices(found: Sequence[TournamentInfo]) -> list[app_commands.Choice[str]]:
    """At most 25 choices: ``Spring Open (running)`` → ``Spring Open``."""
    return [
        app_commands.Choice(name=_clip(f"{t.name} ({t.status.value})"), value=t.name)
        for t in found[:MAX_CHOICES]
    ]


def player_choices(found: Sequence[PlayerInfo]) -> list[app_commands.Choice[str]]:
    """At most 25 choices: ``#3 Carol Example (1650)`` → ``#3``."""
    choices = []
    for p in found[:MAX_CHOICES]:
        rating = f" ({p.rating})" if p.rating else ""
        choices.append(app_commands.Choice(name=_clip(f"{p.label}{rating}"), value=f"#{p.number}"))
    return choices


async def tournament_autocomplete(
    interaction: discord.Interaction[discord.Client], current: str
) -> list[app_commands.Choice[str]]:
    """The server's tournaments whose name contains what was typed, newest first."""
    try:
        store = bot_store(interaction)
        found = await store.tournaments(guild_of(interaction), typed=current, limit=MAX_CHOICES)
    except (StoreError, UserError):
        return []
    return tournament_choices(found)


async def player_autocomplete(
    interaction: discord.Interaction[discord.Client], current: str
) -> list[app_commands.Choice[str]]:
    """Players of the tournament chosen in the same command (or the obvious one) whose name
    or starting number contains what was typed."""
    try:
        store = bot_store(interaction)
        guild = guild_of(interaction)
        named = getattr(interaction.namespace, "tournament", None)
        tournament = await pick_tournament(store, guild, named if isinstance(named, str) else None)
        found = await store.players(guild, tournament.name, typed=current, limit=MAX_CHOICES)
    except (StoreError, UserError):
        return []
    return player_choices(found)
