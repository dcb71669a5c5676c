"""Finding what a member means: the tournament (named, or the obvious one) and players,
and the autocomplete answers that help them type it.

A command's ``tournament`` option is a :class:`Stage` (an ``app_commands.Transformer``):
the stages of a tournament the command looks at, in its order of preference (``running``
first for most commands). It offers the server's tournaments in that order as the member
types, and hands the command a :class:`TournamentChoice`, which the command picks after the
interaction is acknowledged (:meth:`TournamentChoice.pick`). When the option is left out,
the server's tournaments are looked at stage by stage: if exactly one is in the first stage
that has any, it is the one; if several are, the member is asked to name one::

    async def standings(self, interaction, tournament: RunningFirst = RUNNING_FIRST.obvious):
        found = await tournament.pick(interaction)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.checks import bot_store, guild_of
from bot.errors import UserError
from bot.store import PlayerInfo, Store, StoreError, TournamentInfo, TournamentStatus
from core.limits import shorten

log = logging.getLogger("harkness.bot")

Interaction = discord.Interaction[discord.Client]

#: Discord's limits for autocomplete: 25 choices, names and values of at most 100 characters.
MAX_CHOICES = 25
CHOICE_TEXT = 100


@dataclass(frozen=True, slots=True)
class TournamentChoice:
    """The tournament a member meant: the name typed in the tournament option, or None
    (left out: the obvious one in the command's ``stage``)."""

    typed: str | None
    stage: Stage

    async def pick(self, interaction: Interaction) -> TournamentInfo:
        """The tournament, looked up in the server's store (after the interaction is
        acknowledged: this reads the database)."""
        return await pick_tournament(
            bot_store(interaction), guild_of(interaction), self.typed, self.stage
        )


class Stage(app_commands.Transformer[discord.Client]):
    """The tournament option of a command that looks at tournaments in ``statuses`` (in
    that order of preference) when none is named; its autocomplete offers the tournaments
    in those stages first. ``obvious`` is the option left out."""

    def __init__(self, *statuses: TournamentStatus) -> None:
        self.statuses = statuses
        self.obvious = TournamentChoice(None, self)

    def __repr__(self) -> str:
        return f"Stage({', '.join(s.value for s in self.statuses)})"

    async def transform(self, interaction: Interaction, value: Any, /) -> TournamentChoice:
        return TournamentChoice(str(value), self)

    async def autocomplete(  # type: ignore[override]  # discord.py's is for any option type
        self, interaction: Interaction, value: str, /
    ) -> list[app_commands.Choice[str]]:
        """The server's tournaments whose name contains what was typed: this stage's
        first (in its order), newest first within a stage."""
        try:
            found = await staged(bot_store(interaction), guild_of(interaction), value, self)
        except (StoreError, UserError):
            return []
        return tournament_choices(found)


RUNNING_FIRST = Stage(
    TournamentStatus.RUNNING, TournamentStatus.REGISTERING, TournamentStatus.FINISHED
)
OPEN_FIRST = Stage(TournamentStatus.REGISTERING, TournamentStatus.RUNNING)
RUNNING_ONLY = Stage(TournamentStatus.RUNNING)
REGISTERING_ONLY = Stage(TournamentStatus.REGISTERING)
#: The tournament option's help, as the stage its command prefers says it.
RUNNING_HELP = "Which tournament (default: the running one)"
REGISTERING_HELP = "Which tournament (default: the one registering players)"

#: The tournament option, by the stages its command looks at (with the matching default:
#: ``tournament: RunningFirst = RUNNING_FIRST.obvious``).
RunningFirst = app_commands.Transform[TournamentChoice, RUNNING_FIRST]
OpenFirst = app_commands.Transform[TournamentChoice, OPEN_FIRST]
RunningOnly = app_commands.Transform[TournamentChoice, RUNNING_ONLY]
RegisteringOnly = app_commands.Transform[TournamentChoice, REGISTERING_ONLY]


async def pick_tournament(
    store: Store, guild: str, name: str | None, prefer: Stage = RUNNING_FIRST
) -> TournamentInfo:
    """The tournament called ``name``, or the only one in the first preferred stage."""
    if name and name.strip():
        return await store.tournament(guild, name)
    for status in prefer.statuses:
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
    stages = " or ".join(s.value for s in prefer.statuses)
    raise UserError(
        f"there is no {stages} tournament here: name one with the tournament "
        "option (/tournament list shows them all)"
    )


async def staged(store: Store, guild: str, typed: str, stage: Stage) -> list[TournamentInfo]:
    """At most 25 of the server's tournaments whose name contains ``typed``: those in
    ``stage`` first, in its order, then the others; newest first within a stage."""
    order = [*stage.statuses, *(s for s in TournamentStatus if s not in stage.statuses)]
    found: list[TournamentInfo] = []
    for status in order:
        room = MAX_CHOICES - len(found)
        if room <= 0:
            break
        found += await store.tournaments(guild, typed=typed, status=status, limit=room)
    return found


def tournament_choices(found: Sequence[TournamentInfo]) -> list[app_commands.Choice[str]]:
    """At most 25 choices: ``Spring Open (running)`` → ``Spring Open``."""
    return [
        app_commands.Choice(name=shorten(f"{t.name} ({t.status.value})", CHOICE_TEXT), value=t.name)
        for t in found[:MAX_CHOICES]
    ]


def player_choices(found: Sequence[PlayerInfo]) -> list[app_commands.Choice[str]]:
    """At most 25 choices: ``#3 Carol Example (1650)`` → ``#3``."""
    choices = []
    for p in found[:MAX_CHOICES]:
        rating = f" ({p.rating})" if p.rating else ""
        choices.append(
            app_commands.Choice(
                name=shorten(f"{p.label}{rating}", CHOICE_TEXT), value=f"#{p.number}"
            )
        )
    return choices


def tournament_being_typed(interaction: Interaction) -> TournamentChoice:
    """The tournament of the command being typed: what its tournament option says so far,
    else the command's obvious one (running first when the command has no such option)."""
    obvious = RUNNING_FIRST.obvious
    command = interaction.command
    if isinstance(command, app_commands.Command):
        parameter = command.get_parameter("tournament")
        if parameter is not None and isinstance(parameter.default, TournamentChoice):
            obvious = parameter.default
    typed = getattr(interaction.namespace, "tournament", None)
    return TournamentChoice(typed, obvious.stage) if isinstance(typed, str) else obvious


async def player_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Players of the tournament chosen in the same command (or the one the command would
    pick) whose name or starting number contains what was typed."""
    try:
        tournament = await tournament_being_typed(interaction).pick(interaction)
        found = await bot_store(interaction).players(
            tournament.guild, tournament.name, typed=current, limit=MAX_CHOICES
        )
    except (StoreError, UserError):
        return []
    return player_choices(found)
