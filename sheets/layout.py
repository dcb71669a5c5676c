"""What the tabs and columns of a TD's spreadsheet mean: all layout knowledge, in one place.

The worker reads two input layouts, recognised by the header row of the results tab:

- a **crosstable** (as clubs publish them): ``#``, ``Name``, optional ``Rating`` (and
  ``Discord``), then one column per round (``Rd 1``, ``Rd 2``, …) holding cells in the
  crosstable notation of core/RULEBOOK.md; ``Tot`` and tiebreak columns are ignored (they
  are recomputed);
- a **game list**: ``Round``, ``White``, ``Black``, ``Result`` (optional ``Board``), one game
  or bye a row, with the players in a separate ``Players`` tab (``#``, ``Name``, optional
  ``Rating`` and ``Discord``).

Beside them, a player's awards may be columns of the players' rows (``Categories``, ``Team``,
``Limit``: :class:`AwardColumns`), and the prizes a tab of their own (``Prizes``: one prize a
row, the columns of :data:`core.awards.cells.PRIZE_COLUMNS`).

It writes three tabs of its own (standings, breakdown, errors; and awards, when the
spreadsheet has a Prizes tab), each marked with developer
metadata so it is never confused with a tab the TD made, and reads its settings from a
``Harkness`` tab it creates. Rows and columns are zero-based here; :func:`a1` turns them into
the references a TD reads (``Results!E7``).

>>> a1("Results", 6, 4), a1("Round 1", 0, 27), column_letters(701)
('Results!E7', "'Round 1'!AB1", 'ZZ')
>>> detect_results_header(["#", "Name", "Rating", "Rd 1", "Rd 2", "Tot"])
CrosstableColumns(number=0, name=1, rating=2, discord=None, rounds=(3, 4), total=5, awards=None)
>>> detect_results_header(["Board", "Round", "White", "Black", "Result"])
GameListColumns(round=1, white=2, black=3, result=4, board=0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

SETTINGS_TAB = "Harkness"
"""The settings tab: the worker creates it with defaults; the TD edits it."""

TAB_METADATA_KEY = "harkness.tab"
"""Developer metadata key on the worker's own tabs; its value is the tab's :class:`Role`."""

INPUT_HASH_METADATA_KEY = "harkness.inputHash"
"""Spreadsheet-level developer metadata key holding the hash of the last input synced."""

OUTPUT_METADATA_KEY = "harkness.outputHash"
"""Spreadsheet-level developer metadata key holding what the worker's tabs show
(:mod:`sheets.output`), so that an edit inside them is found and replaced."""

CHECKED_METADATA_KEY = "harkness.checkedAt"
"""Spreadsheet-level developer metadata key holding when the worker last showed a check on
the sheet (ISO 8601, UTC); see :data:`sheets.sync.CHECK_STAMP_EVERY`."""

ADDON_KEY_METADATA_KEY = "harkness.addonKey"
"""Spreadsheet-level developer metadata key holding the SHA-256 of an editor's add-on key
(one entry per editor who connected), written by the add-on (:mod:`sheets.addon_keys`); the
worker never writes it, and removes it only when the operator revokes the keys."""

PROTECTION_DESCRIPTION = (
    "Written by Harkness: edits here are replaced at the next sync. Edit the results tab instead."
)
"""The description of the warning-only protection on the worker's tabs."""


class Role(Enum):
    """The worker's own tabs, as recorded in their developer metadata."""

    STANDINGS = "standings"
    BREAKDOWN = "breakdown"
    ERRORS = "errors"
    PAIRINGS = "pairings"  # a round's pairing, "Pairings Rd N" (sheets.pairing)
    AWARDS = "awards"  # the award list, from the TD's Prizes tab (sheets.prizes_tab)


_PLAIN_TITLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LOOKS_LIKE_CELL = re.compile(r"^[A-Za-z]{1,3}[0-9]+$|^[Rr][0-9]*[Cc][0-9]*$")


