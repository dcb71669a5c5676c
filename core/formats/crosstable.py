"""Crosstable text as clubs publish it, read and written (core/RULEBOOK.md, "The crosstable
text format").

One player a row: ``#``, ``Name``, optional ``Rating``, one column per round (``Rd 1``,
``Rd 2``, …), then optional ``Tot`` and tiebreak columns, which are ignored on input and
recomputed on output. Columns are separated by a tab, a comma (CSV), or two or more spaces.
Above the heading row, a details line may give the section's start date
(``Start date: 2026-12-01``, TRF-16 record 042's date, which picks the FIDE C.07 text under
``--rules fide``): it is read back, and written whenever the date can be read.

Round cells: ``W9 (w)`` won against 9 with White, ``D5 (b)`` drawn with Black, ``L3`` lost
(colour optional), ``X9`` / ``F9`` forfeit win / loss against 9, ``B`` full-point bye, ``H``
half-point bye, ``U`` zero-point bye, ``-`` withdrawn, empty absent (withdrawn when every
later cell of the rounds played is empty too). Case-insensitive; ``½`` and ``=`` are draws.
A cell holding only a half point (``½``, ``1/2``, ``0.5``, ``=``) is refused with a hint
(:func:`cell_hint`): it may mean a half-point bye (``H``) or a draw whose opponent is missing.

>>> t = read_crosstable('''#  Name  Rd 1  Rd 2
... 1  Ann  W2 (w)  H
... 2  Bob  L1 (b)  B''')
>>> [str(e) for e in t.player(2).entries]
['L1 (b)', 'B']
"""

from __future__ import annotations

import bisect
import csv
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from core.dates import read_date
from core.formats.text import lines_of
from core.limits import (
    MAX_CELL_CHARS,
    MAX_PLAYERS,
    MAX_RATING,
    MAX_ROUNDS,
    quote,
    size_problem,
    whole_number,
)
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament, last_played_round
from core.names import csv_unsafe, name_key, name_problem, tidy, write_csv
from core.numbers import UNDEFINED_TEXT, half_points
from core.problems import HarknessError, Problem
from core.results import side_result
from core.standings import Standings
from core.tiebreaks import tiebreaks_of

# The patterns are matched whole (fullmatch) against cells of at most MAX_CELL_CHARS, and
# none can backtrack more than linearly: a run of blanks is matched by one \s* only.
#: A round heading (``Rd 1``, ``Round 2``, ``R.3``); the number is checked against the limit.
_ROUND_HEADER = re.compile(r"(?:rd|round|r)\s*(?:\.\s*)?(\d+)", re.IGNORECASE | re.ASCII)
#: A game: result, opponent (up to four digits), optional colour.
_GAME = re.compile(
    r"([wdl½=])\s*(\d{1,4})(?:\s*\(\s*([wb])\s*\)|\s*([wb]))?", re.IGNORECASE | re.ASCII
)
_FORFEIT = re.compile(r"([xf+])\s*(\d{1,4})", re.IGNORECASE | re.ASCII)
_BYES = {
    "b": EntryKind.FULL_BYE,
    "h": EntryKind.HALF_BYE,
    "u": EntryKind.ZERO_BYE,
    "-": EntryKind.WITHDRAWN,
    "": EntryKind.ABSENT,
}
#: The start of the details line above the heading row that gives the start date
#: (``Start date: 2026-12-01``; ``Start date,2026-12-01`` as a spreadsheet saves two cells,
#: quoted or not). Matched at the line's start only; the rest of the line is the date.
_START_DATE = re.compile(r'\s*(?:"\s*)?start\s*date\s*(?:"\s*)?[:,\t]', re.IGNORECASE)
#: What each separator writes, as an error message names it.
_FORMAT_NAMES = {"  ": "aligned text", "\t": "tab-separated text", ",": "CSV"}
#: Crosstable headings of the US Chess tiebreaks, as MD Chess's published crosstables print them.
TIEBREAK_HEADINGS = {"MM": "M", "SOLK": "S", "CUM": "C", "OCUM": "O"}


class Cell(NamedTuple):
    """A field of the table and where it starts (1-based line and column)."""

    text: str
    line: int
    column: int


CELL_HINT = "expected e.g. 'W9 (w)', 'D5', 'L3', 'X9', 'F9', 'B', 'H', 'U', '-' or empty"
"""What a round cell may hold, for messages about one that is not a round entry."""

