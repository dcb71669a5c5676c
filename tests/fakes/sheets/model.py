"""The in-memory spreadsheet the fake serves: sheets, cells, protections, developer metadata.

This module holds the state and the read side (ranges, values, the ``Spreadsheet`` JSON of
``spreadsheets.get``). Writes live in ``tests.fakes.sheets.writes``. Nothing here knows about
HTTP, tokens or call counting; errors are raised as ``ApiError`` with Google's messages.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from tests.fakes.sheets import fieldmask
from tests.fakes.sheets.a1 import (
    WHOLE_SHEET,
    Box,
    format_range,
    parse_box,
    quote_title,
    split_sheet,
)
from tests.fakes.sheets.errors import ApiError, invalid, unparsable_range
from tests.fakes.sheets.fieldmask import Mask
from tests.fakes.sheets.values import Value, formatted, render

DEFAULT_ROWS = 1000
"""Rows of a new sheet, as in Google Sheets."""
DEFAULT_COLUMNS = 26
"""Columns of a new sheet (``A`` to ``Z``)."""
CELL_LIMIT = 10_000_000
"""Google's limit on the cells of a spreadsheet, all sheets together."""

ROLES = ("reader", "commenter", "writer", "owner")


@dataclass
class Cell:
    """One cell: its entered value, its format and note (recorded, not rendered)."""

    value: Value | None = None
    format: dict[str, Any] = field(default_factory=dict)
    note: str | None = None
    other: dict[str, Any] = field(default_factory=dict)
    """Other ``CellData`` fields written by ``updateCells``/``repeatCell`` (recorded only)."""

    def is_blank(self) -> bool:
        """True when nothing at all is recorded for the cell."""
        return self.value is None and not self.format and self.note is None and not self.other

    def number_pattern(self) -> str | None:
        """The number format pattern, if one was set."""
        number_format = self.format.get("numberFormat")
        if isinstance(number_format, dict):
            pattern = number_format.get("pattern")
            return pattern if isinstance(pattern, str) else None
        return None

    def copy(self) -> Cell:
        """A copy to change (its format and other fields are copied too)."""
        return Cell(self.value, copy.deepcopy(self.format), self.note, copy.deepcopy(self.other))

    def data(self) -> dict[str, Any]:
        """The writable ``CellData`` fields, as the API spells them."""
        document: dict[str, Any] = dict(self.other)
        if self.value is not None:
            document["userEnteredValue"] = self.value.extended()
        if self.format:
            document["userEnteredFormat"] = self.format
        if self.note is not None:
            document["note"] = self.note
        return document

    def grid_json(self, mask: Mask | None = None) -> dict[str, Any]:
        """The ``CellData`` JSON of ``spreadsheets.get`` with grid data; with a field
        ``mask`` (of ``CellData``), only what it names (each field computed only if named:
        a read of a large tab asks for a few fields of hundreds of thousands of cells)."""
        if mask is None or "*" in mask:
            document = self.data()
            if self.value is not None:
                document["effectiveValue"] = self.value.effective()
                document["formattedValue"] = formatted(self.value, self.number_pattern())
            return document
        document = {}
        value = self.value
        for key, sub in mask.items():
            if key == "formattedValue":
                if value is not None:
                    document[key] = (
                        value.value
                        if value.kind == "string"
                        else formatted(value, self.number_pattern())
                    )
                continue
            if key == "userEnteredFormat":
                found: Any = self.format or None
            elif key == "note":
                found = self.note
            elif key == "userEnteredValue":
                found = None if value is None else value.extended()
            elif key == "effectiveValue":
                found = None if value is None else value.effective()
            else:
                found = self.other.get(key)
            if found is not None:
                document[key] = found if sub is None else fieldmask.select(found, sub)
        return document


