"""The bot's two tabs as tabs: their titles and markers, finding them in a snapshot, and the
requests that create, grow, protect and fill them (rows at fixed positions, text never parsed
as a formula). What goes in each tab is :mod:`sheets.discord_tabs.reports_tab`'s and
:mod:`sheets.discord_tabs.players_tab`'."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from core.names import name_key
from sheets.layout import clean
from sheets.read import Rows
from sheets.snapshot import Snapshot, Tab
from sheets.tabs import OutCell
from sheets.write import add_sheet_request, cell_data, mark_request, new_sheet_id, protect_request

Request = dict[str, Any]

REPORTS_TAB = "Discord reports"
"""The tab the bot appends results to."""
PLAYERS_TAB = "Discord players"
"""The tab where the bot says which Discord member each player is."""
REPORTS_MARKER = "discord-reports"
"""The ``harkness.tab`` developer metadata value of the reports tab."""
PLAYERS_MARKER = "discord-players"
"""The ``harkness.tab`` developer metadata value of the players tab."""
BOT_TAB_PROTECTION = (
    "Written by the Harkness Discord bot. Type results in your results tab instead: what you "
    "type there always wins over a Discord report."
)


class TabTaken(Exception):
    """A tab has the name of one of the bot's tabs but is not the bot's."""


def header_columns(header: Sequence[str], wanted: Sequence[str]) -> dict[str, int] | None:
    """Where each ``wanted`` column is in a header row (None unless every one is there)."""
    keys = [name_key(c) for c in header]
    found = {name: keys.index(name_key(name)) for name in wanted if name_key(name) in keys}
    return found if len(found) == len(wanted) else None


def bot_tab(snapshot: Snapshot, title: str, marker: str) -> Tab | None:
    """The bot's tab called ``title`` (marked ``marker``), if there is one."""
    tab = snapshot.tab(title)
    return tab if tab is not None and tab.marker == marker else None


def foreign_tab(snapshot: Snapshot, title: str, marker: str) -> Tab | None:
    """A tab called ``title`` that is *not* the bot's: the bot leaves it alone."""
    tab = snapshot.tab(title)
    return tab if tab is not None and tab.marker != marker else None


def bot_rows(snapshot: Snapshot) -> tuple[Rows | None, Rows | None]:
    """The rows of the bot's reports and players tabs (None where there is none)."""
    reports = bot_tab(snapshot, REPORTS_TAB, REPORTS_MARKER)
    players = bot_tab(snapshot, PLAYERS_TAB, PLAYERS_MARKER)
    return (reports.rows if reports else None, players.rows if players else None)


def row_data(
    rows: Iterable[Sequence[str]], header: bool, numbers: Iterable[int] = ()
) -> list[dict[str, Any]]:
    """``RowData`` of text cells (never formulas); the first row bold when ``header``;
    cells of the ``numbers`` columns that hold a whole number are written as numbers."""
    numeric = set(numbers)
    out = []
    for n, row in enumerate(rows):
        first = header and n == 0
        cells = []
        for i, value in enumerate(row):
            shown: str | int | None = value or None
            if not first and i in numeric and value.isdigit():
                shown = int(value)
            cells.append(cell_data(OutCell(shown, header=first)))
        out.append({"values": cells})
    return out


def tab_requests(
    snapshot: Snapshot, title: str, marker: str, width: int, rows_needed: int, rng: random.Random
) -> tuple[int, list[Request], bool]:
    """The sheet id of the bot's tab, the requests to create or grow it, whether it is new."""
    tab = snapshot.tab(title)
    if tab is not None and tab.marker != marker:
        raise TabTaken(
            f"a tab named {title!r} already exists and was not made by Harkness, so "
            "the bot will not write to it: rename or delete that tab"
        )
    if tab is None:
        sheet_id = new_sheet_id(snapshot.sheet_ids, rng)
        grid = {"rowCount": max(rows_needed + 100, 200), "columnCount": width, "frozenRowCount": 1}
        return (
            sheet_id,
            [
                add_sheet_request(sheet_id, title, grid),
                mark_request(sheet_id, marker),
                protect_request(sheet_id, BOT_TAB_PROTECTION),
            ],
            True,
        )
    requests: list[Request] = []
    if rows_needed > tab.row_count or width > tab.column_count:
        requests.append(
            {
                "updateSheetProperties": {
                    "properties": {
                        "sheetId": tab.sheet_id,
                        "gridProperties": {
                            "rowCount": max(tab.row_count, rows_needed + 100),
                            "columnCount": max(tab.column_count, width),
                        },
                    },
                    "fields": "gridProperties(rowCount,columnCount)",
                }
            }
        )
    if not tab.protected:
        requests.append(protect_request(tab.sheet_id, BOT_TAB_PROTECTION))
    return tab.sheet_id, requests, False


def same_rows(have: Rows, want: Sequence[Sequence[str]]) -> bool:
    """Whether a tab already says ``want`` (spacing, trailing empty cells and rows ignored)."""

    def trimmed(rows: Iterable[Sequence[str]]) -> list[list[str]]:
        out = [[clean(c) for c in row] for row in rows]
        for row in out:
            while row and not row[-1]:
                row.pop()
        while out and not out[-1]:
            out.pop()
        return out

    return trimmed(have) == trimmed(want)
