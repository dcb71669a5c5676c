"""The bot's side of the Discord ↔ Google Sheets link.

A tournament linked to a spreadsheet (``/tournament link-sheet``) is kept in the TD's sheet:
the sheet is the source of truth. :class:`SheetLinks` (one per bot, ``bot.sheets``) is made
of one part per job, each in its own module:

- :mod:`~bot.sheetlink.base`: what the parts share (the Sheets client or why there is none,
  one lock per spreadsheet, background tasks);
- :mod:`~bot.sheetlink.linking`: linking a sheet (checking at once that it can be opened and
  edited) and unlinking it;
- :mod:`~bot.sheetlink.reading`: reading the sheet for ``/standings``, ``/crosstable`` and
  ``/why``, cached, and syncing its output tabs as the worker does;
- :mod:`~bot.sheetlink.outbox`: writing each result made final in Discord to the sheet's
  ``Discord reports`` tab from the store's outbox, exactly once, in the background;
- :mod:`~bot.sheetlink.conflicts`: telling the TD who linked the sheet, in a direct message,
  when a Discord report disagrees with what they typed (their cell stands);
- :mod:`~bot.sheetlink.players`: ``/join`` and the sheet's ``Discord players`` tab.

Nothing here computes a tiebreak: standings are :func:`core.standings.compute_standings`'s.
Without Sheets settings (no ``GOOGLE_APPLICATION_CREDENTIALS``) linking is refused with
instructions, and a linked tournament answers from Discord's own results, saying so.
"""

from __future__ import annotations

import discord

from bot.sheetlink.base import (
    NOT_INSTALLED,
    NOT_SET_UP,
    SheetOfAnotherServer,
    SheetUnreadable,
    SheetView,
)
from bot.sheetlink.conflicts import conflict_message
from bot.sheetlink.linking import Linking
from bot.sheetlink.outbox import PENDING, PENDING_NO_SHEETS, WRITTEN, Outbox

__all__ = [
    "NOT_INSTALLED",
    "NOT_SET_UP",
    "PENDING",
    "PENDING_NO_SHEETS",
    "WRITTEN",
    "SheetLinks",
    "SheetOfAnotherServer",
    "SheetUnreadable",
    "SheetView",
    "conflict_message",
    "links_of",
]


class SheetLinks(Linking, Outbox):
    """The link between the bot's tournaments and their spreadsheets (see the package)."""


def links_of(interaction: discord.Interaction[discord.Client]) -> SheetLinks | None:
    """The sheet links of the bot that received the interaction (None before start-up)."""
    links = getattr(interaction.client, "sheets", None)
    return links if isinstance(links, SheetLinks) else None