_HALF_POINT = frozenset({"½", "1/2", "0.5", ".5", "0,5", "=", "0.5-0.5", "½-½", "1/2-1/2"})
"""A half point alone: the usual shorthand for a half-point bye, or a draw whose opponent is
missing. Harkness does not guess which."""


def cell_hint(text: str) -> str:
    """What to write instead of ``text``, a cell that is not a round entry.

    >>> cell_hint("½")
    "a half point alone: for a half-point bye write H, for a draw D and the opponent's number"
    >>> cell_hint("Q7")[:30]
    "expected e.g. 'W9 (w)', 'D5', "
    """
    if len(text) <= 20 and "".join(text.split()) in _HALF_POINT:
        return (
            "a half point alone: for a half-point bye write H, for a draw D and the "
            "opponent's number"
        )
    return CELL_HINT


@lru_cache(maxsize=4096)  # a section repeats its cells ("B", "W12 (w)") many times
def parse_cell(text: str) -> RoundEntry | None:
    """The round entry a crosstable cell stands for, or None if it is not one.

    >>> parse_cell("W9 (w)"), parse_cell("x4"), parse_cell("h"), parse_cell("Q")
    (RoundEntry(kind=<EntryKind.WIN: 'win'>, opponent=9, colour=<Colour.WHITE: 'w'>), \
RoundEntry(kind=<EntryKind.FORFEIT_WIN: 'forfeit win'>, opponent=4, colour=None), \
RoundEntry(kind=<EntryKind.HALF_BYE: 'half-point bye'>, opponent=None, colour=None), None)
    """
    text = text.strip()
    key = text.lower()
    if key in _BYES:
        return RoundEntry(_BYES[key])
    m = _GAME.fullmatch(text)
    if m:
        colour = (m.group(3) or m.group(4) or "").lower()
        kind = side_result(m.group(1))
        return RoundEntry(kind, int(m.group(2)), Colour.parse(colour)) if kind else None
    m = _FORFEIT.fullmatch(text)
    if m:
        kind = side_result(m.group(1))
        return RoundEntry(kind, int(m.group(2))) if kind else None
    return None


def _split_csv(line: str, number: int) -> list[Cell]:
    if '"' not in line:  # no quoting: the fields are what lies between the commas
        cells, pos = [], 0
        for value in line.split(","):
            cells.append(Cell(csv_unsafe(value.strip()), number, pos + 1))
            pos += len(value) + 1
        return cells
    cells = []
    reader = csv.reader([line])
    fields = next(reader, [])
    # csv gives no positions: find each field's start by walking the raw line.
    pos = 0
    for value in fields:
        start = pos
        if pos < len(line) and line[pos] == '"':
            pos += 1
            while pos < len(line):
                if line[pos] == '"' and line[pos + 1 : pos + 2] == '"':
                    pos += 2
                elif line[pos] == '"':
                    pos += 1
                    break
                else:
                    pos += 1
        end = line.find(",", pos)
        pos = len(line) + 1 if end < 0 else end + 1
        cells.append(Cell(csv_unsafe(value.strip()), number, start + 1))
    return cells


#: A cell of aligned text: words separated by single spaces (two or more end the cell).
_ALIGNED_CELL = re.compile(r"\S+(?: \S+)*")


def _split(line: str, number: int, separator: str) -> list[Cell]:
    """The line's cells, each with the column it starts at."""
    if separator == ",":
        return _split_csv(line, number)
    if separator == "\t":
        cells, pos = [], 0
        for field in line.split("\t"):
            stripped = len(field) - len(field.lstrip())
            cells.append(Cell(field.strip(), number, pos + stripped + 1))
            pos += len(field) + 1
        return cells
    return [Cell(m.group(), number, m.start() + 1) for m in _ALIGNED_CELL.finditer(line)]


def _by_position(tokens: Sequence[Cell], starts: Sequence[int], number: int) -> list[Cell]:
    """Aligned text with empty cells: put each token under the heading it starts below
    (``starts``: the headings' columns, ascending). Linear: a binary search per token, and
    tokens under one heading joined once."""
    under: list[list[Cell]] = [[] for _ in starts]
    for token in tokens:
        under[max(bisect.bisect_right(starts, token.column) - 1, 0)].append(token)
    return [
        Cell("", number, column)
        if not found
        else found[0]
        if len(found) == 1
        # Two tokens under one heading: keep both, the cell check reports it.
        else Cell("  ".join(t.text for t in found), number, found[0].column)
        for column, found in zip(starts, under, strict=True)
    ]


