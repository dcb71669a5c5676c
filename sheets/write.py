"""The one write of a sync: every output tab, and the input hash, in one ``batchUpdate``.

:func:`plan` turns the tabs to write into ``spreadsheets.batchUpdate`` requests:

- a tab that does not exist is added (``addSheet``) with an id chosen here, marked as the
  worker's with developer metadata (``createDeveloperMetadata``, key ``harkness.tab``) and
  protected with a warning-only protection (``addProtectedRange``);
- a tab that exists and is marked as the worker's (same role) is resized to its new contents,
  keeps its header row frozen, and gets its protection back if someone removed it;
- a tab of that name that is *not* the worker's is left alone: the plan reports a problem
  instead, and nothing is written to it;
- a new tab's cells are written with one ``updateCells`` over the whole grid: values as
  ``stringValue`` or ``numberValue`` (never ``formulaValue``: nothing is parsed as a formula),
  the header bold on grey, and notes; in a tab that exists, only the rows and cells that
  differ from what the read found there (:mod:`sheets.changes`);
- the hash of the input goes into spreadsheet-level developer metadata.

Google applies a ``batchUpdate`` atomically: if any request fails (a tab of the same name was
added meanwhile, say), nothing is changed. The worker never names an input tab in a request.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from sheets.changes import Area, compare
from sheets.layout import (
    CHECKED_METADATA_KEY,
    INPUT_HASH_METADATA_KEY,
    OUTPUT_METADATA_KEY,
    PROTECTION_DESCRIPTION,
    SETTINGS_TAB,
    TAB_METADATA_KEY,
    Role,
    column_letters,
)
from sheets.looks import Format, Look, canonical_format, shown, text_of, trimmed
from sheets.problems import SheetProblem
from sheets.settings_tab import default_rows
from sheets.snapshot import Snapshot, Tab
from sheets.tabs import CHECKED_CELL, OutCell, TabContent

Request = dict[str, Any]


def _fill(red: float, green: float, blue: float) -> dict[str, Any]:
    """A cell's background colour as the Sheets API takes it: ``backgroundColorStyle`` (its
    ``CellFormat.backgroundColor`` is deprecated for this)."""
    return {"backgroundColorStyle": {"rgbColor": {"red": red, "green": green, "blue": blue}}}


HEADER_FORMAT: dict[str, Any] = {"textFormat": {"bold": True}, **_fill(0.9, 0.9, 0.9)}
#: Shadings of the Standings tab (:func:`sheets.tabs.tie_shading`): two pale tints for the
#: score groups of two or more players, in turn, and bold on amber for the cell that broke
#: a tie.
FILLS: dict[str, dict[str, Any]] = {
    "tied": _fill(0.89, 0.94, 1.0),
    "tied-alternate": _fill(0.93, 0.91, 0.98),
    "decisive": {**_fill(1.0, 0.85, 0.4), "textFormat": {"bold": True}},
}
#: The ``harkness.tab`` marker of a Standings tab being written in several requests, before
#: it takes the Standings tab's place (:mod:`sheets.batches`).
STAGING_MARKER = "standings-staging"
CELL_FIELDS = "userEnteredValue,userEnteredFormat,note"
"""What ``updateCells`` replaces in every cell of an output tab: value, format and note."""


@dataclass
class TabWrite:
    """The requests that write one output tab, and what :mod:`sheets.batches` needs to write
    it another way when it is too large for one request (a staging tab)."""

    content: TabContent
    existing: Tab | None
    grid: dict[str, int]
    requests: list[Request]


@dataclass
class Plan:
    """The requests of one write, and the tabs it refused to touch (with why).

    ``requests`` is every request in order; ``setup`` (the settings tab, a staging tab left
    over), ``tabs`` (one :class:`TabWrite` per output tab) and ``last`` (the input hash and
    the time of the check) are the same requests in their parts, for
    :func:`sheets.batches.batches` to split a write too large for one request.
    """

    requests: list[Request] = field(default_factory=list)
    refused: list[SheetProblem] = field(default_factory=list)
    written: list[str] = field(default_factory=list)
    setup: list[Request] = field(default_factory=list)
    tabs: list[TabWrite] = field(default_factory=list)
    last: list[Request] = field(default_factory=list)
    spare_sheet_id: int = 0
    """A sheet id no tab uses, for a staging tab."""


def cell_data(cell: OutCell) -> dict[str, Any]:
    """The ``CellData`` of one cell: text is always a ``stringValue``.

    >>> cell_data(OutCell("=IMPORTXML(1)"))
    {'userEnteredValue': {'stringValue': '=IMPORTXML(1)'}}
    >>> cell_data(OutCell(10.5, number_format="0.00"))["userEnteredFormat"]
    {'numberFormat': {'type': 'NUMBER', 'pattern': '0.00'}}
    """
    data: dict[str, Any] = {}
    value = cell.value
    if isinstance(value, str):
        data["userEnteredValue"] = {"stringValue": value}
    elif isinstance(value, int | float) and not isinstance(value, bool):
        data["userEnteredValue"] = {"numberValue": value}
    fmt: dict[str, Any] = dict(HEADER_FORMAT) if cell.header else {}
    if cell.fill:
        fmt.update(FILLS[cell.fill])
    if cell.number_format:
        fmt["numberFormat"] = {"type": "NUMBER", "pattern": cell.number_format}
    if cell.wrap:
        fmt["wrapStrategy"] = "WRAP"
    if fmt:
        data["userEnteredFormat"] = fmt
    if cell.note:
        data["note"] = cell.note
    return data


def _grid(rows: int, columns: int, frozen: int) -> dict[str, int]:
    # Google refuses to freeze every row of a tab, so a tab holding only its header keeps
    # one empty row below it.
    return {
        "rowCount": max(rows, frozen + 1),
        "columnCount": max(columns, 1),
        "frozenRowCount": frozen,
    }


def _cells_request(
    sheet_id: int, rows: Sequence[Sequence[OutCell]], grid: dict[str, int]
) -> Request:
    """Replace every cell of the grid: cells ``rows`` does not cover are cleared."""
    return {
        "updateCells": {
            "range": {
                "sheetId": sheet_id,
                "startRowIndex": 0,
                "endRowIndex": grid["rowCount"],
                "startColumnIndex": 0,
                "endColumnIndex": grid["columnCount"],
            },
            "rows": [{"values": [cell_data(c) for c in row]} for row in rows],
            "fields": CELL_FIELDS,
        }
    }


def width_requests(sheet_id: int, widths: Sequence[int], columns: int) -> list[Request]:
    """Set the widths of the first ``columns`` columns (``updateDimensionProperties``)."""
    return [
        {
            "updateDimensionProperties": {
                "range": {
                    "sheetId": sheet_id,
                    "dimension": "COLUMNS",
                    "startIndex": i,
                    "endIndex": i + 1,
                },
                "properties": {"pixelSize": width},
                "fields": "pixelSize",
            }
        }
        for i, width in enumerate(widths[:columns])
    ]


def protect_request(sheet_id: int, description: str = PROTECTION_DESCRIPTION) -> Request:
    """Protect a whole tab with a warning (anyone may still edit it, after the warning)."""
    return {
        "addProtectedRange": {
            "protectedRange": {
                "range": {"sheetId": sheet_id},
                "warningOnly": True,
                "description": description,
            }
        }
    }


def mark_request(sheet_id: int, marker: str) -> Request:
    """Mark a tab as Harkness's: developer metadata ``harkness.tab`` = ``marker``."""
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


