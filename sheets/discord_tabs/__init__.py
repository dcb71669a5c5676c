"""The Discord bot's tabs in a linked spreadsheet (``Discord reports``, ``Discord players``):
what they hold, and how the worker merges them into what the TD typed.

For a tournament linked to a spreadsheet, the Discord bot keeps two tabs of its own:

- ``Discord reports``: one row per result made final in Discord (confirmed by the opponent,
  reported alike by both players, or decided by a TD there), appended once each: the time,
  the round, the player, the result from the player's side, the opponent, the player's
  colour, what happened, who reported and who confirmed it, and the result's unique key (an
  undo names the key of the row it undoes). Before appending after a failure, the bot looks
  for the key, so a row is never written twice.
- ``Discord players``: which Discord member each player is (``#``, ``Name``, ``Discord``),
  as ``/join`` and ``/player link`` set it. A ``Discord`` column in the TD's own tab (a user
  id, ``<@id>`` or ``@name``) says the same and wins.

Both are marked as the bot's with developer metadata and protected with a warning; the bot
never writes anywhere else but the worker's output tabs.

The worker merges the reports into what the TD's tabs say (:func:`merge_reports`): what the
TD typed always wins, a cell the TD left empty takes the report, and a report that disagrees
with the TD becomes a :class:`ReportConflict` on the Errors tab (never applied silently);
:mod:`sheets.discord_tabs.merge` says it in full.

The package's modules, one purpose each:

- :mod:`~sheets.discord_tabs.common`: what both tabs share (titles, markers, finding them,
  creating, protecting and filling them);
- :mod:`~sheets.discord_tabs.reports_tab`: the reports tab's rows, written and read back;
- :mod:`~sheets.discord_tabs.players_tab`: matching Discord members to sheet players, and
  the players tab;
- :mod:`~sheets.discord_tabs.merge`: the reports into the TD's grid, and the conflicts.

They live in :mod:`sheets` because they are tabs of a spreadsheet: the bot's sheet link
(:mod:`bot.sheetlink`) writes them with these functions, and the worker reads them;
nothing here imports :mod:`bot`.

>>> from sheets.read import read_results
>>> from sheets.settings_tab import SheetSettings
>>> grid = read_results({"Results": [["#", "Name", "Rd 1"], ["1", "Ann", ""],
...                                  ["2", "Bob", ""]]}, SheetSettings())
>>> game = {"key": "harkness:g:1:5", "action": "confirm", "round": 1, "player": "Ann",
...         "player_number": 1, "opponent": "Bob", "opponent_number": 2, "result": "1-0",
...         "time": "2026-03-14T18:30:00+00:00", "reported_by": "Ann", "confirmed_by": "Bob"}
>>> tab = [REPORT_HEADER, report_row(game)]
>>> merge_reports(grid, tab)
[]
>>> [str(grid.entries[(n, 1)].entry) for n in (1, 2)], grid.entries[(1, 1)].cell
(['W2', 'L1'], "'Discord reports'!D2")
"""

from sheets.discord_tabs.common import (
    BOT_TAB_PROTECTION,
    PLAYERS_MARKER,
    PLAYERS_TAB,
    REPORTS_MARKER,
    REPORTS_TAB,
    Request,
    TabTaken,
    bot_rows,
    bot_tab,
    foreign_tab,
)
from sheets.discord_tabs.merge import ReportConflict, merge_reports
from sheets.discord_tabs.players_tab import (
    PLAYERS_HEADER,
    Member,
    discord_of,
    label,
    labels_of,
    match_players,
    names_member,
    player_rows,
    players_requests,
)
from sheets.discord_tabs.reports_tab import (
    ACTION_WORDS,
    REPORT_HEADER,
    ReportRow,
    append_requests,
    describe_row,
    read_report_rows,
    report_row,
    written_keys,
)

__all__ = [
    "ACTION_WORDS",
    "BOT_TAB_PROTECTION",
    "PLAYERS_HEADER",
    "PLAYERS_MARKER",
    "PLAYERS_TAB",
    "REPORTS_MARKER",
    "REPORTS_TAB",
    "REPORT_HEADER",
    "Member",
    "ReportConflict",
    "ReportRow",
    "Request",
    "TabTaken",
    "append_requests",
    "bot_rows",
    "bot_tab",
    "describe_row",
    "discord_of",
    "foreign_tab",
    "label",
    "labels_of",
    "match_players",
    "merge_reports",
    "names_member",
    "player_rows",
    "players_requests",
    "read_report_rows",
    "report_row",
    "written_keys",
]
