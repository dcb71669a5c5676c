"""The bot's cogs, one per concern. A command that reaches a linked Google Sheet asks the
sheet link (:class:`bot.sheetlink.SheetLinks`); its command stays in its group's cog.
Every cog is a :class:`bot.cogs.base.HarknessCog`, which acknowledges each command first.

- :mod:`bot.cogs.admin`: ``/tournament …`` (create, list, info, start, finish, import,
  export, link-sheet, unlink-sheet) and ``/config td-role``.
- :mod:`bot.cogs.players`: ``/join`` and ``/player add|withdraw|link``.
- :mod:`bot.cogs.results`: ``/report`` and ``/result set|bye|undo|open|history``.
- :mod:`bot.cogs.rounds`: ``/round preview|pair|swap|show`` and ``/bye request``.
- :mod:`bot.cogs.standings`: ``/standings``, ``/crosstable``, ``/why``, ``/tiebreaks``.
- :mod:`bot.cogs.awards`: ``/prizes load|add|remove|options|player|list`` and ``/awards``.
"""

from __future__ import annotations

from collections.abc import Callable

from discord.ext import commands

from bot.cogs.admin import Admin
from bot.cogs.awards import Awards
from bot.cogs.players import Players
from bot.cogs.results import Results
from bot.cogs.rounds import Rounds
from bot.cogs.standings import StandingsCog

COGS: tuple[Callable[[commands.Bot], commands.Cog], ...] = (
    Admin,
    Players,
    Results,
    Rounds,
    StandingsCog,
    Awards,
)

__all__ = ["COGS", "Admin", "Awards", "Players", "Results", "Rounds", "StandingsCog"]