@dataclass
class Sheet:
    """One tab of a spreadsheet."""

    sheet_id: int
    title: str
    row_count: int = DEFAULT_ROWS
    column_count: int = DEFAULT_COLUMNS
    frozen_row_count: int = 0
    frozen_column_count: int = 0
    hidden: bool = False
    other_properties: dict[str, Any] = field(default_factory=dict)
    """Other ``SheetProperties`` (``tabColor``...), recorded only."""
    other_grid_properties: dict[str, Any] = field(default_factory=dict)
    """Other ``GridProperties`` (``hideGridlines``...), recorded only."""
    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    protected_ranges: list[dict[str, Any]] = field(default_factory=list)
    fresh: set[int] | None = field(default=None, repr=False, compare=False)
    """While a write is tried on a copy of the spreadsheet (:meth:`Spreadsheet.trial`): the
    ids of the cells the write made. Every other cell is the spreadsheet's as it was, shared
    with it, and :meth:`edit` copies it before it changes."""

    @property
    def grid(self) -> Box:
        """The box of every cell of the grid."""
        return Box(0, self.row_count, 0, self.column_count)

    def properties(self, index: int) -> dict[str, Any]:
        """The ``SheetProperties`` JSON (zero frozen counts are omitted, like Google)."""
        grid: dict[str, Any] = {"rowCount": self.row_count, "columnCount": self.column_count}
        if self.frozen_row_count:
            grid["frozenRowCount"] = self.frozen_row_count
        if self.frozen_column_count:
            grid["frozenColumnCount"] = self.frozen_column_count
        grid.update(self.other_grid_properties)
        document: dict[str, Any] = {
            "sheetId": self.sheet_id,
            "title": self.title,
            "index": index,
            "sheetType": "GRID",
            "gridProperties": grid,
        }
        if self.hidden:
            document["hidden"] = True
        document.update(self.other_properties)
        return document

    def value_at(self, row: int, column: int) -> Value | None:
        """The entered value at a cell, if any."""
        cell = self.cells.get((row, column))
        return cell.value if cell else None

    def edit(self, row: int, column: int) -> Cell:
        """The cell at (row, column) to change, created if blank (every change of a cell
        goes through here)."""
        cell = self.cells.get((row, column))
        if cell is None or (self.fresh is not None and id(cell) not in self.fresh):
            cell = Cell() if cell is None else cell.copy()
            self.cells[(row, column)] = cell
            if self.fresh is not None:
                self.fresh.add(id(cell))
        return cell

    def tidy(self, row: int, column: int) -> None:
        """Forget a cell that no longer records anything."""
        cell = self.cells.get((row, column))
        if cell is not None and cell.is_blank():
            del self.cells[(row, column)]

    def valued_cells(self, box: Box) -> Iterator[tuple[int, int, Cell]]:
        """The cells with a value inside a box."""
        for (row, column), cell in self.cells.items():
            if cell.value is not None and box.contains(row, column):
                yield row, column, cell

    def resize(self, rows: int, columns: int) -> None:
        """Change the grid size; cells outside the new grid are dropped."""
        self.row_count = rows
        self.column_count = columns
        for row, column in [key for key in self.cells if key[0] >= rows or key[1] >= columns]:
            del self.cells[(row, column)]


