"""Cells in, a ``core`` tournament out, with every problem and the A1 reference of its cell.

Reading happens in two steps, so that other sources can join in between:

1. :func:`read_results` turns the TD's tabs (a crosstable, or a game list with a players
   tab) into a :class:`ResultGrid`: the players, and for each player and round the entry a
   cell gives, with that cell's reference. Cells that cannot be read become problems.
2. :func:`build_tournament` turns a grid into a :class:`~core.model.Tournament`; ``core``
   checks it (both sides of every game agree…) and its problems get their cells back.

A later source (the Discord reports of a linked tournament) merges into the grid between the
two steps: a (player, round) missing from :attr:`ResultGrid.entries` is a cell the TD left empty.

Nothing here knows a tiebreak; the notation of a cell is ``core``'s
(:func:`core.formats.crosstable.parse_cell`).

>>> grid = read_results({"Results": [["#", "Name", "Rd 1"], ["1", "Ann", "W2 (w)"],
...                                  ["2", "Bob", "L1"]]}, SheetSettings())
>>> t, problems = build_tournament(grid)
>>> [str(e) for e in t.player(2).entries], problems
(['L1'], [])
>>> grid = read_results({"Results": [["#", "Name", "Rd 1"], ["1", "Ann", "W9 (w)"]]},
...                     SheetSettings())
>>> print(build_tournament(grid)[1][0])
Results!C2: "W9 (w)": there is no player 9
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from core.formats.crosstable import cell_hint, parse_cell, trailing_withdrawal
from core.limits import MAX_CELL_CHARS, MAX_PLAYERS, MAX_RATING, MAX_ROUNDS, whole_number
from core.model import Colour, EntryKind, Player, RoundEntry, Tournament, last_played_round
from core.players import Roster
from core.points import points_disagreement
from core.problems import HarknessError, Problem
from core.results import bye_result, score_result
from sheets.layout import (
    BYE_OPPONENT_WORDS,
    BYE_RESULT_HINT,
    CROSSTABLE_HEADER_HINT,
    GAME_LIST_HEADER_HINT,
    GAME_RESULT_HINT,
    HEADER_SEARCH_ROWS,
    PLAYERS_HEADER_HINT,
    CrosstableColumns,
    GameListColumns,
    PlayerColumns,
    a1,
    clean,
    detect_players_header,
    detect_results_header,
    round_numbers,
)
from sheets.problems import SheetProblem
from sheets.settings_tab import SheetSettings

Rows = Sequence[Sequence[str]]
"""A tab's values from A1, row by row, as the TD sees them (formatted text)."""


@dataclass(frozen=True, slots=True)
class Sourced:
    """One player's entry in one round, and the cell (and its text) it was read from."""

    entry: RoundEntry
    cell: str
    text: str


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """A player as the sheet lists them; ``cell`` is where their row starts (``Results!A3``)."""

    id: int
    name: str
    cell: str
    rating: int | None = None
    external_ids: tuple[tuple[str, str], ...] = ()
    #: What the row's awards columns say (:class:`~sheets.layout.AwardColumns`), as read:
    #: ``("categories" | "team" | "limit", text, cell)`` for each that is not empty.
    marks: tuple[tuple[str, str, str], ...] = ()


@dataclass
class ResultGrid:
    """What the TD's tabs say, cell by cell, before ``core`` checks it is a tournament.

    ``entries`` holds the non-empty cells that could be read; ``unreadable`` the (player,
    round) pairs whose cell could not be (each has a problem); any other pair was left empty.
    """

    layout: str
    rounds: int
    players: dict[int, PlayerRow] = field(default_factory=dict)
    entries: dict[tuple[int, int], Sourced] = field(default_factory=dict)
    unreadable: set[tuple[int, int]] = field(default_factory=set)
    problems: list[SheetProblem] = field(default_factory=list)
    #: A crosstable's points column (``Tot``), per player: (the text, its cell).
    totals: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: A game list's games paired but not yet played (an empty Result): the result cell of
    #: each (player, round). They give no entry, as an empty crosstable cell gives none.
    pending: dict[tuple[int, int], str] = field(default_factory=dict)
    #: Where the results tab's header is: its title, row and columns (None: not found).
    header: tuple[str, int, CrosstableColumns | GameListColumns] | None = None

    def waiting(self) -> dict[str, int]:
        """The result cells of the games still waiting for a result (none merged in from
        another source), with their round."""
        return {cell: r for (p, r), cell in self.pending.items() if (p, r) not in self.entries}