def add_sheet_request(sheet_id: int, title: str, grid: dict[str, int]) -> Request:
    """Add a tab with the id chosen here (see :func:`new_sheet_id`)."""
    properties = {"sheetId": sheet_id, "title": title, "gridProperties": grid}
    return {"addSheet": {"properties": properties}}


def new_sheet_id(taken: Iterable[int], rng: random.Random) -> int:
    """A sheet id not in use (Google lets the caller choose one in ``addSheet``)."""
    used = set(taken)
    while True:
        candidate = rng.randrange(1, 2**31 - 1)
        if candidate not in used:
            return candidate


def refusal(title: str, role: Role, setting_cell: str) -> SheetProblem:
    """The problem reported instead of overwriting a tab the worker did not make."""
    return SheetProblem(
        f"a tab named {title!r} already exists and was not made by Harkness, so the "
        f"{role.value} were not written to it: rename or delete that tab, or write another "
        f"name for the {role.value} tab in {setting_cell}",
        title,
    )


def foreign(snapshot: Snapshot, title: str, role: Role) -> Tab | None:
    """The tab called ``title`` if it exists and is not the worker's ``role`` tab."""
    tab = snapshot.tab(title)
    return tab if tab is not None and tab.role is not role else None


def plan(
    snapshot: Snapshot,
    contents: Sequence[TabContent],
    input_hash: str | None,
    setting_cells: dict[str, str],
    *,
    create_settings: bool = False,
    rng: random.Random | None = None,
    checked: datetime | None = None,
    output: str | None = None,
    looks: Mapping[str, list[list[Look]]] | None = None,
) -> Plan:
    """The requests that write ``contents`` (and the hash) over what ``snapshot`` saw.

    ``setting_cells`` maps each role's value to the settings cell that names its tab, for the
    message when a tab is refused. With ``create_settings``, the settings tab is added too,
    with every setting at its default. ``checked`` is stored as the time of the last check
    shown on the sheet (see :func:`check_plan`). ``looks`` are the contents'
    :func:`looks_of`, by title, when the caller has them already.
    """
    rng = rng or random.Random()
    result = Plan()
    taken = set(snapshot.sheet_ids)
    # A staging tab left by a write that stopped half-way (see sheets.batches) goes first.
    result.setup += [
        {"deleteSheet": {"sheetId": tab.sheet_id}}
        for tab in snapshot.tabs
        if tab.marker == STAGING_MARKER
    ]
    if create_settings and snapshot.tab(SETTINGS_TAB) is None:
        sheet_id = new_sheet_id(taken, rng)
        taken.add(sheet_id)
        rows = default_rows()
        grid = _grid(len(rows) + 10, len(rows[0]), 1)
        result.setup.append(add_sheet_request(sheet_id, SETTINGS_TAB, grid))
        header = [OutCell(v, header=True) for v in rows[0]]
        body = [[OutCell(v or None) for v in row] for row in rows[1:]]
        result.setup.append(_cells_request(sheet_id, [header, *body], grid))
    for content in contents:
        tab = snapshot.tab(content.title)
        grid = _grid(len(content.rows), content.width, 1)
        requests: list[Request] = []
        if tab is None:
            sheet_id = new_sheet_id(taken, rng)
            taken.add(sheet_id)
            requests += [
                add_sheet_request(sheet_id, content.title, grid),
                mark_request(sheet_id, content.role.value),
                protect_request(sheet_id),
            ]
        elif tab.role is content.role:
            sheet_id = tab.sheet_id
            if not tab.protected:
                requests.append(protect_request(sheet_id))
        else:
            cell = setting_cells.get(content.role.value, SETTINGS_TAB)
            result.refused.append(refusal(tab.title, content.role, cell))
            continue
        if tab is None:
            requests += tab_cells_requests(sheet_id, content, grid)
        else:
            new = looks[content.title] if looks and content.title in looks else None
            requests += change_requests(sheet_id, content, grid, tab, new)
        result.tabs.append(TabWrite(content, tab, grid, requests))
        result.written.append(content.title)
    if input_hash is not None:
        result.last.append(
            _metadata_request(snapshot.input_hash_metadata_id, INPUT_HASH_METADATA_KEY, input_hash)
        )
    if checked is not None:
        result.last.append(_checked_request(snapshot, checked))
    if output is not None:
        result.last.append(output_request(snapshot, output))
    result.spare_sheet_id = new_sheet_id(taken, rng)
    result.requests = [
        *result.setup,
        *[request for write in result.tabs for request in write.requests],
        *result.last,
    ]
    return result


