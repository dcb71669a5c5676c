"""The TD's prizes in their spreadsheet: the Prizes tab, the prize settings of the Harkness
tab, and the players' awards columns, read into a prize list with every problem at its cell.

The Prizes tab (its name is the ``Prizes tab`` setting) has a header row with the columns of
:data:`core.awards.cells.PRIZE_COLUMNS` (``Name``, ``Amount``, ``Trophy``, ``Kind``,
``Value``, ``Rank``, ``Additive``, ``Team``; others are the TD's and ignored), then one
prize a row in the order announced. The Harkness tab names the method, the currency,
whether a trophy follows its money, and the team size. The players' rows (a crosstable's, a
game list's players tab) may have ``Categories`` (``youth, senior``), ``Team`` and ``Limit``
(a personal cash limit; 0: not prize-eligible) columns.

Everything is read by core's rules for a prize file (:func:`core.awards.read_prize_data`):
a cell's text becomes a prize file's value (:mod:`core.awards.cells`), and each problem
core finds comes back to the cell it came from. Problems with the prizes never hold the
standings back: they are the Awards tab's.

>>> from sheets.settings_tab import SheetSettings
>>> tabs = {"Prizes": [["Name", "Amount", "Kind", "Value"], ["1st", "$300", "place", "1"],
...                    ["Top youth", "150", "category", "yuoth"]]}
>>> players = {3: PlayerRow(3, "Cy", "Results!A4", marks=(("categories", "youth", "Results!D4"),))}
>>> found = read_prizes_tab(tabs, SheetSettings(), players)
>>> print(*found.problems) if found else None
Prizes!D3: "yuoth": no player's Categories cell names the category 'yuoth'; did you mean 'youth'?
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from core.awards import PrizeList, read_prize_data
from core.awards.cells import COLUMN_OF, PRIZE_COLUMNS, amount_text, category_names, prize_fields
from core.awards.fields import amount_value, did_you_mean
from core.awards.writer import written_amount
from core.names import name_key, name_problem, tidy
from core.problems import HarknessError, Problem
from core.profiles import yes_no
from sheets.layout import HEADER_SEARCH_ROWS, a1, clean
from sheets.problems import SheetProblem
from sheets.read import PlayerRow, Rows, find_tab, over_limits
from sheets.settings_tab import SheetSettings

__all__ = ["PrizesFound", "read_prizes_tab"]

#: The prize settings of the Harkness tab, by the prize file's key.
_SETTING_OF = {
    "method": "prize_method",
    "currency": "currency",
    "trophy_follows_money": "trophy_follows_money",
    "count": "team_size",
}


@dataclass(frozen=True)
class PrizesFound:
    """A spreadsheet's prizes: the list (None when there are problems) and the problems."""

    prizes: PrizeList | None
    problems: list[SheetProblem] = field(default_factory=list)


@dataclass
class _Reading:
    title: str
    settings: SheetSettings
    problems: list[SheetProblem] = field(default_factory=list)
    rows: dict[int, int] = field(default_factory=dict)
    """Each prize (1, 2, …) → its row (0-based)."""
    columns: dict[str, int] = field(default_factory=dict)
    texts: dict[tuple[int, int], str] = field(default_factory=dict)

    def cell(self, row: int, key: str | None) -> tuple[str, str | None]:
        """The reference and text of the cell of ``key`` (a prize file's key, ``kind`` or
        ``value``) in ``row``; the row's first cell where the tab has no such column."""
        column = self.columns.get(COLUMN_OF.get(key or "", "Kind"))
        if column is None:
            return a1(self.title, row, 0), None
        return a1(self.title, row, column), self.texts.get((row, column))

    def add(self, problem: Problem, row: int) -> None:
        """A problem at its cell; one a cell (a kind the text reader refused is also a
        prize without a kind to the prize file's rules: said once)."""
        where, text = self.cell(row, problem.field)
        if all(p.cell != where for p in self.problems):
            self.problems.append(SheetProblem(problem.detail or problem.message, where, text))


def _header(rows: Rows) -> tuple[int, dict[str, int]] | None:
    """The header row: the first (of the top rows) with ``Name`` and ``Kind``."""
    known = {c.lower(): c for c in PRIZE_COLUMNS}
    for r, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns: dict[str, int] = {}
        for c, text in enumerate(row):
            name = known.get(" ".join(clean(text).lower().split()))
            if name is not None:
                columns.setdefault(name, c)
        if "Name" in columns and "Kind" in columns:
            return r, columns
    return None


