"""The read's cells become the same rows of text and looks however Google splits them into
blocks: one block from A1 (what a read of whole tabs gives, read in one pass) or blocks
that start further in."""

from __future__ import annotations

from typing import Any

from sheets.layout import TAB_METADATA_KEY
from sheets.snapshot import Tab, parse_snapshot

BOLD = {"textFormat": {"bold": True}}
GRID = [
    [{"formattedValue": "Place", "userEnteredFormat": BOLD}, {"formattedValue": "Name"}],
    [],
    [{}, {"formattedValue": "8,5", "note": "why"}, {"formattedValue": ""}, {}],
    [{"formattedValue": " "}, {"userEnteredFormat": BOLD}],
    [{}, {"formattedValue": ""}],
    [],
]


def _tab(data: list[dict[str, Any]]) -> Tab:
    sheet = {
        "properties": {"sheetId": 7, "title": "Standings", "index": 0},
        "developerMetadata": [{"metadataKey": TAB_METADATA_KEY, "metadataValue": "standings"}],
        "data": data,
    }
    return parse_snapshot({"spreadsheetId": "s", "sheets": [sheet]}).tabs[0]


def test_one_block_from_a1_reads_as_blocks_further_in() -> None:
    whole = _tab([{"rowData": [{"values": row} if row else {} for row in GRID]}])
    split = _tab(
        [
            {"rowData": [{"values": row} for row in GRID[:2]]},
            {"startRow": 2, "startColumn": 1, "rowData": [{"values": row[1:]} for row in GRID[2:]]},
            {"startRow": 2, "rowData": [{"values": row[:1]} for row in GRID[2:]]},
        ]
    )
    assert whole.rows == split.rows == [["Place", "Name"], [], ["", "8,5"], [" "]]
    assert whole.looks == split.looks
    assert whole.looks is not None
    assert [len(row) for row in whole.looks] == [2, 0, 2, 2]
    assert whole.looks[2][1] == ("8.5", (), "why")
