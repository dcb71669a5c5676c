"""The one read of a sync: every tab's values and properties, in a single API call.

A sync must know, before it writes, the values of the settings and input tabs *and* which
tabs exist, which of them are the worker's own (developer metadata), how they are protected,
and the hash of the input last synced (spreadsheet-level developer metadata). One
``spreadsheets.get`` with a field mask that names grid values answers all of it.
``values.batchGet`` cannot: it returns no tab properties or metadata, fails on a range whose
tab does not exist, and the settings tab decides the input tabs' names, so values and
metadata would take two calls, or three.

The mask asks for each cell's ``formattedValue`` (what the TD sees), format and note: the
worker compares its own tabs, as they are, with what it is about to write, and writes only
the cells that differ (:mod:`sheets.changes`), so a TD's edit inside them (a value, a
colour, a note) is found and replaced. Google applies one field mask to every tab, so the
formats and notes of the TD's tabs come too (few, as a rule; they are not kept). Quotas count
requests, not bytes, and the bench (``tests/bench/sheets.py``) measures the bytes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sheets.addon_keys import commitments_in
from sheets.layout import (
    CHECKED_METADATA_KEY,
    INPUT_HASH_METADATA_KEY,
    OUTPUT_METADATA_KEY,
    TAB_METADATA_KEY,
    Role,
)
from sheets.looks import BLANK, Look, canonical_format, text_of, trimmed
from sheets.read import Rows

READ_FIELDS = (
    "spreadsheetId,properties(title,timeZone),"
    "developerMetadata(metadataId,metadataKey,metadataValue,location(locationType)),"
    "sheets("
    "properties(sheetId,title,index,sheetType,gridProperties(rowCount,columnCount,"
    "frozenRowCount)),"
    "developerMetadata(metadataId,metadataKey,metadataValue),"
    "protectedRanges(protectedRangeId,range,warningOnly,description),"
    "data(startRow,startColumn,rowData(values(formattedValue,userEnteredFormat,note))))"
)
"""The field mask of the read: tab properties, metadata, protections, and each cell's text,
format and note."""

READ_PARAMS = {"includeGridData": "true", "fields": READ_FIELDS}
"""Query parameters of the read (``includeGridData`` is ignored by Google when ``fields``
names grid data, and is what older proxies and the test fake look at)."""


@dataclass(frozen=True, slots=True)
class Tab:
    """One tab as the read saw it."""

    sheet_id: int
    title: str
    index: int
    row_count: int
    column_count: int
    frozen_rows: int
    role: Role | None
    """Which of the worker's tabs this is (from its developer metadata), None if not one."""
    protected: bool
    """True when a warning-only protection covers the whole tab."""
    rows: list[list[str]]
    marker: str | None = None
    """The tab's ``harkness.tab`` developer metadata as written, whatever it says (the Discord
    bot marks its own tabs with values that are not a :class:`Role`)."""
    looks: list[list[Look]] | None = None
    """How each cell of one of the worker's tabs looks, row by row from A1, down to the last
    cell with a text, a format or a note (:mod:`sheets.looks`); None for other tabs."""


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A spreadsheet as one read saw it."""

    spreadsheet_id: str
    title: str
    tabs: tuple[Tab, ...]
    input_hash: str | None
    """The hash of the input the last sync processed, if any."""
    input_hash_metadata_id: int | None
    time_zone: str = ""
    """The spreadsheet's time zone as Google names it (``Europe/Paris``), for the times the
    worker writes; empty if Google did not say."""
    checked_at: datetime | None = None
    """When a sync last found nothing to write (see :data:`CHECKED_METADATA_KEY`)."""
    checked_metadata_id: int | None = None
    output_hash: str | None = None
    """What the worker's tabs showed when it last wrote or looked (:mod:`sheets.output`)."""
    output_hash_metadata_id: int | None = None
    addon_keys: frozenset[str] = frozenset()
    """The hashes of the add-on's keys the sheet vouches for (:mod:`sheets.addon_keys`)."""

    def tab(self, title: str) -> Tab | None:
        """The tab with this title (exact, then ignoring case, as Sheets matches titles)."""
        exact = next((t for t in self.tabs if t.title == title), None)
        if exact is not None:
            return exact
        folded = title.casefold()
        return next((t for t in self.tabs if t.title.casefold() == folded), None)

    @property
    def values(self) -> dict[str, Rows]:
        """Every tab's values, by title."""
        return {t.title: t.rows for t in self.tabs}

    @property
    def sheet_ids(self) -> set[int]:
        return {t.sheet_id for t in self.tabs}


def _from_a1(data: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]] | None:
    """The cells of ``GridData`` row by row, when it is one block from A1 (what a read of
    whole tabs gives); None otherwise."""
    if len(data) != 1 or data[0].get("startRow") or data[0].get("startColumn"):
        return None
    return [row.get("values") or [] for row in data[0].get("rowData") or []]


