"""The ``Discord reports`` tab: its columns, the row the bot appends for each result made final
in Discord (at a fixed position, so a retried write never makes a second copy), and reading
the rows back (which are still in force after undos, which keys are already written)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from core.names import name_key
from sheets.discord_tabs.common import (
    REPORTS_MARKER,
    REPORTS_TAB,
    Request,
    bot_tab,
    header_columns,
    row_data,
    tab_requests,
)
from sheets.layout import a1, clean
from sheets.problems import SheetProblem
from sheets.read import Rows
from sheets.snapshot import Snapshot

REPORT_HEADER = [
    "Time",
    "Round",
    "Player",
    "Result",
    "Opponent",
    "Colour",
    "Action",
    "Reported by",
    "Confirmed by",
    "Key",
    "Undoes",
]
"""The reports tab's columns (the result is from the player's side; the colour is the
player's)."""
_ROUND_COLUMN = REPORT_HEADER.index("Round")

#: What the Action column says, by the store's event kind (and back).
ACTION_WORDS = {
    "confirm": "confirmed",
    "report": "both reported",
    "set": "set by a TD",
    "bye": "bye",
    "withdraw": "withdrawn",
    "clear": "cleared by a TD",
    "revert": "undone by a TD",
}
_ACTIONS = {word.lower(): kind for kind, word in ACTION_WORDS.items()} | {
    k: k for k in ACTION_WORDS
}


# ---------------------------------------------------------------- rows the bot writes


def _when(text: str) -> str:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def report_row(payload: Mapping[str, Any], labels: Mapping[int, str] | None = None) -> list[str]:
    """The reports tab's row for an outbox payload of the store (see ``OutboxItem``).

    ``labels`` maps the store's starting numbers to the names the sheet knows the players by
    (``"#3 Carol Example"``); a player missing from it is written by name alone.

    >>> report_row({"key": "k", "action": "set", "time": "2026-03-14T18:30:00+00:00",
    ...             "round": 2, "player": "Ann", "player_number": 1, "opponent": "Bob",
    ...             "opponent_number": 2, "result": "½-½", "white": "Bob", "black": "Ann",
    ...             "reported_by": "", "confirmed_by": "Tess"}, {1: "#1 Ann"})
    ['2026-03-14 18:30 UTC', '2', '#1 Ann', '½-½', 'Bob', 'Black', 'set by a TD', '', \
'Tess', 'k', '']
    """
    labels = labels or {}

    def named(side: str) -> str:
        number = payload.get(f"{side}_number")
        known = labels.get(number) if isinstance(number, int) else None
        return known or str(payload.get(side, ""))

    player, opponent = named("player"), named("opponent")
    colour = ""
    names = (payload.get("player"), payload.get("opponent"))
    if None in names:
        pass  # a bye, a withdrawal, an undo: no colours
    elif (payload.get("white"), payload.get("black")) == names:
        colour = "White"
    elif (payload.get("black"), payload.get("white")) == names:
        colour = "Black"
    action = str(payload.get("action", ""))
    result = str(payload.get("result", ""))
    if action == "withdraw":
        result = "withdrawn"
    round_number = payload.get("round")
    return [
        _when(str(payload.get("time", ""))),
        "" if round_number is None else str(round_number),
        player,
        result,
        opponent,
        colour,
        ACTION_WORDS.get(action, action),
        str(payload.get("reported_by", "")),
        str(payload.get("confirmed_by", "")),
        str(payload.get("key", "")),
        str(payload.get("undoes", "")),
    ]


def describe_row(row: Sequence[str]) -> str:
    """A reports row in words, for messages: ``round 1: #1 Ann 1-0 #2 Bob``."""
    cells = list(row) + [""] * (len(REPORT_HEADER) - len(row))
    what = " ".join(c for c in (cells[2], cells[3], cells[4]) if c)
    return f"round {cells[1]}: {what}" if cells[1] else what