def find_tab(tabs: Mapping[str, Rows], title: str) -> tuple[str, Rows] | None:
    """The tab called ``title`` (ignoring case, as Sheets does) and its rows, if any."""
    if title in tabs:
        return title, tabs[title]
    folded = title.casefold()
    return next(((t, rows) for t, rows in tabs.items() if t.casefold() == folded), None)


def _cell(row: Sequence[str], column: int | None) -> str:
    if column is None or column >= len(row):
        return ""
    return clean(row[column])


def _header(rows: Rows) -> tuple[int, CrosstableColumns | GameListColumns] | None:
    for r, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns = detect_results_header([clean(c) for c in row])
        if columns is not None:
            return r, columns
    return None


def read_results(tabs: Mapping[str, Rows], settings: SheetSettings) -> ResultGrid:
    """Read the results tab named in the settings (and, for a game list, the players tab)."""
    found = find_tab(tabs, settings.results_tab)
    if found is None:
        grid = ResultGrid("unknown", 0)
        grid.problems.append(
            SheetProblem(
                f"there is no tab named {settings.results_tab!r}: name your results tab so, or "
                f"write its name in {settings.where('results_tab')}",
                settings.results_tab,
            )
        )
        return grid
    title, rows = found
    over = over_limits(tabs, (title, settings.players_tab))
    if over:
        grid = ResultGrid("unknown", 0)
        grid.problems += over
        return grid
    header = _header(rows)
    if header is None:
        grid = ResultGrid("unknown", 0)
        first = next((r for r, row in enumerate(rows) if any(clean(c) for c in row)), 0)
        text = ", ".join(clean(c) for c in rows[first]) if rows else ""
        grid.problems.append(
            SheetProblem(
                f"no header row found: the first row must be {CROSSTABLE_HEADER_HINT} or "
                f"{GAME_LIST_HEADER_HINT}",
                a1(title, first, 0),
                text,
            )
        )
        return grid
    r, columns = header
    if isinstance(columns, CrosstableColumns):
        grid = read_crosstable(rows, title, r, columns, settings)
    else:
        grid = read_game_list(rows, title, r, columns, tabs, settings)
    grid.header = (title, r, columns)
    return grid


#: Most cells over the length limit listed one by one (then how many more).
SHOWN_LONG_CELLS = 20


def over_limits(tabs: Mapping[str, Rows], titles: Sequence[str]) -> list[SheetProblem]:
    """The limits of :mod:`core.limits`, checked on the tabs Harkness reads before anything
    is read: each cell over the cell length (the first :data:`SHOWN_LONG_CELLS`, then how
    many more), and a tab with more rows than a section has players."""
    problems: list[SheetProblem] = []
    long = 0
    for title in titles:
        found = find_tab(tabs, title)
        if found is None:
            continue
        title, rows = found
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                if len(text) > MAX_CELL_CHARS:
                    long += 1
                    if long <= SHOWN_LONG_CELLS:
                        problems.append(
                            SheetProblem(
                                f"the cell is {len(text):,} characters long; the limit is "
                                f"{MAX_CELL_CHARS}",
                                a1(title, r, c),
                                text,
                            )
                        )
        filled = sum(1 for row in rows if not _blank(row))
        if filled > MAX_PLAYERS + 1:
            problems.append(
                SheetProblem(
                    f"the tab has {filled:,} rows; a section has at most {MAX_PLAYERS:,} players",
                    title,
                )
            )
    if long > SHOWN_LONG_CELLS:
        problems.append(
            SheetProblem(f"… and {long - SHOWN_LONG_CELLS:,} more cells over the limit")
        )
    return problems


def _parse_rating(text: str, where: str, problems: list[SheetProblem]) -> int | None:
    digits = text.split("/")[0].replace(",", "").replace(" ", "")
    if not text or text.lower() in ("unr", "unr.", "unrated", "-", "–"):
        return None
    if (rating := whole_number(digits, MAX_RATING)) is not None:
        return rating
    problems.append(
        SheetProblem(f"a rating must be a whole number (0–{MAX_RATING}) or empty", where, text)
    )
    return None


