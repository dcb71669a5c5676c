"""Discord reports in the TD's spreadsheet: the bot's own tabs, and how they merge (issue 8).

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

The worker merges the reports into what the TD's tabs say (:func:`merge_reports`), between
reading the cells and building the tournament:

- what the TD typed always wins: a report never changes a cell the TD filled in;
- a cell the TD left empty takes the report (both cells of the game empty, or one empty and
  the other agreeing);
- a report that disagrees with what the TD typed is not applied: it becomes a
  :class:`ReportConflict` on the Errors tab, at the TD's cell. It is listed, never applied
  silently, and it does not hold back the standings (the TD's cell stands).

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

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from core.model import BYES, MIRROR, Colour, EntryKind, RoundEntry
from sheets.layout import (
    BYE_RESULTS,
    GAME_RESULTS,
    TAB_METADATA_KEY,
    a1,
    clean,
    result_key,
)
from sheets.problems import SheetProblem
from sheets.read import PlayerRow, ResultGrid, Rows, Sourced, with_entry
from sheets.snapshot import Snapshot, Tab
from sheets.tabs import OutCell
from sheets.write import cell_data, new_sheet_id

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
PLAYERS_HEADER = ["#", "Name", "Discord", "Member"]
"""The players tab's columns."""

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
_GAME_ACTIONS = frozenset({"confirm", "report", "set"})
_LABEL = re.compile(r"^#\s*(\d+)\s*(.*)$")
_MENTION = re.compile(r"^<@!?(\d+)>$")


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


# ---------------------------------------------------------------- who is who


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


def _name_key(name: str) -> str:
    return " ".join(clean(name).casefold().split())


def names_member(value: str, discord_id: str | None, username: str | None) -> bool:
    """Whether a ``Discord`` cell names this member (by id, mention or ``@username``).

    >>> names_member("<@42>", "42", None), names_member("@Ann_K", "7", "ann_k")
    (True, True)
    >>> names_member("42", "43", "x"), names_member("", "42", None)
    (False, False)
    """
    text = clean(value)
    mention = _MENTION.match(text)
    if mention:
        text = mention.group(1)
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
        if same_number is not None and _name_key(same_number.name) == _name_key(m.name):
            found[m.key] = m.number
            taken.add(m.number)
    for m in members:
        if m.key in found:
            continue
        same = [
            n
            for n, p in players.items()
            if n not in taken and _name_key(p.name) == _name_key(m.name)
        ]
        rivals = [
            o for o in members if o.key not in found and _name_key(o.name) == _name_key(m.name)
        ]
        if len(same) == 1 and len(rivals) == 1:
            found[m.key] = same[0]
            taken.add(same[0])
    return found


def label(player: PlayerRow) -> str:
    """``#3 Carol``: how the bot's tabs name a sheet player."""
    return f"#{player.id} {player.name}"


def _resolve(text: str, players: Mapping[int, PlayerRow]) -> int | str:
    """The starting number a label (``#3 Carol``, ``#3``, ``Carol``) means on the sheet, or
    what is wrong with it. A number whose name differs is found by the name instead."""
    text = clean(text)
    m = _LABEL.match(text)
    number, name = (int(m.group(1)), m.group(2)) if m else (None, text)
    if (
        number is not None
        and number in players
        and (not name or _name_key(players[number].name) == _name_key(name))
    ):
        return number
    if name:
        same = [n for n, p in players.items() if _name_key(p.name) == _name_key(name)]
        if len(same) == 1:
            return same[0]
        if same:
            return f"{len(same)} players are called {name!r} on the results tab"
        return f"there is no player called {name!r} on the results tab"
    return f"there is no player {number} on the results tab" if number else "no player named"


# ---------------------------------------------------------------- reading the bot's tabs


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


def _columns(header: Sequence[str], wanted: Sequence[str]) -> dict[str, int] | None:
    keys = [_name_key(c) for c in header]
    found = {name: keys.index(_name_key(name)) for name in wanted if _name_key(name) in keys}
    return found if len(found) == len(wanted) else None