def _row_cells(line: str, number: int, separator: str, starts: Sequence[int]) -> list[Cell]:
    """A row's cells, one under each heading (``starts``: the headings' columns)."""
    cells = _split(line, number, separator)
    if separator == "  " and len(cells) != len(starts):
        cells = _by_position(cells, starts, number)
    return cells


def read_team_column(text: str, path: str = "<input>") -> dict[str, tuple[int, ...]]:
    """The teams of a crosstable's ``Team`` column (a scholastic section's school or club):
    each team's starting numbers in row order, teams in the order first seen; empty when
    the table has no such column. A team is named as first written (teams are compared as
    names are, :func:`~core.names.name_key`); an empty cell is no team. Meant for text that
    :func:`read_crosstable` accepted; raises :class:`HarknessError` for a team name that is
    no name (control characters, too long), at its cell.

    >>> read_team_column('#,Name,Team,Rd 1\\n1,Ann,Lincoln,W2\\n2,Bob,lincoln ,L1\\n3,Cy,,')
    {'Lincoln': (1, 2)}
    """
    lines = lines_of(text, path)
    if not lines:
        return {}
    header_number, header_line = lines[0]
    separator = _separator(header_line)
    header = _split(header_line, header_number, separator)
    keys = [cell.text.strip().lower() for cell in header]
    if "team" not in keys:
        return {}
    team_col = keys.index("team")
    id_col = next((i for i, k in enumerate(keys) if k in _NUMBER_HEADINGS), 0)
    starts = [h.column for h in header]
    teams: dict[str, list[int]] = {}
    spelled: dict[str, str] = {}
    problems = []
    for number, line in lines[1:]:
        cells = _row_cells(line, number, separator, starts)
        if team_col >= len(cells) or not cells[team_col].text:
            continue
        cell = cells[team_col]
        player_id = whole_number(cells[id_col].text, MAX_PLAYERS) if id_col < len(cells) else 0
        problem = name_problem(cell.text, "team name")
        if problem is not None:
            problems.append(
                replace(problem, path=path, line=number, column=cell.column, field="Team")
            )
            continue
        key = name_key(cell.text)
        team = spelled.setdefault(key, tidy(cell.text))
        if player_id:
            teams.setdefault(team, []).append(player_id)
    if problems:
        raise HarknessError(problems)
    return {team: tuple(ids) for team, ids in teams.items()}


def _separator(header: str) -> str:
    if "\t" in header:
        return "\t"
    if "," in header:
        return ","
    return "  "


def read_crosstable(text: str, path: str = "<input>", name: str = "") -> Tournament:
    """Read crosstable text or CSV into a :class:`Tournament`.

    Raises :class:`HarknessError` with every problem, each naming ``path``, the line and
    column of the cell, and what was expected there.
    """
    lines = lines_of(text, path)
    if not lines:
        raise HarknessError(
            [
                Problem(
                    "the file is empty; expected a header row '#, Name, Rd 1, …'",
                    path=path,
                    line=1,
                    code="empty-file",
                )
            ]
        )
    start_date, lines = _details(lines, path)
    if not lines:
        raise HarknessError(
            [
                Problem(
                    "the file has no table; expected a header row '#, Name, Rd 1, …'",
                    path=path,
                    line=1,
                    code="empty-file",
                )
            ]
        )
    header_number, header_line = lines[0]
    separator = _separator(header_line)
    header = _split(header_line, header_number, separator)
    problems: list[Problem] = []
    columns = _header_columns(header, path, problems)
    if problems:
        raise HarknessError(problems)
    id_col, name_col, rating_col, round_cols = columns
    _check_size(lines, len(round_cols), path)
    starts = [h.column for h in header]
    players: list[Player] = []
    rows: dict[int, tuple[Sequence[Cell], int]] = {}  # each player's cells and line width
    for number, line in lines[1:]:
        cells = _row_cells(line, number, separator, starts)
        player = _read_row(
            cells, number, len(line), id_col, name_col, rating_col, round_cols, path, problems
        )
        if player is None:
            continue
        if player.id in rows:  # said here, at this row: the section would only name the player
            first = rows[player.id][0][id_col]
            problems.append(
                Problem(
                    f"starting number {player.id} is used twice (first on line {first.line})",
                    path=path,
                    line=number,
                    column=cells[id_col].column,
                    code="number-used-twice",
                    field="#",
                    value=str(player.id),
                )
            )
            continue
        rows[player.id] = (cells, len(line))
        players.append(player)
    if problems:
        raise HarknessError(problems)
    played = last_played_round(p.entries for p in players)
    players = [replace(p, entries=trailing_withdrawal(p.entries, played)) for p in players]
    try:
        return Tournament(
            tuple(sorted(players, key=lambda p: p.id)),
            len(round_cols),
            name=name,
            start_date=start_date,
        )
    except HarknessError as error:
        raise HarknessError(_locate(error.problems, rows, id_col, round_cols, path)) from None