def _externals(discord: str) -> tuple[tuple[str, str], ...]:
    return (("discord", discord),) if discord else ()


def _blank(row: Sequence[str]) -> bool:
    return not any(clean(c) for c in row)


def _beyond(settings: SheetSettings, r: int) -> bool:
    return settings.rounds is not None and r > settings.rounds


def _beyond_problem(settings: SheetSettings, r: int, where: str, text: str) -> SheetProblem:
    return SheetProblem(
        f"round {r} is beyond the {settings.rounds} rounds set in {settings.where('rounds')}",
        where,
        text,
    )


def _starting_number(
    text: str, where: str, first_row: Mapping[int, str], problems: list[SheetProblem]
) -> int | None:
    """The starting number a ``#`` cell holds; None (and a problem) when its row is left out:
    not a number from 1 up, or the number of an earlier row (``first_row``: number → cell)."""
    number = whole_number(text, MAX_PLAYERS) or 0
    if number < 1:
        problems.append(
            SheetProblem(
                f"'#' must be the player's starting number (1, 2, … up to {MAX_PLAYERS}); "
                "the row was left out",
                where,
                text,
            )
        )
        return None
    if number in first_row:
        problems.append(
            SheetProblem(
                f"starting number {number} is used twice (first in "
                f"{first_row[number]}); the row was left out",
                where,
                text,
            )
        )
        return None
    return number


def _player_row(
    row: Sequence[str],
    title: str,
    r: int,
    number: int,
    where: str,
    columns: CrosstableColumns | PlayerColumns,
    problems: list[SheetProblem],
) -> PlayerRow:
    """Player ``number`` as row ``r`` gives them: name (or a stand-in), rating, Discord."""
    name = _cell(row, columns.name)
    if not name:
        problems.append(SheetProblem("the player has no name", a1(title, r, columns.name)))
        name = f"Player {number}"
    rating = _parse_rating(_cell(row, columns.rating), a1(title, r, columns.rating or 0), problems)
    marks: list[tuple[str, str, str]] = []
    if columns.awards is not None:
        for what, column in (
            ("categories", columns.awards.categories),
            ("team", columns.awards.team),
            ("limit", columns.awards.limit),
        ):
            text = _cell(row, column)
            if column is not None and text:
                marks.append((what, text, a1(title, r, column)))
    return PlayerRow(
        number, name, where, rating, _externals(_cell(row, columns.discord)), tuple(marks)
    )


def read_crosstable(
    rows: Rows, title: str, header_row: int, columns: CrosstableColumns, settings: SheetSettings
) -> ResultGrid:
    """Read a crosstable tab: one player a row, one cell per round (core/RULEBOOK.md notation)."""
    grid = ResultGrid("crosstable", 0)
    problems = grid.problems
    numbers = round_numbers([clean(c) for c in rows[header_row]], columns)
    if len(numbers) > MAX_ROUNDS:
        problems.append(
            SheetProblem(
                f"{len(numbers):,} round columns; a section has at most {MAX_ROUNDS} rounds",
                a1(title, header_row, columns.rounds[MAX_ROUNDS]),
                clean(rows[header_row][columns.rounds[MAX_ROUNDS]]),
            )
        )
        return grid
    if numbers != list(range(1, len(numbers) + 1)):
        at = next(i for i, n in enumerate(numbers) if n != i + 1)
        column = columns.rounds[at]
        problems.append(
            SheetProblem(
                f"round columns must be 'Rd 1', 'Rd 2', … in order (found rounds "
                f"{', '.join(map(str, numbers))})",
                a1(title, header_row, column),
                clean(rows[header_row][column]),
            )
        )
        return grid
    first_row: dict[int, str] = {}
    last_round = 0
    for r in range(header_row + 1, len(rows)):
        row = rows[r]
        if _blank(row):
            continue
        where = a1(title, r, columns.number)
        number = _starting_number(_cell(row, columns.number), where, first_row, problems)
        if number is None:
            continue
        first_row[number] = where
        grid.players[number] = _player_row(row, title, r, number, where, columns, problems)
        if columns.total is not None and (total := _cell(row, columns.total)):
            grid.totals[number] = (total, a1(title, r, columns.total))
        for round_number, column in enumerate(columns.rounds, start=1):
            text = _cell(row, column)
            if not text:
                continue
            cell = a1(title, r, column)
            if _beyond(settings, round_number):
                problems.append(_beyond_problem(settings, round_number, cell, text))
                continue
            last_round = max(last_round, round_number)
            entry = parse_cell(text)
            if entry is None:
                problems.append(SheetProblem(f"not a round entry; {cell_hint(text)}", cell, text))
                grid.unreadable.add((number, round_number))
                continue
            grid.entries[(number, round_number)] = Sourced(entry, cell, text)
    grid.rounds = last_round
    return grid


