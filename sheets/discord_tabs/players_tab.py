"""Who is who: matching Discord members to the sheet's players, the ``Discord players`` tab
the bot writes from that (``#``, ``Name``, ``Discord``, ``Member``), and reading it back into
the players the TD left without a ``Discord`` cell (a ``Discord`` column in the TD's own tab,
a user id, ``<@id>`` or ``@name``, says the same and wins)."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from core.names import mentioned_id, name_key
from sheets.discord_tabs.common import (
    PLAYERS_MARKER,
    PLAYERS_TAB,
    Request,
    header_columns,
    row_data,
    same_rows,
    tab_requests,
)
from sheets.layout import clean
from sheets.read import PlayerRow, ResultGrid, Rows
from sheets.snapshot import Snapshot

PLAYERS_HEADER = ["#", "Name", "Discord", "Member"]
"""The players tab's columns."""

_LABEL = re.compile(r"^#\s*(\d+)\s*(.*)$")


@dataclass(frozen=True, slots=True)
class Member:
    """A player as Discord knows them, to be found on the sheet.

    ``key`` is the caller's own handle for them (the store's player id); ``number`` their
    starting number in Discord, which need not be the sheet's.
    """

    key: int
    name: str
    number: int | None = None
    discord_id: str | None = None
    username: str | None = None


def discord_of(player: PlayerRow) -> str:
    """What the sheet says of a player's Discord account (a user id, ``<@id>``, ``@name``)."""
    return next((value for system, value in player.external_ids if system == "discord"), "")


def names_member(value: str, discord_id: str | None, username: str | None) -> bool:
    """Whether a ``Discord`` cell names this member (by id, mention or ``@username``).

    >>> names_member("<@42>", "42", None), names_member("@Ann_K", "7", "ann_k")
    (True, True)
    >>> names_member("42", "43", "x"), names_member("", "42", None)
    (False, False)
    """
    text = clean(value)
    text = mentioned_id(text) or text
    if text.isdigit():
        return discord_id is not None and text == discord_id
    if text.startswith("@") and len(text) > 1:
        return username is not None and text[1:].casefold() == username.casefold()
    return False


def match_players(members: Sequence[Member], players: Mapping[int, PlayerRow]) -> dict[int, int]:
    """Which sheet player (starting number) each member is: ``member.key`` → number.

    By the sheet's ``Discord`` column first, then by the same starting number and name, then
    by a name only one unmatched player has (case and spacing ignored).

    >>> sheet = {1: PlayerRow(1, "Ann", "A2"), 2: PlayerRow(2, "Robert", "A3",
    ...          external_ids=(("discord", "@bob"),))}
    >>> match_players([Member(10, "Bob", 1, "5", "bob"), Member(11, "ann", 2, "6")], sheet)
    {10: 2, 11: 1}
    """
    found: dict[int, int] = {}
    taken: set[int] = set()
    for number, player in sorted(players.items()):
        value = discord_of(player)
        if not value:
            continue
        for m in members:
            if m.key not in found and names_member(value, m.discord_id, m.username):
                found[m.key] = number
                taken.add(number)
                break
    for m in members:
        if m.key in found or m.number is None or m.number in taken:
            continue
        same_number = players.get(m.number)
        if same_number is not None and name_key(same_number.name) == name_key(m.name):
            found[m.key] = m.number
            taken.add(m.number)
    for m in members:
        if m.key in found:
            continue
        same = [
            n for n, p in players.items() if n not in taken and name_key(p.name) == name_key(m.name)
        ]
        rivals = [o for o in members if o.key not in found and name_key(o.name) == name_key(m.name)]
        if len(same) == 1 and len(rivals) == 1:
            found[m.key] = same[0]
            taken.add(same[0])
    return found


def label(player: PlayerRow) -> str:
    """``#3 Carol``: how the bot's tabs name a sheet player."""
    return f"#{player.id} {player.name}"