def read_report_rows(
    rows: Rows, title: str = REPORTS_TAB
) -> tuple[list[ReportRow], list[SheetProblem]]:
    """The reports tab's rows (the first of each key), and the rows that cannot be read."""
    if not rows:
        return [], []
    columns = _columns([clean(c) for c in rows[0]], REPORT_HEADER)
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


def in_force(rows: Sequence[ReportRow]) -> list[ReportRow]:
    """The rows still in force, oldest first: an undo takes back the row it names (and an
    undo of an undo puts it back); undo rows themselves are left out.

    >>> def row(key, action="confirm", undoes=""):
    ...     return ReportRow(0, key, action, 1, "", "", "", "", undoes, "", "")
    >>> [r.key for r in in_force([row("a"), row("b"), row("u1", "revert", "a"),
    ...                            row("u2", "revert", "u1"), row("u3", "revert", "b")])]
    ['a']
    """
    undone: set[str] = set()
    for row in reversed(rows):
        if row.key not in undone and row.action == "revert":
            undone.add(row.undoes)
    return [r for r in rows if r.key not in undone and r.action != "revert"]


def bot_tab(snapshot: Snapshot, title: str, marker: str) -> Tab | None:
    """The bot's tab called ``title`` (marked ``marker``), if there is one."""
    tab = snapshot.tab(title)
    return tab if tab is not None and tab.marker == marker else None


def foreign_tab(snapshot: Snapshot, title: str, marker: str) -> Tab | None:
    """A tab called ``title`` that is *not* the bot's: the bot leaves it alone."""
    tab = snapshot.tab(title)
    return tab if tab is not None and tab.marker != marker else None


def written_keys(snapshot: Snapshot) -> set[str]:
    """The key of every row in the reports tab, readable or not: results already written."""
    tab = bot_tab(snapshot, REPORTS_TAB, REPORTS_MARKER)
    if tab is None or not tab.rows:
        return set()
    header = [_name_key(c) for c in tab.rows[0]]
    if _name_key("Key") not in header:
        return set()
    column = header.index(_name_key("Key"))
    return {clean(row[column]) for row in tab.rows[1:] if column < len(row) and clean(row[column])}


# ---------------------------------------------------------------- the merge


@dataclass(frozen=True, slots=True)
class ReportConflict(SheetProblem):
    """A Discord report that disagrees with what the TD typed: not applied, the TD's cell
    stands. ``cell`` and ``text`` are the TD's; ``key`` is the report's."""

    key: str = ""
    report: str = ""
    """The report in words: ``round 1: #1 Ann 1-0 #2 Bob (confirmed by Bob)``."""


@dataclass(frozen=True, slots=True)
class _Claim:
    entry: RoundEntry
    row: ReportRow


_ABSENT = RoundEntry(EntryKind.ABSENT)


def _score(kind: EntryKind) -> str:
    half = kind.half_points
    return (
        {2: "1-0", 1: "½-½", 0: "0-1"}[half]
        if kind.played
        else ("+/-" if kind is EntryKind.FORFEIT_WIN else "-/+")
    )


def _how(row: ReportRow) -> str:
    """How a result became final in Discord: ``confirmed by Bob``, ``set by Tess (TD)``."""
    by = row.confirmed_by
    if row.action == "confirm":
        return f"confirmed by {by}" if by else "confirmed"
    if row.action == "report":
        return "reported alike by both players"
    if row.action == "set":
        return f"set by {by} (TD)" if by else "set by a TD"
    return f"{ACTION_WORDS[row.action]} by {by}" if by else ACTION_WORDS[row.action]


def _words(grid: ResultGrid, r: int, p: int, claim: _Claim) -> str:
    entry = claim.entry
    who = label(grid.players[p])
    if entry.opponent is None:
        what = f"{who}: {entry.kind.value}"
    else:
        what = f"{who} {_score(entry.kind)} {label(grid.players[entry.opponent])}"
    return f"round {r}: {what} ({_how(claim.row)})"


def _agrees(typed: RoundEntry, reported: RoundEntry) -> bool:
    return (
        typed.kind is reported.kind
        and typed.opponent == reported.opponent
        and (typed.colour is None or reported.colour is None or typed.colour is reported.colour)
    )