@dataclass
class Spreadsheet:
    """A spreadsheet: its sheets in tab order, who may open it, and its metadata."""

    spreadsheet_id: str
    title: str
    owner: str
    sheets: list[Sheet] = field(default_factory=list)
    locale: str = "en_US"
    time_zone: str = "Etc/GMT"
    permissions: dict[str, str] = field(default_factory=dict)
    """E-mail address → role (``reader``, ``commenter``, ``writer`` or ``owner``)."""
    developer_metadata: dict[int, dict[str, Any]] = field(default_factory=dict)
    recorded_requests: list[dict[str, Any]] = field(default_factory=list)
    """``batchUpdate`` requests the fake accepts but does not model (borders, merges...)."""
    rng: random.Random = field(default_factory=random.Random)

    def new_id(self, taken: Iterable[int] = ()) -> int:
        """A fresh positive id, like Google's sheet, protection and metadata ids."""
        used = set(taken)
        while True:
            candidate = self.rng.randrange(1, 2**31 - 1)
            if candidate not in used:
                return candidate

    def role_of(self, email: str | None) -> str | None:
        """The role a user has on this spreadsheet, if any."""
        if email is None:
            return None
        if email.lower() == self.owner.lower():
            return "owner"
        for address, role in self.permissions.items():
            if address.lower() == email.lower():
                return role
        return None

    def can_edit_protected(self, email: str | None, protected_range: dict[str, Any]) -> bool:
        """True when a user may edit cells under a protected range."""
        if protected_range.get("warningOnly"):
            return True
        if self.role_of(email) == "owner":
            return True
        editors = protected_range.get("editors") or {}
        users = [user.lower() for user in editors.get("users", [])]
        return email is not None and email.lower() in users

    def trial(self) -> Spreadsheet:
        """A copy to try a ``batchUpdate`` on, kept only if every request succeeds: the
        cells are shared with this spreadsheet until a request changes one (copying every
        cell of a large spreadsheet for each write took seconds)."""
        sheets = [
            replace(
                sheet,
                cells=dict(sheet.cells),
                protected_ranges=copy.deepcopy(sheet.protected_ranges),
                other_properties=copy.deepcopy(sheet.other_properties),
                other_grid_properties=copy.deepcopy(sheet.other_grid_properties),
                fresh=set(),
            )
            for sheet in self.sheets
        ]
        return replace(
            self,
            sheets=sheets,
            permissions=dict(self.permissions),
            developer_metadata=copy.deepcopy(self.developer_metadata),
            recorded_requests=list(self.recorded_requests),
            rng=copy.deepcopy(self.rng),
        )

    def settle(self) -> None:
        """Make a tried copy the spreadsheet (its cells are its own from now on)."""
        for sheet in self.sheets:
            sheet.fresh = None

    def total_cells(self) -> int:
        """Cells of all the grids together (what Google's 10,000,000 limit counts)."""
        return sum(sheet.row_count * sheet.column_count for sheet in self.sheets)

    def check_cell_limit(self) -> None:
        """Refuse a change that takes the spreadsheet over Google's cell limit."""
        if self.total_cells() > CELL_LIMIT:
            raise invalid(
                "This action would increase the number of cells in the workbook above the "
                f"limit of {CELL_LIMIT} cells."
            )

    def index_of(self, sheet: Sheet) -> int:
        """A sheet's position among the tabs."""
        return self.sheets.index(sheet)

    def sheet_by_id(self, sheet_id: int) -> Sheet | None:
        """The sheet with this id, if any."""
        return next((sheet for sheet in self.sheets if sheet.sheet_id == sheet_id), None)

    def sheet_by_title(self, title: str) -> Sheet | None:
        """The sheet with this title: exact match first, then ignoring case (like Sheets)."""
        exact = next((sheet for sheet in self.sheets if sheet.title == title), None)
        if exact is not None:
            return exact
        folded = title.casefold()
        return next((sheet for sheet in self.sheets if sheet.title.casefold() == folded), None)

    def resolve(self, text: str) -> tuple[Sheet, Box]:
        """The sheet and box an A1 range names; the box is ``WHOLE_SHEET`` for a bare title.

        A range without a sheet title refers to the first sheet, as in Google Sheets.
        Named ranges and R1C1 notation are not implemented and answer "Unable to parse range".
        """
        try:
            title, cells = split_sheet(text)
        except ValueError:
            raise unparsable_range(text) from None
        if title is None:
            assert cells is not None
            sheet = self.sheet_by_title(cells)
            if sheet is not None:
                return sheet, WHOLE_SHEET
            sheet = self.sheets[0]
        else:
            found = self.sheet_by_title(title)
            if found is None:
                raise unparsable_range(text)
            sheet = found
            if cells is None or cells == "":
                return sheet, WHOLE_SHEET
        try:
            return sheet, parse_box(cells)
        except ValueError:
            raise unparsable_range(text) from None

    def metadata_of_sheet(self, sheet_id: int) -> list[dict[str, Any]]:
        """Developer metadata located on a whole sheet."""
        return [
            metadata
            for metadata in self.developer_metadata.values()
            if metadata["location"].get("sheetId") == sheet_id
        ]


