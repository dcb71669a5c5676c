"""A1 notation, as the Sheets API reads and writes it.

A range names a sheet and a box of cells: ``'Round 1'!A2:D``, ``Results!B3``, ``Standings``
(the whole sheet) or ``A1:C3`` (the first sheet). Quotes around a sheet title are needed when
the title has spaces or punctuation, and a quote inside a title is doubled.

Boxes are zero-based and half-open, like the API's ``GridRange``; ``None`` means unbounded on
that side, so ``A:B`` is ``Box(0, None, 0, 2)``.

>>> parse_box("B3")
Box(start_row=2, end_row=3, start_column=1, end_column=2)
>>> parse_box("A5:C")
Box(start_row=4, end_row=None, start_column=0, end_column=3)
>>> split_sheet("'It''s round 1'!A1:B2")
("It's round 1", 'A1:B2')
>>> format_range("Round 1", Box(0, 3, 0, 2))
"'Round 1'!A1:B3"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_COLUMNS = 18_278
"""Column ``ZZZ``: the widest sheet Google allows."""

_CELL = re.compile(r"^([A-Za-z]{1,3})?([0-9]+)?$")
_PLAIN_TITLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LOOKS_LIKE_CELL = re.compile(r"^[A-Za-z]{1,3}[0-9]+$|^[Rr][0-9]*[Cc][0-9]*$")


@dataclass(frozen=True)
class Box:
    """A zero-based, half-open box of cells; ``None`` is unbounded on that side."""

    start_row: int | None
    end_row: int | None
    start_column: int | None
    end_column: int | None

    def clip(self, row_count: int, column_count: int) -> Box:
        """Fill in the unbounded sides from a sheet's grid size.

        >>> Box(4, None, None, 2).clip(1000, 26)
        Box(start_row=4, end_row=1000, start_column=0, end_column=2)
        """
        return Box(
            self.start_row or 0,
            row_count if self.end_row is None else self.end_row,
            self.start_column or 0,
            column_count if self.end_column is None else self.end_column,
        )

    @property
    def is_single_cell(self) -> bool:
        """True for a one-cell box such as ``B3``."""
        return (
            self.start_row is not None
            and self.end_row == self.start_row + 1
            and self.start_column is not None
            and self.end_column == self.start_column + 1
        )

    def contains(self, row: int, column: int) -> bool:
        """True when the cell at (row, column) lies in this box."""
        return (
            (self.start_row is None or row >= self.start_row)
            and (self.end_row is None or row < self.end_row)
            and (self.start_column is None or column >= self.start_column)
            and (self.end_column is None or column < self.end_column)
        )


WHOLE_SHEET = Box(None, None, None, None)


def column_letters(index: int) -> str:
    """The letters of a zero-based column index.

    >>> column_letters(0), column_letters(25), column_letters(26), column_letters(702)
    ('A', 'Z', 'AA', 'AAA')
    """
    letters = ""
    number = index + 1
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters


def column_index(letters: str) -> int:
    """The zero-based index of a column's letters (case-insensitive).

    >>> column_index("A"), column_index("z"), column_index("AA")
    (0, 25, 26)
    """
    number = 0
    for letter in letters.upper():
        number = number * 26 + (ord(letter) - ord("A") + 1)
    return number - 1


def cell_name(row: int, column: int) -> str:
    """The A1 name of a zero-based cell.

    >>> cell_name(0, 0), cell_name(6, 4)
    ('A1', 'E7')
    """
    return f"{column_letters(column)}{row + 1}"


def quote_title(title: str) -> str:
    """A sheet title as it appears in a range: quoted only when it must be.

    >>> quote_title("Results"), quote_title("Round 1"), quote_title("TD's notes")
    ('Results', "'Round 1'", "'TD''s notes'")
    """
    if _PLAIN_TITLE.match(title) and not _LOOKS_LIKE_CELL.match(title):
        return title
    return "'" + title.replace("'", "''") + "'"


def split_sheet(text: str) -> tuple[str | None, str | None]:
    """Split a range into its sheet title and its cells.

    A quoted title is unquoted. Text without ``!`` and without quotes comes back as
    ``(None, text)``: it may be a sheet title or cells, and only the spreadsheet can tell.

    >>> split_sheet("Results!A1:B2"), split_sheet("'Round 1'"), split_sheet("A1")
    (('Results', 'A1:B2'), ('Round 1', None), (None, 'A1'))
    """
    if text.startswith("'"):
        title_chars: list[str] = []
        position = 1
        while position < len(text):
            char = text[position]
            if char == "'":
                if text[position + 1 : position + 2] == "'":
                    title_chars.append("'")
                    position += 2
                    continue
                rest = text[position + 1 :]
                title = "".join(title_chars)
                if not rest:
                    return title, None
                if rest.startswith("!"):
                    return title, rest[1:]
                raise ValueError(text)
            title_chars.append(char)
            position += 1
        raise ValueError(text)
    if "!" in text:
        title, _, cells = text.rpartition("!")
        return title, cells
    return None, text


def _cell_part(part: str) -> tuple[int | None, int | None]:
    match = _CELL.match(part)
    if not match or not part:
        raise ValueError(part)
    letters, digits = match.groups()
    column = column_index(letters) if letters else None
    row = int(digits) - 1 if digits else None
    if row is not None and row < 0:
        raise ValueError(part)
    if column is not None and column >= MAX_COLUMNS:
        raise ValueError(part)
    return row, column


def parse_box(cells: str) -> Box:
    """Parse the cells part of an A1 range (``B3``, ``A1:C3``, ``A:B``, ``2:5``, ``A5:C``).

    Raises ``ValueError`` for text that is not A1 notation (named ranges and R1C1 notation
    included: the fake does not implement them).

    >>> parse_box("A:B"), parse_box("2:3")
    (Box(start_row=None, end_row=None, start_column=0, end_column=2), \
Box(start_row=1, end_row=3, start_column=None, end_column=None))
    """
    first, colon, second = cells.partition(":")
    start_row, start_column = _cell_part(first)
    if not colon:
        if start_row is None or start_column is None:
            raise ValueError(cells)
        return Box(start_row, start_row + 1, start_column, start_column + 1)
    end_row, end_column = _cell_part(second)
    if (start_column is None) != (end_column is None) and start_row is None:
        raise ValueError(cells)
    if start_row is not None and end_row is not None and end_row < start_row:
        start_row, end_row = end_row, start_row
    if start_column is not None and end_column is not None and end_column < start_column:
        start_column, end_column = end_column, start_column
    return Box(
        start_row,
        None if end_row is None else end_row + 1,
        start_column,
        None if end_column is None else end_column + 1,
    )


def format_box(box: Box) -> str:
    """The A1 cells of a bounded box: ``B3`` for one cell, ``A1:C3`` otherwise.

    >>> format_box(Box(2, 3, 1, 2)), format_box(Box(0, 3, 0, 3))
    ('B3', 'A1:C3')
    """
    if box.start_row is None or box.end_row is None:
        raise ValueError("an unbounded box has no A1 name; clip it first")
    if box.start_column is None or box.end_column is None:
        raise ValueError("an unbounded box has no A1 name; clip it first")
    first = cell_name(box.start_row, box.start_column)
    if box.is_single_cell:
        return first
    return f"{first}:{cell_name(box.end_row - 1, box.end_column - 1)}"


def format_range(title: str, box: Box) -> str:
    """A full A1 range as the API returns it: ``Results!A1:C3``, ``'Round 1'!B2``."""
    return f"{quote_title(title)}!{format_box(box)}"