def tab_cells_requests(sheet_id: int, content: TabContent, grid: dict[str, int]) -> list[Request]:
    """Every cell of a tab (one ``updateCells`` over the whole grid), then column widths."""
    return [
        _cells_request(sheet_id, content.rows, grid),
        *width_requests(sheet_id, content.widths, grid["columnCount"]),
    ]


WHOLE_FROM = 0.8
"""A tab whose changed cells are this share of its grid or more is written whole: one
``updateCells`` costs less than many rectangles."""


def _grid_request(sheet_id: int, grid: dict[str, int]) -> Request:
    return {
        "updateSheetProperties": {
            "properties": {"sheetId": sheet_id, "gridProperties": grid},
            "fields": "gridProperties(rowCount,columnCount,frozenRowCount)",
        }
    }


@lru_cache(maxsize=64)
def _format_of(header: bool, fill: str | None, number_format: str | None, wrap: bool) -> Format:
    data = cell_data(OutCell(None, None, number_format, header, fill, wrap))
    return canonical_format(data.get("userEnteredFormat"))


def look_of(cell: OutCell) -> Look:
    """How ``cell`` will look once written (:mod:`sheets.looks`)."""
    fmt = _format_of(cell.header, cell.fill, cell.number_format, cell.wrap)
    return (text_of(shown(cell)), fmt, cell.note or "")


