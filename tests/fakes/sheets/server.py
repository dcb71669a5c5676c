"""``SheetsFake``: the Sheets API v4 and Google's OAuth token endpoint on 127.0.0.1.

The server is ``http.server.ThreadingHTTPServer`` in a background thread: gspread and
google-auth are synchronous, every request gets its own thread (so a deliberately slow answer
does not hold up the others), and no event loop is shared with the tests.

See ``tests/fakes/README.md`` for how to drive it and what it deliberately leaves out.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import socket
import string
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal, TypedDict, Unpack
from urllib.parse import parse_qs, unquote

from tests.fakes.sheets import fieldmask, spec, writes
from tests.fakes.sheets.a1 import Box, cell_name, format_range
from tests.fakes.sheets.auth import (
    READ_SCOPES,
    WRITE_SCOPES,
    AccessToken,
    OAuthError,
    ServiceAccount,
    TokenAuthority,
    insufficient_scopes,
)
from tests.fakes.sheets.errors import ApiError, invalid
from tests.fakes.sheets.model import (
    CELL_LIMIT,
    DEFAULT_COLUMNS,
    DEFAULT_ROWS,
    ROLES,
    Sheet,
    Spreadsheet,
    read_values,
    spreadsheet_json,
)
from tests.fakes.sheets.values import INPUT_OPTIONS, RENDER_OPTIONS, Value, formatted

Kind = Literal["read", "write"]
Json = dict[str, Any]

TOKEN_PATH = "/token"
API_PREFIX = "/v4/spreadsheets/"
#: The largest request body Google takes: "Request payload size exceeds the limit:
#: 10485760 bytes." (400) above it. The Sheets API usage limits page recommends at most
#: 2 MB a request; the worker keeps to that (sheets.batches), the fake refuses what Google
#: refuses.
MAX_PAYLOAD_BYTES = 10_485_760
_ID_ALPHABET = string.ascii_letters + string.digits + "-_"


class Op:
    """The API methods the fake serves, named as in Google's API reference."""

    GET = "spreadsheets.get"
    BATCH_UPDATE = "spreadsheets.batchUpdate"
    VALUES_GET = "spreadsheets.values.get"
    VALUES_BATCH_GET = "spreadsheets.values.batchGet"
    VALUES_UPDATE = "spreadsheets.values.update"
    VALUES_APPEND = "spreadsheets.values.append"
    VALUES_CLEAR = "spreadsheets.values.clear"
    VALUES_BATCH_UPDATE = "spreadsheets.values.batchUpdate"
    VALUES_BATCH_CLEAR = "spreadsheets.values.batchClear"
    METADATA_SEARCH = "spreadsheets.developerMetadata.search"
    METADATA_GET = "spreadsheets.developerMetadata.get"


READ_OPERATIONS = frozenset(
    {Op.GET, Op.VALUES_GET, Op.VALUES_BATCH_GET, Op.METADATA_SEARCH, Op.METADATA_GET}
)
"""Reads in Google's quota sense: any method that retrieves data (``get``, ``search``)."""


class ManualClock:
    """A clock for the fake that only moves when told: per-minute quotas without waiting.

    >>> clock = ManualClock()
    >>> clock.advance(61)
    >>> clock()
    1000061.0
    """

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock forward."""
        self.now += seconds


@dataclass
class ApiCall:
    """One request the fake received on the Sheets API (token requests are separate)."""

    number: int
    at: float
    method: str
    path: str
    operation: str
    kind: Kind
    spreadsheet_id: str | None
    query: dict[str, list[str]]
    body: Any = None
    user: str | None = None
    status: int = 0
    injected: bool = False
    """True when the answer was a failure injected by the test."""
    counted: bool = False
    """True when the call counts against the per-user quota."""
    size: int = 0
    """The bytes of the request's body."""

    @property
    def request_kinds(self) -> list[str]:
        """For ``spreadsheets.batchUpdate``: the kinds of its requests, in order."""
        if self.operation != Op.BATCH_UPDATE or not isinstance(self.body, dict):
            return []
        requests = self.body.get("requests") or []
        return [next(iter(item)) for item in requests if isinstance(item, dict) and item]

    @property
    def ranges(self) -> list[str]:
        """The A1 ranges a values call names (in the path, query or body)."""
        found = list(self.query.get("ranges", []))
        if isinstance(self.body, dict):
            found += [str(item.get("range")) for item in self.body.get("data") or []]
            found += [str(item) for item in self.body.get("ranges") or []]
        return found


@dataclass
class TokenRequest:
    """One request to the token endpoint."""

    at: float
    email: str | None
    status: int


@dataclass
class _Fault:
    status: int | None
    delay: float
    remaining: int | None
    until: float | None
    operation: str | None
    kind: str | None
    spreadsheet_id: str | None
    retry_after: float | None = None

    def matches(self, call: ApiCall, now: float) -> bool:
        if self.until is not None and now >= self.until:
            return False
        if self.remaining is not None and self.remaining <= 0:
            return False
        return (
            (self.operation is None or self.operation == call.operation)
            and (self.kind is None or self.kind == call.kind)
            and (self.spreadsheet_id is None or self.spreadsheet_id == call.spreadsheet_id)
        )