def read_prizes_tab(
    tabs: Mapping[str, Rows], settings: SheetSettings, players: Mapping[int, PlayerRow]
) -> PrizesFound | None:
    """The prizes of a spreadsheet, or None when it has no Prizes tab (no awards)."""
    found = find_tab(tabs, settings.prizes_tab)
    if found is None:
        return None
    title, rows = found
    over = over_limits(tabs, (title,))
    if over:
        return PrizesFound(None, over)
    reading = _Reading(title, settings)
    header = _header(rows)
    if header is None:
        hint = ", ".join(PRIZE_COLUMNS)
        reading.problems.append(
            SheetProblem(f"no header row found: the first row must be {hint}", a1(title, 0, 0))
        )
        return PrizesFound(None, reading.problems)
    top, reading.columns = header
    prizes = _prize_rows(rows, top, reading)
    data: dict[str, Any] = {
        "method": settings.prize_method.strip().lower() or "us-chess",
        "currency": settings.currency,
        "prize": prizes,
        "team": {"count": _team_size(settings, reading)},
    }
    follows = yes_no(settings.trophy_follows_money) if settings.trophy_follows_money else False
    if follows is None:
        where = settings.where("trophy_follows_money")
        reading.problems.append(
            SheetProblem("answer Yes or No", where, settings.trophy_follows_money)
        )
    data["trophy_follows_money"] = bool(follows)
    data.update(_marks(players, reading))
    _known_categories(data, reading)
    lines = {f"prize.{n}": row + 1 for n, row in reading.rows.items()}
    try:
        prize_list = read_prize_data(data, title, lines)
    except HarknessError as error:
        for problem in error.problems:
            _place(problem, reading)
        return PrizesFound(None, reading.problems)
    if reading.problems:
        return PrizesFound(None, reading.problems)
    return PrizesFound(prize_list, [])


def _prize_rows(rows: Rows, top: int, reading: _Reading) -> list[dict[str, object]]:
    """Each prize row's values (a prize file's keys), its problems put at their cells."""
    prizes: list[dict[str, object]] = []
    columns = reading.columns
    for r in range(top + 1, len(rows)):
        row = rows[r]
        cells = {name: clean(row[c]) if c < len(row) else "" for name, c in columns.items()}
        if not any(cells.values()):
            continue
        for c in columns.values():
            if c < len(row):
                reading.texts[(r, c)] = clean(row[c])
        fields, problems = prize_fields(cells, where=f"row {r + 1}")
        for problem in problems:
            reading.add(problem, r)
        prizes.append(fields)
        reading.rows[len(prizes)] = r
    return prizes


def _team_size(settings: SheetSettings, reading: _Reading) -> object:
    text = settings.team_size.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) < 6 else text or 4


def _marks(players: Mapping[int, PlayerRow], reading: _Reading) -> dict[str, Any]:
    """The players' categories, teams and limits from their rows' awards columns (as a
    prize file's ``[categories]``, ``[teams]`` and ``[limits]``), problems at their cells."""
    categories: dict[str, list[int]] = {}
    teams: dict[str, list[int]] = {}
    limits: dict[str, Decimal] = {}
    spelled: dict[str, str] = {}
    for number in sorted(players):
        for what, text, cell in players[number].marks:
            if what == "categories":
                names, bad = category_names(text)
                for part, detail in bad:
                    reading.problems.append(
                        SheetProblem(f"{part!r}: a category name {detail}", cell, text)
                    )
                for name in names:
                    shown = spelled.setdefault("c" + name_key(name), name)
                    categories.setdefault(shown, []).append(number)
            elif what == "team":
                problem = name_problem(text, "team name")
                if problem is not None:
                    reading.problems.append(SheetProblem(problem.message, cell, text))
                    continue
                shown = spelled.setdefault("t" + name_key(text), tidy(text))
                teams.setdefault(shown, []).append(number)
            else:
                try:
                    amount = amount_value(amount_text(text), zero=True)
                except ValueError as bad:
                    reading.problems.append(SheetProblem(f"a limit must be {bad}", cell, text))
                    continue
                limits[str(number)] = Decimal(written_amount(amount))
    return {"categories": categories, "teams": teams, "limits": limits}


def _known_categories(data: dict[str, Any], reading: _Reading) -> None:
    """A category prize whose category no player's Categories cell names is a mistake (a
    typo, most often): said at the prize's Value cell, with the nearest category named."""
    known = {name_key(c): c for c in data["categories"]}
    for n, fields in enumerate(data["prize"], start=1):
        category = fields.get("category")
        if not isinstance(category, str) or name_key(category) in known:
            continue
        where, text = reading.cell(reading.rows[n], "category")
        hint = did_you_mean(category, list(known.values()))
        reading.problems.append(
            SheetProblem(
                f"no player's Categories cell names the category {category!r}{hint}", where, text
            )
        )
        data["categories"][tidy(category)] = []  # read on; the problem above stands


def _place(problem: Problem, reading: _Reading) -> None:
    """Core's problem with the list, at its cell: a prize's at its row and column, a prize
    setting's at its setting, the rest at the tab."""
    setting = _SETTING_OF.get(problem.field or "")
    if setting is not None and problem.line is None:
        text = getattr(reading.settings, setting)
        where = reading.settings.where(setting)
        reading.problems.append(SheetProblem(problem.detail or problem.message, where, text))
        return
    if problem.line is not None and problem.line - 1 in reading.rows.values():
        reading.add(problem, problem.line - 1)
        return
    reading.problems.append(SheetProblem(problem.detail or problem.message, reading.title))