# ---------------------------------------------------------------- game list


def read_players(
    tabs: Mapping[str, Rows], settings: SheetSettings, problems: list[SheetProblem]
) -> dict[int, PlayerRow]:
    """The players tab of a game list: ``#`` (or row order), ``Name``, ``Rating``."""
    found = find_tab(tabs, settings.players_tab)
    if found is None:
        problems.append(
            SheetProblem(
                f"a game list needs a players tab: there is no tab named {settings.players_tab!r} "
                f"(name it so, or write its name in {settings.where('players_tab')})",
                settings.players_tab,
            )
        )
        return {}
    title, rows = found
    header: tuple[int, PlayerColumns] | None = None
    for r, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns = detect_players_header([clean(c) for c in row])
        if columns is not None:
            header = (r, columns)
            break
    if header is None:
        problems.append(
            SheetProblem(
                f"no header row found: the first row must be {PLAYERS_HEADER_HINT}", a1(title, 0, 0)
            )
        )
        return {}
    header_row, columns = header
    players: dict[int, PlayerRow] = {}
    first_row: dict[int, str] = {}
    position = 0
    for r in range(header_row + 1, len(rows)):
        row = rows[r]
        if _blank(row):
            continue
        position += 1
        if columns.number is None:
            number, where = position, a1(title, r, columns.name)
        else:
            where = a1(title, r, columns.number)
            given = _starting_number(_cell(row, columns.number), where, first_row, problems)
            if given is None:
                continue
            number = given
        first_row[number] = where
        players[number] = _player_row(row, title, r, number, where, columns, problems)
    return players


def _find(roster: Roster[PlayerRow], text: str) -> int | str:
    """The starting number a game list's cell means (a number, or a name exactly: a TD's
    cell must say whom it means), or what is wrong with it."""
    found = roster.find(text, partial=False)
    if found.match is not None:
        return found.match.id
    if found.how == "number":
        return f"there is no player {found.digits}"
    if found.ambiguous:
        numbers = ", #".join(str(p.id) for p in found.matches)
        return (
            f"{len(found.matches)} players are called {text!r} (#{numbers}): write the "
            "starting number instead"
        )
    return "there is no player of that name in the players tab"