@dataclass
class _Hook:
    action: Callable[[SheetsFake], None]
    operation: str | None
    kind: str | None
    spreadsheet_id: str | None
    remaining: int | None

    def matches(self, call: ApiCall) -> bool:
        return (
            (self.remaining is None or self.remaining > 0)
            and (self.operation is None or self.operation == call.operation)
            and (self.kind is None or self.kind == call.kind)
            and (self.spreadsheet_id is None or self.spreadsheet_id == call.spreadsheet_id)
        )


class CallFilter(TypedDict, total=False):
    """Which calls an injected fault applies to (unset or ``None``: any)."""

    operation: str | None
    kind: str | None
    spreadsheet_id: str | None


class CallQuery(TypedDict, total=False):
    """Which recorded calls :meth:`SheetsFake.call_count` counts (unset or ``None``: any)."""

    operation: str | None
    kind: str | None
    user: str | None
    status: int | None


@dataclass(frozen=True)
class CellView:
    """What a cell holds, for assertions: entered value, rendering, format and note."""

    a1: str
    entered: Json | None
    """The ``userEnteredValue`` JSON (``{"stringValue": "=IMPORTXML(...)"}``), or None."""
    formatted: str
    """What a person sees in the cell (``""`` when empty; formulas show ``#N/A``)."""
    format: Json
    note: str | None

    @property
    def is_formula(self) -> bool:
        """True when the cell holds a formula (entered as USER_ENTERED or ``formulaValue``)."""
        return self.entered is not None and "formulaValue" in self.entered

    @property
    def is_text(self) -> bool:
        """True when the cell holds a string, whatever it looks like."""
        return self.entered is not None and "stringValue" in self.entered


@dataclass(frozen=True)
class SheetView:
    """A snapshot of one tab's properties, protections and metadata."""

    sheet_id: int
    title: str
    index: int
    row_count: int
    column_count: int
    frozen_row_count: int
    frozen_column_count: int
    hidden: bool
    protected_ranges: list[Json] = field(default_factory=list)
    developer_metadata: list[Json] = field(default_factory=list)


@dataclass
class _Reply:
    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Route:
    operation: str
    spreadsheet_id: str
    range_text: str | None = None
    metadata_id: str | None = None


def _route(method: str, path: str) -> _Route | None:
    """The API method a request path names (path segments are unquoted after splitting)."""
    if not path.startswith(API_PREFIX):
        return None
    rest = path[len(API_PREFIX) :]
    head, slash, tail = rest.partition("/")
    if not slash:
        if rest.endswith(":batchUpdate") and method == "POST":
            return _Route(Op.BATCH_UPDATE, unquote(rest[: -len(":batchUpdate")]))
        if ":" not in rest and method == "GET":
            return _Route(Op.GET, unquote(rest))
        return None
    spreadsheet_id = unquote(head)
    fixed = {
        ("GET", "values:batchGet"): Op.VALUES_BATCH_GET,
        ("POST", "values:batchUpdate"): Op.VALUES_BATCH_UPDATE,
        ("POST", "values:batchClear"): Op.VALUES_BATCH_CLEAR,
        ("POST", "developerMetadata:search"): Op.METADATA_SEARCH,
    }
    if (method, tail) in fixed:
        return _Route(fixed[(method, tail)], spreadsheet_id)
    if tail.startswith("developerMetadata/") and method == "GET":
        return _Route(Op.METADATA_GET, spreadsheet_id, metadata_id=unquote(tail.split("/", 1)[1]))
    if tail.startswith("values/"):
        encoded = tail[len("values/") :]
        if encoded.endswith(":append") and method == "POST":
            return _Route(Op.VALUES_APPEND, spreadsheet_id, unquote(encoded[: -len(":append")]))
        if encoded.endswith(":clear") and method == "POST":
            return _Route(Op.VALUES_CLEAR, spreadsheet_id, unquote(encoded[: -len(":clear")]))
        if method == "GET":
            return _Route(Op.VALUES_GET, spreadsheet_id, unquote(encoded))
        if method == "PUT":
            return _Route(Op.VALUES_UPDATE, spreadsheet_id, unquote(encoded))
    return None


def _flag(query: Mapping[str, list[str]], name: str) -> bool:
    return (query.get(name) or ["false"])[-1].lower() == "true"