def _colour(text: str) -> Colour | None:
    return {"white": Colour.WHITE, "w": Colour.WHITE, "black": Colour.BLACK, "b": Colour.BLACK}.get(
        text
    )


def _bye_kind(text: str) -> EntryKind | None:
    try:
        kind = EntryKind(text.strip().lower())
    except ValueError:
        return BYE_RESULTS.get(result_key(text)) if text else None
    return kind if kind in BYES else None


def _fold(
    rows: Sequence[ReportRow], grid: ResultGrid, rounds: int | None, notices: list[SheetProblem]
) -> tuple[dict[tuple[int, int], _Claim], dict[int, _Claim]]:
    """What the reports in force say, per (player, round); and withdrawals, by player."""
    state: dict[tuple[int, int], _Claim] = {}
    withdrawn: dict[int, _Claim] = {}

    def skip(row: ReportRow, why: str) -> None:
        notices.append(
            SheetProblem(
                f"{why}; this Discord report was not applied", row.cell, row.result or None
            )
        )

    def drop(p: int, r: int) -> None:
        old = state.pop((p, r), None)
        if old is not None and old.entry.opponent is not None:
            mirror = state.get((old.entry.opponent, r))
            if mirror is not None and mirror.entry.opponent == p:
                del state[(old.entry.opponent, r)]

    for row in rows:
        r = row.round
        if r is None or r < 1:
            skip(row, "the round is missing")
            continue
        if rounds is not None and r > rounds:
            skip(row, f"round {r} is beyond the {rounds} rounds of the Harkness tab")
            continue
        p = _resolve(row.player, grid.players)
        if isinstance(p, str):
            skip(row, p)
            continue
        if row.action in _GAME_ACTIONS:
            kinds = GAME_RESULTS.get(result_key(row.result))
            q = _resolve(row.opponent, grid.players)
            if kinds is None:
                skip(row, "not a game result")
            elif isinstance(q, str):
                skip(row, q)
            elif q == p:
                skip(row, "a player cannot play themselves")
            else:
                colour = _colour(row.colour)
                mine = RoundEntry(kinds[0], q, colour if kinds[0].played else None)
                theirs = RoundEntry(
                    kinds[1], p, colour.opposite if colour and kinds[1].played else None
                )
                drop(p, r)
                drop(q, r)
                state[(p, r)] = _Claim(mine, row)
                state[(q, r)] = _Claim(theirs, row)
        elif row.action == "bye":
            kind = _bye_kind(row.result)
            if kind is None:
                skip(row, "not a bye")
            else:
                drop(p, r)
                state[(p, r)] = _Claim(RoundEntry(kind), row)
        elif row.action == "clear":
            drop(p, r)
        elif row.action == "withdraw":
            withdrawn[p] = _Claim(RoundEntry(EntryKind.WITHDRAWN), row)
    return state, withdrawn


def _typed_by_opponent(grid: ResultGrid) -> dict[tuple[int, int], list[tuple[int, Sourced]]]:
    """(player, round) → the TD's cells of *other* players that name them as opponent."""
    index: dict[tuple[int, int], list[tuple[int, Sourced]]] = {}
    for (player, r), sourced in grid.entries.items():
        if sourced.entry.opponent is not None:
            index.setdefault((sourced.entry.opponent, r), []).append((player, sourced))
    return index


def _implied(other: int, sourced: Sourced) -> RoundEntry:
    """What ``other``'s cell says of the round of the player it names (the mirror of the
    game, against ``other``)."""
    entry = sourced.entry
    colour = entry.colour.opposite if entry.colour is not None else None
    return RoundEntry(MIRROR[entry.kind], other, colour)