def looks_of(content: TabContent) -> list[list[Look]]:
    """How each cell of a tab will look once written, row by row from A1 (:func:`look_of`
    of each cell; once for a cell the tab holds in several places: a player's name in each
    of their rows of the breakdown)."""
    known: dict[int, Look] = {}
    rows = []
    for row in content.rows:
        looks = []
        for cell in row:
            look = known.get(id(cell))
            if look is None:
                look = known[id(cell)] = look_of(cell)
            looks.append(look)
        rows.append(trimmed(looks))
    return rows


def _range(sheet_id: int, area: Area) -> dict[str, int]:
    return {
        "sheetId": sheet_id,
        "startRowIndex": area.top,
        "endRowIndex": area.bottom,
        "startColumnIndex": area.left,
        "endColumnIndex": area.right,
    }


def _area_request(sheet_id: int, content: TabContent, area: Area) -> Request:
    """Write every cell of ``area`` (those past a row's contents are cleared)."""
    rows = [
        {"values": [cell_data(c) for c in row[area.left : area.right]]}
        for row in (
            content.rows[r] if r < len(content.rows) else [] for r in range(area.top, area.bottom)
        )
    ]
    while rows and not rows[-1]["values"]:
        rows.pop()
    return {"updateCells": {"range": _range(sheet_id, area), "rows": rows, "fields": CELL_FIELDS}}


def _paint_request(sheet_id: int, area: Area, cell: OutCell) -> Request:
    """Give every cell of ``area`` the background of ``cell`` (nothing else changes)."""
    fmt = cell_data(cell)["userEnteredFormat"]
    colour = fmt.get("backgroundColorStyle") or {"rgbColor": fmt["backgroundColor"]}
    return {
        "repeatCell": {
            "range": _range(sheet_id, area),
            "cell": {"userEnteredFormat": {"backgroundColorStyle": colour}},
            "fields": "userEnteredFormat.backgroundColorStyle",
        }
    }


