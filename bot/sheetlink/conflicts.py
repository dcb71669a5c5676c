"""Telling the TD of Discord reports that disagree with their sheet: a direct message to
the TD who linked it (:func:`bot.sheetlink.notices.direct_message`), once for each conflict
(their cell stands; nothing is applied)."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

import discord

from bot.sheetlink.api import ReportConflict
from bot.sheetlink.notices import HARKNESS, direct_message
from bot.store import Store, TournamentInfo

log = logging.getLogger("harkness.bot")

#: Guild setting holding the conflicts already told to the TD, by tournament id.
CONFLICTS_TOLD = "sheet_conflicts:{tournament}"


class ConflictNotices:
    """Direct messages to the TD about conflicts they have not been told of yet (which were
    told is a guild setting in the store, so a restart never tells them twice)."""

    def __init__(self, bot: discord.Client, store: Store) -> None:
        self.bot = bot
        self.store = store

    async def tell(
        self, guild: str, info: TournamentInfo, conflicts: Sequence[ReportConflict]
    ) -> None:
        """Send the TD who linked the sheet the ``conflicts`` (the sheet's now) they have
        not been told of yet."""
        setting = CONFLICTS_TOLD.format(tournament=info.id)
        now = {f"{c.key}|{c.cell}|{c.text}": c for c in conflicts}
        told = set(json.loads(await self.store.get_setting(guild, setting) or "[]"))
        if set(now) == told:
            return
        await self.store.set_setting(
            guild, setting, json.dumps(sorted(now)) if now else None, HARKNESS
        )
        new = [c for signature, c in now.items() if signature not in told]
        if new and info.sheet is not None:
            await direct_message(self.bot, info.sheet.linked_by, conflict_message(info.name, new))


def conflict_message(tournament: str, conflicts: Sequence[ReportConflict]) -> str:
    """The direct message to the TD about reports that disagree with their sheet."""
    from bot.render import MESSAGE_MAX, lines_within, plain

    count = len(conflicts)
    head = (
        f"⚠️ **{plain(tournament)}**: {count} result{'s' if count != 1 else ''} reported in "
        f"Discord disagree{'s' if count == 1 else ''} with your Google Sheet. What you typed "
        "stands (nothing in your tabs was changed), and the sheet's Errors tab lists it:"
    )
    tail = (
        "Correct the cell if Discord is right, or correct Discord with `/result set` "
        "(`/result open` lists these)."
    )
    lines = [plain(f"• {c.cell} says “{c.text}”, but Discord has {c.report}.") for c in conflicts]
    body = lines_within(lines, MESSAGE_MAX - len(head) - len(tail) - 2)
    return f"{head}\n{body}\n{tail}"