def column_letters(index: int) -> str:
    """The letters of a zero-based column index: 0 is ``A``, 26 is ``AA``."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def quote_tab(title: str) -> str:
    """A tab title as A1 notation needs it: quoted when it has spaces or punctuation.

    >>> quote_tab("Results"), quote_tab("Round 1"), quote_tab("TD's tab")
    ('Results', "'Round 1'", "'TD''s tab'")
    """
    if _PLAIN_TITLE.match(title) and not _LOOKS_LIKE_CELL.match(title):
        return title
    return "'" + title.replace("'", "''") + "'"


def a1(tab: str, row: int, column: int) -> str:
    """The A1 reference of a cell given zero-based ``row`` and ``column``."""
    return f"{quote_tab(tab)}!{column_letters(column)}{row + 1}"


def clean(text: str) -> str:
    """A cell's text as the reader compares it: no surrounding or non-breaking spaces."""
    return text.replace("\u00a0", " ").strip()


def _key(text: str) -> str:
    return " ".join(clean(text).lower().split())


# ---------------------------------------------------------------- header words

_ROUND_HEADER = re.compile(r"^(?:rd|round|rnd|r)\s*(?:\.\s*)?(\d{1,4})$", re.ASCII)
_NUMBER_WORDS = frozenset({"#", "no", "no.", "pno", "sn", "number", "start no", "start no."})
_NAME_WORDS = frozenset({"name", "player"})
_RATING_WORDS = frozenset({"rating", "rtg"})
_TOTAL_WORDS = frozenset({"tot", "total", "pts", "points", "score"})
_DISCORD_WORDS = frozenset({"discord"})
_ROUND_WORDS = frozenset({"round", "rd", "rnd"})
_WHITE_WORDS = frozenset({"white"})
_BLACK_WORDS = frozenset({"black"})
_RESULT_HEADINGS = frozenset({"result", "res", "score"})
_BOARD_WORDS = frozenset({"board", "bd", "table"})
#: A player's awards (the prize list's categories, teams and personal limits), as columns of
#: the players' rows: a crosstable's, or a game list's players tab.
_CATEGORY_WORDS = frozenset({"category", "categories"})
_TEAM_WORDS = frozenset({"team"})
_LIMIT_WORDS = frozenset({"limit", "prize limit", "cash limit"})
HEADER_SEARCH_ROWS = 5
"""How many rows from the top are searched for a header row (a title row may come first)."""


@dataclass(frozen=True, slots=True)
class CrosstableColumns:
    """Where each column of a crosstable tab is; ``rounds[r - 1]`` is round ``r``'s column."""

    number: int
    name: int
    rating: int | None
    discord: int | None
    rounds: tuple[int, ...]
    #: A points column (``Tot``): never read as results, only compared with them.
    total: int | None = None
    #: The player's awards columns: :class:`AwardColumns`.
    awards: AwardColumns | None = None


@dataclass(frozen=True, slots=True)
class GameListColumns:
    """Where each column of a game-list tab is."""

    round: int
    white: int
    black: int
    result: int
    board: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerColumns:
    """Where each column of a players tab is; without ``#`` players are numbered by row."""

    number: int | None
    name: int
    rating: int | None
    discord: int | None
    awards: AwardColumns | None = None


@dataclass(frozen=True, slots=True)
class AwardColumns:
    """Where a player's awards are, in the players' rows: ``Categories`` (youth, senior…),
    ``Team`` and ``Limit`` (a personal cash limit; 0: not prize-eligible); each optional.

    >>> award_columns(["#", "Name", "Team", "Categories", "Rd 1"])
    AwardColumns(categories=3, team=2, limit=None)
    """

    categories: int | None
    team: int | None
    limit: int | None


