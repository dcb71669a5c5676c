"""A write split into ``batchUpdate`` requests Google accepts, the Standings tab never half
written.

Google's Sheets API usage limits recommend at most 2 MB a request (and refuse about ten);
a section's Breakdown tab alone passes 2 MB from about 360 players (5.5 KB a player at 9
rounds). :func:`batches` keeps a write that fits in one request as one request (every
section up to 300 players: one read and one write per sync). A larger write becomes as few
requests of at most :data:`MAX_REQUEST_BYTES` as the cells allow, in this order:

1. the settings tab, a staging tab left over, then the Errors and Breakdown tabs, a tab
   too large for one request written in consecutive bands of rows (each ``updateCells``
   over its band of the grid);
2. the Standings tab last, with the input hash and the time of the check. When the
   Standings tab with them fits in one request it is that request, so a reader sees the
   old standings or the new, never a mix. When it does not (some 1,500 players and more),
   the new standings are written to a staging tab (marked ``standings-staging``, protected
   like the others) in as many requests as needed, and one last request deletes the old
   Standings tab and gives the staging tab its name, place and mark.

The input hash is written in the last request only: a sync stopped half-way (Google
unavailable for longer than the retries) leaves the hash of the previous input, so the next
sync writes everything again, and deletes the staging tab it may have left.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from sheets.layout import TAB_METADATA_KEY, Role
from sheets.write import (
    STAGING_MARKER,
    Plan,
    Request,
    TabWrite,
    add_sheet_request,
    mark_request,
    protect_request,
    tab_cells_requests,
)

MAX_REQUEST_BYTES = 2_000_000
"""The largest ``batchUpdate`` body the worker sends, in bytes: Google's recommended
maximum payload (Sheets API usage limits: "we recommend a 2 MB maximum payload")."""
#: ``{"requests": []}`` around the requests, and the ``, `` between two of them.
_ENVELOPE = len(json.dumps({"requests": []}))
_SEPARATOR = 2
STAGING_SUFFIX = " (Harkness is writing)"
"""The title of the staging tab is the Standings tab's followed by this."""


def size(request: Request) -> int:
    """The bytes ``request`` takes in a ``batchUpdate`` body (JSON as gspread sends it)."""
    return len(json.dumps(request).encode("utf-8"))


def body_size(requests: Iterable[Request]) -> int:
    """The bytes of the ``batchUpdate`` body holding ``requests``."""
    return len(json.dumps({"requests": list(requests)}).encode("utf-8"))


def batches(plan: Plan, limit: int = MAX_REQUEST_BYTES) -> list[list[Request]]:
    """The requests of ``plan`` as consecutive ``batchUpdate`` bodies of at most ``limit``
    bytes each (one when everything fits), in the order of this module's docstring."""
    if body_size(plan.requests) <= limit:
        return [plan.requests]
    standings = next((w for w in plan.tabs if w.content.role is Role.STANDINGS), None)
    first: list[Request] = list(plan.setup)
    for write in plan.tabs:
        if write is not standings:
            first += write.requests
    last = [*(standings.requests if standings else []), *plan.last]
    if body_size(last) <= limit:
        return [*_pack(first, limit), last]
    assert standings is not None  # plan.last alone is two small requests
    staging, final = _staging(plan, standings)
    return [*_pack([*first, *staging], limit), [*final, *plan.last]]


def _staging(plan: Plan, standings: TabWrite) -> tuple[list[Request], list[Request]]:
    """The requests that write the Standings into a staging tab, and the one request's
    worth that puts it in the old tab's place."""
    sheet_id = plan.spare_sheet_id
    title = standings.content.title
    grid = standings.grid
    write = [
        add_sheet_request(sheet_id, title + STAGING_SUFFIX, grid),
        mark_request(sheet_id, STAGING_MARKER),
        protect_request(sheet_id),
        *tab_cells_requests(sheet_id, standings.content, grid),
    ]
    old = standings.existing
    properties: dict[str, Any] = {"sheetId": sheet_id, "title": title}
    fields = "title"
    final: list[Request] = []
    if old is not None:
        final.append({"deleteSheet": {"sheetId": old.sheet_id}})
        properties["index"] = old.index
        fields += ",index"
    final += [
        {"updateSheetProperties": {"properties": properties, "fields": fields}},
        {
            "updateDeveloperMetadata": {
                "dataFilters": [
                    {
                        "developerMetadataLookup": {
                            "metadataKey": TAB_METADATA_KEY,
                            "metadataValue": STAGING_MARKER,
                            "metadataLocation": {"sheetId": sheet_id},
                        }
                    }
                ],
                "developerMetadata": {"metadataValue": Role.STANDINGS.value},
                "fields": "metadataValue",
            }
        },
    ]
    return write, final


def _pack(requests: list[Request], limit: int) -> list[list[Request]]:
    """The requests, in order, in as few bodies of at most ``limit`` bytes as they fit: an
    ``updateCells`` that does not fit where it comes is cut into bands of rows, the first
    band filling what is left of the body."""
    result: list[list[Request]] = []
    current: list[Request] = []
    used = _ENVELOPE
    pending = list(reversed(requests))
    while pending:
        request = pending.pop()
        room = limit - used - (_SEPARATOR if current else 0)
        if _fits(request, room):
            current.append(request)
            used += size(request) + (_SEPARATOR if len(current) > 1 else 0)
            continue
        cut = _cut(request, room) if "updateCells" in request else None
        if cut is not None:
            head, rest = cut
            current.append(head)
            pending.append(rest)
        elif not current:
            raise ValueError(f"a {next(iter(request))} request alone is over {limit:,} bytes")
        else:
            pending.append(request)
        result.append(current)
        current, used = [], _ENVELOPE
    if current:
        result.append(current)
    return result


def _fits(request: Request, room: int) -> bool:
    """Whether ``request`` takes at most ``room`` bytes (a large ``updateCells`` is measured
    row by row, and only until it is too large)."""
    update = request.get("updateCells")
    if update is None or len(update.get("rows", ())) < 50:
        return size(request) <= room
    used = size(_band(update, 0, 0))
    for row in update["rows"]:
        used += size(row) + _SEPARATOR
        if used > room:
            return False
    return True


def _cut(request: Request, room: int) -> tuple[Request, Request] | None:
    """The first rows of an ``updateCells`` over a range that fit in ``room`` bytes, and the
    same request for the rest of the range (so cells below the rows are still cleared); None
    if not even one row fits."""
    update = request["updateCells"]
    if "range" not in update:
        return None
    rows = update["rows"]
    used = size(_band(update, 0, 0)) + 16  # room for the band's larger row indexes
    end = 0
    while end < len(rows) - 1:
        width = size(rows[end]) + (_SEPARATOR if end else 0)
        if used + width > room:
            break
        used += width
        end += 1
    if end == 0:
        return None
    top = update["range"]["startRowIndex"]
    rest_range = dict(update["range"], startRowIndex=top + end)
    rest = {"updateCells": {"range": rest_range, "rows": rows[end:], "fields": update["fields"]}}
    return _band(update, 0, end), rest


def _band(update: dict[str, Any], start: int, end: int) -> Request:
    """The ``updateCells`` of rows ``start`` to ``end`` (0-based, end excluded) of ``update``
    over exactly those rows of its range."""
    area = dict(update["range"])
    top = area["startRowIndex"]
    area["startRowIndex"], area["endRowIndex"] = top + start, top + end
    rows = update["rows"][start:end]
    return {"updateCells": {"range": area, "rows": rows, "fields": update["fields"]}}
