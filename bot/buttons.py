"""Buttons that keep working after the bot restarts.

Each button is a :class:`discord.ui.DynamicItem`: everything it needs is in its custom_id
(``harkness:confirm:<tournament id>:<report seq>``), and the bot registers the templates at
start-up (:func:`register`), so a Confirm button pressed a week later, after any number of
restarts, still confirms the right report. Nothing is kept in memory between clicks.

- **Confirm** / **Dispute** on a reported game: the opponent (or a TD) answers the report.
- **Previous** / **Next** on a standings page.
- **Show details** under a ``/why`` summary: the tiebreaks round by round.
- **Link** under the code ``/tournament link-sheet`` gave a TD: the sheet now names the
  server (an editor typed the code into it), so link it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot import answers, pictures, render
from bot.checks import actor, bot_store, guild_of, td_actor
from bot.errors import acknowledged, answer_error, arrived
from bot.fairshare import taking_turn
from bot.respond import Interaction, more, reply
from bot.sheetlink import Linking, links_of, links_or_refusal
from bot.store import Outcome, ResultStatus

Button = discord.ui.Button[discord.ui.View]
log = logging.getLogger("harkness.bot")
PREFIX = "harkness"


async def guarded(
    interaction: Interaction,
    name: str,
    work: Callable[[Interaction], Awaitable[None]],
    *,
    ephemeral: bool = False,
) -> None:
    """Acknowledge a click (privately, ``ephemeral``, when the answer is a new message only
    the member sees), take one of its server's turns (:mod:`bot.fairshare`), then run the
    button's work; anything that goes wrong is answered by the one error handler. The
    click is counted as ``name`` in the metrics, like a slash command."""
    arrived(interaction, name)
    try:
        await acknowledge_click(interaction, ephemeral=ephemeral)
        await taking_turn(interaction)
        await work(interaction)
    except Exception as error:  # every error is answered and logged there
        await answer_error(interaction, error)


async def acknowledge_click(interaction: Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge a click at once (the answer edits the message, or follows privately),
    timed in the metrics like a slash command's acknowledgement."""
    await interaction.response.defer(ephemeral=ephemeral, thinking=ephemeral)
    acknowledged(interaction)


# -- Confirm / Dispute -------------------------------------------------------------------


def _verdict(outcome: Outcome, by: str) -> str:
    icon = {ResultStatus.CONFIRMED: "✅", ResultStatus.DISPUTED: "⚠️"}.get(
        outcome.status or ResultStatus.PROVISIONAL, "⏳"
    )
    text = f"{icon} {render.plain(outcome.message)} — {render.plain(by)}"
    if outcome.status is ResultStatus.DISPUTED:
        text += "\nA TD decides with `/result set`."
    return text


async def _answer_report(
    interaction: Interaction, tournament_id: int, report: int, confirm: bool
) -> None:
    store, guild = bot_store(interaction), guild_of(interaction)
    info = await answers.tournament_by_id(store, guild, tournament_id)
    who = await actor(store, interaction)
    if confirm:
        outcome = await store.confirm(guild, info.name, who, report)
    else:
        outcome = await store.dispute(guild, info.name, who, report)
    verdict = _verdict(outcome, who.name)
    links = links_of(interaction)
    if outcome.outbox and outcome.event is not None and links is not None:
        verdict += "\n" + await links.landed(guild, info, outcome.event.seq)
    original = interaction.message.content if interaction.message is not None else ""
    await interaction.edit_original_response(
        content=render.answered_report(original, verdict),
        view=None,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def settle_reports(
    interaction: Interaction, info_name: str, outcome: Outcome, by: str
) -> None:
    """When a new report decides a game (the players agree: confirmed; or disagree:
    disputed), the earlier reports' messages lose their Confirm/Dispute buttons and say what
    became of them. A message that cannot be edited is logged and left."""
    game, event = outcome.game, outcome.event
    if game is None or event is None or outcome.status is ResultStatus.PROVISIONAL:
        return
    earlier = [c.seq for c in game.claims if c.seq != event.seq]
    if not earlier:
        return
    store, guild = bot_store(interaction), guild_of(interaction)
    verdict = _verdict(outcome, by)
    for seq, channel, message in await store.report_messages(guild, info_name, earlier):
        try:
            partial = interaction.client.get_partial_messageable(int(channel))
            found = await partial.get_partial_message(int(message)).fetch()
            await found.edit(
                content=render.answered_report(found.content, verdict),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException as error:
            log.warning(
                "the message of report #%d was not updated: %s",
                seq,
                error,
                extra={"guild_id": guild},
            )


class ConfirmButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:confirm:(?P<tournament>\d+):(?P<report>\d+)",
):
    """The opponent (or a TD) confirms report ``report``."""

    def __init__(self, tournament: int, report: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Confirm",
                emoji="✅",
                style=discord.ButtonStyle.success,
                custom_id=f"{PREFIX}:confirm:{tournament}:{report}",
            )
        )
        self.tournament = tournament
        self.report = report

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmButton:
        return cls(int(match["tournament"]), int(match["report"]))

    async def callback(self, interaction: Interaction) -> None:
        await guarded(
            interaction,
            "button confirm",
            lambda i: _answer_report(i, self.tournament, self.report, True),
        )


class DisputeButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:dispute:(?P<tournament>\d+):(?P<report>\d+)",
):
    """The opponent (or a TD) disputes report ``report``: a TD will decide."""

    def __init__(self, tournament: int, report: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Dispute",
                emoji="⚠️",
                style=discord.ButtonStyle.danger,
                custom_id=f"{PREFIX}:dispute:{tournament}:{report}",
            )
        )
        self.tournament = tournament
        self.report = report

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DisputeButton:
        return cls(int(match["tournament"]), int(match["report"]))

    async def callback(self, interaction: Interaction) -> None:
        await guarded(
            interaction,
            "button dispute",
            lambda i: _answer_report(i, self.tournament, self.report, False),
        )


def report_buttons(tournament: int, report: int) -> discord.ui.View:
    """Confirm and Dispute for report ``report``."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(tournament, report))
    view.add_item(DisputeButton(tournament, report))
    return view


# -- standings pages ---------------------------------------------------------------------


class StandingsPageButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:standings:(?P<tournament>\d+):(?P<round>\d+):(?P<page>\d+)"
    r":(?P<direction>[pn])",
):
    """Turns a standings message to page ``page`` (standings after round ``round``)."""

    def __init__(
        self, tournament: int, after_round: int, page: int, previous: bool, disabled: bool = False
    ) -> None:
        direction = "p" if previous else "n"
        super().__init__(
            discord.ui.Button(
                label="Previous" if previous else "Next",
                emoji="◀️" if previous else "▶️",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"{PREFIX}:standings:{tournament}:{after_round}:{page}:{direction}",
            )
        )
        self.tournament = tournament
        self.after_round = after_round
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StandingsPageButton:
        return cls(
            int(match["tournament"]),
            int(match["round"]),
            int(match["page"]),
            match["direction"] == "p",
        )

    async def callback(self, interaction: Interaction) -> None:
        await guarded(interaction, "button standings page", self._turn)

    async def _turn(self, interaction: Interaction) -> None:
        store, guild = bot_store(interaction), guild_of(interaction)
        info = await answers.tournament_by_id(store, guild, self.tournament)
        standings, pages = await answers.standings(
            store, guild, info.name, self.after_round, links_of(interaction), info
        )
        page = max(0, min(self.page, len(pages.pages) - 1))
        picture = await pictures.standings_page(
            standings, pages.pages, page, pictures.theme_of(interaction.message)
        )
        await interaction.edit_original_response(
            embed=pages.embed(page, picture),
            attachments=[picture] if picture else [],
            view=standings_buttons(self.tournament, self.after_round, page, len(pages.pages)),
        )


def standings_buttons(tournament: int, after_round: int, page: int, pages: int) -> discord.ui.View:
    """Previous / Next for page ``page`` of ``pages`` (an empty view for a single page)."""
    view = discord.ui.View(timeout=None)
    if pages > 1:
        view.add_item(
            StandingsPageButton(tournament, after_round, max(page - 1, 0), True, disabled=page == 0)
        )
        view.add_item(
            StandingsPageButton(
                tournament, after_round, min(page + 1, pages - 1), False, disabled=page >= pages - 1
            )
        )
    return view


# -- /why details ------------------------------------------------------------------------


class WhyDetailsButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:why:(?P<tournament>\d+):(?P<player>\d+):(?P<round>\d+)",
):
    """Shows the tiebreaks of ``/why`` round by round, to whoever presses it."""

    def __init__(self, tournament: int, player: int, after_round: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Show details",
                emoji="🔎",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:why:{tournament}:{player}:{after_round}",
            )
        )
        self.tournament = tournament
        self.player = player
        self.after_round = after_round

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WhyDetailsButton:
        return cls(int(match["tournament"]), int(match["player"]), int(match["round"]))

    async def callback(self, interaction: Interaction) -> None:
        await guarded(interaction, "button why details", self._details, ephemeral=True)

    async def _details(self, interaction: Interaction) -> None:
        store, guild = bot_store(interaction), guild_of(interaction)
        info = await answers.tournament_by_id(store, guild, self.tournament)
        why = await answers.why(
            store,
            guild,
            info.name,
            self.player,
            self.after_round,
            links_of(interaction),
            interaction.user.name,
        )
        title = f"{render.plain(why.explanation.player.name)}: tiebreaks in detail"
        messages = render.why_details(title, why.markdown.details) or [
            [discord.Embed(title=title, description="No tiebreaks to show.")]
        ]
        first, *rest = messages
        await interaction.edit_original_response(embeds=first)
        for embeds in rest:
            await interaction.followup.send(embeds=embeds, ephemeral=True)


def why_buttons(tournament: int, player: int, after_round: int) -> discord.ui.View:
    """The "Show details" button under a ``/why`` summary."""
    view = discord.ui.View(timeout=None)
    view.add_item(WhyDetailsButton(tournament, player, after_round))
    return view


# -- Link (a sheet, once it names the server) ----------------------------------------------


class LinkSheetButton(
    discord.ui.DynamicItem[Button],
    template=rf"{PREFIX}:link:(?P<tournament>\d+):(?P<sheet>[A-Za-z0-9_-]+)",
):
    """A TD links tournament ``tournament`` to spreadsheet ``sheet``, once an editor of the
    sheet typed the code into it (the same as running ``/tournament link-sheet`` again)."""

    def __init__(self, tournament: int, sheet: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Link",
                emoji="🔗",
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:link:{tournament}:{sheet}",
            )
        )
        self.tournament = tournament
        self.sheet = sheet

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LinkSheetButton:
        return cls(int(match["tournament"]), match["sheet"])

    async def callback(self, interaction: Interaction) -> None:
        await guarded(interaction, "button link sheet", self._link, ephemeral=True)

    async def _link(self, interaction: Interaction) -> None:
        store, guild = bot_store(interaction), guild_of(interaction)
        td = await td_actor(store, interaction, "link a Google Sheet")
        info = await answers.tournament_by_id(store, guild, self.tournament)
        address = f"https://docs.google.com/spreadsheets/d/{self.sheet}/edit"
        linking = await links_or_refusal(interaction).link(guild, info, address, td)
        await answer_linking(interaction, info.id, linking)


def link_buttons(tournament: int, sheet: str) -> discord.ui.View | None:
    """The **Link** button for a code given to the TD (none when the custom id would pass
    Discord's 100 characters: the TD runs the command again instead)."""
    if len(f"{PREFIX}:link:{tournament}:{sheet}") > 100 or not re.fullmatch(
        r"[A-Za-z0-9_-]+", sheet
    ):
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LinkSheetButton(tournament, sheet))
    return view


async def answer_linking(interaction: Interaction, tournament: int, linking: Linking) -> None:
    """Answer the TD (alone) what linking came to (with the **Link** button under a code),
    and, once linked, tell the channel."""
    code = linking.code
    view = link_buttons(tournament, code.spreadsheet_id) if code is not None else None
    await reply(interaction, render.joined(linking.lines), view=view)
    if linking.announced:
        await more(interaction, render.joined(linking.announced), ephemeral=False)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ConfirmButton,
    DisputeButton,
    StandingsPageButton,
    WhyDetailsButton,
    LinkSheetButton,
)


def register(client: discord.Client) -> None:
    """Listen for every Harkness button, including those sent before a restart."""
    client.add_dynamic_items(*DYNAMIC_ITEMS)