def merge_reports(
    grid: ResultGrid,
    reports: Rows | None,
    players: Rows | None = None,
    *,
    rounds: int | None = None,
) -> list[SheetProblem]:
    """Merge the bot's tabs into ``grid`` (what the TD's tabs say); answer the notices:
    reports that disagree with the TD (:class:`ReportConflict`) or cannot be read.

    ``reports`` and ``players`` are the rows of the reports and players tabs (None when the
    sheet has none); ``rounds`` is the Harkness tab's number of rounds, if set.
    """
    notices: list[SheetProblem] = []
    if players:
        _merge_discord_ids(grid, players)
    if not reports or not grid.players:
        return notices
    rows, problems = read_report_rows(reports)
    notices += problems
    state, withdrawn = _fold(in_force(rows), grid, rounds, notices)
    typed = dict(grid.entries)
    unreadable = set(grid.unreadable)
    by_opponent = _typed_by_opponent(grid)
    done: set[tuple[int, int]] = set()
    for (p, r), claim in sorted(state.items(), key=lambda item: item[1].row.row):
        if (p, r) in done:
            continue
        sides = [(p, claim)]
        q = claim.entry.opponent
        if q is not None:
            sides.append((q, state[(q, r)]))
        done.update((x, r) for x, _ in sides)
        if any((x, r) in unreadable for x, _ in sides):
            continue  # the TD typed something there (with a problem of its own): it stands
        clash = _clash(sides, r, typed, by_opponent)
        if clash is not None:
            where, text = clash
            words = _words(grid, r, p, claim)
            notices.append(
                ReportConflict(
                    f"Discord has {words}, but this cell says otherwise. What you typed "
                    "stands; the report was not applied: correct this cell if Discord is "
                    "right, or have a TD correct Discord with /result set",
                    where,
                    text,
                    claim.row.key,
                    words,
                )
            )
            continue
        for x, side in sides:
            if (x, r) not in typed:
                entry = _with_colour(side.entry, r, typed)
                with_entry(grid, x, r, Sourced(entry, side.row.cell, side.row.result))
    for p, claim in withdrawn.items():
        for r in range(claim.row.round or 1, grid.rounds + 1):
            if (
                (p, r) not in grid.entries
                and (p, r) not in unreadable
                and not by_opponent.get((p, r))
            ):
                with_entry(grid, p, r, Sourced(claim.entry, claim.row.cell, claim.row.result))
    return notices


def _clash(
    sides: Sequence[tuple[int, _Claim]],
    r: int,
    typed: Mapping[tuple[int, int], Sourced],
    by_opponent: Mapping[tuple[int, int], Sequence[tuple[int, Sourced]]],
) -> tuple[str, str] | None:
    """The TD's cell (and its text) that disagrees with the report, if any."""
    for x, side in sides:
        own = typed.get((x, r))
        if own is not None and not _agrees(own.entry, side.entry):
            return own.cell, own.text
        for other, sourced in by_opponent.get((x, r), ()):
            if not _agrees(_implied(other, sourced), side.entry):
                return sourced.cell, sourced.text
    return None


def _with_colour(entry: RoundEntry, r: int, typed: Mapping[tuple[int, int], Sourced]) -> RoundEntry:
    """A reported game without colours takes them from the TD's cell of the other side."""
    if entry.colour is not None or not entry.kind.played or entry.opponent is None:
        return entry
    other = typed.get((entry.opponent, r))
    if other is None or other.entry.colour is None:
        return entry
    return entry._replace(colour=other.entry.colour.opposite)


def _merge_discord_ids(grid: ResultGrid, rows: Rows) -> None:
    """Players the TD left without a ``Discord`` cell take the bot's players tab's."""
    columns = _columns([clean(c) for c in rows[0]], PLAYERS_HEADER[:3]) if rows else None
    if columns is None:
        return
    for row in rows[1:]:

        def cell(name: str, row: Sequence[str] = row) -> str:
            i = columns[name]
            return clean(row[i]) if i < len(row) else ""

        number = _resolve(
            f"#{cell('#')} {cell('Name')}" if cell("#") else cell("Name"), grid.players
        )
        discord = cell("Discord")
        if isinstance(number, int) and discord:
            player = grid.players[number]
            if not discord_of(player):
                grid.players[number] = replace(
                    player, external_ids=(*player.external_ids, ("discord", discord))
                )


