"""Writes to the in-memory spreadsheet: ``spreadsheets.values.*`` and ``spreadsheets.batchUpdate``.

Each function checks its input the way Google does and raises ``ApiError`` with Google's
wording before changing anything it can check up front; the server runs every API call on a
copy-on-failure basis, so a batch either applies completely or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from tests.fakes.sheets import fieldmask
from tests.fakes.sheets.a1 import Box, column_letters, format_range
from tests.fakes.sheets.errors import ApiError, invalid
from tests.fakes.sheets.model import (
    Sheet,
    Spreadsheet,
    check_in_grid,
    read_values,
    requested_name,
)
from tests.fakes.sheets.values import INPUT_OPTIONS, from_extended, parse_input

Json = dict[str, Any]


class RequestProblem(Exception):
    """A problem with one request of a batch; the batch prefixes ``Invalid requests[i].kind``."""


# --------------------------------------------------------------------------- values


def _matrix(values: Any, major_dimension: str | None) -> list[tuple[int, int, Any]]:
    """Flatten written ``values`` into (row offset, column offset, value) triples."""
    if values is None:
        return []
    if not isinstance(values, list) or not all(isinstance(line, list) for line in values):
        raise invalid("Invalid value at 'data.values': values must be a list of lists")
    cells: list[tuple[int, int, Any]] = []
    for outer, line in enumerate(values):
        for inner, value in enumerate(line):
            if value is not None and not isinstance(value, str | int | float | bool):
                raise invalid(
                    f"Invalid values[{outer}][{inner}]: a cell value must be a string, "
                    f"number or boolean, not {type(value).__name__}"
                )
            if major_dimension == "COLUMNS":
                cells.append((inner, outer, value))
            else:
                cells.append((outer, inner, value))
    return cells


def check_input_option(option: Any) -> str:
    """The ``valueInputOption`` of a write, which Google requires."""
    if option is None or option == "":
        raise invalid("'valueInputOption' is required but not specified")
    if option not in INPUT_OPTIONS:
        raise invalid(f"Invalid value at 'value_input_option' (\"{option}\")")
    return str(option)


def check_protection(
    spreadsheet: Spreadsheet, sheet: Sheet, cells: Iterable[tuple[int, int]], user: str | None
) -> None:
    """Refuse to change a cell under a protected range the user may not edit."""
    blocking = [
        item for item in sheet.protected_ranges if not spreadsheet.can_edit_protected(user, item)
    ]
    if not blocking:
        return
    for row, column in cells:
        for item in blocking:
            if _grid_box(item["range"]).contains(row, column) and not any(
                _grid_box(free).contains(row, column) for free in item.get("unprotectedRanges", [])
            ):
                raise invalid(
                    "You are trying to edit a protected cell or object. Please contact the "
                    "spreadsheet owner to remove protection if you need to edit."
                )


def write_values(
    spreadsheet: Spreadsheet,
    text: str,
    values: Any,
    *,
    major_dimension: str | None,
    input_option: Any,
    user: str | None,
    include_values: bool = False,
    response_render: str = "FORMATTED_VALUE",
) -> Json:
    """``values.update``: write a matrix of values at a range; answer ``UpdateValuesResponse``.

    A single-cell range is where the data starts; a larger range must hold all the data.
    ``null`` leaves a cell unchanged and ``""`` clears it. Writing outside the grid fails
    (only ``append`` grows a sheet).
    """
    option = check_input_option(input_option)
    sheet, box = spreadsheet.resolve(text)
    requested = requested_name(sheet, text)
    start_row = box.start_row or 0
    start_column = box.start_column or 0
    cells = _matrix(values, major_dimension)
    if not box.is_single_cell:
        for row_offset, column_offset, _ in cells:
            row, column = start_row + row_offset, start_column + column_offset
            if box.end_row is not None and row >= box.end_row:
                raise invalid(
                    f"Requested writing within range [{requested}], but tried writing to "
                    f"row [{row + 1}]"
                )
            if box.end_column is not None and column >= box.end_column:
                raise invalid(
                    f"Requested writing within range [{requested}], but tried writing to "
                    f"column [{column_letters(column)}]"
                )
    return _put(
        spreadsheet,
        sheet,
        start_row,
        start_column,
        cells,
        option=option,
        user=user,
        requested=requested,
        include_values=include_values,
        response_render=response_render,
    )


def _put(
    spreadsheet: Spreadsheet,
    sheet: Sheet,
    start_row: int,
    start_column: int,
    cells: list[tuple[int, int, Any]],
    *,
    option: str,
    user: str | None,
    requested: str,
    include_values: bool,
    response_render: str,
) -> Json:
    result: Json = {"spreadsheetId": spreadsheet.spreadsheet_id}
    if not cells:
        result["updatedRange"] = requested
        return result
    rows = max(row for row, _, _ in cells) + 1
    columns = max(column for _, column, _ in cells) + 1
    written = Box(start_row, start_row + rows, start_column, start_column + columns)
    if written.end_row > sheet.row_count or written.end_column > sheet.column_count:  # type: ignore[operator]
        raise invalid(
            f"Range ({format_range(sheet.title, written)}) exceeds grid limits. "
            f"Max rows: {sheet.row_count}, max columns: {sheet.column_count}"
        )
    targets = [
        (start_row + row, start_column + column, value)
        for row, column, value in cells
        if value is not None
    ]
    check_protection(spreadsheet, sheet, ((row, column) for row, column, _ in targets), user)
    parsed: list[tuple[int, int, Any]] = []
    for row, column, value in targets:
        try:
            parsed.append((row, column, parse_input(value, option)))
        except ValueError as problem:
            raise invalid(str(problem)) from None
    for row, column, entered in parsed:
        sheet.edit(row, column).value = entered
        sheet.tidy(row, column)
    result.update(
        {
            "updatedRange": format_range(sheet.title, written),
            "updatedRows": len({row for row, _, _ in targets}),
            "updatedColumns": len({column for _, column, _ in targets}),
            "updatedCells": len(targets),
        }
    )
    if include_values:
        result["updatedData"] = read_values(
            spreadsheet,
            format_range(sheet.title, written),
            render_option=response_render,
        )
    return result


def append_values(
    spreadsheet: Spreadsheet,
    text: str,
    values: Any,
    *,
    major_dimension: str | None,
    input_option: Any,
    insert_option: str | None,
    user: str | None,
    include_values: bool = False,
    response_render: str = "FORMATTED_VALUE",
) -> Json:
    """``values.append``: add rows after the table found in a range.

    Simplification of Google's table detection: the table ends at the last row, at or below
    the range's first row, that has a value in the range's columns (all columns from the
    start for a one-cell range). Rows are added to the grid as needed; ``INSERT_ROWS`` also
    pushes the rows below down.
    """
    option = check_input_option(input_option)
    if insert_option not in (None, "", "OVERWRITE", "INSERT_ROWS"):
        raise invalid(f"Invalid value at 'insert_data_option' (\"{insert_option}\")")
    sheet, box = spreadsheet.resolve(text)
    grid = check_in_grid(sheet, box, requested_name(sheet, text))
    assert grid.start_row is not None and grid.start_column is not None
    cells = _matrix(values, major_dimension)
    end_column = None if box.is_single_cell else grid.end_column
    columns_box = Box(grid.start_row, None, grid.start_column, end_column)
    table = [(row, column) for row, column, _ in sheet.valued_cells(columns_box)]
    append_at = max(row for row, _ in table) + 1 if table else grid.start_row
    result: Json = {"spreadsheetId": spreadsheet.spreadsheet_id}
    if table:
        table_box = Box(
            min(row for row, _ in table),
            append_at,
            min(column for _, column in table),
            max(column for _, column in table) + 1,
        )
        result["tableRange"] = format_range(sheet.title, table_box)
    if not cells:
        result["updates"] = {"spreadsheetId": spreadsheet.spreadsheet_id}
        return result
    rows = max(row for row, _, _ in cells) + 1
    if insert_option == "INSERT_ROWS":
        insert_rows(spreadsheet, sheet, append_at, rows)
    elif append_at + rows > sheet.row_count:
        sheet.row_count = append_at + rows
        spreadsheet.check_cell_limit()
    result["updates"] = _put(
        spreadsheet,
        sheet,
        append_at,
        grid.start_column,
        cells,
        option=option,
        user=user,
        requested=requested_name(sheet, text),
        include_values=include_values,
        response_render=response_render,
    )
    return result


def clear_values(spreadsheet: Spreadsheet, text: str, *, user: str | None) -> str:
    """``values.clear``: empty the values of a range (formats stay); answer the cleared range."""
    sheet, box = spreadsheet.resolve(text)
    clipped = check_in_grid(sheet, box, requested_name(sheet, text))
    valued = [(row, column) for row, column, _ in sheet.valued_cells(clipped)]
    check_protection(spreadsheet, sheet, valued, user)
    for row, column in valued:
        sheet.edit(row, column).value = None
        sheet.tidy(row, column)
    return format_range(sheet.title, clipped)


def insert_rows(spreadsheet: Spreadsheet, sheet: Sheet, at: int, count: int) -> None:
    """Insert empty rows before row ``at`` (zero-based), pushing the cells below down."""
    sheet.cells = {
        ((row + count, column) if row >= at else (row, column)): cell
        for (row, column), cell in sheet.cells.items()
    }
    sheet.row_count += count
    spreadsheet.check_cell_limit()


def _shift(sheet: Sheet, move: Callable[[int, int], tuple[int, int] | None]) -> None:
    moved: dict[tuple[int, int], Any] = {}
    for (row, column), cell in sheet.cells.items():
        target = move(row, column)
        if target is not None:
            moved[target] = cell
    sheet.cells = moved


# --------------------------------------------------------------------------- batchUpdate


def _grid_box(grid_range: Json) -> Box:
    return Box(
        grid_range.get("startRowIndex"),
        grid_range.get("endRowIndex"),
        grid_range.get("startColumnIndex"),
        grid_range.get("endColumnIndex"),
    )


def _sheet(spreadsheet: Spreadsheet, sheet_id: Any) -> Sheet:
    """The sheet a request names; a missing ``sheetId`` is 0, as in proto3 JSON."""
    identifier = 0 if sheet_id is None else sheet_id
    sheet = spreadsheet.sheet_by_id(int(identifier))
    if sheet is None:
        raise RequestProblem(f"No grid with id: {identifier}")
    return sheet


def _range_in_grid(sheet: Sheet, grid_range: Json) -> Box:
    box = _grid_box(grid_range).clip(sheet.row_count, sheet.column_count)
    assert box.end_row is not None and box.end_column is not None
    if box.end_row > sheet.row_count:
        raise RequestProblem(
            f"Range ('{sheet.title}'!row {box.end_row}) exceeds grid limits. "
            f"Max rows: {sheet.row_count}, max columns: {sheet.column_count}"
        )
    if box.end_column > sheet.column_count:
        raise RequestProblem(
            f"Range ('{sheet.title}'!column {column_letters(box.end_column - 1)}) exceeds grid "
            f"limits. Max rows: {sheet.row_count}, max columns: {sheet.column_count}"
        )
    return box


def _require_fields(request: Json) -> fieldmask.Mask | None:
    fields = request.get("fields")
    if not fields:
        raise RequestProblem("At least one field must be specified.")
    try:
        return fieldmask.parse(str(fields))
    except ValueError as problem:
        raise RequestProblem(str(problem)) from None


def _apply_cell_data(sheet: Sheet, row: int, column: int, source: Json, paths: list[Any]) -> None:
    cell = sheet.edit(row, column)
    document = cell.data()
    for path in paths:
        fieldmask.copy_path(document, source, path)
    try:
        value = from_extended(document.pop("userEnteredValue", None) or {})
    except ValueError as problem:
        raise RequestProblem(str(problem)) from None
    for read_only in ("effectiveValue", "formattedValue", "effectiveFormat"):
        document.pop(read_only, None)
    cell.value = value
    cell.format = document.pop("userEnteredFormat", None) or {}
    cell.note = document.pop("note", None)
    cell.other = document
    sheet.tidy(row, column)


def _new_title(spreadsheet: Spreadsheet) -> str:
    number = len(spreadsheet.sheets) + 1
    while spreadsheet.sheet_by_title(f"Sheet{number}") is not None:
        number += 1
    return f"Sheet{number}"


def _check_title_free(spreadsheet: Spreadsheet, title: str, sheet: Sheet | None = None) -> None:
    if not title.strip():
        raise RequestProblem("The sheet name cannot be empty.")
    existing = spreadsheet.sheet_by_title(title)
    if (
        existing is not None
        and existing is not sheet
        and existing.title.casefold() == title.casefold()
    ):
        raise RequestProblem(
            f'A sheet with the name "{title}" already exists. Please enter another name.'
        )


def _check_frozen(sheet: Sheet) -> None:
    if sheet.frozen_row_count >= sheet.row_count:
        raise RequestProblem("You can't freeze all visible rows on the sheet.")
    if sheet.frozen_column_count >= sheet.column_count:
        raise RequestProblem("You can't freeze all visible columns on the sheet.")
    if sheet.frozen_row_count < 0 or sheet.frozen_column_count < 0:
        raise RequestProblem("Frozen counts cannot be negative.")


_CORE_PROPERTIES = ("sheetId", "title", "index", "sheetType", "gridProperties", "hidden")
_CORE_GRID = ("rowCount", "columnCount", "frozenRowCount", "frozenColumnCount")


def _set_properties(spreadsheet: Spreadsheet, sheet: Sheet, document: Json, index: int) -> None:
    """Apply a full ``SheetProperties`` document to a sheet (after masking)."""
    title = document.get("title", "")
    if not isinstance(title, str):
        raise RequestProblem("title must be a string")
    _check_title_free(spreadsheet, title, sheet)
    grid = document.get("gridProperties") or {}
    rows = int(grid.get("rowCount", 0))
    columns = int(grid.get("columnCount", 0))
    if rows <= 0 or columns <= 0:
        raise RequestProblem("A sheet must have at least one row and one column.")
    sheet.title = title
    sheet.resize(rows, columns)
    sheet.frozen_row_count = int(grid.get("frozenRowCount", 0))
    sheet.frozen_column_count = int(grid.get("frozenColumnCount", 0))
    _check_frozen(sheet)
    sheet.other_grid_properties = {k: v for k, v in grid.items() if k not in _CORE_GRID}
    sheet.hidden = bool(document.get("hidden", False))
    if sheet.hidden and all(other.hidden for other in spreadsheet.sheets):
        raise RequestProblem("You can't hide all the sheets in a document.")
    sheet.other_properties = {k: v for k, v in document.items() if k not in _CORE_PROPERTIES}
    spreadsheet.sheets.remove(sheet)
    spreadsheet.sheets.insert(max(0, min(index, len(spreadsheet.sheets))), sheet)
    spreadsheet.check_cell_limit()


def _add_sheet(spreadsheet: Spreadsheet, request: Json, user: str | None) -> Json:
    properties = dict(request.get("properties") or {})
    if properties.get("sheetType", "GRID") != "GRID":
        raise RequestProblem("only GRID sheets are implemented by the Harkness Sheets fake")
    taken = [sheet.sheet_id for sheet in spreadsheet.sheets]
    sheet_id = properties.get("sheetId")
    if sheet_id is None:
        sheet_id = spreadsheet.new_id(taken)
    elif int(sheet_id) < 0 or int(sheet_id) in taken:
        raise RequestProblem(f"Sheet with id {sheet_id} already exists.")
    title = properties.get("title") or _new_title(spreadsheet)
    _check_title_free(spreadsheet, title)
    grid = dict(properties.get("gridProperties") or {})
    grid.setdefault("rowCount", 1000)
    grid.setdefault("columnCount", 26)
    properties.update({"title": title, "gridProperties": grid})
    sheet = Sheet(sheet_id=int(sheet_id), title=title)
    spreadsheet.sheets.append(sheet)
    _set_properties(
        spreadsheet, sheet, properties, int(properties.get("index", len(spreadsheet.sheets)))
    )
    return {"addSheet": {"properties": sheet.properties(spreadsheet.index_of(sheet))}}


def _delete_sheet(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    sheet_id = request.get("sheetId", 0)
    sheet = spreadsheet.sheet_by_id(int(sheet_id))
    if sheet is None:
        raise RequestProblem(f"No sheet with id: {sheet_id}")
    if all(other is sheet or other.hidden for other in spreadsheet.sheets):
        raise RequestProblem("You can't remove all the visible sheets in a document.")
    spreadsheet.sheets.remove(sheet)
    for metadata_id, metadata in list(spreadsheet.developer_metadata.items()):
        location = metadata["location"]
        located_on = location.get("sheetId", (location.get("dimensionRange") or {}).get("sheetId"))
        if located_on == sheet.sheet_id:
            del spreadsheet.developer_metadata[metadata_id]


def _update_sheet_properties(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    mask = _require_fields(request)
    source = request.get("properties") or {}
    sheet = _sheet(spreadsheet, source.get("sheetId"))
    index = spreadsheet.index_of(sheet)
    document = sheet.properties(index)
    for path in fieldmask.leaf_paths(mask):
        if path in (("sheetId",), ("sheetType",)):
            continue
        if path == ():
            document = {**source, "sheetId": sheet.sheet_id}
            continue
        fieldmask.copy_path(document, source, path)
    _set_properties(spreadsheet, sheet, document, int(document.get("index", 0)))


def _update_cells(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    mask = _require_fields(request)
    paths = fieldmask.leaf_paths(mask)
    rows = request.get("rows") or []
    if "start" in request and "range" in request:
        raise RequestProblem("Only one of start or range may be set.")
    if "range" in request:
        sheet = _sheet(spreadsheet, request["range"].get("sheetId"))
        area = _range_in_grid(sheet, request["range"])
    else:
        start = request.get("start") or {}
        sheet = _sheet(spreadsheet, start.get("sheetId"))
        first_row = int(start.get("rowIndex", 0))
        first_column = int(start.get("columnIndex", 0))
        width = max((len(row.get("values") or []) for row in rows), default=0)
        area = Box(first_row, first_row + len(rows), first_column, first_column + width)
    assert area.start_row is not None and area.start_column is not None
    assert area.end_row is not None and area.end_column is not None
    writes: dict[tuple[int, int], Json] = {}
    for row_offset, row_data in enumerate(rows):
        row = area.start_row + row_offset
        if row >= area.end_row or row >= sheet.row_count:
            raise RequestProblem(
                f"Attempting to write row: {row}, beyond the last requested row of: "
                f"{min(area.end_row, sheet.row_count) - 1}"
            )
        for column_offset, cell_data in enumerate(row_data.get("values") or []):
            column = area.start_column + column_offset
            if column >= area.end_column or column >= sheet.column_count:
                raise RequestProblem(
                    f"Attempting to write column: {column}, beyond the last requested column "
                    f"of: {min(area.end_column, sheet.column_count) - 1}"
                )
            writes[(row, column)] = cell_data or {}
    if "range" in request:
        for row in range(area.start_row, area.end_row):
            for column in range(area.start_column, area.end_column):
                writes.setdefault((row, column), {})
    check_protection(spreadsheet, sheet, writes, user)
    for (row, column), cell_data in writes.items():
        _apply_cell_data(sheet, row, column, cell_data, paths)


def _repeat_cell(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    mask = _require_fields(request)
    paths = fieldmask.leaf_paths(mask)
    grid_range = request.get("range") or {}
    sheet = _sheet(spreadsheet, grid_range.get("sheetId"))
    area = _range_in_grid(sheet, grid_range)
    assert area.start_row is not None and area.end_row is not None
    assert area.start_column is not None and area.end_column is not None
    cells = [
        (row, column)
        for row in range(area.start_row, area.end_row)
        for column in range(area.start_column, area.end_column)
    ]
    check_protection(spreadsheet, sheet, cells, user)
    source = request.get("cell") or {}
    for row, column in cells:
        _apply_cell_data(sheet, row, column, source, paths)


def _all_protected(spreadsheet: Spreadsheet) -> list[tuple[Sheet, Json]]:
    return [(sheet, item) for sheet in spreadsheet.sheets for item in sheet.protected_ranges]


def _add_protected_range(spreadsheet: Spreadsheet, request: Json, user: str | None) -> Json:
    source = dict(request.get("protectedRange") or {})
    if source.get("namedRangeId"):
        raise RequestProblem("named ranges are not implemented by the Harkness Sheets fake")
    given = dict(source.get("range") or {})
    sheet = _sheet(spreadsheet, given.pop("sheetId", None))
    grid_range = {"sheetId": sheet.sheet_id, **given}
    _range_in_grid(sheet, grid_range)
    whole_sheet = set(grid_range) == {"sheetId"}
    if whole_sheet and any(set(item["range"]) == {"sheetId"} for item in sheet.protected_ranges):
        raise RequestProblem(f'Sheet "{sheet.title}" already has sheet protection.')
    taken = [item["protectedRangeId"] for _, item in _all_protected(spreadsheet)]
    range_id = source.get("protectedRangeId")
    if range_id is None:
        range_id = spreadsheet.new_id(taken)
    elif range_id in taken:
        raise RequestProblem(f"A protected range with id {range_id} already exists.")
    protected: Json = {"protectedRangeId": int(range_id), "range": grid_range}
    if source.get("description"):
        protected["description"] = source["description"]
    warning_only = bool(source.get("warningOnly", False))
    protected["warningOnly"] = warning_only
    if source.get("unprotectedRanges"):
        protected["unprotectedRanges"] = source["unprotectedRanges"]
    if not warning_only:
        editors = dict(source.get("editors") or {})
        users = list(editors.get("users") or [])
        for address in (spreadsheet.owner, user):
            if address and address.lower() not in (u.lower() for u in users):
                users.append(address)
        editors["users"] = users
        protected["editors"] = editors
    sheet.protected_ranges.append(protected)
    reply = dict(protected)
    reply["requestingUserCanEdit"] = spreadsheet.can_edit_protected(user, protected)
    return {"addProtectedRange": {"protectedRange": reply}}


def _find_protected(spreadsheet: Spreadsheet, range_id: Any) -> tuple[Sheet, Json]:
    for sheet, item in _all_protected(spreadsheet):
        if item["protectedRangeId"] == int(range_id if range_id is not None else 0):
            return sheet, item
    raise RequestProblem(f"No protected range with id: {range_id}")


def _delete_protected_range(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    sheet, item = _find_protected(spreadsheet, request.get("protectedRangeId"))
    sheet.protected_ranges.remove(item)


def _update_protected_range(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    mask = _require_fields(request)
    source = request.get("protectedRange") or {}
    _, item = _find_protected(spreadsheet, source.get("protectedRangeId"))
    for path in fieldmask.leaf_paths(mask):
        if path in ((), ("protectedRangeId",)):
            continue
        fieldmask.copy_path(item, source, path)


# --------------------------------------------------------------------------- developer metadata


def _normalise_location(spreadsheet: Spreadsheet, location: Json) -> Json:
    given = [key for key in ("spreadsheet", "sheetId", "dimensionRange") if location.get(key)]
    if location.get("sheetId") == 0:
        given.append("sheetId")
    if len(given) != 1:
        raise RequestProblem(
            "Developer metadata location must name exactly one of spreadsheet, sheetId or "
            "dimensionRange."
        )
    kind = given[0]
    if kind == "spreadsheet":
        return {"locationType": "SPREADSHEET", "spreadsheet": True}
    if kind == "sheetId":
        sheet = _sheet(spreadsheet, location["sheetId"])
        return {"locationType": "SHEET", "sheetId": sheet.sheet_id}
    dimension_range = dict(location["dimensionRange"])
    sheet = _sheet(spreadsheet, dimension_range.get("sheetId"))
    dimension_range["sheetId"] = sheet.sheet_id
    dimension = dimension_range.get("dimension")
    if dimension not in ("ROWS", "COLUMNS"):
        raise RequestProblem("dimensionRange.dimension must be ROWS or COLUMNS")
    return {
        "locationType": "ROW" if dimension == "ROWS" else "COLUMN",
        "dimensionRange": dimension_range,
    }


def _create_developer_metadata(spreadsheet: Spreadsheet, request: Json, user: str | None) -> Json:
    source = request.get("developerMetadata") or {}
    if not source.get("metadataKey"):
        raise RequestProblem("Developer metadata must have a metadataKey.")
    if source.get("visibility") not in ("DOCUMENT", "PROJECT"):
        raise RequestProblem("Developer metadata must have a visibility of DOCUMENT or PROJECT.")
    location = _normalise_location(spreadsheet, source.get("location") or {})
    metadata_id = source.get("metadataId")
    if metadata_id is None:
        metadata_id = spreadsheet.new_id(spreadsheet.developer_metadata)
    elif int(metadata_id) in spreadsheet.developer_metadata:
        raise RequestProblem(f"Developer metadata with id {metadata_id} already exists.")
    metadata: Json = {
        "metadataId": int(metadata_id),
        "metadataKey": source["metadataKey"],
        "location": location,
        "visibility": source["visibility"],
    }
    if source.get("metadataValue") is not None:
        metadata["metadataValue"] = source["metadataValue"]
    spreadsheet.developer_metadata[int(metadata_id)] = metadata
    return {"createDeveloperMetadata": {"developerMetadata": metadata}}


def _region_of_location(location: Json) -> tuple[str, int | None, str | None, Box | None]:
    kind = location.get("locationType")
    if kind == "SPREADSHEET" or location.get("spreadsheet"):
        return ("spreadsheet", None, None, None)
    if "sheetId" in location and "dimensionRange" not in location:
        return ("sheet", int(location["sheetId"]), None, None)
    dimension_range = location.get("dimensionRange") or {}
    return (
        "dimension",
        int(dimension_range.get("sheetId", 0)),
        dimension_range.get("dimension"),
        Box(dimension_range.get("startIndex"), dimension_range.get("endIndex"), None, None),
    )


def _spans_overlap(first: Box, second: Box) -> bool:
    first_start, second_start = first.start_row or 0, second.start_row or 0
    first_end = first.end_row if first.end_row is not None else 2**31
    second_end = second.end_row if second.end_row is not None else 2**31
    return first_start < second_end and second_start < first_end


def _locations_intersect(first: Json, second: Json) -> bool:
    kind_a, sheet_a, dimension_a, span_a = _region_of_location(first)
    kind_b, sheet_b, dimension_b, span_b = _region_of_location(second)
    if "spreadsheet" in (kind_a, kind_b):
        return True
    if sheet_a != sheet_b:
        return False
    if "sheet" in (kind_a, kind_b):
        return True
    assert span_a is not None and span_b is not None
    return dimension_a == dimension_b and _spans_overlap(span_a, span_b)


def _locations_equal(first: Json, second: Json) -> bool:
    return _region_of_location(first) == _region_of_location(second)


def _lookup_matches(spreadsheet: Spreadsheet, lookup: Json, metadata: Json) -> bool:
    if lookup.get("metadataId") is not None and int(lookup["metadataId"]) != metadata["metadataId"]:
        return False
    for key in ("metadataKey", "metadataValue", "visibility"):
        if lookup.get(key) is not None and lookup[key] != metadata.get(key):
            return False
    location = metadata["location"]
    if lookup.get("locationType") and lookup["locationType"] != location["locationType"]:
        return False
    wanted = lookup.get("metadataLocation")
    if wanted:
        wanted = _normalise_location(spreadsheet, wanted)
        if lookup.get("locationMatchingStrategy") == "EXACT_LOCATION":
            return _locations_equal(wanted, location)
        return _locations_intersect(wanted, location)
    return True


def _range_matches(spreadsheet: Spreadsheet, data_filter: Json, metadata: Json) -> bool:
    if "a1Range" in data_filter:
        sheet, box = spreadsheet.resolve(str(data_filter["a1Range"]))
    else:
        grid_range = data_filter["gridRange"]
        sheet = _sheet(spreadsheet, grid_range.get("sheetId"))
        box = _grid_box(grid_range)
    kind, sheet_id, dimension, span = _region_of_location(metadata["location"])
    if kind == "spreadsheet" or sheet_id != sheet.sheet_id:
        return False
    if kind == "sheet":
        return True
    assert span is not None
    along = (
        Box(box.start_row, box.end_row, None, None)
        if dimension == "ROWS"
        else Box(box.start_column, box.end_column, None, None)
    )
    return _spans_overlap(span, along)


def filter_matches(spreadsheet: Spreadsheet, data_filter: Json, metadata: Json) -> bool:
    """True when a ``DataFilter`` selects a developer metadata entry."""
    if "developerMetadataLookup" in data_filter:
        return _lookup_matches(spreadsheet, data_filter["developerMetadataLookup"], metadata)
    if "a1Range" in data_filter or "gridRange" in data_filter:
        return _range_matches(spreadsheet, data_filter, metadata)
    raise RequestProblem("A data filter needs developerMetadataLookup, a1Range or gridRange.")


def search_metadata(spreadsheet: Spreadsheet, data_filters: list[Json]) -> Json:
    """``developerMetadata.search``: the entries matching any filter, with the filters matched."""
    matched: list[Json] = []
    for metadata in spreadsheet.developer_metadata.values():
        hits = [item for item in data_filters if filter_matches(spreadsheet, item, metadata)]
        if hits:
            matched.append({"developerMetadata": metadata, "dataFilters": hits})
    return {"matchedDeveloperMetadata": matched} if matched else {}


def _update_developer_metadata(spreadsheet: Spreadsheet, request: Json, user: str | None) -> Json:
    mask = _require_fields(request)
    source = request.get("developerMetadata") or {}
    filters = request.get("dataFilters") or []
    updated: list[Json] = []
    for metadata in spreadsheet.developer_metadata.values():
        if not any(filter_matches(spreadsheet, item, metadata) for item in filters):
            continue
        for path in fieldmask.leaf_paths(mask):
            if path in ((), ("metadataId",)):
                continue
            if path[0] == "location":
                metadata["location"] = _normalise_location(
                    spreadsheet, source.get("location") or {}
                )
                continue
            fieldmask.copy_path(metadata, source, path)
        updated.append(metadata)
    return {"updateDeveloperMetadata": {"developerMetadata": updated}}


def _delete_developer_metadata(spreadsheet: Spreadsheet, request: Json, user: str | None) -> Json:
    data_filter = request.get("dataFilter") or {}
    deleted = [
        metadata
        for metadata in spreadsheet.developer_metadata.values()
        if filter_matches(spreadsheet, data_filter, metadata)
    ]
    for metadata in deleted:
        del spreadsheet.developer_metadata[metadata["metadataId"]]
    return {"deleteDeveloperMetadata": {"deletedDeveloperMetadata": deleted}}


# --------------------------------------------------------------------------- dimensions


def _dimension_range(spreadsheet: Spreadsheet, request: Json) -> tuple[Sheet, str, int, int]:
    dimension_range = request.get("range") or {}
    sheet = _sheet(spreadsheet, dimension_range.get("sheetId"))
    dimension = dimension_range.get("dimension")
    if dimension not in ("ROWS", "COLUMNS"):
        raise RequestProblem("range.dimension must be ROWS or COLUMNS")
    size = sheet.row_count if dimension == "ROWS" else sheet.column_count
    start = int(dimension_range.get("startIndex", 0))
    end = int(dimension_range.get("endIndex", size))
    if not 0 <= start < end:
        raise RequestProblem("range must have startIndex < endIndex")
    return sheet, str(dimension), start, end


def _append_dimension(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    sheet = _sheet(spreadsheet, request.get("sheetId"))
    length = int(request.get("length", 0))
    if length <= 0:
        raise RequestProblem("length must be positive")
    if request.get("dimension") == "ROWS":
        sheet.row_count += length
    elif request.get("dimension") == "COLUMNS":
        sheet.column_count += length
    else:
        raise RequestProblem("dimension must be ROWS or COLUMNS")
    spreadsheet.check_cell_limit()


def _insert_dimension(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    sheet, dimension, start, end = _dimension_range(spreadsheet, request)
    count = end - start
    if dimension == "ROWS":
        insert_rows(spreadsheet, sheet, start, count)
        return
    _shift(sheet, lambda row, column: (row, column + count) if column >= start else (row, column))
    sheet.column_count += count
    spreadsheet.check_cell_limit()


def _delete_dimension(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    sheet, dimension, start, end = _dimension_range(spreadsheet, request)
    count = end - start
    if dimension == "ROWS":
        if end > sheet.row_count or count >= sheet.row_count:
            raise RequestProblem("You can't delete all the rows on the sheet.")
        sheet.cells = {
            ((row - count, column) if row >= end else (row, column)): cell
            for (row, column), cell in sheet.cells.items()
            if not start <= row < end
        }
        sheet.row_count -= count
    else:
        if end > sheet.column_count or count >= sheet.column_count:
            raise RequestProblem("You can't delete all the columns on the sheet.")
        _shift(
            sheet,
            lambda row, column: (
                None
                if start <= column < end
                else ((row, column - count) if column >= end else (row, column))
            ),
        )
        sheet.column_count -= count


def _move_dimension(spreadsheet: Spreadsheet, request: Json, user: str | None) -> None:
    """Move rows or columns; ``destinationIndex`` counts before the source leaves the grid
    (``A1..A5`` of ``0..4``, rows ``[1, 3)`` to ``4``: ``0, 3, 1, 2, 4``)."""
    moves = _Moves(spreadsheet)
    moves.add(request)
    moves.apply()


class _Moves:
    """Consecutive ``moveDimension`` requests of one batch, composed into one order of the
    rows (or columns) of one sheet and applied to its cells at once: moving one row costs
    the length of the order, not the number of cells (a sync moves hundreds of rows of a tab
    of hundreds of thousands of cells)."""

    def __init__(self, spreadsheet: Spreadsheet) -> None:
        self.spreadsheet = spreadsheet
        self.sheet: Sheet | None = None
        self.dimension = ""
        self.order: list[int] = []
        """``order[i]``: the index, before the moves, of what is now at index ``i``."""

    def add(self, request: Json) -> None:
        """Check one move (as Google does, against the grid as it is) and compose it."""
        sheet, dimension, start, end = _dimension_range(
            self.spreadsheet, {"range": request.get("source")}
        )
        size = sheet.row_count if dimension == "ROWS" else sheet.column_count
        destination = int(request.get("destinationIndex", 0))
        if end > size or not 0 <= destination <= size:
            raise RequestProblem(
                f"The source and destination must be within the grid (size {size})."
            )
        if sheet is not self.sheet or dimension != self.dimension:
            self.apply()
            self.sheet, self.dimension, self.order = sheet, dimension, list(range(size))
        count = end - start
        if start <= destination <= end:
            return
        order = self.order
        moved = order[start:end]
        del order[start:end]
        at = destination - count if destination > end else destination
        order[at:at] = moved

    def apply(self) -> None:
        """Move the cells of the sheet to the composed order (and forget it)."""
        sheet, order = self.sheet, self.order
        self.sheet, self.order = None, []
        if sheet is None:
            return
        moved = {old: new for new, old in enumerate(order) if old != new}
        if not moved:
            return
        if self.dimension == "ROWS":
            sheet.cells = {(moved.get(r, r), c): cell for (r, c), cell in sheet.cells.items()}
        else:
            sheet.cells = {(r, moved.get(c, c)): cell for (r, c), cell in sheet.cells.items()}


def _update_spreadsheet_properties(
    spreadsheet: Spreadsheet, request: Json, user: str | None
) -> None:
    mask = _require_fields(request)
    source = request.get("properties") or {}
    document = {
        "title": spreadsheet.title,
        "locale": spreadsheet.locale,
        "timeZone": spreadsheet.time_zone,
    }
    for path in fieldmask.leaf_paths(mask):
        fieldmask.copy_path(document, source, path)
    spreadsheet.title = str(document.get("title") or spreadsheet.title)
    spreadsheet.locale = str(document.get("locale") or spreadsheet.locale)
    spreadsheet.time_zone = str(document.get("timeZone") or spreadsheet.time_zone)


Handler = Callable[[Spreadsheet, Json, str | None], Json | None]

HANDLERS: dict[str, Handler] = {
    "addSheet": _add_sheet,
    "deleteSheet": _delete_sheet,
    "updateSheetProperties": _update_sheet_properties,
    "updateSpreadsheetProperties": _update_spreadsheet_properties,
    "updateCells": _update_cells,
    "repeatCell": _repeat_cell,
    "addProtectedRange": _add_protected_range,
    "updateProtectedRange": _update_protected_range,
    "deleteProtectedRange": _delete_protected_range,
    "createDeveloperMetadata": _create_developer_metadata,
    "updateDeveloperMetadata": _update_developer_metadata,
    "deleteDeveloperMetadata": _delete_developer_metadata,
    "appendDimension": _append_dimension,
    "insertDimension": _insert_dimension,
    "deleteDimension": _delete_dimension,
    "moveDimension": _move_dimension,
}
"""The ``batchUpdate`` request kinds the fake models."""

RECORDED_ONLY = frozenset(
    {
        "autoResizeDimensions",
        "updateDimensionProperties",
        "updateBorders",
        "mergeCells",
        "unmergeCells",
        "setBasicFilter",
        "clearBasicFilter",
        "addConditionalFormatRule",
        "updateConditionalFormatRule",
        "deleteConditionalFormatRule",
        "setDataValidation",
        "addBanding",
        "updateBanding",
        "deleteBanding",
    }
)
"""Request kinds the fake accepts and records without modelling their effect."""


def batch_update(spreadsheet: Spreadsheet, requests: Any, user: str | None) -> list[Json]:
    """``spreadsheets.batchUpdate``: apply each request in order; answer one reply per request.

    A failing request raises ``ApiError`` (400, ``Invalid requests[i].kind: ...``); the
    caller discards the partial changes, since Google applies all requests or none.
    """
    if not isinstance(requests, list) or not requests:
        raise invalid("Must specify at least one request.")
    replies: list[Json] = []
    moves = _Moves(spreadsheet)
    for index, request in enumerate(requests):
        if not isinstance(request, dict) or len(request) != 1:
            raise invalid(f"Invalid requests[{index}]: exactly one request kind must be set.")
        ((kind, body),) = request.items()
        handler = HANDLERS.get(kind)
        try:
            if kind == "moveDimension":
                moves.add(body or {})
                reply = None
            elif handler is not None:
                moves.apply()
                reply = handler(spreadsheet, body or {}, user)
            elif kind in RECORDED_ONLY:
                moves.apply()
                spreadsheet.recorded_requests.append(request)
                reply = None
            else:
                raise ApiError(
                    400,
                    f"Invalid requests[{index}].{kind}: the Harkness Sheets fake does not "
                    "implement this request kind",
                )
        except RequestProblem as problem:
            raise invalid(f"Invalid requests[{index}].{kind}: {problem}") from None
        except ApiError as error:
            if error.message.startswith("Invalid requests["):
                raise
            raise invalid(f"Invalid requests[{index}].{kind}: {error.message}") from None
        replies.append(reply or {})
    moves.apply()
    return replies