def append_requests(
    snapshot: Snapshot, rows: Sequence[Sequence[str]], rng: random.Random | None = None
) -> list[Request]:
    """The ``batchUpdate`` requests that add ``rows`` below the last row of the reports tab
    (creating the tab, with its header, if needed).

    The rows go to fixed positions (after the last row the snapshot saw), so sending the same
    requests twice writes the same cells: a retried write never makes a second copy.
    """
    rng = rng or random.Random()
    tab = snapshot.tab(REPORTS_TAB)
    existing = tab.rows if tab is not None and tab.marker == REPORTS_MARKER else []
    lines = ([] if existing else [REPORT_HEADER]) + [list(r) for r in rows]
    start = len(existing)
    sheet_id, requests, _ = tab_requests(
        snapshot, REPORTS_TAB, REPORTS_MARKER, len(REPORT_HEADER), start + len(lines), rng
    )
    if lines:
        requests.append(
            {
                "updateCells": {
                    "start": {"sheetId": sheet_id, "rowIndex": start, "columnIndex": 0},
                    "rows": row_data(lines, header=not existing, numbers=[_ROUND_COLUMN]),
                    "fields": "userEnteredValue,userEnteredFormat",
                }
            }
        )
    return requests


# ---------------------------------------------------------------- reading the rows back


@dataclass(frozen=True, slots=True)
class ReportRow:
    """One row of the reports tab, as read back (``row`` is zero-based)."""

    row: int
    key: str
    action: str
    round: int | None
    player: str
    result: str
    opponent: str
    colour: str
    undoes: str
    confirmed_by: str
    cell: str
    """The reference of the row's Result cell (where a merged entry comes from)."""


def read_report_rows(
    rows: Rows, title: str = REPORTS_TAB
) -> tuple[list[ReportRow], list[SheetProblem]]:
    """The reports tab's rows (the first of each key), and the rows that cannot be read."""
    if not rows:
        return [], []
    columns = header_columns([clean(c) for c in rows[0]], REPORT_HEADER)
    if columns is None:
        return [], [
            SheetProblem(
                f"the header row must be {', '.join(REPORT_HEADER)}; no Discord report was read",
                a1(title, 0, 0),
            )
        ]
    out: list[ReportRow] = []
    problems: list[SheetProblem] = []
    seen: set[str] = set()
    for r in range(1, len(rows)):
        row = rows[r]

        def cell(name: str, row: Sequence[str] = row) -> str:
            i = columns[name]
            return clean(row[i]) if i < len(row) else ""

        if not any(clean(c) for c in row):
            continue
        key = cell("Key")
        if key in seen:
            continue  # written twice (a write that landed after its writer gave up): once
        seen.add(key)
        action = _ACTIONS.get(cell("Action").lower())
        where = a1(title, r, columns["Result"])
        if action is None or not key:
            problems.append(
                SheetProblem(
                    "not a Discord report the bot wrote (no key or action); it was left out",
                    a1(title, r, columns["Action"]),
                    cell("Action"),
                )
            )
            continue
        text = cell("Round")
        out.append(
            ReportRow(
                r,
                key,
                action,
                int(text) if text.isdigit() else None,
                cell("Player"),
                cell("Result"),
                cell("Opponent"),
                cell("Colour").lower(),
                cell("Undoes"),
                cell("Confirmed by"),
                where,
            )
        )
    return out, problems


def row_key(row: ReportRow) -> str:
    """The key an undo row names (the log's key of a row, :mod:`core.log`)."""
    return row.key


def row_undoes(row: ReportRow) -> str | None:
    """The key of the row an undo row takes back; None for a row that is no undo.

    >>> from core.log import in_force
    >>> def row(key, action="confirm", undoes=""):
    ...     return ReportRow(0, key, action, 1, "", "", "", "", undoes, "", "")
    >>> rows = [row("a"), row("b"), row("u1", "revert", "a"), row("u2", "revert", "u1"),
    ...         row("u3", "revert", "b")]
    >>> [r.key for r in in_force(rows, key=row_key, undoes=row_undoes)]
    ['a']
    """
    return row.undoes if row.action == "revert" else None


def written_keys(snapshot: Snapshot) -> set[str]:
    """The key of every row in the reports tab, readable or not: results already written."""
    tab = bot_tab(snapshot, REPORTS_TAB, REPORTS_MARKER)
    if tab is None or not tab.rows:
        return set()
    header = [name_key(c) for c in tab.rows[0]]
    if name_key("Key") not in header:
        return set()
    column = header.index(name_key("Key"))
    return {clean(row[column]) for row in tab.rows[1:] if column < len(row) and clean(row[column])}