def read_game_list(
    rows: Rows,
    title: str,
    header_row: int,
    columns: GameListColumns,
    tabs: Mapping[str, Rows],
    settings: SheetSettings,
) -> ResultGrid:
    """Read a game list: one game (or bye) a row, players named by number or name."""
    grid = ResultGrid("game list", 0)
    problems = grid.problems
    grid.players = read_players(tabs, settings, problems)
    names = Roster(grid.players.values(), number=lambda p: p.id, name=lambda p: p.name)
    seen: dict[tuple[int, int], int] = {}
    last_round = 0
    for r in range(header_row + 1, len(rows)):
        row = rows[r]
        if _blank(row):
            continue
        round_text = _cell(row, columns.round)
        round_cell = a1(title, r, columns.round)
        round_number = whole_number(round_text, MAX_ROUNDS) or 0
        if round_number < 1:
            problems.append(
                SheetProblem(
                    f"the round must be a number (1, 2, … up to {MAX_ROUNDS})",
                    round_cell,
                    round_text,
                )
            )
            continue
        if _beyond(settings, round_number):
            problems.append(_beyond_problem(settings, round_number, round_cell, round_text))
            continue
        before, last_round = last_round, max(last_round, round_number)
        sides: list[int | None] = []
        for column in (columns.white, columns.black):
            text = _cell(row, column)
            if text.lower() in BYE_OPPONENT_WORDS:
                sides.append(None)
                continue
            found = _find(names, text)
            if isinstance(found, str):
                problems.append(SheetProblem(found, a1(title, r, column), text))
                sides.append(-1)
            else:
                sides.append(found)
        result_text = _cell(row, columns.result)
        result_cell = a1(title, r, columns.result)
        if -1 in sides:
            grid.unreadable.update((p, round_number) for p in sides if p is not None and p > 0)
            continue
        white, black = sides
        if white is None and black is None:
            problems.append(SheetProblem("the row names no player", a1(title, r, columns.white)))
            continue
        claimed = [p for p in (white, black) if p is not None]
        twice = [p for p in claimed if (p, round_number) in seen]
        if white is not None and white == black:
            problems.append(
                SheetProblem(
                    "a player cannot be paired with themselves",
                    a1(title, r, columns.black),
                    _cell(row, columns.black),
                )
            )
            grid.unreadable.add((white, round_number))
            continue
        if twice:
            for p in twice:
                problems.append(
                    SheetProblem(
                        f"player {p} ({grid.players[p].name}) already has a result in round "
                        f"{round_number} (row {seen[(p, round_number)]})",
                        result_cell,
                        result_text,
                    )
                )
            grid.unreadable.update((p, round_number) for p in claimed)
            continue
        for p in claimed:
            seen[(p, round_number)] = r + 1
        if white is None or black is None:
            player = white if white is not None else black
            assert player is not None
            bye = bye_result(result_text)
            if bye is None:
                message = ("no result: write " if not result_text else "not a bye result; ") + (
                    f"expected {BYE_RESULT_HINT}"
                )
                problems.append(SheetProblem(message, result_cell, result_text or None))
                grid.unreadable.add((player, round_number))
                continue
            grid.entries[(player, round_number)] = Sourced(
                RoundEntry(bye), result_cell, result_text
            )
            continue
        if not result_text:
            # Paired, not yet played: no entry, and the round does not count until a game
            # of it has a result (core.model.rounds_played).
            grid.pending[(white, round_number)] = grid.pending[(black, round_number)] = result_cell
            last_round = before
            continue
        score = score_result(result_text)
        if score is None:
            message = f"not a game result; expected {GAME_RESULT_HINT}"
            problems.append(SheetProblem(message, result_cell, result_text))
            grid.unreadable.update({(white, round_number), (black, round_number)})
            continue
        for player, opponent, kind, colour in (
            (white, black, score.first, Colour.WHITE),
            (black, white, score.second, Colour.BLACK),
        ):
            entry = RoundEntry(kind, opponent, colour if kind.played else None)
            grid.entries[(player, round_number)] = Sourced(entry, result_cell, result_text)
    grid.rounds = last_round
    return grid


# ---------------------------------------------------------------- grid → tournament


def locate(problem: Problem, grid: ResultGrid) -> SheetProblem:
    """A core problem (player, round) with the cell it came from (its ``player``, ``round``
    and ``other`` decide the cell, never its words)."""
    key = (problem.player or 0, problem.round or 0)
    sourced = grid.entries.get(key)
    if sourced is not None:
        message = problem.message
        other = grid.entries.get((problem.other or 0, problem.round or 0))
        if other is not None and other.cell != sourced.cell:
            # Two cells disagree: name the other one too, so that either may be the fix.
            message += f"; player {problem.other}'s cell is {other.cell}"
        return SheetProblem(message, sourced.cell, sourced.text)
    row = grid.players.get(problem.player or 0)
    where = row.cell if row is not None else None
    if problem.round is not None and row is not None:
        return SheetProblem(f"round {problem.round}: {problem.message}", where)
    return SheetProblem(problem.message, where)


