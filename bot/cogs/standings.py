"""Reading a tournament: ``/standings`` (paginated), ``/crosstable`` (files), ``/why`` (an
explanation, details on request) and ``/tiebreaks`` (the order in words).

A tournament linked to a Google Sheet answers ``/standings``, ``/crosstable`` and ``/why``
from the sheet (see :mod:`bot.sheetlink`)."""

from __future__ import annotations

from discord import app_commands

from bot import answers, pictures, render
from bot.awards import open_counts
from bot.buttons import standings_buttons, why_buttons
from bot.cogs.base import HarknessCog
from bot.lookup import RUNNING_FIRST, RUNNING_HELP, RunningFirst, player_autocomplete
from bot.pictures import DEFAULT_THEME, Theme
from bot.render_awards import award_lines, provisional_note
from bot.respond import Interaction, public, reply
from bot.sheetlink import links_of
from bot.store import DiscordUser, PlayerRef
from core.limits import shorten

THEME_HELP = "Picture colours: Discord's dark theme (default) or light"


class StandingsCog(HarknessCog, name="Standings"):
    """``/standings``, ``/crosstable``, ``/why`` and ``/tiebreaks``."""

    @app_commands.command(
        name="standings", description="The ranked table with tiebreaks", extras=public()
    )
    @app_commands.guild_only()
    @app_commands.describe(
        tournament=RUNNING_HELP,
        after_round="The standings as they were after this round",
        theme=THEME_HELP,
    )
    async def standings(
        self,
        interaction: Interaction,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
        after_round: app_commands.Range[int, 1, 99] | None = None,
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        found = await tournament.pick(interaction)
        view, pages = await answers.standings(
            self.store, found.guild, found.name, after_round, links_of(interaction), found
        )
        picture = await pictures.standings_page(view, pages.pages, 0, theme)
        await reply(
            interaction,
            embed=pages.embed(0, picture),
            files=[picture] if picture else [],
            view=standings_buttons(found.id, view.after_round, 0, len(pages.pages)),
        )

    @app_commands.command(
        name="crosstable",
        description="The full crosstable as text and CSV files",
        extras=public(),
    )
    @app_commands.guild_only()
    @app_commands.describe(tournament=RUNNING_HELP, theme=THEME_HELP)
    async def crosstable(
        self,
        interaction: Interaction,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        found = await tournament.pick(interaction)
        table = await answers.crosstable(self.store, found.guild, found, links_of(interaction))
        base = f"{render.slug(found.name)}-crosstable"
        picture = (
            await pictures.crosstable(table.standings, base, theme, found.guild)
            if table.standings is not None
            else None
        )
        what = (
            "the TD's results merged with the confirmed Discord reports"
            if found.sheet and not table.source.startswith("Discord")
            else "provisional results included, disputed ones left out"
        )
        source = f"\n_{render.plain(table.source)}_" if table.source else ""
        await reply(
            interaction,
            f"📋 Crosstable of **{render.plain(found.name)}** after "
            f"{table.rounds} of {table.planned} "
            f"rounds, {table.players} players ({what}).{source}",
            files=[
                *([picture] if picture else []),
                render.text_file(f"{base}.txt", table.text, "Crosstable (text)"),
                render.text_file(f"{base}.csv", table.csv, "Crosstable (CSV)"),
            ],
        )

    @app_commands.command(
        name="why", description="Why a player is where they are: place, tiebreaks, neighbours"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        player="Whom to explain (default: you)",
        tournament=RUNNING_HELP,
        after_round="Explain the standings after this round",
        theme=THEME_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete)
    async def why(
        self,
        interaction: Interaction,
        player: str | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
        after_round: app_commands.Range[int, 1, 99] | None = None,
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        found = await tournament.pick(interaction)
        who: PlayerRef = player if player else DiscordUser(str(interaction.user.id))
        why = await answers.why(
            self.store,
            found.guild,
            found.name,
            who,
            after_round,
            links_of(interaction),
            interaction.user.name,
        )
        view = why_buttons(found.id, why.number, why.after_round) if why.markdown.details else None
        text = render.why_summary(why.markdown, why.marked)
        award = why.explanation.award
        if award is not None:  # the award's reasons under its headline (in the summary)
            note = ""
            if not why.source:
                table = await self.store.standings(
                    found.guild, found.name, after_round=why.after_round
                )
                note = provisional_note(*open_counts(table))
            room = render.MESSAGE_MAX - len(text) - 1
            text = render.with_line(text, award_lines(award, award.currency, note, room))
        if why.source:
            text = shorten(f"{text}\n_{render.plain(why.source)}_", render.MESSAGE_MAX)
        picture = (
            await pictures.why(why.standings, why.explanation, theme, found.guild, why.stamp)
            if why.standings is not None
            else None
        )
        await reply(interaction, text, files=[picture] if picture else [], view=view)

    @app_commands.command(
        name="tiebreaks", description="The tournament's tiebreak order in plain words"
    )
    @app_commands.guild_only()
    @app_commands.describe(tournament=RUNNING_HELP)
    async def tiebreaks(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        rules = await answers.tiebreak_order(self.store, found.guild, found, links_of(interaction))
        await reply(
            interaction,
            embed=render.tiebreak_order(
                found, rules.description, rules.order, rules.rules, rules.variants
            ),
        )