def bot_rows(snapshot: Snapshot) -> tuple[Rows | None, Rows | None]:
    """The rows of the bot's reports and players tabs (None where there is none)."""
    reports = bot_tab(snapshot, REPORTS_TAB, REPORTS_MARKER)
    players = bot_tab(snapshot, PLAYERS_TAB, PLAYERS_MARKER)
    return (reports.rows if reports else None, players.rows if players else None)


# ---------------------------------------------------------------- writing the bot's tabs


class TabTaken(Exception):
    """A tab has the name of one of the bot's tabs but is not the bot's."""


def _mark(sheet_id: int, marker: str) -> Request:
    return {
        "createDeveloperMetadata": {
            "developerMetadata": {
                "metadataKey": TAB_METADATA_KEY,
                "metadataValue": marker,
                "location": {"sheetId": sheet_id},
                "visibility": "DOCUMENT",
            }
        }
    }


def _protect(sheet_id: int) -> Request:
    return {
        "addProtectedRange": {
            "protectedRange": {
                "range": {"sheetId": sheet_id},
                "warningOnly": True,
                "description": BOT_TAB_PROTECTION,
            }
        }
    }


def _cells(
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


def _tab(
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
                {
                    "addSheet": {
                        "properties": {"sheetId": sheet_id, "title": title, "gridProperties": grid}
                    }
                },
                _mark(sheet_id, marker),
                _protect(sheet_id),
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
        requests.append(_protect(tab.sheet_id))
    return tab.sheet_id, requests, False


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
    sheet_id, requests, _ = _tab(
        snapshot, REPORTS_TAB, REPORTS_MARKER, len(REPORT_HEADER), start + len(lines), rng
    )
    if lines:
        requests.append(
            {
                "updateCells": {
                    "start": {"sheetId": sheet_id, "rowIndex": start, "columnIndex": 0},
                    "rows": _cells(lines, header=not existing, numbers=[_ROUND_COLUMN]),
                    "fields": "userEnteredValue,userEnteredFormat",
                }
            }
        )
    return requests


def players_requests(
    snapshot: Snapshot, rows: Sequence[Sequence[str]], rng: random.Random | None = None
) -> list[Request]:
    """The requests that make the players tab say ``rows`` (none when it already does)."""
    lines = [PLAYERS_HEADER, *[list(r) for r in rows]]
    tab = snapshot.tab(PLAYERS_TAB)
    if tab is not None and tab.marker == PLAYERS_MARKER and _same(tab.rows, lines):
        return []
    rng = rng or random.Random()
    sheet_id, requests, new = _tab(
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
                "rows": _cells(lines, header=True, numbers=[0]),
                "fields": "userEnteredValue,userEnteredFormat",
            }
        }
    )
    return requests


def _same(have: Rows, want: Sequence[Sequence[str]]) -> bool:
    def trimmed(rows: Iterable[Sequence[str]]) -> list[list[str]]:
        out = [[clean(c) for c in row] for row in rows]
        for row in out:
            while row and not row[-1]:
                row.pop()
        while out and not out[-1]:
            out.pop()
        return out

    return trimmed(have) == trimmed(want)


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
    """Discord starting number → the sheet's label of that player, for :func:`report_row`."""
    return {
        m.number: label(players[matched[m.key]])
        for m in members
        if m.number is not None and m.key in matched
    }


def describe_row(row: Sequence[str]) -> str:
    """A reports row in words, for messages: ``round 1: #1 Ann 1-0 #2 Bob``."""
    cells = list(row) + [""] * (len(REPORT_HEADER) - len(row))
    what = " ".join(c for c in (cells[2], cells[3], cells[4]) if c)
    return f"round {cells[1]}: {what}" if cells[1] else what


__all__ = [
    "PLAYERS_HEADER",
    "PLAYERS_TAB",
    "REPORTS_TAB",
    "REPORT_HEADER",
    "Member",
    "ReportConflict",
    "ReportRow",
    "TabTaken",
    "append_requests",
    "bot_rows",
    "foreign_tab",
    "in_force",
    "labels_of",
    "match_players",
    "merge_reports",
    "player_rows",
    "players_requests",
    "read_report_rows",
    "report_row",
    "written_keys",
]