def _entries(grid: ResultGrid, unknown: set[tuple[int, int]]) -> dict[int, list[RoundEntry]]:
    """Each player's entries; cells that are unknown count as absent, and so does the
    other side of any game that names them (it cannot be checked against them)."""
    absent = RoundEntry(EntryKind.ABSENT)
    known = {key: s.entry for key, s in grid.entries.items() if key not in unknown}
    for (player, r), entry in list(known.items()):
        if entry.opponent is not None and (entry.opponent, r) in unknown:
            known[(player, r)] = absent
    # An unknown cell, or a game still being played, is not an empty cell: it must not turn
    # earlier rounds into a withdrawal. It stands in as a zero-point bye for the rule, then
    # becomes absent.
    held = unknown | {key for key in grid.pending if key not in grid.entries}
    marker = RoundEntry(EntryKind.ZERO_BYE)
    raws = {
        number: [
            marker if (number, r) in held else known.get((number, r), absent)
            for r in range(1, grid.rounds + 1)
        ]
        for number in grid.players
    }
    played = last_played_round(raws.values())
    result = {}
    for number, raw in raws.items():
        entries = list(trailing_withdrawal(raw, played))
        result[number] = [
            absent if (number, r) in held else e for r, e in enumerate(entries, start=1)
        ]
    return result


def points_notices(grid: ResultGrid, tournament: Tournament) -> list[SheetProblem]:
    """A notice for each player whose points cell (``Tot``) says other than the results
    (:func:`core.points.points_disagreement`): the results are used, the TD's cell stays."""
    notices = []
    for p in tournament:
        total = grid.totals.get(p.id)
        if total is None:
            continue
        message = points_disagreement(p.name, total[0], p.half_points)
        if message is not None:
            notices.append(SheetProblem(message, total[1], total[0]))
    return notices


def build_tournament(
    grid: ResultGrid, name: str = "", *, partial: bool = False
) -> tuple[Tournament | None, list[SheetProblem]]:
    """The tournament the grid describes, and every problem found on the way.

    With problems, the tournament is None unless ``partial`` is set: then each cell with a
    problem (and the other side of its game) is left out, as if the round were not played,
    and the tournament of what remains is returned.
    """
    problems = list(grid.problems)
    unknown = set(grid.unreadable)
    problems += _missing_results(grid, unknown)
    players = sorted(grid.players.values(), key=lambda p: p.id)
    for _ in range(len(grid.entries) + 2):
        entries = _entries(grid, unknown)
        try:
            tournament = Tournament(
                tuple(
                    Player(
                        p.id, p.name, tuple(entries[p.id]), p.rating, external_ids=p.external_ids
                    )
                    for p in players
                ),
                grid.rounds,
                name=name,
            )
        except HarknessError as error:
            found = [locate(p, grid) for p in error.problems]
            problems += [p for p in found if p not in problems]
            if not partial:
                return None, problems
            more = _neutralise(error.problems, grid, unknown)
            if not more:
                return None, problems
            continue
        if problems and not partial:
            return None, problems
        return tournament, problems
    return None, problems


def _missing_results(grid: ResultGrid, unknown: set[tuple[int, int]]) -> list[SheetProblem]:
    """Games still waiting for a result in a round before the last one with a game result:
    a result is missing (the round was played), not pending. Their cells become unknown."""
    last = max((r for (_, r), s in grid.entries.items() if s.entry.kind.has_opponent), default=0)
    problems: dict[str, SheetProblem] = {}
    for (player, r), cell in grid.pending.items():
        if r < last and (player, r) not in grid.entries:
            unknown.add((player, r))
            message = f"no result, but round {last} has results; expected {GAME_RESULT_HINT}"
            problems.setdefault(cell, SheetProblem(message, cell))
    return list(problems.values())


def _neutralise(found: Sequence[Problem], grid: ResultGrid, unknown: set[tuple[int, int]]) -> bool:
    """Mark the cells of core's problems (and the other side of their games) as unknown."""
    before = len(unknown)
    for p in found:
        if p.player is None or p.round is None:
            continue
        unknown.add((p.player, p.round))
        sourced = grid.entries.get((p.player, p.round))
        if sourced is not None and sourced.entry.opponent is not None:
            unknown.add((sourced.entry.opponent, p.round))
    return len(unknown) > before


def with_entry(grid: ResultGrid, player: int, round_number: int, sourced: Sourced) -> None:
    """Put an entry into the grid (for sources merged in after the TD's tabs)."""
    grid.entries[(player, round_number)] = sourced
    grid.rounds = max(grid.rounds, round_number)


__all__ = [
    "PlayerRow",
    "ResultGrid",
    "Rows",
    "Sourced",
    "build_tournament",
    "find_tab",
    "locate",
    "read_crosstable",
    "read_game_list",
    "read_players",
    "read_results",
    "with_entry",
]