def check_in_grid(sheet: Sheet, box: Box, requested: str) -> Box:
    """Clip a box to the grid, refusing explicit bounds outside it (Google's wording)."""
    clipped = box.clip(sheet.row_count, sheet.column_count)
    assert clipped.end_row is not None and clipped.end_column is not None
    assert clipped.start_row is not None and clipped.start_column is not None
    if (
        clipped.end_row > sheet.row_count
        or clipped.end_column > sheet.column_count
        or clipped.start_row >= sheet.row_count
        or clipped.start_column >= sheet.column_count
    ):
        raise invalid(
            f"Range ({requested}) exceeds grid limits. "
            f"Max rows: {sheet.row_count}, max columns: {sheet.column_count}"
        )
    return clipped


def read_values(
    spreadsheet: Spreadsheet,
    text: str,
    *,
    major_dimension: str = "ROWS",
    render_option: str = "FORMATTED_VALUE",
) -> dict[str, Any]:
    """The ``ValueRange`` JSON of ``values.get`` for one A1 range.

    Trailing empty rows and columns are left out; empty cells before a value are ``""``;
    a range without values has no ``values`` key at all, as with Google.
    """
    sheet, box = spreadsheet.resolve(text)
    clipped = check_in_grid(sheet, box, requested_name(sheet, text))
    assert clipped.start_row is not None and clipped.start_column is not None
    by_position = {(row, column): cell for row, column, cell in sheet.valued_cells(clipped)}
    result: dict[str, Any] = {
        "range": format_range(sheet.title, clipped),
        "majorDimension": major_dimension,
    }
    if not by_position:
        return result
    if major_dimension == "COLUMNS":
        outer_start, inner_start = clipped.start_column, clipped.start_row
        keyed = {(column, row): cell for (row, column), cell in by_position.items()}
    else:
        outer_start, inner_start = clipped.start_row, clipped.start_column
        keyed = by_position
    last_inner: dict[int, int] = {}
    for outer, inner in keyed:
        last_inner[outer] = max(inner, last_inner.get(outer, inner))
    lines: list[list[Any]] = []
    for outer in range(outer_start, max(last_inner) + 1):
        if outer not in last_inner:
            lines.append([])
            continue
        line: list[Any] = []
        for inner in range(inner_start, last_inner[outer] + 1):
            cell = keyed.get((outer, inner))
            if cell is None or cell.value is None:
                line.append("")
            else:
                line.append(render(cell.value, render_option, cell.number_pattern()))
        lines.append(line)
    result["values"] = lines
    return result


def requested_name(sheet: Sheet, text: str) -> str:
    """The requested range with the sheet title quoted, for error messages."""
    try:
        _, cells = split_sheet(text)
    except ValueError:
        cells = None
    if cells is None or cells == sheet.title:
        return quote_title(sheet.title)
    return f"{quote_title(sheet.title)}!{cells}"