def _details(lines: list[tuple[int, str]], path: str) -> tuple[str, list[tuple[int, str]]]:
    """The start date a details line above the heading row gives ("" without one), and the
    lines from the heading row on. The date is kept as written (:func:`core.dates.read_date`
    reads it when a rule needs it), the padding a spreadsheet adds (``,,,``) left out."""
    start_date, given = "", 0
    for i, (number, line) in enumerate(lines):
        found = _START_DATE.match(line)
        if found is None:
            return start_date, lines[i:]
        if given:
            raise HarknessError(
                [
                    Problem(
                        f"the start date is given twice (first on line {given})",
                        path=path,
                        line=number,
                        column=1,
                        code="start-date-twice",
                        field="Start date",
                        value=line[found.end() :].strip(' \t,"'),
                    )
                ]
            )
        start_date, given = line[found.end() :].strip(' \t,"'), number
    return start_date, []


#: Headings of the starting number column.
_NUMBER_HEADINGS = ("#", "no", "no.", "pno", "sn")
#: The start of a TRF-16 record other than a player line (``012 Name``, ``XXR 9``): a file
#: of such records and no ``001`` line is a TRF-16 file without players, not a crosstable.
_TRF_RECORD = re.compile(r"(?:\d{3}|XX[A-Z0-9]) ")


def _header_columns(
    header: Sequence[Cell], path: str, problems: list[Problem]
) -> tuple[int, int, int | None, list[int]]:
    id_col = name_col = -1
    rating_col: int | None = None
    rounds: list[tuple[int, int]] = []
    over_limit = False
    for i, cell in enumerate(header):
        if len(cell.text) > MAX_CELL_CHARS:
            problems.append(_long_cell(cell, path))
            continue
        key = cell.text.strip().lower()
        m = _ROUND_HEADER.fullmatch(key)
        if key in _NUMBER_HEADINGS:
            id_col = i
        elif key in ("name", "player"):
            name_col = i
        elif key in ("rating", "rtg"):
            rating_col = i
        elif m and whole_number(m.group(1), MAX_ROUNDS) is None:
            if not over_limit:  # said once, at the first heading over the limit
                problems.append(
                    Problem(
                        f"{quote(cell.text)}: a section has at most {MAX_ROUNDS} rounds",
                        path=path,
                        line=cell.line,
                        column=cell.column,
                        code="too-many-rounds",
                        value=cell.text,
                    )
                )
            over_limit = True
        elif m:
            rounds.append((whole_number(m.group(1), MAX_ROUNDS) or 0, i))
    if id_col < 0 or name_col < 0:
        first = header[0].text if header else ""
        trf = (
            "; a TRF-16 file needs player lines, which start with 001"
            if _TRF_RECORD.match(first)
            else ""
        )
        problems.append(
            Problem(
                "the header row needs a '#' column and a 'Name' column "
                f"(found {_listed([c.text for c in header])}){trf}",
                path=path,
                line=header[0].line if header else 1,
                column=1,
                code="missing-columns",
            )
        )
    numbers = [n for n, _ in rounds]
    if not over_limit and numbers != list(range(1, len(numbers) + 1)):
        found = f"[{_listed([str(n) for n in numbers])}]" if numbers else "none"
        problems.append(
            Problem(
                f"round columns must be 'Rd 1', 'Rd 2', … in order (found rounds {found})",
                path=path,
                line=header[0].line if header else 1,
                column=1,
                code="round-columns-out-of-order",
            )
        )
    return id_col, name_col, rating_col, [i for _, i in rounds]