def number_of_label(text: str, players: Mapping[int, PlayerRow]) -> int | str:
    """The starting number a label (``#3 Carol``, ``#3``, ``Carol``) means on the sheet, or
    what is wrong with it. A number whose name differs is found by the name instead."""
    text = clean(text)
    m = _LABEL.match(text)
    number, name = (int(m.group(1)), m.group(2)) if m else (None, text)
    if (
        number is not None
        and number in players
        and (not name or name_key(players[number].name) == name_key(name))
    ):
        return number
    if name:
        same = [n for n, p in players.items() if name_key(p.name) == name_key(name)]
        if len(same) == 1:
            return same[0]
        if same:
            return f"{len(same)} players are called {name!r} on the results tab"
        return f"there is no player called {name!r} on the results tab"
    return f"there is no player {number} on the results tab" if number else "no player named"


def player_rows(
    members: Sequence[Member], players: Mapping[int, PlayerRow], matched: Mapping[int, int]
) -> list[list[str]]:
    """The players tab: every member with a Discord account, as the sheet knows them
    (members the sheet does not list keep their Discord name and no number)."""
    rows = []
    for m in members:
        if not m.discord_id:
            continue
        number = matched.get(m.key)
        sheet = players.get(number) if number is not None else None
        rows.append(
            [
                str(sheet.id) if sheet else "",
                sheet.name if sheet else m.name,
                m.discord_id,
                f"@{m.username}" if m.username else m.name,
            ]
        )
    rows.sort(key=lambda row: (not row[0], int(row[0]) if row[0] else 0, row[1].casefold()))
    return rows


def labels_of(
    members: Sequence[Member], players: Mapping[int, PlayerRow], matched: Mapping[int, int]
) -> dict[int, str]:
    """Discord starting number → the sheet's label of that player, for
    :func:`~sheets.discord_tabs.reports_tab.report_row`."""
    return {
        m.number: label(players[matched[m.key]])
        for m in members
        if m.number is not None and m.key in matched
    }


def players_requests(
    snapshot: Snapshot, rows: Sequence[Sequence[str]], rng: random.Random | None = None
) -> list[Request]:
    """The requests that make the players tab say ``rows`` (none when it already does)."""
    lines = [PLAYERS_HEADER, *[list(r) for r in rows]]
    tab = snapshot.tab(PLAYERS_TAB)
    if tab is not None and tab.marker == PLAYERS_MARKER and same_rows(tab.rows, lines):
        return []
    rng = rng or random.Random()
    sheet_id, requests, new = tab_requests(
        snapshot, PLAYERS_TAB, PLAYERS_MARKER, len(PLAYERS_HEADER), len(lines), rng
    )
    height = max(len(lines), tab.row_count if tab is not None and not new else 0)
    requests.append(
        {
            "updateCells": {
                "range": {
                    "sheetId": sheet_id,
                    "startRowIndex": 0,
                    "endRowIndex": height,
                    "startColumnIndex": 0,
                    "endColumnIndex": len(PLAYERS_HEADER),
                },
                "rows": row_data(lines, header=True, numbers=[0]),
                "fields": "userEnteredValue,userEnteredFormat",
            }
        }
    )
    return requests


def merge_discord_ids(grid: ResultGrid, rows: Rows) -> None:
    """Players the TD left without a ``Discord`` cell take the bot's players tab's."""
    columns = header_columns([clean(c) for c in rows[0]], PLAYERS_HEADER[:3]) if rows else None
    if columns is None:
        return
    for row in rows[1:]:

        def cell(name: str, row: Sequence[str] = row) -> str:
            i = columns[name]
            return clean(row[i]) if i < len(row) else ""

        number = number_of_label(
            f"#{cell('#')} {cell('Name')}" if cell("#") else cell("Name"), grid.players
        )
        discord = cell("Discord")
        if isinstance(number, int) and discord:
            player = grid.players[number]
            if not discord_of(player):
                grid.players[number] = replace(
                    player, external_ids=(*player.external_ids, ("discord", discord))
                )