def grid_data(sheet: Sheet, box: Box, cell_mask: Mask | None = None) -> dict[str, Any]:
    """The ``GridData`` JSON of a box: every recorded cell, trailing blanks left out (each
    cell's fields those ``cell_mask`` names, when given)."""
    clipped = box.clip(sheet.row_count, sheet.column_count)
    top, left = clipped.start_row, clipped.start_column
    bottom, right = clipped.end_row, clipped.end_column
    assert top is not None and left is not None and bottom is not None and right is not None
    present: dict[int, dict[int, Cell]] = {}
    for (row, column), cell in sheet.cells.items():
        if top <= row < bottom and left <= column < right and not cell.is_blank():
            line = present.get(row)
            if line is None:
                line = present[row] = {}
            line[column] = cell
    document: dict[str, Any] = {}
    if top:
        document["startRow"] = top
    if left:
        document["startColumn"] = left
    if not present:
        return document
    rows: list[dict[str, Any]] = []
    for row in range(top, max(present) + 1):
        line = present.get(row)
        if line is None:
            rows.append({})
            continue
        values = []
        for column in range(left, max(line) + 1):
            found = line.get(column)
            values.append(found.grid_json(cell_mask) if found else {})
        rows.append({"values": values})
    document["rowData"] = rows
    return document


def protected_range_json(
    spreadsheet: Spreadsheet, protected_range: dict[str, Any], user: str | None
) -> dict[str, Any]:
    """A ``ProtectedRange`` as the given user sees it."""
    document = dict(protected_range)
    document["requestingUserCanEdit"] = spreadsheet.can_edit_protected(user, protected_range)
    return document


def spreadsheet_json(
    spreadsheet: Spreadsheet,
    *,
    ranges: list[str] | None = None,
    include_grid_data: bool = False,
    user: str | None = None,
    cell_mask: Mask | None = None,
) -> dict[str, Any]:
    """The ``Spreadsheet`` JSON of ``spreadsheets.get`` (before any ``fields`` mask, but
    each cell's fields only those ``cell_mask`` names, when given).

    With ``ranges`` only the sheets those ranges name are included, and grid data (when
    asked for) covers only those ranges.
    """
    wanted: dict[int, list[Box]] = {}
    if ranges:
        for text in ranges:
            sheet, box = spreadsheet.resolve(text)
            check_in_grid(sheet, box, requested_name(sheet, text))
            wanted.setdefault(sheet.sheet_id, []).append(box)
    sheets_json: list[dict[str, Any]] = []
    for index, sheet in enumerate(spreadsheet.sheets):
        if ranges and sheet.sheet_id not in wanted:
            continue
        sheet_document: dict[str, Any] = {"properties": sheet.properties(index)}
        if sheet.protected_ranges:
            sheet_document["protectedRanges"] = [
                protected_range_json(spreadsheet, item, user) for item in sheet.protected_ranges
            ]
        metadata = spreadsheet.metadata_of_sheet(sheet.sheet_id)
        if metadata:
            sheet_document["developerMetadata"] = metadata
        if include_grid_data:
            boxes = wanted.get(sheet.sheet_id, [WHOLE_SHEET])
            sheet_document["data"] = [grid_data(sheet, box, cell_mask) for box in boxes]
        sheets_json.append(sheet_document)
    document: dict[str, Any] = {
        "spreadsheetId": spreadsheet.spreadsheet_id,
        "properties": {
            "title": spreadsheet.title,
            "locale": spreadsheet.locale,
            "autoRecalc": "ON_CHANGE",
            "timeZone": spreadsheet.time_zone,
        },
        "sheets": sheets_json,
        "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{spreadsheet.spreadsheet_id}/edit",
    }
    top_metadata = [
        metadata
        for metadata in spreadsheet.developer_metadata.values()
        if metadata["location"].get("locationType") == "SPREADSHEET"
    ]
    if top_metadata:
        document["developerMetadata"] = top_metadata
    return document


__all__ = [
    "CELL_LIMIT",
    "DEFAULT_COLUMNS",
    "DEFAULT_ROWS",
    "ROLES",
    "ApiError",
    "Cell",
    "Sheet",
    "Spreadsheet",
    "check_in_grid",
    "grid_data",
    "read_values",
    "requested_name",
    "spreadsheet_json",
]