def _listed(texts: Sequence[str], shown: int = 12) -> str:
    """Some of a header's cells, each shortened, for an error message."""
    listed = ", ".join(quote(t) if not t.isdigit() else t for t in texts[:shown])
    return listed + (f", … ({len(texts)} in all)" if len(texts) > shown else "")


def _long_cell(cell: Cell, path: str) -> Problem:
    return Problem(
        f"the cell is {len(cell.text):,} characters long; the limit is {MAX_CELL_CHARS} "
        f"(starts {quote(cell.text, 20)})",
        path=path,
        line=cell.line,
        column=cell.column,
        code="cell-too-long",
    )


def _check_size(lines: Sequence[tuple[int, str]], rounds: int, path: str) -> None:
    """The limits on players and on players × rounds, checked before any row is read."""
    rows = len(lines) - 1
    message = size_problem(rows, rounds)
    if message:
        # At the first row over the limit on players, else at the header.
        line = lines[MAX_PLAYERS + 1][0] if rows > MAX_PLAYERS else lines[0][0]
        raise HarknessError([Problem(message, path=path, line=line, column=1, code="too-large")])


def _read_row(
    cells: Sequence[Cell],
    number: int,
    width: int,
    id_col: int,
    name_col: int,
    rating_col: int | None,
    round_cols: Sequence[int],
    path: str,
    problems: list[Problem],
) -> Player | None:
    def cell(i: int) -> Cell:
        return cells[i] if i < len(cells) else Cell("", number, width + 1)

    before = len(problems)
    long = [c for c in cells if len(c.text) > MAX_CELL_CHARS]
    if long:
        problems += [_long_cell(c, path) for c in long]
        return None
    id_cell = cell(id_col)
    player_id = whole_number(id_cell.text, MAX_PLAYERS)
    if not player_id:
        problems.append(
            Problem(
                f"'#' must be a starting number (1–{MAX_PLAYERS}), got {quote(id_cell.text)}",
                path=path,
                line=number,
                column=id_cell.column,
                code="bad-starting-number",
                field="#",
                value=id_cell.text,
            )
        )
    name = cell(name_col).text
    if not name:
        problems.append(
            Problem(
                "the player has no name",
                path=path,
                line=number,
                column=cell(name_col).column,
                code="no-name",
                field="Name",
            )
        )
    rating: int | None = None
    if rating_col is not None and cell(rating_col).text:
        text = cell(rating_col).text.split("/")[0].strip()
        if (value := whole_number(text, MAX_RATING)) is not None:
            rating = value
        elif text.lower() not in ("unr", "unr.", "unrated", "-"):
            problems.append(
                Problem(
                    f"Rating must be a whole number (0–{MAX_RATING}) or empty, got "
                    f"{quote(cell(rating_col).text)}",
                    path=path,
                    line=number,
                    column=cell(rating_col).column,
                    code="bad-rating",
                    field="Rating",
                    value=cell(rating_col).text,
                )
            )
    entries: list[RoundEntry] = []
    for r, col in enumerate(round_cols, start=1):
        c = cell(col)
        entry = parse_cell(c.text)
        if entry is None:
            problems.append(
                Problem(
                    f"Rd {r}: {quote(c.text)} is not a round entry; {cell_hint(c.text)}",
                    path=path,
                    line=number,
                    column=c.column,
                    code="bad-round-entry",
                    field=f"Rd {r}",
                    value=c.text,
                )
            )
            entry = RoundEntry(EntryKind.ABSENT)
        entries.append(entry)
    if len(problems) > before:
        return None
    return Player(player_id or 0, name, tuple(entries), rating)


def trailing_withdrawal(entries: Sequence[RoundEntry], played: int) -> tuple[RoundEntry, ...]:
    """Empty cells after the player's last entry mean the player withdrew, in the ``played``
    rounds only (:func:`core.model.last_played_round`): an empty cell of a round not yet
    played is "not yet paired", absent and available, even after a bye entered in advance
    for that round by someone else (core/RULEBOOK.md, "The crosstable text format")."""
    end = min(played, len(entries))
    last = len(entries)
    while last and entries[last - 1].kind is EntryKind.ABSENT:
        last -= 1
    if last == 0 or last >= end:
        return tuple(entries)
    withdrawn = (RoundEntry(EntryKind.WITHDRAWN),) * (end - last)
    return tuple(entries[:last]) + withdrawn + tuple(entries[end:])