def _rows_request(sheet_id: int, start: int, end: int) -> dict[str, Any]:
    """The ``DimensionRange`` of rows ``start`` to ``end`` (end excluded)."""
    return {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": start, "endIndex": end}


def change_requests(
    sheet_id: int,
    content: TabContent,
    grid: dict[str, int],
    tab: Tab,
    looks: list[list[Look]] | None = None,
) -> list[Request]:
    """What turns the worker's tab as the read saw it into ``content``: rows moved where
    players moved, deleted and inserted, its grid resized, and the cells that differ written
    (:mod:`sheets.changes`); nothing when it already shows ``content`` (whose
    :func:`looks_of` are ``looks``, when known). The tab is written whole when most of it
    changed, or when the read did not see its cells."""
    rows, columns = grid["rowCount"], grid["columnCount"]
    if tab.looks is None:
        return [_grid_request(sheet_id, grid), *tab_cells_requests(sheet_id, content, grid)]
    old_grid = (tab.row_count, tab.column_count)
    new = looks if looks is not None else looks_of(content)
    change = compare(tab.looks, new, content.keys, old_grid, (rows, columns))
    if change.cells >= WHOLE_FROM * rows * columns:
        return [_grid_request(sheet_id, grid), *tab_cells_requests(sheet_id, content, grid)]
    requests = [
        {
            "moveDimension": {
                "source": _rows_request(sheet_id, start, end),
                "destinationIndex": destination,
            }
        }
        for start, end, destination in change.moves
    ]
    requests += [
        {"deleteDimension": {"range": _rows_request(sheet_id, start, end)}}
        for start, end in reversed(change.deleted)
    ]
    requests += [
        {"insertDimension": {"range": _rows_request(sheet_id, start, end)}}
        for start, end in change.inserted
    ]
    if (change.rows_after, tab.column_count, tab.frozen_rows) != (
        rows,
        columns,
        grid["frozenRowCount"],
    ):
        requests.append(_grid_request(sheet_id, grid))
    requests += [
        _paint_request(sheet_id, area, content.rows[r][c]) for area, (r, c) in change.paints
    ]
    requests += [_area_request(sheet_id, content, area) for area in change.areas]
    if tab.column_count != columns:
        requests += width_requests(sheet_id, content.widths, columns)
    return requests


def output_request(snapshot: Snapshot, output: str) -> Request:
    """Store what the worker's tabs show (:mod:`sheets.output`)."""
    return _metadata_request(snapshot.output_hash_metadata_id, OUTPUT_METADATA_KEY, output)


def check_plan(
    snapshot: Snapshot, errors: Tab, text: str, now: datetime, output: str | None = None
) -> Plan:
    """The write of a sync that found nothing changed: only the "Last checked" cell of the
    worker's Errors tab (:data:`sheets.tabs.CHECKED_CELL`), and the time it shows; with
    ``output``, also what the worker's tabs show (:mod:`sheets.output`)."""
    row, column = CHECKED_CELL
    cell = {
        "updateCells": {
            "start": {"sheetId": errors.sheet_id, "rowIndex": row, "columnIndex": column},
            "rows": [{"values": [cell_data(OutCell(text, header=True))]}],
            "fields": CELL_FIELDS,
        }
    }
    requests = [cell, _checked_request(snapshot, now)]
    if output is not None:
        requests.append(output_request(snapshot, output))
    if errors.column_count <= column:  # a tab written before the cell existed
        grid = {"columnCount": column + 1}
        requests.insert(
            0,
            {
                "updateSheetProperties": {
                    "properties": {"sheetId": errors.sheet_id, "gridProperties": grid},
                    "fields": "gridProperties.columnCount",
                }
            },
        )
    return Plan(requests, written=[errors.title])


def _checked_request(snapshot: Snapshot, now: datetime) -> Request:
    moment = now.astimezone(UTC).isoformat(timespec="seconds")
    return _metadata_request(snapshot.checked_metadata_id, CHECKED_METADATA_KEY, moment)


def _metadata_request(metadata_id: int | None, key: str, value: str) -> Request:
    """Create or update a spreadsheet-level developer metadata item."""
    if metadata_id is None:
        return {
            "createDeveloperMetadata": {
                "developerMetadata": {
                    "metadataKey": key,
                    "metadataValue": value,
                    "location": {"spreadsheet": True},
                    "visibility": "DOCUMENT",
                }
            }
        }
    return {
        "updateDeveloperMetadata": {
            "dataFilters": [{"developerMetadataLookup": {"metadataId": metadata_id}}],
            "developerMetadata": {"metadataValue": value},
            "fields": "metadataValue",
        }
    }


def describe_range(content: TabContent) -> str:
    """The A1 range a tab's contents cover, for logs (``Standings!A1:I11``)."""
    return f"{content.title}!A1:{column_letters(content.width - 1)}{max(len(content.rows), 1)}"