def _one(query: Mapping[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return values[-1] if values else None


def _enum(value: Any, allowed: Iterable[str], default: str, parameter: str) -> str:
    if value in (None, "", "DIMENSION_UNSPECIFIED"):
        return default
    if value not in allowed:
        raise invalid(f"Invalid value at '{parameter}' (\"{value}\")")
    return str(value)


def _wants_grid_data(fields: str) -> bool:
    """Whether a ``fields`` mask asks for grid data (``includeGridData`` is then ignored)."""
    try:
        mask = fieldmask.parse(fields)
    except ValueError:
        return False
    if mask is None or "*" in mask:
        return True
    sheets = mask.get("sheets", {})
    return sheets is None or "*" in sheets or "data" in sheets


CELLS = ("sheets", "data", "rowData", "values")
"""Where the cells are in the ``Spreadsheet`` JSON (and in a field mask of it)."""


def _cells_mask(mask: fieldmask.Mask | None) -> tuple[fieldmask.Mask | None, fieldmask.Mask | None]:
    """Split a field mask of the ``Spreadsheet`` JSON into the mask of each cell (applied as
    the cells are rendered) and the mask of the rest, which keeps the cells as rendered."""
    node = mask
    for name in CELLS:
        if node is None or "*" in node or name not in node:
            return None, mask
        node = node[name]
    assert mask is not None

    def keep_cells(level: fieldmask.Mask, depth: int) -> fieldmask.Mask:
        name = CELLS[depth]
        below = level[name]
        copy = dict(level)
        copy[name] = (
            None if depth == len(CELLS) - 1 or below is None else keep_cells(below, depth + 1)
        )
        return copy

    return node, keep_cells(mask, 0)


def _quota_error(kind: str, project: str) -> ApiError:
    metric = "Read requests" if kind == "read" else "Write requests"
    return ApiError(
        429,
        f"Quota exceeded for quota metric '{metric}' and limit '{metric} per minute per user' "
        f"of service 'sheets.googleapis.com' for consumer 'project_number:{project}'.",
        details=[
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": "RATE_LIMIT_EXCEEDED",
                "domain": "googleapis.com",
                "metadata": {
                    "service": "sheets.googleapis.com",
                    "quota_metric": f"sheets.googleapis.com/{kind}_requests",
                    "quota_limit": f"{kind.capitalize()}RequestsPerMinutePerUser",
                },
            }
        ],
    )


class SheetsFake:
    """A loopback fake of the Google Sheets API v4 and of Google's OAuth token endpoint.

    Use it as a context manager (or ``start()``/``stop()``)::

        with SheetsFake() as fake:
            fake.register_service_account(email, public_key_pem, key_id)
            sheet_id = fake.create_spreadsheet("Club", {"Results": rows}, shared_with=[email])
            ...  # point the client at fake.base_url; the key file's token_uri at fake.token_uri
            assert fake.call_count(sheet_id, kind="write") == 1

    ``clock`` (seconds, default ``time.monotonic``) times quotas, fault windows and token
    expiry; pass a settable clock to test per-minute limits without waiting a minute.
    """

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, seed: int = 2026) -> None:
        self.clock = clock
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._stopping = threading.Event()
        self._spreadsheets: dict[str, Spreadsheet] = {}
        self._calls: list[ApiCall] = []
        self._token_requests: list[TokenRequest] = []
        self._faults: list[_Fault] = []
        self._hooks: list[_Hook] = []
        self._quota: dict[str, int | None] = {"read": None, "write": None}
        self._quota_window = 60.0
        self._authority = TokenAuthority(clock=lambda: self.clock())
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self.internal_errors: list[BaseException] = []
        """Exceptions the fake itself raised while answering (each answered 500)."""

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> SheetsFake:
        """Listen on 127.0.0.1 on a free port, serving from a background thread."""
        if self._server is not None:
            return self
        self._stopping.clear()
        self._server = _Server(self)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="sheets-fake",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake any deliberately slow answer and close open connections."""
        server, self._server = self._server, None
        if server is None:
            return
        self._stopping.set()
        server.shutdown()
        server.close_connections()
        server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> SheetsFake:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        """The API base to configure (``HARKNESS_SHEETS_API_BASE``): ``http://127.0.0.1:PORT``."""
        if self._server is None:
            raise RuntimeError("the Sheets fake is not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def token_uri(self) -> str:
        """The token endpoint to write as ``token_uri`` in service-account key files."""
        return self.base_url + TOKEN_PATH

    # ------------------------------------------------------------------ accounts

    def register_service_account(
        self,
        email: str,
        public_key_pem: bytes,
        key_id: str,
        *,
        project_id: str = "harkness-test",
    ) -> ServiceAccount:
        """Let a service account get tokens with JWTs signed by this key's private half."""
        with self._lock:
            return self._authority.register(email, public_key_pem, key_id, project_id)

    @property
    def issued_access_tokens(self) -> list[str]:
        """Every access token issued so far (to check that none leaks into logs)."""
        with self._lock:
            return list(self._authority.tokens)

    def expire_access_tokens(self) -> None:
        """Expire every access token issued so far: the next API call answers 401."""
        with self._lock:
            self._authority.expire_all()

    # ------------------------------------------------------------------ spreadsheets

    def _new_spreadsheet_id(self) -> str:
        while True:
            candidate = "1" + "".join(self._rng.choice(_ID_ALPHABET) for _ in range(43))
            if candidate not in self._spreadsheets:
                return candidate

    def create_spreadsheet(
        self,
        title: str = "Untitled spreadsheet",
        tabs: Mapping[str, list[list[Any]]] | Iterable[str] | None = None,
        *,
        owner: str = "td@example.org",
        shared_with: Iterable[str] = (),
        role: str = "writer",
        value_input: str = "USER_ENTERED",
        spreadsheet_id: str | None = None,
    ) -> str:
        """Create a spreadsheet owned by ``owner``; answer its id.

        ``tabs`` maps tab titles to rows of values typed into them from ``A1`` (parsed like a
        person typing, unless ``value_input="RAW"``), or is just a list of titles. Each grid is
        1000 × 26 or larger to hold its values. ``shared_with`` lists the e-mail addresses that
        get ``role`` (``reader``, ``commenter`` or ``writer``).
        """
        if value_input not in INPUT_OPTIONS:
            raise ValueError(f"value_input must be one of {INPUT_OPTIONS}")
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}")
        with self._lock:
            identifier = spreadsheet_id or self._new_spreadsheet_id()
            if identifier in self._spreadsheets:
                raise ValueError(f"spreadsheet {identifier} already exists")
            spreadsheet = Spreadsheet(
                spreadsheet_id=identifier,
                title=title,
                owner=owner,
                rng=random.Random(self._rng.random()),
            )
            contents: Mapping[str, list[list[Any]]]
            if tabs is None:
                contents = {"Sheet1": []}
            elif isinstance(tabs, Mapping):
                contents = tabs
            else:
                contents = {name: [] for name in tabs}
            for position, (tab_title, rows) in enumerate(contents.items()):
                taken = [sheet.sheet_id for sheet in spreadsheet.sheets]
                sheet_id = 0 if position == 0 else spreadsheet.new_id(taken)
                self._add_sheet(spreadsheet, sheet_id, tab_title, rows, value_input)
            if spreadsheet.total_cells() > CELL_LIMIT:
                raise ValueError(f"more than Google's {CELL_LIMIT} cells")
            for email in shared_with:
                spreadsheet.permissions[email] = role
            self._spreadsheets[identifier] = spreadsheet
            return identifier

    @classmethod
    def _add_sheet(
        cls,
        spreadsheet: Spreadsheet,
        sheet_id: int,
        title: str,
        rows: list[list[Any]],
        value_input: str,
    ) -> Sheet:
        """Append a tab big enough for ``rows`` and type them in from ``A1``."""
        sheet = Sheet(
            sheet_id=sheet_id,
            title=title,
            row_count=max(DEFAULT_ROWS, len(rows)),
            column_count=max([DEFAULT_COLUMNS, *(len(row) for row in rows)]),
        )
        spreadsheet.sheets.append(sheet)
        if rows:
            cls._write(spreadsheet, format_range(title, Box(0, 1, 0, 1)), rows, value_input)
        return sheet

    @staticmethod
    def _write(
        spreadsheet: Spreadsheet, a1_range: str, rows: list[list[Any]], value_input: str
    ) -> None:
        """Type values in as the owner would (not an API call)."""
        writes.write_values(
            spreadsheet,
            a1_range,
            rows,
            major_dimension="ROWS",
            input_option=value_input,
            user=spreadsheet.owner,
        )

    def _get(self, spreadsheet_id: str) -> Spreadsheet:
        try:
            return self._spreadsheets[spreadsheet_id]
        except KeyError:
            raise KeyError(f"no spreadsheet {spreadsheet_id} in the Sheets fake") from None

    def share(self, spreadsheet_id: str, email: str, role: str = "writer") -> None:
        """Share a spreadsheet with an e-mail address (``reader``, ``commenter``, ``writer``)."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}")
        with self._lock:
            self._get(spreadsheet_id).permissions[email] = role

    def unshare(self, spreadsheet_id: str, email: str) -> None:
        """Take an e-mail address's access away."""
        with self._lock:
            self._get(spreadsheet_id).permissions.pop(email, None)

    def add_tab(
        self,
        spreadsheet_id: str,
        title: str,
        rows: list[list[Any]] | None = None,
        *,
        value_input: str = "USER_ENTERED",
    ) -> int:
        """Add a tab as the TD would (not an API call); answer its sheet id."""
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            if spreadsheet.sheet_by_title(title) is not None:
                raise ValueError(f"a tab named {title!r} already exists")
            sheet_id = spreadsheet.new_id(s.sheet_id for s in spreadsheet.sheets)
            return self._add_sheet(spreadsheet, sheet_id, title, rows or [], value_input).sheet_id

    def set_values(
        self,
        spreadsheet_id: str,
        a1_range: str,
        rows: list[list[Any]],
        *,
        value_input: str = "USER_ENTERED",
    ) -> None:
        """Type values into a range as the owner (the TD) would: not an API call, not counted.

        ``None`` leaves a cell as it is and ``""`` empties it.
        """
        with self._lock:
            self._write(self._get(spreadsheet_id), a1_range, rows, value_input)

    def protect(
        self,
        spreadsheet_id: str,
        a1_range: str,
        *,
        editors: Iterable[str] = (),
        warning_only: bool = False,
        description: str | None = None,
    ) -> int:
        """Protect a range (or a whole tab) as the owner would; answer the protection's id.

        Without ``warning_only`` only the owner and ``editors`` may change the cells: API
        writes by anyone else answer 400 "You are trying to edit a protected cell or object".
        """
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            sheet, box = spreadsheet.resolve(a1_range)
            grid_range: Json = {"sheetId": sheet.sheet_id}
            for key, bound in (
                ("startRowIndex", box.start_row),
                ("endRowIndex", box.end_row),
                ("startColumnIndex", box.start_column),
                ("endColumnIndex", box.end_column),
            ):
                if bound is not None:
                    grid_range[key] = bound
            protected: Json = {"range": grid_range, "warningOnly": warning_only}
            if description:
                protected["description"] = description
            if not warning_only:
                protected["editors"] = {"users": list(editors)}
            replies = writes.batch_update(
                spreadsheet, [{"addProtectedRange": {"protectedRange": protected}}], None
            )
            return int(replies[0]["addProtectedRange"]["protectedRange"]["protectedRangeId"])

    # ------------------------------------------------------------------ reading back

    def values(
        self,
        spreadsheet_id: str,
        a1_range: str,
        *,
        render: str = "FORMATTED_VALUE",
        major_dimension: str = "ROWS",
    ) -> list[list[Any]]:
        """The values of a range exactly as ``values.get`` would answer them."""
        with self._lock:
            document = read_values(
                self._get(spreadsheet_id),
                a1_range,
                major_dimension=major_dimension,
                render_option=render,
            )
            return list(document.get("values", []))

    def cell(self, spreadsheet_id: str, a1_cell: str) -> CellView:
        """What one cell holds (``"Standings!B2"``)."""
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            sheet, box = spreadsheet.resolve(a1_cell)
            if not box.is_single_cell:
                raise ValueError(f"{a1_cell!r} is not a single cell")
            assert box.start_row is not None and box.start_column is not None
            found = sheet.cells.get((box.start_row, box.start_column))
            value: Value | None = found.value if found else None
            return CellView(
                a1=f"{sheet.title}!{cell_name(box.start_row, box.start_column)}",
                entered=value.extended() if value else None,
                formatted=formatted(value, found.number_pattern() if found else None)
                if value
                else "",
                format=copy.deepcopy(found.format) if found else {},
                note=found.note if found else None,
            )

    def sheet_titles(self, spreadsheet_id: str) -> list[str]:
        """The tab titles in tab order."""
        with self._lock:
            return [sheet.title for sheet in self._get(spreadsheet_id).sheets]

    def sheet(self, spreadsheet_id: str, title: str) -> SheetView:
        """A snapshot of one tab: grid size, frozen rows, protections, its metadata."""
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            sheet = spreadsheet.sheet_by_title(title)
            if sheet is None or sheet.title != title:
                raise KeyError(f"no tab {title!r} in spreadsheet {spreadsheet_id}")
            return SheetView(
                sheet_id=sheet.sheet_id,
                title=sheet.title,
                index=spreadsheet.index_of(sheet),
                row_count=sheet.row_count,
                column_count=sheet.column_count,
                frozen_row_count=sheet.frozen_row_count,
                frozen_column_count=sheet.frozen_column_count,
                hidden=sheet.hidden,
                protected_ranges=copy.deepcopy(sheet.protected_ranges),
                developer_metadata=copy.deepcopy(spreadsheet.metadata_of_sheet(sheet.sheet_id)),
            )

    def protected_ranges(self, spreadsheet_id: str, title: str | None = None) -> list[Json]:
        """The protected ranges of one tab, or of every tab."""
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            return copy.deepcopy(
                [
                    item
                    for sheet in spreadsheet.sheets
                    if title is None or sheet.title == title
                    for item in sheet.protected_ranges
                ]
            )

    def developer_metadata(self, spreadsheet_id: str, key: str | None = None) -> list[Json]:
        """Every developer metadata entry (with its location), or those with one key."""
        with self._lock:
            return copy.deepcopy(
                [
                    metadata
                    for metadata in self._get(spreadsheet_id).developer_metadata.values()
                    if key is None or metadata["metadataKey"] == key
                ]
            )

    def delete_developer_metadata(self, spreadsheet_id: str, key: str) -> None:
        """Remove every developer metadata entry with this key (a sheet as an older version
        of a program left it)."""
        with self._lock:
            entries = self._get(spreadsheet_id).developer_metadata
            for metadata_id in [i for i, m in entries.items() if m["metadataKey"] == key]:
                del entries[metadata_id]

    def recorded_requests(self, spreadsheet_id: str) -> list[Json]:
        """``batchUpdate`` requests accepted but not modelled (borders, merges, resizes...)."""
        with self._lock:
            return copy.deepcopy(self._get(spreadsheet_id).recorded_requests)

    def spreadsheet_json(self, spreadsheet_id: str, *, include_grid_data: bool = False) -> Json:
        """The spreadsheet as ``spreadsheets.get`` would answer its owner."""
        with self._lock:
            spreadsheet = self._get(spreadsheet_id)
            return spreadsheet_json(
                spreadsheet, include_grid_data=include_grid_data, user=spreadsheet.owner
            )

    # ------------------------------------------------------------------ calls and quotas

    def calls(
        self,
        spreadsheet_id: str | None = None,
        *,
        operation: str | None = None,
        kind: str | None = None,
        user: str | None = None,
        status: int | None = None,
    ) -> list[ApiCall]:
        """The API calls received so far, oldest first, optionally filtered."""
        with self._lock:
            return [
                call
                for call in self._calls
                if (spreadsheet_id is None or call.spreadsheet_id == spreadsheet_id)
                and (operation is None or call.operation == operation)
                and (kind is None or call.kind == kind)
                and (user is None or call.user == user)
                and (status is None or call.status == status)
            ]

    def call_count(self, spreadsheet_id: str | None = None, **where: Unpack[CallQuery]) -> int:
        """How many API calls match (every answer counts, failures included)."""
        return len(self.calls(spreadsheet_id, **where))

    @property
    def token_requests(self) -> list[TokenRequest]:
        """The requests to the token endpoint, oldest first."""
        with self._lock:
            return list(self._token_requests)

    def reset_calls(self) -> None:
        """Forget the recorded calls and token requests (quota windows restart too)."""
        with self._lock:
            self._calls.clear()
            self._token_requests.clear()

    def calls_per_minute(self, user: str | None = None, kind: str | None = None) -> dict[int, int]:
        """Quota-counted calls per clock minute (``int(at // 60)``), for one user or all."""
        counts: dict[int, int] = {}
        for call in self.calls(user=user, kind=kind):
            if call.counted:
                minute = int(call.at // 60)
                counts[minute] = counts.get(minute, 0) + 1
        return counts

    def max_calls_in_any_minute(
        self, user: str | None = None, kind: str | None = None, *, window: float = 60.0
    ) -> int:
        """The most quota-counted calls in any sliding 60-second (or ``window``) window."""
        times = sorted(call.at for call in self.calls(user=user, kind=kind) if call.counted)
        best, first = 0, 0
        for last, moment in enumerate(times):
            while moment - times[first] >= window:
                first += 1
            best = max(best, last - first + 1)
        return best

    def enforce_quotas(
        self,
        reads_per_minute: int | None = 60,
        writes_per_minute: int | None = 60,
        *,
        window: float = 60.0,
    ) -> None:
        """Answer 429 RESOURCE_EXHAUSTED beyond Google's per-user, per-minute request quotas.

        Google's documented defaults are 60 read and 60 write requests per minute per user
        (per project). Off until called; ``None`` turns a limit off. Windows slide over 60 s
        (``window`` shortens them, so that a test sees a "minute" pass in seconds).
        """
        with self._lock:
            self._quota = {"read": reads_per_minute, "write": writes_per_minute}
            self._quota_window = window

    # ------------------------------------------------------------------ faults and hooks

    def inject(
        self,
        *,
        status: int | None = None,
        delay: float = 0.0,
        count: int | None = None,
        seconds: float | None = None,
        operation: str | None = None,
        kind: str | None = None,
        spreadsheet_id: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        """Make matching API calls fail with ``status`` and/or answer after ``delay`` seconds.

        Applies to the next ``count`` matching calls, or to every matching call for
        ``seconds`` from now (on the fake's clock), or both. A slow call is still carried
        out after its delay, as a real server would after a client gave up waiting. With
        ``retry_after`` the failure carries a ``Retry-After`` header of that many seconds.
        """
        if count is None and seconds is None:
            raise ValueError("say how many calls (count) or for how long (seconds)")
        with self._lock:
            self._faults.append(
                _Fault(
                    status=status,
                    delay=delay,
                    remaining=count,
                    until=None if seconds is None else self.clock() + seconds,
                    operation=operation,
                    kind=kind,
                    spreadsheet_id=spreadsheet_id,
                    retry_after=retry_after,
                )
            )

    def fail_next(self, count: int = 1, status: int = 503, **where: Unpack[CallFilter]) -> None:
        """Answer the next ``count`` matching calls with ``status`` (429, 500, 503...)."""
        self.inject(status=status, count=count, **where)

    def fail_for(self, seconds: float, status: int = 503, **where: Unpack[CallFilter]) -> None:
        """Answer every matching call with ``status`` for the next ``seconds``."""
        self.inject(status=status, seconds=seconds, **where)

    def slow_next(self, count: int = 1, delay: float = 5.0, **where: Unpack[CallFilter]) -> None:
        """Answer the next ``count`` matching calls only after ``delay`` seconds."""
        self.inject(delay=delay, count=count, **where)

    def clear_faults(self) -> None:
        """Remove every injected failure and delay."""
        with self._lock:
            self._faults.clear()

    def before_call(
        self,
        action: Callable[[SheetsFake], None],
        *,
        operation: str | None = None,
        kind: str | None = None,
        spreadsheet_id: str | None = None,
        times: int | None = 1,
    ) -> None:
        """Run ``action(fake)`` just before matching calls are carried out.

        For example a TD edit that lands between the worker's read and its write::

            fake.before_call(lambda f: f.set_values(sid, "Results!C3", [["1-0"]]), kind="write")
        """
        with self._lock:
            self._hooks.append(_Hook(action, operation, kind, spreadsheet_id, times))

    # ------------------------------------------------------------------ HTTP handling

    def _handle(
        self, method: str, raw_path: str, headers: Mapping[str, str], body: bytes
    ) -> _Reply:
        path, _, query_string = raw_path.partition("?")
        query = parse_qs(query_string, keep_blank_values=True)
        if path == TOKEN_PATH:
            return self._token(method, body)
        route = _route(method, path)
        if route is None:
            return _Reply(
                400,
                invalid(f"Harkness Sheets fake: no API method at {method} {path}").body(),
            )
        operation = route.operation
        with self._lock:
            call = ApiCall(
                number=len(self._calls) + 1,
                at=self.clock(),
                method=method,
                path=path,
                operation=operation,
                kind="read" if operation in READ_OPERATIONS else "write",
                spreadsheet_id=route.spreadsheet_id,
                query=query,
            )
            self._calls.append(call)
            call.size = len(body)
            if len(body) > MAX_PAYLOAD_BYTES:
                message = f"Request payload size exceeds the limit: {MAX_PAYLOAD_BYTES} bytes."
                return self._answer(call, invalid(message))
            try:
                call.body = json.loads(body) if body else None
            except ValueError:
                return self._answer(call, invalid("Invalid JSON payload received."))
            try:
                token = self._authority.authenticate(headers.get("authorization"))
            except ApiError as error:
                reply = self._answer(call, error)
                reply.headers["WWW-Authenticate"] = 'Bearer realm="https://accounts.google.com/"'
                return reply
            call.user = token.email
            allowed = READ_SCOPES if call.kind == "read" else WRITE_SCOPES
            if not token.scopes & allowed:
                return self._answer(call, insufficient_scopes())
            refused = spec.refusal(operation, query, call.body)
            if refused is not None:
                return self._answer(call, refused)
            fault = self._take_fault(call)
        if fault is not None and fault.delay:
            self._stopping.wait(fault.delay)
        with self._lock:
            if self._stopping.is_set():
                return self._answer(call, ApiError(503))
            if fault is not None and fault.status is not None:
                call.injected = True
                reply = self._answer(call, self._injected_error(fault.status, call, token))
                if fault.retry_after is not None:
                    reply.headers["Retry-After"] = f"{fault.retry_after:g}"
                return reply
            limit = self._quota[call.kind]
            if limit is not None and self._recent(call) >= limit:
                return self._answer(call, _quota_error(call.kind, self._project(token)))
            call.counted = True
            try:
                for hook in [hook for hook in self._hooks if hook.matches(call)]:
                    if hook.remaining is not None:
                        hook.remaining -= 1
                    hook.action(self)
                result = self._execute(route, call)
            except ApiError as error:
                return self._answer(call, error)
            except writes.RequestProblem as problem:
                return self._answer(call, invalid(str(problem)))
            except Exception as crash:  # a bug in the fake or in a test's hook
                self.internal_errors.append(crash)
                return self._answer(call, ApiError(500, f"Harkness Sheets fake crashed: {crash!r}"))
            fields = _one(query, "fields")
            if fields and route.operation != Op.GET:  # a read masks its answer itself
                try:
                    result = fieldmask.select(result, fieldmask.parse(fields))
                except ValueError as problem:
                    return self._answer(call, invalid(f"Invalid field selection: {problem}"))
            call.status = 200
            return _Reply(200, result)

    def _answer(self, call: ApiCall, error: ApiError) -> _Reply:
        call.status = error.code
        return _Reply(error.code, error.body())

    def _take_fault(self, call: ApiCall) -> _Fault | None:
        now = self.clock()
        self._faults = [
            fault
            for fault in self._faults
            if (fault.until is None or now < fault.until)
            and (fault.remaining is None or fault.remaining > 0)
        ]
        for fault in self._faults:
            if fault.matches(call, now):
                if fault.remaining is not None:
                    fault.remaining -= 1
                return fault
        return None

    def _injected_error(self, status: int, call: ApiCall, token: AccessToken) -> ApiError:
        if status == 429:
            return _quota_error(call.kind, self._project(token))
        return ApiError(status)

    def _project(self, token: AccessToken) -> str:
        account = self._authority.accounts.get(token.email.lower())
        return account.project_id if account else "unknown"

    def _recent(self, call: ApiCall) -> int:
        return sum(
            1
            for other in self._calls
            if other.counted
            and other.user == call.user
            and other.kind == call.kind
            and other.at > call.at - self._quota_window
        )

    def _token(self, method: str, body: bytes) -> _Reply:
        with self._lock:
            request = TokenRequest(at=self.clock(), email=None, status=0)
            self._token_requests.append(request)
            if method != "POST":
                request.status = 405
                return _Reply(405, {"error": "invalid_request", "error_description": "POST only"})
            form = {
                key: values[-1] for key, values in parse_qs(body.decode("utf-8", "replace")).items()
            }
            try:
                answer = self._authority.exchange(form, self.token_uri)
            except OAuthError as error:
                request.status = error.status
                return _Reply(error.status, error.body())
            request.email = self._authority.tokens[answer["access_token"]].email
            request.status = 200
            return _Reply(200, answer)

    def _execute(self, route: _Route, call: ApiCall) -> Any:
        """Carry out an authenticated API call; writes apply to a copy kept only on success."""
        original = self._spreadsheets.get(route.spreadsheet_id)
        if original is None:
            raise ApiError(404)
        role = original.role_of(call.user)
        if role is None or (call.kind == "write" and role not in ("writer", "owner")):
            raise ApiError(403)
        if call.kind == "read":
            return self._read(original, route, call)
        working = original.trial()
        result = self._write_call(working, route, call)
        working.settle()
        self._spreadsheets[route.spreadsheet_id] = working
        return result

    def _read(self, spreadsheet: Spreadsheet, route: _Route, call: ApiCall) -> Any:
        query = call.query
        if route.operation == Op.GET:
            fields = _one(query, "fields")
            try:
                mask = fieldmask.parse(fields) if fields else None
            except ValueError as problem:
                raise invalid(f"Invalid field selection: {problem}") from None
            cells, rest = _cells_mask(mask)
            document = spreadsheet_json(
                spreadsheet,
                ranges=query.get("ranges"),
                include_grid_data=_wants_grid_data(fields)
                if fields
                else _flag(query, "includeGridData"),
                user=call.user,
                cell_mask=cells,
            )
            return fieldmask.select(document, rest)
        if route.operation in (Op.VALUES_GET, Op.VALUES_BATCH_GET):
            major = _enum(
                _one(query, "majorDimension"), ("ROWS", "COLUMNS"), "ROWS", "major_dimension"
            )
            render = _enum(
                _one(query, "valueRenderOption"),
                RENDER_OPTIONS,
                "FORMATTED_VALUE",
                "value_render_option",
            )
            if route.operation == Op.VALUES_GET:
                assert route.range_text is not None
                return read_values(
                    spreadsheet, route.range_text, major_dimension=major, render_option=render
                )
            return {
                "spreadsheetId": spreadsheet.spreadsheet_id,
                "valueRanges": [
                    read_values(spreadsheet, text, major_dimension=major, render_option=render)
                    for text in query.get("ranges", [])
                ],
            }
        if route.operation == Op.METADATA_SEARCH:
            body = call.body if isinstance(call.body, dict) else {}
            return writes.search_metadata(spreadsheet, list(body.get("dataFilters") or []))
        assert route.operation == Op.METADATA_GET
        try:
            return spreadsheet.developer_metadata[int(route.metadata_id or "")]
        except (KeyError, ValueError):
            raise ApiError(404) from None

    def _write_call(self, spreadsheet: Spreadsheet, route: _Route, call: ApiCall) -> Any:
        query, user = call.query, call.user
        body = call.body if isinstance(call.body, dict) else {}
        if route.operation == Op.BATCH_UPDATE:
            replies = writes.batch_update(spreadsheet, body.get("requests"), user)
            answer: Json = {"spreadsheetId": spreadsheet.spreadsheet_id, "replies": replies}
            if body.get("includeSpreadsheetInResponse"):
                answer["updatedSpreadsheet"] = spreadsheet_json(
                    spreadsheet,
                    ranges=body.get("responseRanges") or None,
                    include_grid_data=bool(body.get("responseIncludeGridData")),
                    user=user,
                )
            return answer
        render = _enum(
            _one(query, "responseValueRenderOption") or body.get("responseValueRenderOption"),
            RENDER_OPTIONS,
            "FORMATTED_VALUE",
            "response_value_render_option",
        )
        include = _flag(query, "includeValuesInResponse") or bool(
            body.get("includeValuesInResponse")
        )
        if route.operation in (Op.VALUES_UPDATE, Op.VALUES_APPEND):
            assert route.range_text is not None
            major = _enum(
                body.get("majorDimension"), ("ROWS", "COLUMNS"), "ROWS", "major_dimension"
            )
            if route.operation == Op.VALUES_UPDATE:
                return writes.write_values(
                    spreadsheet,
                    route.range_text,
                    body.get("values"),
                    major_dimension=major,
                    input_option=_one(query, "valueInputOption"),
                    user=user,
                    include_values=include,
                    response_render=render,
                )
            return writes.append_values(
                spreadsheet,
                route.range_text,
                body.get("values"),
                major_dimension=major,
                input_option=_one(query, "valueInputOption"),
                insert_option=_one(query, "insertDataOption"),
                user=user,
                include_values=include,
                response_render=render,
            )
        if route.operation == Op.VALUES_CLEAR:
            assert route.range_text is not None
            cleared = writes.clear_values(spreadsheet, route.range_text, user=user)
            return {"spreadsheetId": spreadsheet.spreadsheet_id, "clearedRange": cleared}
        if route.operation == Op.VALUES_BATCH_CLEAR:
            return {
                "spreadsheetId": spreadsheet.spreadsheet_id,
                "clearedRanges": [
                    writes.clear_values(spreadsheet, str(text), user=user)
                    for text in body.get("ranges") or []
                ],
            }
        assert route.operation == Op.VALUES_BATCH_UPDATE
        option = body.get("valueInputOption")
        responses = []
        for index, item in enumerate(body.get("data") or []):
            if not isinstance(item, dict) or not item.get("range"):
                raise invalid(f"Invalid data[{index}]: a range is required")
            responses.append(
                writes.write_values(
                    spreadsheet,
                    str(item["range"]),
                    item.get("values"),
                    major_dimension=_enum(
                        item.get("majorDimension"), ("ROWS", "COLUMNS"), "ROWS", "major_dimension"
                    ),
                    input_option=option,
                    user=user,
                    include_values=include,
                    response_render=render,
                )
            )
        writes.check_input_option(option)
        return {
            "spreadsheetId": spreadsheet.spreadsheet_id,
            "totalUpdatedRows": sum(item.get("updatedRows", 0) for item in responses),
            "totalUpdatedColumns": sum(item.get("updatedColumns", 0) for item in responses),
            "totalUpdatedCells": sum(item.get("updatedCells", 0) for item in responses),
            "totalUpdatedSheets": len(
                {
                    item["updatedRange"].rpartition("!")[0]
                    for item in responses
                    if "updatedCells" in item
                }
            ),
            "responses": responses,
        }


class _Handler(BaseHTTPRequestHandler):
    """Hands each HTTP request to the fake and writes its answer (HTTP/1.1, keep-alive)."""

    protocol_version = "HTTP/1.1"
    timeout = 30
    server: _Server

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, add=False)

    def log_message(self, format: str, *args: Any) -> None:
        """Stay quiet: the fake records calls itself."""

    def _serve(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        headers = {key.lower(): value for key, value in self.headers.items()}
        reply = self.server.fake._handle(self.command, self.path, headers, body)
        payload = json.dumps(reply.body).encode("utf-8")
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", "application/json; charset=UTF-8")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
        except OSError:
            self.close_connection = True

    do_GET = _serve
    do_POST = _serve
    do_PUT = _serve
    do_PATCH = _serve
    do_DELETE = _serve


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self, fake: SheetsFake) -> None:
        self.fake = fake
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Handler)

    def track(self, connection: socket.socket, *, add: bool) -> None:
        with self._connections_lock:
            if add:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def close_connections(self) -> None:
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)


__all__ = [
    "ApiCall",
    "CellView",
    "ManualClock",
    "Op",
    "SheetView",
    "SheetsFake",
    "TokenRequest",
]