def _rows(data: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """The text of a tab's cells from A1, from ``GridData`` (which may start further in)."""
    cells = _from_a1(data)
    if cells is not None:  # the usual case, in one pass
        lines: list[list[str]] = []
        for line in cells:
            texts = [
                "" if (text := cell.get("formattedValue")) in (None, "") else str(text)
                for cell in line
            ]
            while texts and not texts[-1]:
                texts.pop()
            lines.append(texts)
        while lines and not lines[-1]:
            lines.pop()
        return lines
    grid: dict[tuple[int, int], str] = {}
    for block in data:
        top = int(block.get("startRow", 0))
        left = int(block.get("startColumn", 0))
        for r, row in enumerate(block.get("rowData") or []):
            for c, cell in enumerate(row.get("values") or []):
                text = cell.get("formattedValue")
                if text not in (None, ""):
                    grid[(top + r, left + c)] = str(text)
    if not grid:
        return []
    height = max(r for r, _ in grid) + 1
    rows: list[list[str]] = [[] for _ in range(height)]
    for (r, c), text in sorted(grid.items()):
        row = rows[r]
        row.extend([""] * (c - len(row)))
        row.append(text)
    return rows


def _look(cell: Mapping[str, Any]) -> Look:
    if not cell:
        return BLANK
    text = cell.get("formattedValue")
    return (
        text_of(str(text)) if text not in (None, "") else "",
        canonical_format(cell.get("userEnteredFormat")),
        str(cell.get("note") or ""),
    )


def _looks(data: Sequence[Mapping[str, Any]]) -> list[list[Look]]:
    """Each cell's look, from ``GridData`` (which may start further in), from A1."""
    cells = _from_a1(data)
    if cells is not None:  # the usual case, in one pass
        lines = [trimmed([_look(cell) for cell in line]) for line in cells]
        while lines and not lines[-1]:
            lines.pop()
        return lines
    rows: dict[int, list[Look]] = {}
    for block in data:
        top = int(block.get("startRow", 0))
        left = int(block.get("startColumn", 0))
        for r, row in enumerate(block.get("rowData") or []):
            line = rows.setdefault(top + r, [])
            for c, cell in enumerate(row.get("values") or []):
                look = _look(cell)
                if look != BLANK:
                    line.extend([BLANK] * (left + c + 1 - len(line)))
                    line[left + c] = look
    height = max((r + 1 for r, line in rows.items() if line), default=0)
    return [rows.get(r, []) for r in range(height)]


def _role(metadata: Sequence[Mapping[str, Any]]) -> Role | None:
    for item in metadata:
        if item.get("metadataKey") == TAB_METADATA_KEY:
            try:
                return Role(item.get("metadataValue"))
            except ValueError:
                continue
    return None


def _marker(metadata: Sequence[Mapping[str, Any]]) -> str | None:
    for item in metadata:
        if item.get("metadataKey") == TAB_METADATA_KEY:
            return str(item.get("metadataValue") or "")
    return None


def _protected(sheet_id: int, ranges: Sequence[Mapping[str, Any]]) -> bool:
    for item in ranges:
        grid = item.get("range") or {}
        whole = set(grid) <= {"sheetId"} and int(grid.get("sheetId", 0)) == sheet_id
        if whole and item.get("warningOnly"):
            return True
    return False


def parse_snapshot(document: Mapping[str, Any]) -> Snapshot:
    """Read the answer of ``spreadsheets.get`` (with :data:`READ_FIELDS`)."""
    tabs = []
    for sheet in document.get("sheets") or []:
        properties = sheet.get("properties") or {}
        if properties.get("sheetType", "GRID") != "GRID":
            continue  # charts and data-source sheets hold no cells
        grid = properties.get("gridProperties") or {}
        sheet_id = int(properties.get("sheetId", 0))
        role = _role(sheet.get("developerMetadata") or [])
        tabs.append(
            Tab(
                sheet_id=sheet_id,
                title=str(properties.get("title", "")),
                index=int(properties.get("index", 0)),
                row_count=int(grid.get("rowCount", 0)),
                column_count=int(grid.get("columnCount", 0)),
                frozen_rows=int(grid.get("frozenRowCount", 0)),
                role=role,
                protected=_protected(sheet_id, sheet.get("protectedRanges") or []),
                rows=_rows(sheet.get("data") or []),
                marker=_marker(sheet.get("developerMetadata") or []),
                looks=_looks(sheet.get("data") or []) if role is not None else None,
            )
        )
    input_hash: str | None = None
    hash_id: int | None = None
    checked_at: datetime | None = None
    checked_id: int | None = None
    output_hash: str | None = None
    output_id: int | None = None
    for item in document.get("developerMetadata") or []:
        key = item.get("metadataKey")
        if key == OUTPUT_METADATA_KEY and output_id is None:
            output_hash = str(item.get("metadataValue") or "")
            output_id = int(item["metadataId"])
        if key == INPUT_HASH_METADATA_KEY and hash_id is None:
            input_hash = item.get("metadataValue")
            hash_id = int(item["metadataId"])
        elif key == CHECKED_METADATA_KEY and checked_id is None:
            checked_id = int(item["metadataId"])
            checked_at = _moment(str(item.get("metadataValue") or ""))
    properties = document.get("properties") or {}
    return Snapshot(
        spreadsheet_id=str(document.get("spreadsheetId", "")),
        title=str(properties.get("title", "")),
        tabs=tuple(tabs),
        input_hash=input_hash,
        input_hash_metadata_id=hash_id,
        time_zone=str(properties.get("timeZone") or ""),
        checked_at=checked_at,
        checked_metadata_id=checked_id,
        output_hash=output_hash,
        output_hash_metadata_id=output_id,
        addon_keys=commitments_in(document.get("developerMetadata") or []),
    )


def _moment(text: str) -> datetime | None:
    """An aware UTC time written by :func:`datetime.isoformat`, or None if it is not one
    (metadata is editable by anyone with edit access)."""
    try:
        moment = datetime.fromisoformat(text[:40])
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
