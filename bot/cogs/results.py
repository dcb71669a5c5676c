"""Results: ``/report`` (a member's own game, which the opponent confirms or disputes with
buttons) and ``/result …`` (tournament directors set games and byes, undo changes, and see
the games still open and the audit trail).

On a tournament linked to a Google Sheet, each answer that makes a result final says
whether it reached the sheet or is pending (see :mod:`bot.sheetlink`)."""

from __future__ import annotations

from discord import app_commands

from bot import render
from bot.buttons import report_buttons, settle_reports
from bot.checks import actor, in_servers, td_of, td_only
from bot.cogs.base import HarknessCog
from bot.lookup import (
    RUNNING_FIRST,
    RUNNING_HELP,
    RUNNING_ONLY,
    RunningFirst,
    RunningOnly,
    player_autocomplete,
)
from bot.respond import Interaction, public, reply, thinking
from bot.sheetlink import landed_line, links_of
from bot.store import Outcome, ResultStatus

RESULT_CHOICES = [
    app_commands.Choice(name="I won (1-0)", value="win"),
    app_commands.Choice(name="Draw (½-½)", value="draw"),
    app_commands.Choice(name="I lost (0-1)", value="loss"),
    app_commands.Choice(name="I won by forfeit (+/-)", value="forfeit win"),
    app_commands.Choice(name="I lost by forfeit (-/+)", value="forfeit loss"),
]
TD_RESULT_CHOICES = [
    app_commands.Choice(name="Player won (1-0)", value="win"),
    app_commands.Choice(name="Draw (½-½)", value="draw"),
    app_commands.Choice(name="Player lost (0-1)", value="loss"),
    app_commands.Choice(name="Player won by forfeit (+/-)", value="forfeit win"),
    app_commands.Choice(name="Player lost by forfeit (-/+)", value="forfeit loss"),
    app_commands.Choice(name="Neither came: double forfeit (-/-)", value="double forfeit"),
]
COLOUR_CHOICES = [
    app_commands.Choice(name="White", value="white"),
    app_commands.Choice(name="Black", value="black"),
]
BYE_CHOICES = [
    app_commands.Choice(name="Full-point bye (1)", value="full"),
    app_commands.Choice(name="Half-point bye (½)", value="half"),
    app_commands.Choice(name="Zero-point bye (0)", value="zero"),
    app_commands.Choice(name="Pairing-allocated bye (1)", value="pairing"),
]


def _pending_report(outcome: Outcome) -> int | None:
    """The report the opponent still has to answer, if any (a new one, or the member's
    earlier identical report)."""
    game = outcome.game
    if game is None or outcome.status is not ResultStatus.PROVISIONAL:
        return None
    if outcome.event is not None:
        return outcome.event.seq
    mine = [c.seq for c in game.claims if c.by.id == game.player.id]
    return mine[-1] if mine else None


