"""Prizes and awards: ``/prizes …`` (a TD sets the prize list: from a prize file, one prize
at a time, the method, and each player's categories, team and personal limit) and
``/awards`` (the award list, for everyone).

The prize list is the tournament's (:mod:`bot.store.awards`), checked by the prize file's
rules; the awards are core's (:mod:`bot.awards`); the words are core's
(:mod:`bot.render_awards`).
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot import pictures, render
from bot.awards import award_list, no_prizes
from bot.checks import bot_store, in_servers, td_of, td_only
from bot.cogs.base import HarknessCog
from bot.errors import UserError
from bot.lookup import (
    RUNNING_FIRST,
    RUNNING_HELP,
    RunningFirst,
    player_autocomplete,
    tournament_being_typed,
)
from bot.pictures import DEFAULT_THEME, Theme
from bot.render_awards import award_embed, prize_line, prize_list_embed
from bot.respond import Interaction, more, public, reply
from bot.sheetlink import links_of
from bot.store import StoreError, TournamentInfo
from core.awards import Method, PrizeList
from core.awards.fields import KIND_KEYS
from core.awards.writer import write_prizes
from core.limits import MAX_PRIZE_FILE_BYTES, shorten
from core.numbers import money

METHOD_CHOICES = [app_commands.Choice(name=m.value, value=m.value) for m in Method]
KIND_CHOICES = [app_commands.Choice(name=k, value=k) for k in KIND_KEYS]


def prize_file(info: TournamentInfo, prizes: PrizeList) -> discord.File:
    """The prize list as a prize file (TOML), to keep, edit and load again."""
    return render.text_file(f"{render.slug(info.name)}-prizes.toml", write_prizes(prizes), "Prizes")


def _counted(prizes: PrizeList) -> str:
    """``8 prizes, method us-chess; 2 categories, 3 teams, 1 personal limit``."""

    def many(n: int, one: str, more: str) -> str:
        return f"{n} {one if n == 1 else more}"

    marks = [
        many(len(table), one, more)
        for table, one, more in (
            (prizes.categories, "category", "categories"),
            (prizes.teams, "team", "teams"),
            (prizes.limits, "personal limit", "personal limits"),
        )
        if table
    ]
    text = f"{many(len(prizes.prizes), 'prize', 'prizes')}, method {prizes.method.value}"
    return text + (f"; {', '.join(marks)}" if marks else "")


async def prize_autocomplete(
    interaction: Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The prizes of the tournament being typed whose name contains what was typed."""
    try:
        info = await tournament_being_typed(interaction).pick(interaction)
        names = await bot_store(interaction).prizes.prize_names(info.guild, info.name, current)
    except (StoreError, UserError):
        return []
    return [app_commands.Choice(name=shorten(n, 100), value=shorten(n, 100)) for n in names[:25]]


