"""Direct messages to the TD who linked a sheet about the link itself (:class:`LinkNotices`):
the sheet's editors took this server off it, so the tournament was unlinked; or a link made
before sheets named their servers must be confirmed before its grace period ends. The TD
who linked the sheet is the one told of its conflicts too (:mod:`bot.sheetlink.conflicts`),
in the same way (:func:`direct_message`)."""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from bot.sheetlink.access import withdrawn_message
from bot.store import Actor, Store, TournamentInfo

log = logging.getLogger("harkness.bot")

#: Who the bot is when it records something of its own (what it told the TD).
HARKNESS = Actor("harkness", "Harkness", td=True)
#: Guild setting: the end of the grace period the TD was told of, by tournament id.
GRACE_TOLD = "sheet_grace_told:{tournament}"


async def direct_message(bot: discord.Client, user_id: str, text: str) -> None:
    """Send ``user_id`` a direct message (nobody mentioned); a failure is logged."""
    try:
        user = bot.get_user(int(user_id)) or await bot.fetch_user(int(user_id))
        await user.send(text, allowed_mentions=discord.AllowedMentions.none())
    except (ValueError, discord.HTTPException) as error:
        log.warning("could not send the TD a direct message: %s", error, extra={"user_id": user_id})


class LinkNotices:
    """What the TD who linked a sheet is told of the link (see the module). A grace period
    is told once per tournament (a guild setting in the store, so a restart never tells it
    twice)."""

    def __init__(self, bot: discord.Client, store: Store) -> None:
        self.bot = bot
        self.store = store
        self._graced: set[tuple[str, str]] = set()

    async def withdrawn(self, guild: str, title: str, unlinked: list[TournamentInfo]) -> None:
        """The sheet no longer names this server: its tournaments ``unlinked`` from it."""
        from bot.render import plain

        for info in unlinked:
            if info.sheet is not None and info.sheet.linked_by:
                text = plain(withdrawn_message(title, [info.name]))
                await direct_message(self.bot, info.sheet.linked_by, f"⚠️ {text}.")

    async def graced(self, guild: str, spreadsheet: str, title: str, until: datetime) -> None:
        """This server uses ``spreadsheet`` unnamed, as a link made before sheets named their
        servers may until ``until``: tell the TD (once) how to confirm it."""
        from bot.render import plain

        if (guild, spreadsheet) in self._graced:
            return
        self._graced.add((guild, spreadsheet))
        for info in await self.store.tournaments(guild):
            if info.sheet is None or info.sheet.spreadsheet_id != spreadsheet:
                continue
            setting = GRACE_TOLD.format(tournament=info.id)
            if await self.store.get_setting(guild, setting) == until.isoformat():
                continue
            await self.store.set_setting(guild, setting, until.isoformat(), HARKNESS)
            sheet = f"the Google Sheet “{title}”" if title else "its Google Sheet"
            text = (
                f"⏳ **{plain(info.name)}** was linked to {plain(sheet)} before a sheet had to "
                "name the Discord servers that may use it. Until "
                f"<t:{int(until.timestamp())}:D> it keeps working while the sheet names no "
                "server; then it is unlinked unless the sheet names this one. Run "
                "/tournament link-sheet again with the sheet's address: you get a code for an "
                "editor of the sheet to type into its Harkness tab (Discord servers row)."
            )
            await direct_message(self.bot, info.sheet.linked_by, text)