def award_columns(keys: Sequence[str]) -> AwardColumns | None:
    """The awards columns of a header row (None: it has none)."""
    keys = [_key(k) for k in keys]
    found = AwardColumns(
        _find(keys, _CATEGORY_WORDS), _find(keys, _TEAM_WORDS), _find(keys, _LIMIT_WORDS)
    )
    return None if found == AwardColumns(None, None, None) else found


def _find(keys: Sequence[str], words: frozenset[str]) -> int | None:
    return next((i for i, key in enumerate(keys) if key in words), None)


def detect_results_header(row: Sequence[str]) -> CrosstableColumns | GameListColumns | None:
    """The layout a header row announces, or None if it is neither layout's header.

    A crosstable needs ``#``, ``Name`` and at least one round column; a game list needs
    ``Round``, ``White``, ``Black`` and ``Result``. Round columns must run 1, 2, 3… in order;
    :func:`round_columns_in_order` says whether they do.
    """
    keys = [_key(cell) for cell in row]
    white, black = _find(keys, _WHITE_WORDS), _find(keys, _BLACK_WORDS)
    round_column, result = _find(keys, _ROUND_WORDS), _find(keys, _RESULT_HEADINGS)
    if white is not None and black is not None and round_column is not None and result is not None:
        return GameListColumns(round_column, white, black, result, _find(keys, _BOARD_WORDS))
    number, name = _find(keys, _NUMBER_WORDS), _find(keys, _NAME_WORDS)
    rounds = [(int(m.group(1)), i) for i, key in enumerate(keys) if (m := _ROUND_HEADER.match(key))]
    if number is None or name is None or not rounds:
        return None
    return CrosstableColumns(
        number,
        name,
        _find(keys, _RATING_WORDS),
        _find(keys, _DISCORD_WORDS),
        tuple(i for _, i in rounds),
        _find(keys, _TOTAL_WORDS),
        award_columns(keys),
    )


def round_numbers(row: Sequence[str], columns: CrosstableColumns) -> list[int]:
    """The round numbers the crosstable's round headings give, in column order."""
    numbers = []
    for i in columns.rounds:
        m = _ROUND_HEADER.match(_key(row[i]))
        numbers.append(int(m.group(1)) if m else 0)
    return numbers


def detect_players_header(row: Sequence[str]) -> PlayerColumns | None:
    """The columns of a players tab's header row (``Name`` required), or None."""
    keys = [_key(cell) for cell in row]
    name = _find(keys, _NAME_WORDS)
    if name is None:
        return None
    return PlayerColumns(
        _find(keys, _NUMBER_WORDS),
        name,
        _find(keys, _RATING_WORDS),
        _find(keys, _DISCORD_WORDS),
        award_columns(keys),
    )


CROSSTABLE_HEADER_HINT = "'#, Name, Rating (optional), Rd 1, Rd 2, …' (a crosstable)"
GAME_LIST_HEADER_HINT = "'Round, White, Black, Result' (a game list, with a Players tab)"
PLAYERS_HEADER_HINT = "'#, Name, Rating (optional)'"
CROSSTABLE_PAIRINGS = (
    "a crosstable has no notation for a game paired but not yet played (an empty cell is "
    "an absence), so Pair next round writes the pairing only to its Pairings Rd N tab: type "
    "the results as usual, set this to No, or keep a game list (Round, White, Black, Result) "
    "to have the games added to it"
)
"""Why the pairing is not written into a crosstable, when the TD asks for it."""

# ---------------------------------------------------------------- game-list results

GAME_RESULT_HINT = "'1-0', '0-1', '½-½' (or '1/2-1/2'), '1F-0F', '0F-1F' or '0F-0F' (neither came)"

BYE_RESULT_HINT = "'B' or '1' (full-point bye), 'H' or '½' (half-point bye), 'U' or '0'"
#: What the opponent cell of a bye row may say.
BYE_OPPONENT_WORDS = frozenset({"", "bye", "-", "—", "–"})
