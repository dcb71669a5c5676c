"""The one object the bot's commands talk to about linked sheets (:class:`SheetLinks`, one
per bot, ``bot.sheets``): a small façade over the link's parts, each owning its own state.

- :class:`~bot.sheetlink.access.SheetAccess`: the Sheets client, locks, leases, the quota,
  which server may use a sheet, background tasks;
- :class:`~bot.sheetlink.notices.LinkNotices`: the TD told when the sheet no longer names the
  server (it was unlinked), or when a link from before must be confirmed;
- :class:`~bot.sheetlink.reading.SheetReader`: the sheets as last read, read again when old;
- :class:`~bot.sheetlink.conflicts.ConflictNotices`: the TD told of conflicting reports;
- :class:`~bot.sheetlink.players.PlayerLinks`: who is who between Discord and the sheet;
- :class:`~bot.sheetlink.linking.Linker`: linking and unlinking a spreadsheet;
- :class:`~bot.sheetlink.outbox.OutboxWriter`: results written to the sheet, exactly once.

Each method here hands over to the part whose job it is; nothing is decided here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

import discord

from bot.errors import UserError
from bot.settings import BotSettings
from bot.sheetlink.access import NOT_SET_UP, SheetAccess
from bot.sheetlink.conflicts import ConflictNotices
from bot.sheetlink.linking import Linker, Linking
from bot.sheetlink.notices import LinkNotices
from bot.sheetlink.outbox import OutboxWriter
from bot.sheetlink.players import PlayerLinks
from bot.sheetlink.reading import SheetReader, SheetView
from bot.store import Actor, Outcome, PlayerInfo, PlayerRef, StandingsView, Store, TournamentInfo
from sheets.fleet import Fleet


class SheetLinks:
    """The link between the bot's tournaments and their spreadsheets (see the module)."""

    def __init__(self, bot: discord.Client, settings: BotSettings, access: SheetAccess) -> None:
        self.access = access
        notices = LinkNotices(bot, access.store)
        access.on_withdrawn(notices.withdrawn)
        access.on_graced(notices.graced)
        self.reader = SheetReader(access, ConflictNotices(bot, access.store))
        self.players = PlayerLinks(bot, access, self.reader)
        self.linker = Linker(access, self.reader, self.players)
        self.outbox = OutboxWriter(access, self.reader, self.players, settings)

    @classmethod
    def from_environment(
        cls, bot: discord.Client, store: Store, fleet: Fleet, settings: BotSettings
    ) -> Self:
        """Sheet links configured from the environment, or switched off with the reason."""
        return cls(bot, settings, SheetAccess.from_environment(store, fleet, settings))

    # -- what the link can do, and its clock ---------------------------------------------

    @property
    def available(self) -> bool:
        """Whether this bot can reach Google Sheets at all."""
        return self.access.available

    @property
    def why_not(self) -> str | None:
        """Why this bot cannot reach Google Sheets (None when it can)."""
        return self.access.why_not

    @property
    def clock(self) -> Callable[[], float]:
        """What measures how fresh a read is (tests move it by hand)."""
        return self.access.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.access.clock = clock

    @property
    def refresh_seconds(self) -> float:
        """How long a read of a sheet is answered from (``HARKNESS_SHEETS_REFRESH``)."""
        return self.access.refresh_seconds

    @property
    def sync_jobs(self) -> bool:
        """Whether the Sheets workers sync a sheet after a read (``HARKNESS_SHEETS_SYNC_JOBS``)
        rather than this bot."""
        return self.access.sync_jobs

    # -- linking -------------------------------------------------------------------------

    async def link(self, guild: str, info: TournamentInfo, url: str, td: Actor) -> Linking:
        """``/tournament link-sheet`` and its **Link** button (:meth:`Linker.link`)."""
        return await self.linker.link(guild, info, url, td)

    async def unlink(self, guild: str, info: TournamentInfo, td: Actor) -> list[str]:
        """``/tournament unlink-sheet`` (:meth:`Linker.unlink`)."""
        return await self.linker.unlink(guild, info, td)

    # -- reading -------------------------------------------------------------------------

    async def view(self, guild: str, info: TournamentInfo, *, force: bool = False) -> SheetView:
        """The linked sheet as read lately (:meth:`SheetReader.view`)."""
        return await self.reader.view(guild, info, force=force)

    def standings_view(
        self, view: SheetView, info: TournamentInfo, after_round: int | None
    ) -> StandingsView:
        """The sheet's standings for the bot's renderers (:meth:`SheetReader.standings_view`)."""
        return self.reader.standings_view(view, info, after_round)

    def source_note(self, view: SheetView) -> str:
        """Where an answer from the sheet comes from, for a footer."""
        return self.reader.source_note(view)

    async def conflict_lines(self, guild: str, info: TournamentInfo) -> list[str]:
        """The Discord reports the sheet disagrees with, in words (for ``/result open``)."""
        return await self.reader.conflict_lines(guild, info)

    # -- players -------------------------------------------------------------------------

    async def number_of(
        self,
        guild: str,
        info: TournamentInfo,
        view: SheetView,
        player: PlayerRef,
        username: str | None = None,
    ) -> int:
        """The sheet's starting number of ``player`` (:meth:`PlayerLinks.number_of`)."""
        return await self.players.number_of(guild, info, view, player, username)

    async def join(
        self,
        guild: str,
        info: TournamentInfo,
        who: Actor,
        *,
        name: str | None,
        rating: int | None,
        username: str | None,
    ) -> tuple[PlayerInfo, str]:
        """``/join`` on a linked tournament (:meth:`PlayerLinks.join`)."""
        return await self.players.join(
            guild, info, who, name=name, rating=rating, username=username
        )

    async def add_from_sheet(
        self, guild: str, info: TournamentInfo, player: str, member_id: str, td: Actor
    ) -> PlayerInfo:
        """Register a player only the sheet lists, as a member
        (:meth:`PlayerLinks.add_from_sheet`)."""
        return await self.players.add_from_sheet(guild, info, player, member_id, td)

    async def players_changed(self, guild: str, info: TournamentInfo) -> None:
        """Bring the sheet's Discord players tab up to date
        (:meth:`PlayerLinks.players_changed`)."""
        await self.players.players_changed(guild, info)

    async def sheet_name_of(self, guild: str, info: TournamentInfo, player: PlayerInfo) -> str:
        """How the sheet knows a registered player, or a warning line."""
        return await self.players.sheet_name_of(guild, info, player)

    # -- writing results -----------------------------------------------------------------

    def start(self) -> None:
        """Start writing due results in the background (:meth:`OutboxWriter.start`)."""
        self.outbox.start()

    async def flush(self, guild: str | None = None) -> None:
        """Write every result that is due now (:meth:`OutboxWriter.flush`)."""
        await self.outbox.flush(guild)

    async def landed(self, guild: str, info: TournamentInfo, seq: int) -> str:
        """Write one result now and say what became of it (:meth:`OutboxWriter.landed`)."""
        return await self.outbox.landed(guild, info, seq)

    async def landed_line(self, guild: str, info: TournamentInfo, outcome: Outcome) -> str:
        """A line on what became of a change's result in the linked sheet ("" when the
        change wrote nothing to it)."""
        if not outcome.outbox or outcome.event is None:
            return ""
        return await self.outbox.landed(guild, info, outcome.event.seq)

    async def close(self) -> None:
        """Stop the background work (a write in flight is finished by its thread)."""
        await self.access.close()


def links_of(interaction: discord.Interaction[discord.Client]) -> SheetLinks | None:
    """The sheet links of the bot that received the interaction (None before start-up)."""
    links = getattr(interaction.client, "sheets", None)
    return links if isinstance(links, SheetLinks) else None


def links_or_refusal(interaction: discord.Interaction[discord.Client]) -> SheetLinks:
    """:func:`links_of`, or a refusal saying this bot is not set up for Google Sheets."""
    links = links_of(interaction)
    if links is None:
        raise UserError(NOT_SET_UP, markup=True)
    return links


async def landed_line(
    interaction: discord.Interaction[discord.Client],
    guild: str,
    info: TournamentInfo,
    outcome: Outcome,
) -> str:
    """A line on what became of a result in the linked sheet ("" when there is none)."""
    links = links_of(interaction)
    return "" if links is None else await links.landed_line(guild, info, outcome)