class Results(HarknessCog):
    """``/report`` and ``/result``."""

    result = app_commands.Group(
        name="result",
        description="Set and correct results (TD)",
        guild_only=True,
        allowed_contexts=in_servers(),
    )

    @app_commands.command(
        name="report", description="Report the result of your own game", extras=public()
    )
    @app_commands.guild_only()
    @app_commands.describe(
        round="The round the game was played in",
        result="The result from your side",
        opponent="Your opponent (default: the one on your published board)",
        colour="The colour you played (default: your published board's)",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(result=RESULT_CHOICES, colour=COLOUR_CHOICES)
    @app_commands.autocomplete(opponent=player_autocomplete)
    async def report(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99],
        result: str,
        opponent: str | None = None,
        colour: str | None = None,
        tournament: RunningOnly = RUNNING_ONLY.obvious,
    ) -> None:
        store = self.store
        found = await tournament.pick(interaction)
        guild = found.guild
        who = await actor(store, interaction)
        outcome = await store.report(
            guild, found.name, who, round=round, opponent=opponent, result=result, colour=colour
        )
        text = render.with_line(
            render.report_message(outcome, who.name),
            await landed_line(interaction, guild, found, outcome),
        )
        pending = _pending_report(outcome)
        game = outcome.game
        mention = (
            [int(game.opponent.discord_id)]
            if pending is not None and game is not None and game.opponent.discord_id
            else []
        )
        view = report_buttons(found.id, pending) if pending is not None else None
        if pending is not None and outcome.event is not None and pending == outcome.event.seq:
            # Where the buttons will be, kept before anyone can see them (and answer).
            placeholder = await thinking(interaction)
            await store.remember_report_message(
                guild, found.name, pending, str(placeholder.channel.id), str(placeholder.id)
            )
        await settle_reports(interaction, found.name, outcome, who.name)
        await reply(interaction, text, view=view, mention=mention)

    @result.command(name="set", description="Set the result of any game (TD)", extras=public())
    @td_only("set results")
    @app_commands.describe(
        round="The round",
        player="One player: name or starting number",
        opponent="The other player",
        result="The result from the first player's side",
        colour="The colour the first player had (optional)",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(result=TD_RESULT_CHOICES, colour=COLOUR_CHOICES)
    @app_commands.autocomplete(player=player_autocomplete, opponent=player_autocomplete)
    async def set_(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99],
        player: str,
        opponent: str,
        result: str,
        colour: str | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        who = td_of(interaction)
        found = await tournament.pick(interaction)
        outcome = await self.store.set_result(
            found.guild,
            found.name,
            who,
            round=round,
            player=player,
            opponent=opponent,
            result=result,
            colour=colour,
        )
        await reply(
            interaction,
            render.with_line(
                f"🛠️ {render.plain(outcome.message)} (by {render.plain(who.name)}, TD)",
                await landed_line(interaction, found.guild, found, outcome),
            ),
        )

    @result.command(name="bye", description="Give a player a bye in a round (TD)", extras=public())
    @td_only("give byes")
    @app_commands.describe(
        round="The round",
        player="The player: name or starting number",
        kind="Which bye (default: full point)",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(kind=BYE_CHOICES)
    @app_commands.autocomplete(player=player_autocomplete)
    async def bye(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99],
        player: str,
        kind: str = "full",
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        who = td_of(interaction)
        found = await tournament.pick(interaction)
        outcome = await self.store.set_bye(
            found.guild, found.name, who, round=round, player=player, kind=kind
        )
        await reply(
            interaction,
            render.with_line(
                f"🛠️ {render.plain(outcome.message)} (by {render.plain(who.name)}, TD)",
                await landed_line(interaction, found.guild, found, outcome),
            ),
        )

    @result.command(
        name="undo", description="Undo the last change, or change number N (TD)", extras=public()
    )
    @td_only("undo changes")
    @app_commands.describe(
        event="The change to undo, as numbered in /result history (default: the last one)",
        tournament=RUNNING_HELP,
    )
    async def undo(
        self,
        interaction: Interaction,
        event: app_commands.Range[int, 1, 1_000_000] | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        outcome = await self.store.undo(found.guild, found.name, td_of(interaction), event)
        await reply(
            interaction,
            render.with_line(
                f"↩️ {render.plain(outcome.message)}",
                await landed_line(interaction, found.guild, found, outcome),
            ),
        )

    @result.command(name="open", description="Games waiting for a confirmation or a TD")
    @app_commands.describe(tournament=RUNNING_HELP)
    async def open_(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        links = links_of(interaction)
        conflicts = await links.conflict_lines(found.guild, found) if links is not None else []
        games = await self.store.open_games(found.guild, found.name)
        await reply(interaction, embed=render.open_games(found, games, conflicts))

    @result.command(name="history", description="Who changed which result, and when")
    @app_commands.describe(
        round="Only this round",
        player="Only this player's games",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete)
    async def history(
        self,
        interaction: Interaction,
        round: app_commands.Range[int, 1, 99] | None = None,
        player: str | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        events = await self.store.history(
            found.guild, found.name, round=round, player=player, limit=60
        )
        await reply(interaction, embed=render.history(found, events))