class Awards(HarknessCog, name="Awards"):
    """``/prizes`` and ``/awards``."""

    prizes = app_commands.Group(
        name="prizes",
        description="The prize list: see it, or set it (TD)",
        guild_only=True,
        allowed_contexts=in_servers(),
    )

    @prizes.command(
        name="load", description="Set the prizes from a prize file (TD)", extras=public()
    )
    @td_only("set the prizes")
    @app_commands.describe(file="A prize file (.toml)", tournament=RUNNING_HELP)
    async def load(
        self,
        interaction: Interaction,
        file: discord.Attachment,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        name = shorten(file.filename, 100)
        if file.size > MAX_PRIZE_FILE_BYTES:  # Discord says the size: nothing is downloaded
            raise UserError(
                f"{name} is {file.size // 1024:,} KB: a prize file has at most "
                f"{MAX_PRIZE_FILE_BYTES // 1024} KB"
            )
        try:
            data = await file.read()
        except discord.HTTPException:
            raise UserError(
                f"{name} could not be downloaded from Discord; please try again"
            ) from None
        prizes = await self.store.prizes.load(
            found.guild, found.name, td_of(interaction), data, name
        )
        await reply(
            interaction,
            f"🏅 The prizes of **{render.plain(found.name)}** are set from `{name}`: "
            f"{_counted(prizes)}. `/prizes list` shows them; `/awards` gives the award list.",
        )

    @prizes.command(
        name="add", description="Add one prize at the end of the list (TD)", extras=public()
    )
    @td_only("set the prizes")
    @app_commands.describe(
        name="The prize's name, e.g. 1st U1800",
        kind="Who may win it",
        value="Place: 3 · class: 1800-1999 · under: 2000 (or 2000 from 1800) · category: youth",
        amount="Cash, e.g. 150 or 162.50 (leave out for a trophy alone)",
        trophy="A trophy goes with it",
        rank="Its rank within its class, under or category ladder (default 1)",
        additive="Won in addition to any other prize",
        team="A team prize (place prizes only)",
        tournament=RUNNING_HELP,
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def add(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        kind: str,
        value: app_commands.Range[str, 1, 100] | None = None,
        amount: app_commands.Range[str, 1, 30] | None = None,
        trophy: bool | None = None,
        rank: app_commands.Range[int, 1, 500] | None = None,
        additive: bool | None = None,
        team: bool | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        given = {
            "name": name,
            "kind": kind,
            "value": value,
            "amount": amount,
            "trophy": None if trophy is None else ("yes" if trophy else "no"),
            "rank": None if rank is None else str(rank),
            "additive": None if additive is None else ("yes" if additive else "no"),
            "team": None if team is None else ("yes" if team else "no"),
        }
        cells = {k: v for k, v in given.items() if v is not None}
        change = await self.store.prizes.add(found.guild, found.name, td_of(interaction), cells)
        assert change.prize is not None
        await reply(
            interaction,
            f"🏅 Added to the prizes of **{render.plain(found.name)}**: "
            f"{prize_line(change.prize, change.prizes.currency)} "
            f"(prize {len(change.prizes.prizes)}).",
        )

    @prizes.command(name="remove", description="Take a prize off the list (TD)", extras=public())
    @td_only("set the prizes")
    @app_commands.describe(name="The prize's name", tournament=RUNNING_HELP)
    @app_commands.autocomplete(name=prize_autocomplete)
    async def remove(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        change = await self.store.prizes.remove(found.guild, found.name, td_of(interaction), name)
        assert change.prize is not None
        await reply(
            interaction,
            f"🏅 Removed **{render.plain(change.prize.name)}** from the prizes of "
            f"**{render.plain(found.name)}** ({len(change.prizes.prizes)} left).",
        )

    @prizes.command(
        name="options", description="How cash is divided and shown (TD)", extras=public()
    )
    @td_only("set the prizes")
    @app_commands.describe(
        method="us-chess: ties pool and split (32B) · -2003: no cap · fide-…: FIDE ways",
        currency="Shown with amounts: $, EUR…",
        trophy_follows_money="A cash prize's trophy goes to the winner of its cash",
        team_size="How many of a team's players count (default 4)",
        tournament=RUNNING_HELP,
    )
    @app_commands.rename(trophy_follows_money="trophy-follows-money", team_size="team-size")
    @app_commands.choices(method=METHOD_CHOICES)
    async def options(
        self,
        interaction: Interaction,
        method: str | None = None,
        currency: app_commands.Range[str, 0, 10] | None = None,
        trophy_follows_money: bool | None = None,
        team_size: app_commands.Range[int, 2, 100] | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        prizes = await self.store.prizes.set_options(
            found.guild,
            found.name,
            td_of(interaction),
            method=method,
            currency=currency,
            trophy_follows_money=trophy_follows_money,
            team_count=team_size,
        )
        shown = f"currency {render.plain(prizes.currency)}" if prizes.currency else "no currency"
        follows = (
            "a trophy follows its money" if prizes.trophy_follows_money else "trophies by standings"
        )
        await reply(
            interaction,
            f"🏅 The prizes of **{render.plain(found.name)}**: method {prizes.method.value}, "
            f"{shown}, {follows}, teams count their first {prizes.team_count}.",
        )

    @prizes.command(name="player", description="Mark a player's categories, team, limit (TD)")
    @td_only("mark players for the prizes")
    @app_commands.describe(
        player="The player (name or #number)",
        categories="e.g. youth, senior ('none' clears)",
        team="The player's team ('none' clears)",
        limit="Personal cash limit; 0: not prize-eligible ('none' clears)",
        tournament=RUNNING_HELP,
    )
    @app_commands.autocomplete(player=player_autocomplete)
    async def player(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 100],
        categories: app_commands.Range[str, 1, 300] | None = None,
        team: app_commands.Range[str, 1, 100] | None = None,
        limit: app_commands.Range[str, 1, 30] | None = None,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
    ) -> None:
        found = await tournament.pick(interaction)
        change = await self.store.prizes.mark(
            found.guild,
            found.name,
            td_of(interaction),
            player,
            categories=categories,
            team=team,
            limit=limit,
        )
        who, prizes = change.player, change.prizes
        assert who is not None
        named = [c for c, ids in prizes.categories.items() if who.number in ids]
        team_of = next((t for t, ids in prizes.teams.items() if who.number in ids), None)
        cap = prizes.limits.get(who.number)
        parts = [
            f"categories {', '.join(render.plain(c) for c in named)}" if named else "no categories",
            f"team {render.plain(team_of)}" if team_of else "no team",
            "no personal limit"
            if cap is None
            else "not prize-eligible (limit 0)"
            if cap == 0
            else f"limit {render.plain(money(cap, prizes.currency))}",
        ]
        await reply(
            interaction,
            f"🏅 {render.plain(who.label)} in **{render.plain(found.name)}**: {'; '.join(parts)}.",
        )

    @prizes.command(
        name="list", description="The prize list as set, and its prize file", extras=public()
    )
    @app_commands.describe(tournament=RUNNING_HELP)
    async def list_(
        self, interaction: Interaction, tournament: RunningFirst = RUNNING_FIRST.obvious
    ) -> None:
        found = await tournament.pick(interaction)
        prizes = await self.store.prizes.get(found.guild, found.name)
        if prizes is None:
            raise no_prizes(found)
        players = await self.store.players(found.guild, found.name)
        await reply(
            interaction,
            embed=prize_list_embed(found, prizes, players),
            files=[prize_file(found, prizes)],
        )

    @app_commands.command(
        name="awards", description="Who wins which prize, trophy and team title", extras=public()
    )
    @app_commands.guild_only()
    @app_commands.describe(
        tournament=RUNNING_HELP,
        after_round="The awards as they would have been after this round",
        theme="Picture colours: Discord's dark theme (default) or light",
    )
    async def awards(
        self,
        interaction: Interaction,
        tournament: RunningFirst = RUNNING_FIRST.obvious,
        after_round: app_commands.Range[int, 1, 99] | None = None,
        theme: Theme = DEFAULT_THEME,
    ) -> None:
        found = await tournament.pick(interaction)
        answer = await award_list(self.store, found, after_round, links_of(interaction))
        picture = await pictures.awards(
            answer.awards, f"{render.slug(found.name)}-awards", theme, found.guild
        )
        await reply(
            interaction, embed=award_embed(answer, picture), files=[picture] if picture else []
        )


async def post_awards(interaction: Interaction, found: TournamentInfo) -> None:
    """After a TD finishes a tournament with a prize list: the award list, posted to the
    channel (with the picture). Nothing when no prize list applies, or there are no results
    to award (the finish itself was answered)."""
    store = bot_store(interaction)
    info = await store.tournament(found.guild, found.name)
    try:
        answer = await award_list(store, info, None, links_of(interaction))
    except (StoreError, UserError):
        return
    picture = await pictures.awards(
        answer.awards, f"{render.slug(info.name)}-awards", DEFAULT_THEME, info.guild
    )
    await more(
        interaction,
        embeds=[award_embed(answer, picture)],
        files=[picture] if picture else [],
        ephemeral=False,
    )
