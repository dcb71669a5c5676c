"""The :mod:`sheets` names the link uses, imported in this one place.

The bot also runs without the Sheets extra (gspread and google-auth): then
:data:`SHEETS_MISSING` says what is missing, the link has no client (linking says what to
install), and every name here is None. Nothing calls them then: each Sheets call needs the
client first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

SHEETS_MISSING: str | None = None
try:
    from sheets.client import (
        RetryPolicy,
        SheetsAuthError,
        SheetsClient,
        SheetsError,
        SheetsNotFoundError,
        SheetsPermissionError,
        SheetsTimeoutError,
        SheetsUnavailableError,
        open_client,
        spreadsheet_id,
    )
    from sheets.discord_tabs import (
        PLAYERS_MARKER,
        PLAYERS_TAB,
        REPORTS_MARKER,
        REPORTS_TAB,
        Member,
        ReportConflict,
        TabTaken,
        append_requests,
        discord_of,
        foreign_tab,
        labels_of,
        match_players,
        names_member,
        player_rows,
        players_requests,
        report_row,
        written_keys,
    )
    from sheets.read import PlayerRow
    from sheets.settings import SheetsSettings
    from sheets.snapshot import Snapshot
    from sheets.sync import SheetInput, read_input, read_snapshot, sync
except ImportError as missing:  # pragma: no cover - the test environment has the extra
    SHEETS_MISSING = str(missing)
    if not TYPE_CHECKING:

        def __getattr__(name: str) -> Any:
            return None


__all__ = [
    "PLAYERS_MARKER",
    "PLAYERS_TAB",
    "REPORTS_MARKER",
    "REPORTS_TAB",
    "SHEETS_MISSING",
    "Member",
    "PlayerRow",
    "ReportConflict",
    "RetryPolicy",
    "SheetInput",
    "SheetsAuthError",
    "SheetsClient",
    "SheetsError",
    "SheetsNotFoundError",
    "SheetsPermissionError",
    "SheetsSettings",
    "SheetsTimeoutError",
    "SheetsUnavailableError",
    "Snapshot",
    "TabTaken",
    "append_requests",
    "discord_of",
    "foreign_tab",
    "labels_of",
    "match_players",
    "names_member",
    "open_client",
    "player_rows",
    "players_requests",
    "read_input",
    "read_snapshot",
    "report_row",
    "spreadsheet_id",
    "sync",
    "written_keys",
]
