"""The bot's side of the Discord ↔ Google Sheets link.

A tournament linked to a spreadsheet (``/tournament link-sheet``) is kept in the TD's sheet:
the sheet is the source of truth. The commands talk to one :class:`SheetLinks` (one per
bot, ``bot.sheets``, :mod:`~bot.sheetlink.links`), a small façade over parts that each own
their state and do one job:

- :mod:`~bot.sheetlink.access`: Google Sheets as the parts reach it (the client or why
  there is none, one lock per spreadsheet, the spreadsheet's lease, the server's fair share
  of the per-minute quota and why a member waits, which server may use a sheet (the servers
  the sheet names), background tasks);
- :mod:`~bot.sheetlink.reading`: reading the sheet for ``/standings``, ``/crosstable`` and
  ``/why``, cached, and syncing its output tabs as the worker does;
- :mod:`~bot.sheetlink.conflicts`: telling the TD who linked the sheet, in a direct message,
  when a Discord report disagrees with what they typed (their cell stands), when the sheet's
  editors took the server off it (it is unlinked), and when a link made before sheets named
  their servers must be confirmed;
- :mod:`~bot.sheetlink.players`: ``/join``, ``/player link`` from the sheet, and the
  sheet's ``Discord players`` tab;
- :mod:`~bot.sheetlink.linking`: linking a sheet (once an editor of the sheet named the
  server, with the code the TD was given; checking at once that it can be opened and edited)
  and unlinking it;
- :mod:`~bot.sheetlink.outbox`: writing each result made final in Discord to the sheet's
  ``Discord reports`` tab from the store's outbox, exactly once, in the background.

:mod:`~bot.sheetlink.api` imports the :mod:`sheets` names they use (the bot runs without the
Sheets extra too); :mod:`~bot.sheetlink.lease` words the fleet's lease on a spreadsheet
(:mod:`sheets.fleet`, shared with the Sheets workers) for the member.

Nothing here computes a tiebreak: standings are :func:`core.standings.standings_after`'s.
Without Sheets settings (no ``GOOGLE_APPLICATION_CREDENTIALS``) linking is refused with
instructions, and a linked tournament answers from Discord's own results, saying so.
"""

from __future__ import annotations

from bot.sheetlink.access import NOT_INSTALLED, NOT_SET_UP, SheetNotNamed, SheetUnreadable
from bot.sheetlink.conflicts import conflict_message
from bot.sheetlink.linking import Linking
from bot.sheetlink.links import SheetLinks, landed_line, links_of, links_or_refusal
from bot.sheetlink.outbox import PENDING, PENDING_NO_SHEETS, WRITTEN
from bot.sheetlink.reading import SheetView

__all__ = [
    "NOT_INSTALLED",
    "NOT_SET_UP",
    "PENDING",
    "PENDING_NO_SHEETS",
    "WRITTEN",
    "Linking",
    "SheetLinks",
    "SheetNotNamed",
    "SheetUnreadable",
    "SheetView",
    "conflict_message",
    "landed_line",
    "links_of",
    "links_or_refusal",
]