def _locate(
    problems: Sequence[Problem],
    rows: dict[int, tuple[Sequence[Cell], int]],
    id_col: int,
    round_cols: Sequence[int],
    path: str,
) -> Iterator[Problem]:
    """Give tournament problems (player, round) the file position of their cell."""
    for p in problems:
        cell = None
        if p.player in rows:
            cells, width = rows[p.player]
            col = round_cols[p.round - 1] if p.round and p.round <= len(round_cols) else id_col
            cell = cells[col] if col < len(cells) else Cell("", cells[0].line, width + 1)
        if cell is None:
            yield replace(p, path=path)
        else:
            yield replace(p, path=path, line=cell.line, column=cell.column)


def crosstable_rows(
    tournament: Tournament, standings: Standings | None = None, empty: str = ""
) -> list[list[str]]:
    """The crosstable as rows of cells, header first, in standings order when given.

    With standings, ``Tot`` and one ``TBrk[X]`` column per tiebreak follow the rounds, as in
    MD Chess's published crosstables (``TBrk[M]``, ``TBrk[S]``, ``TBrk[C]``, ``TBrk[O]``); an
    undefined tiebreak is ``empty``.
    """
    with_rating = any(p.rating is not None for p in tournament.players)
    header = ["#", "Name"] + (["Rating"] if with_rating else [])
    header += [f"Rd {r}" for r in range(1, tournament.rounds + 1)]
    if standings is None:
        order = list(range(len(tournament.players)))
    else:
        header += ["Tot"] + [f"TBrk[{TIEBREAK_HEADINGS.get(c, c)}]" for c in standings.order]
        order = [row.player_index for row in standings.rows]
        registry = tiebreaks_of(standings.profile.family)
    rows = [header]
    for i in order:
        p = tournament.players[i]
        row = [str(p.id), p.name] + ([_rating(p.rating)] if with_rating else [])
        row += [str(e) for e in p.entries]
        if standings is not None:
            row.append(half_points(p.half_points))
            row += [
                standings.columns[c].display(i, registry[c].digits, empty) for c in standings.order
            ]
        rows.append(row)
    return rows


def _rating(rating: int | None) -> str:
    return "" if rating is None else str(rating)


def write_crosstable(
    tournament: Tournament, standings: Standings | None = None, separator: str = "  "
) -> str:
    """The crosstable as aligned text (``separator="  "``), tab-separated or CSV (``","``),
    under a details line with the start date when the tournament has one that can be read
    (``Start date: 2026-12-01``: under ``--rules fide`` it picks the C.07 text).

    What it writes reads back as the same tournament (its start date in ISO form); raises
    :class:`HarknessError` (each problem with its player) for what the format cannot hold: a
    player without a name, and in aligned text a name with two blanks in a row or a tab
    (which would split the cell), in tab-separated text a name with a tab. An undefined
    tiebreak is an empty cell in CSV and tab-separated text, ``–`` in aligned text (as in
    every table for people).
    """
    too_big = size_problem(len(tournament.players), tournament.rounds)
    problems = [Problem(too_big, code="too-large")] if too_big else []
    problems += [
        Problem(
            f"the player has no name; {_FORMAT_NAMES[separator]} needs one",
            player=p.id,
            code="no-name",
        )
        for p in tournament.players
        if not p.name
    ]
    problems += [
        Problem(
            f"the name {quote(p.name)} has two blanks in a row or a tab, which would split it "
            "into two cells of aligned text: write CSV (*.csv) or TRF-16 (*.trf) instead",
            player=p.id,
            code="name-splits-cells",
            value=p.name,
        )
        for p in tournament.players
        if p.name and separator == "  " and not _ALIGNED_CELL.fullmatch(p.name)
    ]
    problems += [
        Problem(
            f"the name {quote(p.name)} has a tab, which would split it into two cells",
            player=p.id,
            code="name-splits-cells",
            value=p.name,
        )
        for p in tournament.players
        if separator == "\t" and "\t" in p.name
    ]
    if problems:
        raise HarknessError(problems)
    rows = crosstable_rows(tournament, standings, UNDEFINED_TEXT if separator == "  " else "")
    started = read_date(tournament.start_date)
    details = f"Start date: {started.isoformat()}\n" if started else ""
    if separator == ",":
        return details + write_csv(rows)
    if separator == "\t":
        return details + "".join("\t".join(row) + "\n" for row in rows)
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    return details + "".join(
        separator.join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() + "\n"
        for row in rows
    )
